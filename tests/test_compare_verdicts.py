"""The first screen of `amunre compare` in words: a verdict per family with the row's own
numbers, "no detectable difference" with a power figure, `--target-difference`, the power
formula against a direct computation, Ludii's Balance and OutcomeUniformity on constructed
outcomes and against the games' records, the rule differences by their modules' words, and a
sweep's slope intervals and paired bands."""

from __future__ import annotations

import csv
import html
import io
import json
import math
import random
from collections import Counter

import attrs
import jsonschema
import pytest
from helpers import run_cli

from amunre.compare import outcomes, power, stats, verdicts
from amunre.loader.resources import load_schema

#: A house rule that changes nothing but its name.
DO_NOTHING = """extends = "classic2003"

[edition]
id = "same-rules"
name = "classic2003 under another name"
summary = "Changes no rule."
"""


def _digits(row: dict) -> int:
    means = [abs(v["mean"]) for v in row["values"] if v is not None and v["mean"] is not None]
    return 1 if means and max(means) >= 100 else 2


def _amount(row: dict, x: float) -> str:
    """A difference as the sentence writes it, from the JSON's row alone."""
    if row["kind"] in ("rate", "share"):
        text = f"{100 * x:+.1f}"
        return (text if float(text) != 0 else "0.0") + " pt"
    text = f"{x:+.{_digits(row)}f}"
    return text if float(text) != 0 else f"{0:.{_digits(row)}f}"


def _compare(capsys, *argv):
    code, out, err = run_cli(capsys, "compare", *argv, "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    return doc


def _check_sentences_are_the_rows(doc: dict) -> None:
    rows = {row["key"]: row for row in doc["rows"]}
    columns = len(doc["columns"])
    # a sentence per family and column after the first, where the family has a compared row
    assert {(v["column"], v["family"]) for v in doc["verdicts"]} <= {
        (c, f) for c in range(1, columns) for f in verdicts.FAMILIES}
    for v in doc["verdicts"]:
        row = rows[v["key"]]
        versus = row["versus_first"][v["column"]]
        assert (v["diff"], v["low"], v["high"]) == (versus["diff"], versus["low"], versus["high"])
        assert v["detected"] == versus["significant"]
        assert f"95% {_amount(row, versus['low'])} to {_amount(row, versus['high'])}" in v["sentence"], v
        assert row["label"] in v["sentence"]
        assert doc["columns"][v["column"]]["label"] in v["sentence"]


def test_a_do_nothing_rule_says_no_detectable_difference_with_a_power_figure(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same.toml").write_text(DO_NOTHING, encoding="utf-8")
    doc = _compare(capsys, "classic2003", "same.toml", "--games", "12", "--agents", "random")
    found = doc["verdicts"]
    assert {v["family"] for v in found} == set(verdicts.FAMILIES)
    alpha = 0.05 / sum(1 for row in doc["rows"] for p in row["versus_first"][1:] if p is not None)
    for v in found:
        assert not v["detected"] and v["sentence"].startswith("No detectable difference under same-rules")
        assert v["diff"] == 0 and v["alpha"] == pytest.approx(alpha)
        # the very same games: sized on the columns' own spread, and said so
        assert v["basis"] == "unpaired" and "every game alike" in v["sentence"]
        assert v["detectable"] > 0 and v["detectable"] == pytest.approx(power.detectable(v["sd"], 12, alpha))
        assert "these 12 games would find ±" in v["sentence"] and "80% power" in v["sentence"]
    _check_sentences_are_the_rows(doc)


def test_an_interval_off_zero_that_holm_does_not_mark_is_not_called_no_difference(capsys):
    """A lead row whose own interval excludes 0 but which the correction over the table does not
    mark is said to hold no difference over the table, its interval "taken alone"; otherwise
    "no detectable difference". Cheaper stones over 60 random games move the length that way."""
    doc = _compare(capsys, "classic2003", "cheap-stones", "--games", "60", "--agents", "random")
    quiet = [v for v in doc["verdicts"] if not v["detected"]]
    off_zero = [v for v in quiet if v["low"] > 0 or v["high"] < 0]
    assert off_zero, "these games give a lead row off 0 that Holm does not mark (the case under test)"
    for v in quiet:
        if v in off_zero:
            assert v["sentence"].startswith("No difference that holds over the table's ")
            assert "taken alone" in v["sentence"]
        else:
            assert v["sentence"].startswith("No detectable difference") and "taken alone" not in v["sentence"]
    _check_sentences_are_the_rows(doc)


def test_a_verdict_names_the_row_that_moved_with_the_rows_interval(capsys):
    doc = _compare(capsys, "classic2003", "--sweep", "components.starting_gold=10,40", "--games", "30",
                   "--agents", "random")
    rows = {row["key"]: row for row in doc["rows"]}
    play = next(v for v in doc["verdicts"] if v["family"] == "play")
    assert play["detected"] and rows[play["key"]]["versus_first"][1]["significant"]
    from amunre.loader import load_variant

    scoring = verdicts.points_templates([load_variant("classic2003")])
    marked = {row["key"] for row in doc["rows"] if row["versus_first"][1] and row["versus_first"][1]["significant"]
              and verdicts.family_of(row["key"], scoring) == "play"}
    assert {play["key"], *play["others"]} == marked
    assert play["sentence"].startswith("The players act differently under components.starting_gold=40: ")
    _check_sentences_are_the_rows(doc)


def test_the_terminal_says_the_verdicts_before_the_table(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "supermeeple2016", "--games", "8", "--agents",
                             "random", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    table = next(i for i, line in enumerate(lines) if "Winning score" in line)
    said = [i for i, line in enumerate(lines) if line.startswith(tuple(f"{t}: " for t in verdicts.FAMILIES.values()))]
    assert len(said) == len(verdicts.FAMILIES) and max(said) < table


# -- --target-difference -------------------------------------------------------------------


def test_a_target_difference_says_how_many_games_would_find_it(capsys):
    doc = _compare(capsys, "classic2003", "supermeeple2016", "--games", "10", "--agents", "random",
                   "--target-difference", "margin=1.5", "--target-difference", "close=10pt")
    margin, close = doc["targets"]
    assert (margin["key"], margin["difference"]) == ("margin", 1.5)
    assert (close["key"], close["difference"]) == ("close", pytest.approx(0.10))
    for target in doc["targets"]:
        games = power.games_needed(target["sd"], target["difference"], target["alpha"])
        assert target["games"] == games and games >= 2
        # the fewest: one game fewer would not find it
        assert power.detectable(target["sd"], games, target["alpha"]) <= target["difference"]
        assert games == 2 or power.detectable(target["sd"], games - 1, target["alpha"]) > target["difference"]
        assert f"about {games:,} games per column" in target["sentence"]


@pytest.mark.parametrize("value, expected", [
    ("margin", "'margin' is not ROW=VALUE"),
    ("=3", "'=3' is not ROW=VALUE"),
    ("margin=", "'' is not a positive number"),
    ("margin=-1", "'-1' is not a positive number"),
    ("margin=abc", "'abc' is not a positive number"),
    ("margin=0", "the difference must be more than 0"),
    ("margin=nan", "'nan' is not a positive number"),
    ("nosuch=1", "no row 'nosuch' in these variants"),
    ("win.seat9=5", "no row 'win.seat9'"),
    ("margin=1pt", "margin is not a proportion"),
    ("close=150pt", "less than 100 percentage points"),
])
def test_a_bad_target_difference_is_one_clear_line_and_exit_2(capsys, value, expected):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--games", "2", "--target-difference", value)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and expected in err, err
    assert "Traceback" not in err and out == ""


def test_a_modules_row_is_a_target_by_its_declared_key():
    from amunre.loader import load_variant

    variants = [load_variant("classic2003")]
    assert verdicts.row_kind("auction_price", variants, 4) == "number"
    assert verdicts.row_kind("offering_level.2", variants, 4) == "percent"
    assert verdicts.row_kind("points.pyramids", variants, 4) == "number"
    assert verdicts.row_kind("kingdom2.pyramids_built", variants, 4) == "number"
    assert verdicts.row_kind(f"kingdom{len(variants[0].edition.kingdoms) + 1}.pyramids_built", variants, 4) is None
    assert verdicts.row_kind("item_wins.temples", variants, 4) == "percent"


# -- the power formula ---------------------------------------------------------------------


def test_the_smallest_detectable_difference_is_found_with_80_percent_power():
    """Direct computation: paired games whose true difference is the detectable one, tested
    as compare tests them; the share of runs that find it is the power asked."""
    sd, n, alpha = 2.0, 25, 0.01
    smallest = power.detectable(sd, n, alpha)
    rng = random.Random(7)
    runs = 3000
    found = sum(stats.paired([0.0] * n, [rng.gauss(smallest, sd) for _ in range(n)]).p < alpha for _ in range(runs))
    assert found / runs == pytest.approx(power.POWER, abs=0.03)
    # and with many games it is the normal formula
    z = stats.normal_quantile(1 - alpha / 2) + stats.normal_quantile(power.POWER)
    assert power.detectable(sd, 10**6, alpha) == pytest.approx(z * sd / 1000, rel=1e-4)


def test_games_needed_inverts_the_detectable_difference():
    for sd, difference, alpha in [(1.0, 0.3, 0.05), (5.0, 0.5, 0.001), (0.4, 0.2, 0.0005)]:
        n = power.games_needed(sd, difference, alpha)
        assert power.detectable(sd, n, alpha) <= difference < power.detectable(sd, n - 1, alpha)
    assert power.games_needed(0.0, 1.0, 0.05) == 2
    assert power.games_needed(1e6, 1e-6, 0.05) is None  # more than anyone would play
    assert math.isnan(power.detectable(1.0, 1, 0.05))


# -- Balance and OutcomeUniformity ---------------------------------------------------------


def test_rank_utilities_run_from_1_to_minus_1_ties_sharing_their_places():
    assert outcomes.utilities((1, 2, 3, 4)) == pytest.approx((1, 1 / 3, -1 / 3, -1))
    assert outcomes.utilities((2, 1)) == (-1, 1)
    # two tied for first share places 1 and 2: 1.5; competition ranks (1, 1, 3, 4)
    assert outcomes.utilities((1, 1, 3, 4)) == pytest.approx((2 / 3, 2 / 3, -1 / 3, -1))
    assert outcomes.win_shares((1, 1, 3, 4)) == (0.5, 0.5, 0, 0)


def test_balance_and_uniformity_of_constructed_outcomes():
    assert outcomes.balance([0.25, 0.25, 0.25, 0.25]) == 1
    assert outcomes.balance([0.75, 0.25, 0, 0]) == 0.25
    # the same seat first every game: every seat's utility constant, uniformity 1
    assert outcomes.outcome_uniformity([(1, 1 / 3, -1 / 3, -1)] * 5) == 1
    # two players who alternate: each utility 1, -1, ... (sample variance of (1, -1) is 2)
    assert outcomes.outcome_uniformity([(1, -1), (-1, 1)]) == pytest.approx(-1)
    assert outcomes.outcome_uniformity([(1, -1), (-1, 1)] * 50) == pytest.approx(1 - 100 / 99)
    # from the tally's counts (a seed: its rotations' ranks): the same numbers, and the
    # contributions average to them
    counts = Counter({((1, 2, 3, 4),): 3, ((2, 1, 3, 4),): 1})
    found = outcomes.balance_contributions(counts)
    assert found.value == pytest.approx(0.25)
    assert sum(found.of[u] * k for u, k in counts.items()) / 4 == pytest.approx(found.value)
    uniform = outcomes.uniformity_contributions(counts)
    games = [outcomes.utilities((1, 2, 3, 4))] * 3 + [outcomes.utilities((2, 1, 3, 4))]
    assert uniform.value == pytest.approx(outcomes.outcome_uniformity(games))
    assert sum(uniform.of[u] * k for u, k in counts.items()) / 4 == pytest.approx(uniform.value)


def test_balance_and_uniformity_rows_are_the_games_own(capsys, tmp_path):
    """The rows against the seats' win rates and the ranks in `--records`, game by game."""
    path = tmp_path / "records.csv"
    doc = _compare(capsys, "classic2003", "supermeeple2016", "--games", "20", "--agents", "random",
                   "--records", str(path))
    rows = {row["key"]: row for row in doc["rows"]}
    lines = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    for c, column in enumerate(doc["columns"]):
        rates = [rows[f"win.seat{s}"]["values"][c]["mean"] for s in range(1, doc["players"] + 1)]
        assert rows["balance"]["values"][c]["mean"] == pytest.approx(outcomes.balance(rates))
        by_game: dict = {}
        for line in lines:
            if line["column"] == column["label"]:
                by_game.setdefault(line["seed"], {})[int(line["seat"])] = int(line["rank"])
        games = [outcomes.utilities(tuple(seats[s] for s in sorted(seats))) for seats in by_game.values()]
        assert rows["outcome_uniformity"]["values"][c]["mean"] == pytest.approx(outcomes.outcome_uniformity(games))
    versus = rows["balance"]["versus_first"][1]
    assert versus["low"] <= versus["diff"] <= versus["high"]
    assert versus["diff"] == pytest.approx(rows["balance"]["values"][1]["mean"] - rows["balance"]["values"][0]["mean"])


# -- the rule differences by their modules' words, the r column, a sweep's slopes ------------------


def test_rule_differences_are_named_by_their_modules_words():
    from amunre.compare.rule_names import key_name, words
    from amunre.core.registry import all_rules
    from amunre.loader import load_variant
    from amunre.loader.compare import compare
    from amunre.loader.rulings import declared_rulings

    a, b = load_variant("classic2003"), load_variant("supermeeple2016")
    groups = compare(a, b)
    owners = declared_rulings(all_rules())
    assert groups["rulings"]
    for row in groups["rulings"]:
        cls = owners[row["key"]][0]
        assert key_name("rulings", row["key"], (a, b)) == words(attrs.fields_dict(cls)[row["key"]].metadata["doc"])
    named = [key_name("params", row["key"], (a, b)) for row in groups["params"]]
    assert named and all(named)
    assert key_name("pipeline", "phases.order", (a, b)) == ""  # nothing names it: the key alone


def test_a_sweep_band_is_the_paired_interval_around_the_first_value():
    from amunre.compare.html import paired_band
    from amunre.compare.run import Row

    e = stats.Estimate
    first, other = e(10.0, 3.0, 8.0, 12.0, 40), e(11.0, 3.0, 9.0, 13.0, 40)
    p = stats.Paired(1.0, 0.6, 1.4, 0.001, 40)
    lows, highs = paired_band(Row("x", "x", "mean", [first, other], [None, p]))
    assert lows == [10.0, 10.6] and highs == [10.0, 11.4]  # narrower than the unpaired 9..13
    assert paired_band(Row("x", "x", "mean", [first, other], [None, None])) is None


def test_the_pages_slopes_have_their_intervals_and_r_its_footnote(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="the report needs the plot extra: pip install '.[plot]'")
    page = tmp_path / "sweep.html"
    doc = _compare(capsys, "classic2003", "--sweep", "components.starting_gold=10,25,40", "--games", "6",
                   "--agents", "random", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    for row in doc["rows"]:
        trend = row["trend"]
        if trend is None or trend["low"] is None:
            continue
        assert f'data-slope-low="{float(trend["low"])!r}"' in text and f'data-slope-high="{float(trend["high"])!r}"' \
            in text
    assert " to " in text.split("data-slope-low=")[1].split("</td>")[0]
    assert "* r: the per-game correlation" in text
    assert "paired interval of each value's difference from the first value" in html.unescape(text)
