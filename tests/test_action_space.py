"""The fixed action space the rule modules declare (`Decision.actions`), as `amunre.rl.actions`
builds it. It needs neither pettingzoo nor numpy.

- every built-in decision kind declares its actions;
- in every request of random games of every shipped variant (house rules too), at each of
  its player counts: at least one legal option is in the space, an option left out lies
  beyond its module's documented cap, and every legal id decodes to a legal option;
- a player far richer than any game makes him is still offered options in the space;
- ids run kinds in pipeline order, then the core's; a plug-in kind is placed where its
  module stands, and one without `actions` is a clear error naming it;
- every id of every shipped variant reads in the edition's words and reads back
  (`action_to_string` / `string_to_action`), also from its JSON form;
- without the extra `amunre[rl]` the environment is a clear error naming it, and the action
  space still works (`amunre.rl.actions`, with neither numpy nor pettingzoo).
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from functools import cache

import attrs
import pytest
from conftest import variant_files
from helpers import game_of, seats, variant_label, write

from amunre.agents import make_agents
from amunre.core import mechanics, registry
from amunre.core.contract import Decision, Rule
from amunre.core.decisions import decide, to_json_value
from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.core.mechanics import add_points
from amunre.loader import load_variant
from amunre.rl.actions import ActionSpace, action_space
from amunre.rules import gold_ranking, market, offering

VARIANTS = [pytest.param(path, id=variant_label(path)) for path in variant_files()]


@cache
def variant_of(path):
    return load_variant(path)


def beyond_cap(kind: str, option) -> bool:
    """Whether an option is left out of the space by a documented cap."""
    if kind == "offer":
        return option[0] == "gold" and option[1] > offering.MOST_OFFERED
    if kind in ("buy_cards", "buy_farmers", "buy_stones"):
        return option > market.MOST_BOUGHT
    if kind == "sell_cards":
        return option > gold_ranking.MOST_SOLD
    return False


def check_request(space: ActionSpace, request) -> list[int]:
    """The request's legal ids, after checking what the space promises about them."""
    legal = space.legal(request)
    assert legal, f"no legal option of {request.kind!r} is in the action space: {request.options[:5]}"
    for option in request.options:
        found = space.id_of(request.kind, option)
        assert found is not None or beyond_cap(request.kind, option), (
            f"{request.kind!r} option {to_json_value(option)!r} is missing from the action space")
    for action in legal:
        kind, option = space.option(action)
        assert kind == request.kind and any(option == o and type(option) is type(o) for o in request.options)
    return legal


def test_every_built_in_decision_kind_declares_its_actions():
    missing = [f"{rid}.{kind}" for rid, cls in registry.all_rules().items() for kind, d in cls.decisions.items()
               if d.actions is None]
    missing += [f"core.{kind}" for kind, d in mechanics.DECISIONS.items() if d.actions is None]
    assert not missing, f"decision kinds without `actions`: {missing}"


@pytest.mark.parametrize("path", VARIANTS)
def test_every_request_of_random_games_has_an_action(path):
    variant = variant_of(path)
    space = action_space(variant)
    asked = set()
    for n in variant.players:
        for seed in range(8):
            game = Game(variant, n, seed)
            rng = random.Random(seed)
            # half the games choose among the ids in the space, as an agent of the environment
            # does; the others play greedy (which also answers beyond the caps)
            agents = make_agents(["greedy"] * n, seed) if seed % 2 else None
            while game.pending is not None:
                request = game.pending
                asked.add(request.kind)
                legal = check_request(space, request)
                if agents is None:
                    game.answer(space.option(rng.choice(legal))[1])
                else:
                    game.answer(agents[request.player].choose(game.view(request.player), request))
    assert {"bid", "offer", "reward"} <= asked <= set(space.kinds)


def test_a_player_richer_than_any_game_is_offered_actions():
    """500 gold and a hand of cards: offers and purchases beyond the caps, still some in the space."""
    variant = load_variant("classic2003")
    space = action_space(variant)
    game = game_of(seats(4, gold=500, hand={"architect": 2, "offering_adjustment": 1}), variant)
    game.run_rules(["offering"])
    beyond = 0
    while game.pending is not None and game.pending.kind in ("sell_for_offering", "offer"):
        request = game.pending
        legal = check_request(space, request)
        beyond += sum(space.id_of(request.kind, o) is None for o in request.options)
        game.answer(space.option(legal[0])[1])
    assert beyond, "the position never went beyond the cap: the test checks nothing"


def test_the_caps_are_what_the_modules_document():
    space = action_space(load_variant("classic2003"))
    offers = [space.option(i)[1] for i in space.ranges["offer"]]
    assert max(o[1] for o in offers) == offering.MOST_OFFERED
    assert ("gold", 0, 0) in offers and ("theft", 0, 1) in offers
    assert [space.option(i)[1] for i in space.ranges["buy_stones"]] == list(range(market.MOST_BOUGHT + 1))
    assert [space.option(i)[1] for i in space.ranges["sell_cards"]] == list(range(40))  # the 39 cards of the deck
    assert len(space.ranges["bid"]) == 15 * 4 * 9  # provinces x cards played with it x spaces


def test_kinds_run_in_pipeline_order_then_the_core():
    space = action_space(load_variant("classic2003"))
    assert space.kinds == (
        "bid", "protect", "buy_cards", "buy_farmers", "place_farmer", "free_farmer", "buy_stones", "place_stone",
        "architect", "sell_for_offering", "offer", "adjust", "reward", "treasury", "big_harvest", "play_bonus",
        "sell_cards", "sell", "double_swap")
    assert [space.ranges[k].start for k in space.kinds] == sorted(space.ranges[k].start for k in space.kinds)
    assert space.ranges["double_swap"].stop == len(space)
    expert = action_space(load_variant("expert2016"))
    assert expert.kinds[0] == "pick_province" and expert.ranges["pick_province"] == range(15)


# -- plug-ins -------------------------------------------------------------------------------
def tally_rule(actions):
    """A scoring rule module asking each player a decision of its own (`tally`)."""

    class Tally(Rule):
        id = "tally_test"
        kind = "scoring"
        summary = "Each player may take a point."
        decisions = {"tally": Decision("0 or 1: the points he takes", "an integer",
                                       lambda option, w: f"take {option} {w.t('points')}", actions=actions)}

        def run(self, game):
            for p in game.state.turn_order():
                points = yield from decide(p, "tally", [0, 1])
                add_points(game, p, self.item_key, points)

    return Tally


@pytest.fixture
def plug_in(monkeypatch, tmp_path):
    def install(actions):
        registry.all_rules()
        monkeypatch.setitem(registry.RULES, "tally_test", tally_rule(actions))
        path = write(tmp_path / "tally.toml", 'extends = "classic2003"\n[edition]\nid = "tally"\nname = "tally"\n'
                                               '[[scoring]]\nrule = "tally_test"\nname = "tallies"\n')
        return load_variant(path)
    return install


def test_a_plug_in_kind_takes_its_place_in_the_pipeline_order(plug_in):
    space = ActionSpace(plug_in(lambda rule, variant: [0, 1]))
    assert space.kinds[-5:] == ("play_bonus", "tally", "sell_cards", "sell", "double_swap")
    assert space.from_string("tally: take 1 points") == space.ranges["tally"][1]


def test_a_plug_in_kind_without_actions_is_a_clear_error(plug_in):
    variant = plug_in(None)
    message = r"declare no `actions` \(Decision.actions.*: 'tally' \(rule module 'tally_test'\)$"
    with pytest.raises(AmunreError, match=message):
        ActionSpace(variant)
    if importlib.util.find_spec("pettingzoo") is not None:  # building the environment fails at once
        from amunre.rl.pettingzoo import env

        with pytest.raises(AmunreError, match=message):
            env(variant=variant)


def test_actions_that_are_lists_are_a_clear_error(plug_in):
    with pytest.raises(AmunreError, match="tally.*plain values and tuples"):
        ActionSpace(plug_in(lambda rule, variant: [[0], [1]]))


# -- in the edition's words -------------------------------------------------------------------
@pytest.mark.parametrize("path", VARIANTS)
def test_every_action_reads_in_words_and_back(path):
    space = ActionSpace(variant_of(path))
    texts = [space.to_string(i) for i in range(len(space))]
    assert len(set(texts)) == len(texts)
    for i, text in enumerate(texts):
        kind, option = space.option(i)
        assert text.startswith(f"{kind}: ")
        assert space.from_string(text) == i
        assert space.from_string("  " + text.upper() + " ") == i
        assert space.from_string(f"{kind}: {json.dumps(to_json_value(option))}") == i


def test_actions_read_in_the_edition_s_words():
    classic, edition2016 = ActionSpace(load_variant("classic2003")), ActionSpace(load_variant("supermeeple2016"))
    protection = load_variant("classic2003").card_id("protection")
    bid = (0, 3, (protection,))
    assert "bidding blockade" in classic.to_string(classic.id_of("bid", bid))
    assert "Protection" in edition2016.to_string(edition2016.id_of("bid", bid))
    assert classic.to_string(classic.id_of("offer", ("theft", 0, 0))) == "offer: -3 card"


def test_an_unknown_text_or_id_is_a_clear_error():
    space = ActionSpace(load_variant("classic2003"))
    with pytest.raises(AmunreError, match="did you mean 'offer: 3 gold'"):
        space.from_string("offer: 3 gld")
    for text in ("bid: [99, 0, []]", 'bid: {"province": 0}', "bid:", "bid"):
        with pytest.raises(AmunreError, match="no action .* reads"):
            space.from_string(text)
    with pytest.raises(AmunreError, match=f"actions of classic2003 are 0 to {len(space) - 1}"):
        space.option(len(space))
    with pytest.raises(AmunreError, match="whole number"):
        space.option("3")


def test_options_alike_in_words_keep_apart(tmp_path):
    """A board naming two provinces the same: their actions still read apart (by their JSON)."""
    variant = load_variant("classic2003")
    board = attrs.evolve(variant.board, provinces=tuple(
        attrs.evolve(p, name="Buto") if i < 2 else p for i, p in enumerate(variant.board.provinces)))
    twin = attrs.evolve(variant, board=board)
    space = ActionSpace(twin)
    first, second = space.to_string(space.id_of("place_stone", 0)), space.to_string(space.id_of("place_stone", 1))
    assert first != second and "Buto" in first and "Buto" in second
    assert space.from_string(second) == space.id_of("place_stone", 1)


MISSING_EXTRA = """
import sys
sys.modules["pettingzoo"] = None  # as if the extra were not installed
import amunre.rl.pettingzoo as pz
from amunre.loader import load_variant
print(len(pz.action_space(load_variant("classic2003"))))
try:
    pz.env()
except ImportError as error:
    print(type(error).__name__, isinstance(error, pz.AmunreError), error)
from amunre.core.engine import Game
variant = load_variant("classic2003")
for make in (lambda: pz.ObservationLayout(variant, 3, pz.action_space(variant)),
             lambda: pz.action_mask(pz.action_space(variant), Game(variant, 3, 1), 0)):
    try:  # the observation and the mask are numpy arrays: the same clear error, not a NameError
        make()
    except ImportError as error:
        print(type(error).__name__)
"""


def test_without_the_extra_the_environment_names_it_and_the_action_space_works():
    run = subprocess.run([sys.executable, "-c", MISSING_EXTRA], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    size, error, *later = run.stdout.splitlines()
    assert int(size) > 800 and later == ["MissingExtraError", "MissingExtraError"]
    assert error.startswith("MissingExtraError True the PettingZoo environment needs the optional extra: "
                            "pip install 'amunre[rl]'")


WITHOUT_NUMPY = """
import sys
sys.modules["numpy"] = sys.modules["pettingzoo"] = None  # as if neither were installed
from amunre.loader import load_variant
from amunre.rl.actions import action_space
space = action_space(load_variant("classic2003"))
print(len(space), space.from_string(space.to_string(7)))
"""


def test_the_action_space_alone_needs_no_numpy():
    run = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    size, seven = run.stdout.split()
    assert int(size) > 800 and seven == "7"
