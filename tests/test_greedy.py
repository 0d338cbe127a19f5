"""The `greedy` agent's cache of province values (`GreedyAgent._bid`) changes no decision:
at every decision of seeded games in every shipped variant, the agent answers as the
uncached agent (the code before the cache, kept here) does on the same view and request."""

from __future__ import annotations

import copy

import pytest
from conftest import variant_files
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.agents.greedy import GreedyAgent
from amunre.core.engine import Game
from amunre.loader import load_variant

VARIANTS = {path.stem: load_variant(path) for path in variant_files()}  # every file the suite covers


class UncachedGreedy(GreedyAgent):
    """The agent as it was before the cache: a province's value recomputed for every option."""

    def _bid(self, view, p, options):
        gold = view.me.gold
        cards = view.variant.cards
        best, best_score = options[0], None
        for option in options:
            pid, amount, played = option
            if amount > gold * 0.6 and amount > 0:
                continue
            score = self._province_value(view, pid) - amount
            for card in played:
                score += 1.5 if cards[card] == "protection" and amount >= 6 else -2
            if best_score is None or score > best_score:
                best, best_score = option, score
        return best


def play_both(variant, players: int, seed: int, lineup=None) -> tuple[int, int]:
    """Play a game in which every greedy seat asks both agents (each with its own copy of the
    seat's generator) and checks they agree; (decisions compared, bids among them)."""
    names = lineup or ["greedy"] * players
    agents = make_agents(names, seed)
    shadows = []
    for agent in agents:
        shadow = None
        if isinstance(agent, GreedyAgent):
            shadow = copy.copy(agent)
            shadow.__class__ = UncachedGreedy
            shadow.rng = copy.deepcopy(agent.rng)
        shadows.append(shadow)
    game = Game(variant, players, seed)
    views = [game.view(p) for p in range(players)]
    compared = bids = 0
    while (request := game.pending) is not None:
        p = request.player
        choice = agents[p].choose(views[p], request)
        if shadows[p] is not None:
            expected = shadows[p].choose(views[p], request)
            assert choice == expected, (variant.id, players, seed, len(game.answers), request.kind)
            compared += 1
            bids += request.kind == "bid"
        game.answer(choice)
    return compared, bids


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_the_cached_agent_decides_as_the_uncached_one_in_every_shipped_variant(vid):
    variant = VARIANTS[vid]
    bids = least = 0
    for seed in range(4):
        players = variant.players[seed % len(variant.players)]
        bids += play_both(variant, players, seed)[1]
        least += variant.edition.rounds_per_kingdom * len(variant.edition.kingdoms)
    # the auction was really played: the first bid of a round has a choice of cards (a bid with
    # one legal option is answered without asking, so later bids may not be asked)
    assert bids >= least


@given(vid=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**63 - 1), count=st.integers(0, 2),
       mixed=st.booleans())
def test_the_cached_agent_decides_as_the_uncached_one_in_random_games(vid, seed, count, mixed):
    variant = VARIANTS[vid]
    players = variant.players[count % len(variant.players)]
    lineup = (["greedy", "random"] * 3)[:players] if mixed else None
    compared, _ = play_both(variant, players, seed, lineup)
    assert compared > 0


def test_no_value_is_kept_from_one_decision_to_the_next():
    """The cache belongs to one call of `_bid`: after a whole game the agent holds nothing
    but its generator, the last request's display facts, the variant's kinds it knows and its
    market's prices (facts of the variant), so a province's value is read afresh at every
    decision (and the planner it asks about a plug-in's decisions, never made without one)."""
    variant = VARIANTS["classic2003"]
    agents = make_agents(["greedy"] * 4, 5)
    game = Game(variant, 4, 5)
    while (request := game.pending) is not None:
        game.answer(agents[request.player].choose(game.view(request.player), request))
    assert all(set(vars(agent)) <= {"rng", "_context", "_variant", "_known", "_costs", "_planner"} for agent in agents)
    assert all(agent._planner is None for agent in agents)  # asked only for a plug-in's decision


# -- decision kinds it does not know ------------------------------------------------------

#: Every kind whose old dispatch (`getattr(self, "_" + kind)`) found a method or attribute
#: of the agent that answers no decision: its helpers (`rounds_left`), and the dunders.
NOT_HANDLERS = sorted({name[1:] for name in dir(GreedyAgent) if name.startswith("_")} - set(GreedyAgent.HANDLERS))


def test_the_helpers_are_among_the_names_tried():
    assert {"rounds_left", "has", "province_value", "_init__", "_class__"} <= set(NOT_HANDLERS)


@pytest.mark.parametrize("kind", NOT_HANDLERS)
def test_a_plugin_decision_named_like_a_greedy_helper_gets_a_random_legal_option(kind):
    """A plug-in names its own decision kinds: one named like a method of the agent
    (`rounds_left`, `has`, ...) made it call that method and crash. It is answered like any
    kind the agent does not know."""
    import random

    from amunre.core.decisions import Request

    game = Game(VARIANTS["classic2003"], 3, 1)
    request = Request(0, kind, [0, 1, 2], {})
    answers = {GreedyAgent(random.Random(seed)).choose(game.view(0), request) for seed in range(20)}
    assert answers <= {0, 1, 2} and len(answers) > 1  # drawn at random among the options


def test_a_game_with_plugin_decisions_named_like_greedy_helpers_plays_to_the_end(tmp_path):
    """End to end: a plug-in phase that asks each player decisions of kinds `rounds_left`,
    `has` and `province_value` every round; greedy players answer them and finish the game."""
    from amunre.core.contract import Decision, Rule
    from amunre.core.decisions import decide
    from amunre.core.engine import play_game
    from amunre.core.registry import RULES, all_rules

    kinds = ("rounds_left", "has", "province_value")

    class Musings(Rule):
        id = "musings"
        summary = "Every player muses three times a round (a test plug-in)."
        decisions = {kind: Decision(options="0, 1 or 2", json="an integer") for kind in kinds}

        def run(self, game):
            for p in game.state.turn_order():
                for kind in kinds:
                    yield from decide(p, kind, [0, 1, 2])

    all_rules()
    RULES["musings"] = Musings
    try:
        path = tmp_path / "musings.toml"
        path.write_text('extends = "classic2003"\n[edition]\nid = "musings"\n'
                        '[[phases]]\nid = "musings"\nrule = "musings"\nafter = "market"\n', encoding="utf-8")
        variant = load_variant(path)
        asked = []
        game = play_game(variant, make_agents(["greedy"] * 3, 4), 4,
                         [lambda e: asked.append(e["kind"]) if e["event"] == "decision" else None])
        assert game.state.finished
        rounds = len(variant.edition.kingdoms) * variant.edition.rounds_per_kingdom
        assert {kind: asked.count(kind) for kind in kinds} == dict.fromkeys(kinds, 3 * rounds)
    finally:
        RULES.pop("musings", None)


def test_a_plugin_decision_is_answered_through_what_its_module_declares(tmp_path):
    """Greedy knows no plug-in's decision: it answers one as the planner does, by the
    module's own appraisal, never at random (here the module values 2 most: every answer is 2)."""
    from amunre.core.contract import Decision, Rule
    from amunre.core.decisions import decide
    from amunre.core.engine import play_game
    from amunre.core.registry import RULES, all_rules

    class Tithe(Rule):
        id = "tithe_choice"
        summary = "Every player names a number each round (a test plug-in)."
        decisions = {"name_number": Decision(options="0, 1 or 2", json="an integer",
                                             appraise=lambda option, asking, worth: float(option == 2))}

        def run(self, game):
            for p in game.state.turn_order():
                yield from decide(p, "name_number", [0, 1, 2])

    all_rules()
    RULES["tithe_choice"] = Tithe
    try:
        path = tmp_path / "tithe.toml"
        path.write_text('extends = "classic2003"\n[edition]\nid = "tithe"\n'
                        '[[phases]]\nid = "tithe_choice"\nrule = "tithe_choice"\nafter = "market"\n',
                        encoding="utf-8")
        variant = load_variant(path)
        named = []
        for seed in range(3):
            agents = make_agents(["greedy"] * 3, seed)

            def recording(agent):
                def choose(view, request):
                    answer = agent.choose(view, request)
                    if request.kind == "name_number":
                        named.append(answer)
                    return answer
                return type("Recording", (), {"choose": staticmethod(choose)})()

            game = play_game(variant, [recording(agent) for agent in agents], seed)
            assert game.state.finished
        assert len(named) == 3 * 3 * 6 and set(named) == {2}
    finally:
        RULES.pop("tithe_choice", None)
