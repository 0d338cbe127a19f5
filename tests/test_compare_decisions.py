"""`amunre compare`'s rows of what the players did: the decisions themselves, declared by the
modules that ask them (purchases by kind, gold offered, thefts, the offering level reached,
bids, passes, provinces taken and the price by province, cards played by kind), and the
options per decision by decision kind, which the engine counts where it asks (and so the
bids and the purchases: a decision kind that declares `Decision.counted` gets a row of how
often it is decided, one that declares `Decision.summed` a row of the sum of its answers).

Every expectation is worked out again from the same game's full event log (a second listener
that hears everything: its `answer`, `decision` and the modules' own events), never a printed
number: the collector's rows are what the log says, in the whole game and in each kingdom.
"""

from __future__ import annotations

import importlib
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from helpers import Inline

from amunre.agents import make_agents
from amunre.compare.collect import DECIDED_PREFIX, OPTIONS_PREFIX, SUMMED_PREFIX, StatsCollector, kingdom_key
from amunre.compare.jobs import job_for
from amunre.compare.run import Column, run_comparison, summarize, summarize_by_kingdom
from amunre.core.engine import Game, play_on
from amunre.core.errors import ArgumentTypeError
from amunre.core.words import Words
from amunre.loader import load_variant

EDITIONS = ("classic2003", "supermeeple2016")
SEEDS = (0, 1, 2)
PLUGINS = Path(__file__).resolve().parent / "plugins"


def _played(variant, seed: int, players: int = 4) -> tuple[StatsCollector, dict, list[dict]]:
    """One random game with the collector and a listener that keeps every event (the log)."""
    collector, log = StatsCollector(variant), []
    game = Game(variant, players, seed, [collector, log.append])
    play_on(game, make_agents(["random"] * players, seed))
    return collector, collector.record(game), log


def _answers(log: list[dict], kind: str) -> list:
    return [e["answer"] for e in log if e["event"] == "answer" and e["kind"] == kind]


def _kingdoms(log: list[dict], kingdoms: int) -> list[list[dict]]:
    """The log cut where each kingdom's scoring ends (the final scoring is the last's)."""
    parts: list[list[dict]] = [[]]
    for event in log:
        parts[-1].append(event)
        if event["event"] == "scoring_end" and len(parts) < kingdoms:
            parts.append([])
    return parts


@pytest.fixture(scope="module", params=EDITIONS)
def games(request):
    variant = load_variant(request.param)
    return variant, [_played(variant, seed) for seed in SEEDS]


def test_purchases_by_kind_are_the_answers_to_the_buying_questions(games):
    variant, played = games
    for collector, values, log in played:
        bought = {what: sum(e["count"] for e in log if e["event"] == "purchase" and e["what"] == what)
                  for what in ("cards", "farmers", "stones")}
        assert {what: values[f"{SUMMED_PREFIX}buy_{what}"] for what in bought} == bought
        assert sum(bought.values()) > 0
        # and the answers to the buying questions say as much (a purchase is never forced: 0 or more)
        assert bought == {what: sum(_answers(log, f"buy_{what}")) for what in bought}
        for what, term in (("cards", "favor_plural"), ("farmers", "farmers"), ("stones", "stones")):
            assert collector.labels[f"{SUMMED_PREFIX}buy_{what}"] == f"{variant.term(term)} bought"


def test_gold_offered_thefts_and_the_level_reached_are_the_offers_answers(games):
    variant, played = games
    for collector, values, log in played:
        # what the offers paid to the bank, and each theft's take from it: an offer forced on a
        # seat with one option is no `answer`, but it pays or takes like any other
        paid = [e["amount"] for e in log if e["event"] == "pay" and e["why"] == "offering"]
        assert values["offered"] == pytest.approx(sum(paid) / 4)
        assert values["thefts"] == sum(1 for e in log if e["event"] == "gold" and e["why"] == "theft")
        levels = [e["level"] for e in log if e["event"] == "level"]
        assert values["offering_reached"] == pytest.approx(sum(levels) / len(levels))
        assert variant.term("theft") in collector.labels["thefts"]
        assert variant.term("offering") in collector.labels["offered"]


def test_bids_passes_provinces_and_their_prices_are_the_auctions(games):
    variant, played = games
    for collector, values, log in played:
        # every bid asked, and every one forced on a seat with one option, moves a bid marker
        asked = len(_answers(log, "bid"))
        assert values["decided.bid"] == sum(1 for e in log if e["event"] == "bid") >= asked > 0
        assert values.get("passes", 0) == sum(1 for e in log if e["event"] == "pass")
        acquired = [e for e in log if e["event"] == "acquire"]
        rounds = sum(1 for e in log if e["event"] == "round")
        assert values["provinces_taken"] == len(acquired) == rounds * 4
        prices = defaultdict(list)
        for e in acquired:
            prices[e["province"]].append(e["amount"])
        for province, paid in prices.items():
            assert values[f"province_price.{province}"] == pytest.approx(sum(paid) / len(paid))
            assert variant.board.provinces[province].name in collector.labels[f"province_price.{province}"]
        assert not any(key.startswith("province_price.") and int(key.split(".")[1]) not in prices for key in values)


def test_cards_played_by_kind_are_the_plays_in_the_log(games):
    variant, played = games
    words = Words(variant)
    for collector, values, log in played:
        plays = Counter(e["card"] for e in log if e["event"] == "play")
        assert plays, "no card played in a whole game"
        assert {key[len("played."):]: v for key, v in values.items() if key.startswith("played.")} == plays
        for card in plays:
            assert collector.labels[f"played.{card}"] == f"{words.card_noun(card)} played"


def test_options_per_decision_are_the_options_of_each_question_asked_in_the_whole_game_and_each_kingdom(games):
    """The engine's count where it asks (no event) against the `decision` events of the log,
    whole and per kingdom; every decision asked is in one kind's row."""
    variant, played = games
    kingdoms = len(variant.edition.kingdoms)
    for collector, values, log in played:
        for k, part in enumerate([log, *_kingdoms(log, kingdoms)]):
            offered = defaultdict(list)
            for e in part:
                if e["event"] == "decision":
                    offered[e["kind"]].append(e["options"])
            rows = {key[len(OPTIONS_PREFIX):]: v for key, v in values.items() if key.startswith(OPTIONS_PREFIX)}
            if k:  # a kingdom's
                prefix = kingdom_key(OPTIONS_PREFIX, k - 1)
                rows = {key[len(prefix):]: v for key, v in values.items() if key.startswith(prefix)}
            assert rows == pytest.approx({kind: sum(n) / len(n) for kind, n in offered.items()})
            assert all(v >= 2 for v in rows.values())  # a one-option question is forced, never asked
        asked = sum(1 for e in log if e["event"] == "decision")
        assert asked == values["decisions"] == len([e for e in log if e["event"] == "answer"])
        decisions = variant.modules.decisions
        for kind in (key[len(OPTIONS_PREFIX):] for key in values if key.startswith(OPTIONS_PREFIX)):
            title = decisions[kind].title
            assert title, f"{kind} has no title"
            assert collector.labels[OPTIONS_PREFIX + kind] == "options per decision: " + title.format_map(
                {name: variant.term(name) for name in _names(title)})


def _names(template: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def test_each_new_row_is_also_counted_per_kingdom_and_a_sum_adds_up(games):
    variant, played = games
    kingdoms = len(variant.edition.kingdoms)
    new = (SUMMED_PREFIX, "offered", "thefts", DECIDED_PREFIX, "passes", "provinces_taken", "played.")
    for collector, values, _ in played:
        for key, value in values.items():
            if key.startswith(new) and collector.modes[key] in ("sum", "per_player"):
                split = [values[kingdom_key(key, k)] for k in range(kingdoms)]
                assert sum(split) == pytest.approx(value), key
        assert all(kingdom_key(key, 0) in collector.modes for key in values if key.startswith(new))


def test_a_variant_without_theft_cards_has_no_theft_row():
    """Derived from the variant: with no theft card dealt, nobody can steal, and the row is
    absent (in the editions, which deal them, it is there in every game, 0 or more)."""
    variant = load_variant("classic2003", ["components.theft_cards_per_player=0"])
    assert variant.components.theft_cards_per_player == 0
    for seed in SEEDS:
        collector, values, log = _played(variant, seed)
        assert not any(o[0] == "theft" for o in _answers(log, "offer"))
        assert "thefts" not in values and "offered" in values
    dealt = load_variant("classic2003")
    assert dealt.components.theft_cards_per_player > 0
    assert all("thefts" in _played(dealt, seed)[1] for seed in SEEDS)


def test_the_rows_read_in_each_editions_words():
    """The same rows, each edition's words: where the editions' terms differ, so do the labels."""
    labels = {edition: _played(load_variant(edition), 0)[0].labels for edition in EDITIONS}
    variants = {edition: load_variant(edition) for edition in EDITIONS}
    for key, term in (("summed.buy_cards", "favor_plural"), ("thefts", "theft"), ("offered", "offering"),
                      ("decided.bid", "bid_marker")):
        words = [variants[e].term(term) for e in EDITIONS]
        assert all(w in labels[e][key] for w, e in zip(words, EDITIONS))
        assert (labels[EDITIONS[0]][key] != labels[EDITIONS[1]][key]) == (words[0] != words[1])


@pytest.fixture
def toll():
    """The toll plug-in phase (tests/plugins/toll_rule.py), registered in-process as an
    installed package's would be, unregistered afterwards."""
    from amunre.core.registry import RULES, all_rules

    sys.path.insert(0, str(PLUGINS))
    try:
        all_rules()
        RULES["toll"] = importlib.import_module("toll_rule").Toll
        yield load_variant(PLUGINS / "toll.toml")
        RULES.pop("toll", None)
    finally:
        sys.path.remove(str(PLUGINS))


def test_a_plugins_decision_gets_its_rows_from_its_own_declarations(toll):
    """The plug-in's decision has a row of options per decision in its title's words, and its
    event's statistic a row, per kingdom too: nothing in compare names either."""
    kingdoms = len(toll.edition.kingdoms)
    for seed in SEEDS:
        collector, values, log = _played(toll, seed)
        paid = [e["amount"] for e in log if e["event"] == "toll"]
        assert values["toll_paid"] == pytest.approx(sum(paid) / 4)
        assert sum(values[kingdom_key("toll_paid", k)] for k in range(kingdoms)) == pytest.approx(sum(paid) / 4)
        asked = [e["options"] for e in log if e["event"] == "decision" and e["kind"] == "toll"]
        if asked:
            assert values[OPTIONS_PREFIX + "toll"] == pytest.approx(sum(asked) / len(asked))
        # decided once per player and round, asked or (a seat with no gold) forced
        assert values[DECIDED_PREFIX + "toll"] == len(paid) == 4 * sum(1 for e in log if e["event"] == "round")
        assert values[SUMMED_PREFIX + "toll"] == sum(paid)  # its answers: the gold paid
    assert collector.labels["toll_paid"] == "gold paid in road toll per player"
    assert collector.labels[OPTIONS_PREFIX + "toll"] == "options per decision: paying the road toll"
    assert collector.labels[DECIDED_PREFIX + "toll"] == "road toll questions"
    assert collector.labels[SUMMED_PREFIX + "toll"] == "gold paid in road toll (a game)"
    # and in a comparison: rows the first column lacks, with their by-kingdom rows
    columns = [Column(label, variant, job_for(variant, (), 4, ["random"]))
               for label, variant in (("classic2003", load_variant("classic2003")), ("toll", toll))]
    comparison = run_comparison(columns, 4, 1, Inline())
    main = {row.key: row for row in summarize(comparison)}
    by_kingdom = {row.key: row for row in summarize_by_kingdom(comparison)}
    for key in ("toll_paid", OPTIONS_PREFIX + "toll", DECIDED_PREFIX + "toll", SUMMED_PREFIX + "toll"):
        assert main[key].values[0] is None and main[key].values[1] is not None
        assert by_kingdom[kingdom_key(key, 0)].values[1] is not None


def test_a_listener_whose_engine_counts_are_not_dicts_is_refused_and_not_added():
    variant = load_variant("classic2003")
    game = Game(variant, 4, 0)

    class Odd:
        options_offered = [0]

        def __call__(self, event):
            pass

    with pytest.raises(ArgumentTypeError, match="listener.options_offered"):
        game.listen(Odd())
    Odd.options_offered, Odd.answers_summed = {}, ("buy_cards",)
    with pytest.raises(ArgumentTypeError, match="listener.answers_summed"):
        game.listen(Odd())
    assert game.listeners == [] and game._offered is None and game._summed is None
