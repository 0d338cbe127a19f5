"""The house rules shipped under variants/house/: each extends an edition in a few lines and
changes something real, shown here by its effect in play. (The conformance suite, the views
invariant and the golden playthroughs cover them with every other variant file.)
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import pytest
from helpers import game_of, run, run_cli, seats, write

from amunre.agents import make_agents
from amunre.core.engine import Game, play_game
from amunre.core.errors import VariantError
from amunre.loader import load_variant

HOUSE = Path(__file__).resolve().parent.parent / "variants" / "house"


@cache
def house(name: str):
    return load_variant(HOUSE / f"{name}.toml")


def test_every_house_rule_is_a_short_extends_file_that_changes_the_rules():
    from conftest import project_variant_files

    files = [f for f in project_variant_files() if f.parent.name == "house"]
    assert len(files) >= 6
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        assert len(lines) <= 20, f"{path.name}: {len(lines)} lines of TOML"
        variant = load_variant(path)
        parent = load_variant(tomllib.loads(text)["extends"])
        same = (variant.rulings == parent.rulings and variant.phases == parent.phases
                and variant.scoring == parent.scoring and variant.edition.rounds_per_kingdom
                == parent.edition.rounds_per_kingdom)
        assert not same, f"{path.name} changes nothing its parent {parent.id} plays"


def test_a_templeharvest_house_rule_scores_temples_at_the_harvest():
    variant = house("temples-every-harvest")
    assert variant.rulings.temples_score_at_harvest
    players = seats(3)
    players[0]["provinces"] = {"Damanhur": {}}
    game = game_of(players, variant, offering_level=2)
    run(game, ["harvest"])
    assert game.state.players[0].score == 2 * 2  # Damanhur's 2 temples at level 2


def test_a_offercards_house_rule_lets_cards_into_the_secret_offer():
    variant = house("cards-as-gold-offering")
    players = seats(3, gold=2, theft=1)
    players[0]["hand"] = {"treasury": 2}
    game = game_of(players, variant, start_player="red")
    run(game, ["offering"])
    request = game.pending
    assert request.kind == "offer" and request.player == 0
    # 2 gold and 2 cards: up to 4 in the offer, no open sale asked first
    assert max(o[1] for o in request.options if o[0] == "gold") == 4


def test_a_nile_house_rule_compares_side_totals():
    variant = house("nile-side-totals")
    assert variant.rulings.nile_compare == "side_total"


def test_long_kingdoms_plays_four_rounds_for_three_players_only():
    variant = house("long-kingdoms")
    assert variant.edition.rounds_per_kingdom == 4 and variant.players == (3,)
    game = play_game(variant, make_agents(["greedy"] * 3, 3), 4)
    assert game.finished and all(len(p.provinces) == 4 for p in game.state.players)


def test_long_kingdoms_for_four_players_is_caught_at_the_house_rules_own_line(tmp_path):
    """4 players x 4 rounds need 16 provinces; the board has 15. The report names the line of
    the house rule that causes it, not the parent's pipeline entry."""
    text = (HOUSE / "long-kingdoms.toml").read_text(encoding="utf-8").replace("players = [3]", "players = [3, 4]")
    bad = tmp_path / "long4.toml"
    bad.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("players"))
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    assert info.value.problems == [
        f"{bad}:{line}: edition.players: 4 players over 4 rounds need 16 provinces but the board has 15 "
        "(lower the player counts or the rounds) (checked by rule module 'province_draw')"]


def test_monumental_pyramids_inserts_a_second_pyramid_item_by_id():
    variant = house("monumental-pyramids")
    ids = [s.id for s in variant.scoring]
    assert ids[ids.index("pyramids") + 1] == "pyramids_again"
    game = play_game(variant, make_agents(["greedy"] * 4, 4), 3)
    for p in game.state.players:
        for kingdom in ("0", "1"):
            assert p.breakdown.get(f"{kingdom}:pyramids_again") == p.breakdown.get(f"{kingdom}:pyramids")


def test_secret_hands_2003_replaces_the_province_draw_by_id():
    variant = house("secret-hands-2003")
    first = variant.phases[0]
    assert (first.id, first.rule) == ("province_draw", "province_draft")
    assert [s.rule for s in variant.phases[1:]] == [s.rule for s in load_variant("classic2003").phases[1:]]
    assert variant.players == (3, 4)
    game = Game(variant, 3, 1)
    assert game.pending.kind == "pick_province" and len(game.pending.options) == 3


def test_a_house_rule_extends_another_by_relative_path(tmp_path):
    child = tmp_path / "mine.toml"
    child.write_text('extends = "h/long-kingdoms.toml"\n[edition]\nid = "mine"\n[components]\n'
                     'starting_gold = 25\n', encoding="utf-8")
    (tmp_path / "h").mkdir(exist_ok=True)
    (tmp_path / "h" / "long-kingdoms.toml").write_text(
        (HOUSE / "long-kingdoms.toml").read_text(encoding="utf-8"), encoding="utf-8")
    variant = load_variant(child)
    assert variant.components.starting_gold == 25 and variant.edition.rounds_per_kingdom == 4
    assert variant.players == (3,)


def test_cheap_stones_prices_stones_alone_flat():
    """Stones cost their own flat price, cards and farmers the shared rising one: every purchase
    of a seeded game is charged by its kind's table, and stones are bought where the edition's
    prices would have made them dearer."""
    from amunre.rules.market import price

    variant = house("cheap-stones")
    market = next(s.params for s in variant.phases if s.rule == "market")
    assert market.stones_price_step == 0 and market.stones_first_price == market.first_price
    assert [market.price(what, 3) for what in ("cards", "farmers")] == [price(3, market.first_price,
                                                                              market.price_step)] * 2
    events: list = []
    play_game(variant, make_agents(["greedy"] * 4, 4), 3, [events.append])
    purchases = [e for e in events if e["event"] == "purchase"]
    assert {e["what"] for e in purchases} == {"cards", "farmers", "stones"}
    assert all(e["price"] == market.price(e["what"], e["count"]) for e in purchases)
    assert any(e["what"] == "stones" and e["count"] > 1 for e in purchases)


def test_cheap_stones_through_validate_diff_and_show(capsys, tmp_path):
    """`validate` accepts it, `diff` against its parent names the one price it changes, and
    `show` writes every kind's table out, in a file that loads with the same market params."""
    import json

    variant = house("cheap-stones")
    code, out, _ = run_cli(capsys, "validate", variant.source)
    assert code == 0 and out.strip().endswith("ok")
    parent = tomllib.loads(Path(variant.source).read_text(encoding="utf-8"))["extends"]
    code, out, _ = run_cli(capsys, "diff", parent, "cheap-stones", "--json")
    assert code == 0
    market = next(s for s in variant.phases if s.rule == "market")
    before = next(s for s in load_variant(parent).phases if s.rule == "market").params
    (row,) = json.loads(out)["groups"]["params"]
    assert {key: row[key] for key in ("key", "a", "b")} == {"key": f"phases.{market.id}.stones_price_step",
                                                           "a": before.stones_price_step,
                                                           "b": market.params.stones_price_step}
    code, out, _ = run_cli(capsys, "show", "cheap-stones")
    assert code == 0
    for what in ("cards", "farmers", "stones"):
        assert f"{what}_price_step = {getattr(market.params, f'{what}_price_step')}\n" in out
    shown = load_variant(write(tmp_path / "cheap-stones.toml", out))
    assert [s.params for s in shown.phases if s.rule == "market"] == [market.params]
