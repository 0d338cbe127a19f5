"""The `planner` agent and what it values positions by (`amunre.planning.worth`), over every variant
file in variants/: what a module declares a holding is worth is what playing its rule gives;
the planner plays every variant to the end, from its view alone, the same for a seed; it
reacts to a rule change that greedy does not see.
"""

from __future__ import annotations

import re
import statistics

import pytest
from conftest import variant_files
from helpers import PLUGINS, publish, published, registered_plugin
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agent, make_agents
from amunre.core.engine import Game, play_game
from amunre.core.errors import AmunreError
from amunre.core.facets import ValuationFacet
from amunre.loader import load_variant
from amunre.planning.worth import ASPECTS, CARD_KIND, TOUCHES, Worth, apply, played, position_of, undo
from amunre.rules.gold_ranking import gold_ranking
from amunre.testing import play_checked

VARIANTS = variant_files()


def _position(variant, seed: int, steps: int):
    """A game of random seats after `steps` decisions (or at its end)."""
    players = variant.players[seed % len(variant.players)]
    game = Game(variant, players, seed)
    agents = make_agents(["random"] * players, seed)
    for _ in range(steps):
        request = game.pending
        if request is None:
            break
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return game


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), seat=st.integers(0, 4))
def test_what_a_module_declares_a_holding_worth_is_what_its_rule_gives(path, seed, steps, seat):
    """`points_for` and `income_for` (what the planner reads) agree with playing the module's
    own `run` on the same position, for every player and every module that declares them."""
    variant = load_variant(path)
    game = _position(variant, seed, steps)
    player = seat % game.n_players
    view = game.view(player)
    state = position_of(view)
    checked = 0
    valued = [m for m in variant.modules.all if isinstance(m, ValuationFacet)]
    for module in [m for m in valued if m.kind != "phase"]:
        declared = module.points_for(state, player)
        if declared is not None:
            scored = played(module, state, player, variant)[1]
            assert {k: v for k, v in declared.items() if v} == {k: v for k, v in scored.items() if v}, module.key
            checked += 1
    for module in [m for m in valued if m.kind == "phase"]:
        if module.pays_for_holdings:
            declared = module.income_for(state, player)
            if declared is not None:
                gold, points = played(module, state, player, variant)
                assert declared[0] == gold and {k: v for k, v in declared[1].items() if v} == {
                    k: v for k, v in points.items() if v}, module.key
                checked += 1
    assert checked  # every shipped variant has modules that declare what a holding is worth


@pytest.mark.parametrize("ties", ["competition", "skip_one"])
@given(golds=st.lists(st.integers(0, 12), min_size=3, max_size=5))
def test_the_gold_ranking_declares_the_points_its_ranking_gives(ties, golds):
    """A-GOLDTIES either way (no shipped variant sets `skip_one`): the gold ranking's
    `points_for` one player is what ranking everybody gives him."""
    variant = load_variant("classic2003", [f"rulings.gold_ties={ties}"])
    ranking = variant.modules.rule("gold_ranking")
    state = Game(variant, len(golds), 0).state
    for player, gold in zip(state.players, golds):
        player.gold = gold
    expected = gold_ranking(ranking.counted_gold(state), ranking.params.points, ties)
    assert [ranking.points_for(state, p)[ranking.item_key] for p in range(len(golds))] == expected


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), seat=st.integers(0, 4), pick=st.integers(0, 2**16))
def test_a_module_that_declares_what_it_reads_reads_no_more_than_holdings(path, seed, steps, seat, pick):
    """A module with `ValuationFacet.reads` values a holding by the holdings alone: the cards in play,
    the provinces on auction and the modules' data may change (the planner keeps what it
    worked out when only they moved) and its points stay as they were."""
    variant = load_variant(path)
    game = _position(variant, seed, steps)
    player = seat % game.n_players
    state = position_of(game.view(player))
    modules = [m for m in variant.modules.scoring + variant.modules.final_scoring + variant.modules.phases
               if isinstance(m, ValuationFacet) and m.reads is not None]
    scoring = variant.modules.scoring + variant.modules.final_scoring

    def valued() -> list[object]:  # (as the planner values them: declared, else played)
        found = []
        for m in modules:
            points, income = m.points_for(state, player), m.income_for(state, player)
            if points is None and m in scoring:
                points = played(m, state, player, variant)[1]
            if income is None and m.pays_for_holdings:
                income = played(m, state, player, variant)
            found.append((points, income))
        return found

    before = valued()
    state.in_play = [pick % len(variant.cards)] + state.in_play
    publish(state, "on_auction", [] if published(state, "on_auction") else [pick % len(state.provinces)])
    # (a module reading its data here would fail: it reads more than holdings and the values
    # the modules publish, the offering level and the theft cards held, which stand for a round)
    kept: dict[str, dict] = {}
    for name, key in variant.modules.published_at.items():
        if name in ("offering_level", "theft_cards"):
            kept.setdefault(key, {})[name] = state.rules[key][name]
    state.rules = kept
    assert valued() == before


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), seat=st.integers(0, 4),
       pick=st.integers(0, 2**16), amount=st.integers(1, 5))
def test_a_module_is_blind_to_the_holdings_it_does_not_read(path, seed, steps, seat, pick, amount):
    """`ValuationFacet.reads`: a change of any aspect of a holding a module does not declare leaves what
    it values the holding at (`points_for`, `income_for`) as it was, so the planner need not
    work it out again."""
    variant = load_variant(path)
    game = _position(variant, seed, steps)
    player = seat % game.n_players
    state = position_of(game.view(player))
    mine = state.players[player].provinces
    where = {"own": pick % len(state.provinces), "farmers": mine[pick % len(mine)] if mine else None, "gold": None,
             "offering_level": None}
    where["stones"] = where["pyramids"] = where["farmers"]
    modules = [m for m in variant.modules.scoring + variant.modules.final_scoring + variant.modules.phases
               if isinstance(m, ValuationFacet) and m.reads is not None]
    assert all(aspect in ASPECTS or aspect.startswith(CARD_KIND) for m in modules for aspect in m.reads), \
        "a module reads an aspect amunre.planning.worth does not know"
    checked = 0
    # each aspect; cards one kind at a time ("cards:<kind>": a module may read only some)
    changes = [(what, touched, where[what]) for what, touched in TOUCHES.items() if what != "cards"]
    changes += [("cards", TOUCHES["cards"] | {CARD_KIND + name}, kind) for kind, name in enumerate(variant.cards)]
    for what, touched, at in changes:
        if what in ("farmers", "stones", "pyramids") and not mine:
            continue
        # gold enough to pass the others, a level off the current one
        level = published(state, "offering_level")
        size = {"gold": 10 * amount, "offering_level": 1 + (level + pick) % 6}.get(what, amount)
        change = ((what, at, size),)
        for module in modules:
            if not module.reads.isdisjoint(touched):
                continue
            before = (module.points_for(state, player), module.income_for(state, player))
            kept = apply(state, player, change, state.rules.get(variant.modules.published_at.get("offering_level")))
            after = (module.points_for(state, player), module.income_for(state, player))
            undo(state, kept)
            assert before == after, f"{module.key} does not declare {sorted(touched)} among what it reads"
            checked += 1
    assert checked or not modules


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), seat=st.integers(0, 4),
       picks=st.lists(st.tuples(st.sampled_from(sorted(TOUCHES)), st.integers(0, 2**16), st.integers(-3, 6)),
                      min_size=1, max_size=6))
def test_a_gain_is_made_and_taken_back_and_the_same_however_it_is_worked_out(path, seed, steps, seat, picks):
    """`Worth.points_of`: each change is made on the seat's position and taken back (the position
    after is the one before), and a lone change, which is made in place, is worth exactly what
    the same change is worth worked out the general way (with a change of nothing beside it)."""
    variant = load_variant(path)
    game = _position(variant, seed, steps)
    player = seat % game.n_players
    view = game.view(player)
    worth = Worth(view, {}, 0.5, {}, False)
    worth.whole(())  # the position is built
    before = worth._base.to_dict()
    for what, pick, amount in picks:
        where = {"cards": pick % max(1, len(variant.cards)), "gold": None, "offering_level": None}.get(
            what, pick % len(variant.board))
        if what == "cards" and not variant.cards:
            continue
        if what == "offering_level":
            amount = 1 + pick % max(1, variant.modules.max_offering_level)
        alone = worth.points_of(((what, where, amount),))
        assert worth._base.to_dict() == before, what
        beside = worth.points_of(((what, where, amount), ("gold", None, 0)))
        assert worth._base.to_dict() == before, what
        assert alone == beside, (what, where, amount)


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_the_planner_plays_every_variant_from_its_view_alone(path):
    """A whole game with planners in every seat, checked (the [views] invariant compares the
    planner's answers in two games its seat cannot tell apart); the same seed plays alike."""
    variant = load_variant(path)
    players = variant.players[-1]
    checker = play_checked(variant, players, 3, "planner", illegal_every=0, roundtrip_every=0,
                           counterfactual=False, views_every=9)
    assert checker.game.finished and checker.view_checks > 0
    again = play_game(variant, make_agents(["planner"] * players, 3), 3)
    assert again.answers == checker.game.answers


def test_a_scoring_change_greedy_does_not_see_changes_how_the_planner_builds():
    """Pyramids worth 2 points (monumental-pyramids: the item entered twice) against the 2003
    game on the same seeds: the planner builds more pyramids, significantly (paired t > 2);
    greedy plays the very same games. Expected direction: a pyramid is worth twice as much."""
    base, changed = load_variant("classic2003"), load_variant("monumental-pyramids")

    def pyramids(variant, agent, seed):
        built = []

        class Count:
            listens_to = {"pyramid"}

            def __call__(self, event):
                built.append(event)

        play_game(variant, make_agents([agent] * 4, seed), seed, [Count()])
        return len(built)

    seeds = range(30)
    diffs = [pyramids(changed, "planner", s) - pyramids(base, "planner", s) for s in seeds]
    t = statistics.mean(diffs) / (statistics.stdev(diffs) / len(diffs) ** 0.5)
    assert t > 2, (diffs, t)
    assert all(pyramids(changed, "greedy", s) == pyramids(base, "greedy", s) for s in seeds[:5])


@pytest.mark.parametrize("spec, expected", [
    ("planner:gold=x", "gold='x' is not a number from 0 to 10"),
    ("planner:gold=-1", "gold='-1' is not a number from 0 to 10"),
    ("planner:gold=1_0", "gold='1_0' is not a number from 0 to 10"),
    ("planner:gold=\u0661", "gold='\u0661' is not a number from 0 to 10"),  # an Arabic-Indic one
    ("planner:gold=1e1", "gold='1e1' is not a number from 0 to 10"),
    ("planner:early=3", "early='3' is not a number from -2 to 2"),
    ("planner:foresight=nan", "foresight='nan' is not a number from 0 to 1"),
    ("planner:later=1.5", "later='1.5' is not a number from 0 to 1"),
    ("planner:horizon=forever", "horizon='forever' is not a horizon (expected game ("),
    ("planner:horizon=" + "k" * 100, "horizon='" + "k" * 40 + "...' is not a horizon"),
    ("planner:pyramids=nan", "pyramids='nan' is not a number from -100 to 100"),
    ("planner:pyramids=" + "9" * 100, "pyramids='" + "9" * 40 + "...' is not a number"),
])
def test_planner_parameters_are_checked(spec, expected):
    with pytest.raises(AmunreError, match=re.escape(f"planner: {expected}")):
        make_agent(spec, 1, 0)


def test_a_weight_names_a_scoring_item_and_a_colon_in_its_key_is_written_as_a_dot():
    game = Game(load_variant("classic2003"), 4, 1)
    request = game.pending
    dotted = make_agent("planner:bonus_cards.west_east=2:gold=.3", 1, 0)
    assert dotted.weights == {"bonus_cards:west_east": 2.0} and dotted.buys == 0.3  # (`gold`: `buys`, old spelling)
    dotted.choose(game.view(request.player), request)  # a scoring item of classic2003: no error
    agent = make_agent("planner:pyramid=2", 1, 0)  # a key the variant does not score
    game = Game(load_variant("classic2003"), 4, 1)
    with pytest.raises(AmunreError, match=r"'pyramid' is no scoring item of classic2003 .*bonus_cards.west_east.*"
                                          r"pyramids"):
        agent.choose(game.view(game.pending.player), game.pending)


def test_a_weight_changes_what_the_planner_prefers():
    """Weighting the pyramids item up makes the same seat score more for its pyramids, against
    the same greedy seats on the same seeds."""
    variant = load_variant("classic2003")
    scored = {}
    for spec in ("planner", "planner:pyramids=4"):
        total = 0
        for seed in range(12):
            game = play_game(variant, [make_agent(spec, seed, 0)] + make_agents(["greedy"] * 4, seed)[1:], seed)
            total += sum(points for key, points in game.state.players[0].breakdown.items()
                         if key.endswith(":pyramids"))
        scored[spec] = total
    assert scored["planner:pyramids=4"] > scored["planner"], scored


def test_a_decision_without_an_appraisal_is_answered_by_looking_ahead(monkeypatch):
    """A decision whose module declares no appraisal (as a plug-in's may not) is answered from
    a game drawn from the seat's view, the same for the same seed, never at random."""
    import attrs

    variant = load_variant("classic2003")
    decisions = variant.modules.decisions
    monkeypatch.setitem(decisions, "buy_farmers", attrs.evolve(decisions["buy_farmers"], appraise=None))
    answers = []
    for _ in range(2):
        game = play_game(variant, make_agents(["planner"] * 3, 4), 4)
        answers.append(game.answers)
    assert answers[0] == answers[1]


def test_a_weight_the_variant_does_not_score_stops_run_before_anything_is_shown(capsys, tmp_path):
    from helpers import run_cli

    log = tmp_path / "game.jsonl"
    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--agents", "planner:pyramid=2",
                             "--log", str(log))
    assert code == 2 and out == "" and not log.exists()
    assert err.startswith("error: planner: 'pyramid' is no scoring item of classic2003") and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["bench", "--variant", "supermeeple2016", "--variant", "classic2003", "--agents", "planner:fewest_pyramids=2",
     "--games", "1", "--workers", "1"],
    ["check", "classic2003", "--agents", "planner:fewest_pyramids=2", "--games", "1"],
    ["arena", "--agents", "planner:fewest_pyramids=2", "--games", "4", "--workers", "1"],
    ["compare", "supermeeple2016", "classic2003", "--agents", "planner:fewest_pyramids=2", "--games", "2",
     "--workers", "1"],
], ids=["bench", "check", "arena", "compare"])
def test_every_command_checks_a_weight_against_each_variant_before_it_plays(capsys, argv):
    """A weight for an item only one of the variants scores stops the command at once, with
    nothing measured or shown first."""
    from helpers import run_cli

    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "", (out, err)
    assert "'fewest_pyramids' is no scoring item of classic2003" in err and "Traceback" not in err


def test_an_appraising_module_is_handed_the_variants_words(monkeypatch):
    """A module's `appraise` reads an `Asking` as a person's seat has it: the view, the request and the
    variant's words (a plug-in's appraise may name a term), not None."""
    import amunre.agents.planner as planner_module

    handed = []

    def recording(**fields):
        asking = planner_module_asking(**fields)
        handed.append(asking)
        return asking

    planner_module_asking = planner_module.Asking
    monkeypatch.setattr(planner_module, "Asking", recording)
    variant = load_variant("supermeeple2016")
    play_game(variant, make_agents(["planner"] * 3, 4), 4)
    assert handed and all(asking.words is not None and asking.words.variant is variant for asking in handed)
    assert {asking.request.kind for asking in handed} >= {"bid", "buy_stones"}
    assert handed[0].words.t("gold") == variant.term("gold")  # the variant's own words


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_options_appraised_all_at_once_are_worth_what_each_is_alone(path):
    """`Decision.appraise_all` (the auction's bids): each option's value among all of a request's
    is exactly what appraising it alone makes of it, in a fresh `Worth` of the same moment each
    time, at every such request of a planner game."""
    import amunre.agents.planner as planner_module

    variant = load_variant(path)
    batched = {kind for kind, decision in variant.modules.decisions.items() if decision.appraise_all is not None}
    checked = []

    def checking(**fields):
        asking = planner_module_asking(**fields)
        decision = variant.modules.decisions[asking.request.kind]
        if asking.request.kind in batched:
            fresh = lambda: Worth(asking.view, {}, 0.3, {}, False)  # noqa: E731
            together = decision.appraise_all(asking.request.options, asking, fresh())
            alone = [decision.appraise_all([option], asking, fresh())[0] for option in asking.request.options]
            assert together == alone
            checked.append(len(alone))
        return asking

    planner_module_asking = planner_module.Asking
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as patch:
        patch.setattr(planner_module, "Asking", checking)
        players = variant.players[0]
        play_game(variant, make_agents(["planner"] * players, 5), 5)
    assert not batched or sum(checked) > len(checked)  # requests of several options were checked


def test_a_module_may_declare_what_it_reads_as_a_plain_set(monkeypatch):
    """`ValuationFacet.reads` as a `set` (a plug-in's, say) plays as its frozenset does."""
    from amunre.rules.pyramids import Pyramids

    variant = load_variant("classic2003")
    before = play_game(variant, make_agents(["planner"] * 3, 1), 1).answers
    monkeypatch.setattr(Pyramids, "reads", set(Pyramids.reads))
    assert play_game(load_variant("classic2003"), make_agents(["planner"] * 3, 1), 1).answers == before


def test_a_module_played_for_its_points_is_valued_again_when_anything_moved(monkeypatch):
    """A module that declares what it reads but no `points_for` is valued by playing its rules,
    which may read anything: a worth on a position that differs only in the cards in play
    (which no declared formula reads) must not keep its points."""
    from amunre.core.mechanics import add_points
    from amunre.rules.pyramids import Pyramids

    formula = Pyramids.points_for

    def run(self, game):  # the printed scoring, and a point more for each card in play
        for p in range(game.state.n_players):
            points = formula(self, game.state, p)[self.item_key] + len(game.state.in_play)
            add_points(game, p, self.item_key, points)
        return
        yield

    monkeypatch.setattr(Pyramids, "points_for", ValuationFacet.points_for)
    monkeypatch.setattr(Pyramids, "run", run)
    variant = load_variant("classic2003")
    game = _position(variant, 3, 60)
    view, weights, runs = game.view(0), {}, {}  # (the same: a planner's next decision)
    first = Worth(view, weights, 0.22, runs)
    before = first.whole()
    game.state.in_play = [*game.state.in_play, 0]
    kept, fresh = Worth(view, weights, 0.22, runs, previous=first), Worth(view, weights, 0.22, runs)
    assert fresh.whole() == pytest.approx(before + 1)
    assert kept.whole() == fresh.whole()


def test_a_spectators_view_gives_a_position_without_a_hand():
    """`position_of` of a view with no seat (the board page's spectator): every player's hand
    is unknown, so empty."""
    from amunre.core.view import PlayerView

    variant = load_variant("classic2003")
    game = _position(variant, 3, 60)
    state = position_of(PlayerView(game, None))
    assert all(not any(player.hand) for player in state.players)
    assert [p.gold for p in state.players] == [p.gold for p in game.state.players]


def _test_plugin(module: str, rule: str, variant_file: str):
    """A test plug-in of tests/plugins/ registered in-process, yielding the variant file that uses it."""
    with registered_plugin(module, rule):
        yield load_variant(PLUGINS / variant_file)


@pytest.fixture
def tribute():
    """The free-tribute plug-in phase (tests/plugins/tribute_rule.py)."""
    yield from _test_plugin("tribute_rule", "tribute", "tribute.toml")


@pytest.mark.parametrize("spec", ["planner", "planner:horizon=kingdom"])
def test_points_an_option_scores_at_once_count_without_an_appraisal(tribute, spec):
    """A plug-in's yes/no decision that scores points for nothing, declaring no appraisal: the
    planner looks one step ahead, and the points the option scores at once count there, so it
    takes the gift every time it is offered, at either horizon."""
    from tribute_rule import POINTS

    rounds = len(tribute.edition.kingdoms) * tribute.edition.rounds_per_kingdom
    for seed in range(2):
        game = play_game(tribute, make_agents([spec] * 4, seed), seed)
        for player in game.state.players:  # taken at every round by every seat
            assert sum(points for key, points in player.breakdown.items()
                       if key.endswith(":tribute")) == POINTS * rounds, player.breakdown


@pytest.mark.parametrize("path", variant_files())
def test_what_the_transition_carries_is_what_the_rules_say(path):
    """R-GAME-05: between kingdoms the provinces lose their owners and farmers, and pyramids,
    stones, gold and cards stay, unless a module of the variant keeps the farmers or the owners
    (`Rule.keeps_between_kingdoms`). The planner learns it by playing each variant's transition."""
    from amunre.planning.horizon import carried

    variant = load_variant(path)
    if len(variant.edition.kingdoms) < 2:
        pytest.skip(f"{variant.id} has one kingdom: nothing is carried into another")
    players = variant.edition.players[0]
    game = Game(variant, players, 1)
    kept = variant.modules.kept_between_kingdoms
    expected = {"stones", "pyramids", "gold", "cards"} | ({"farmers"} if "farmers" in kept else set()) \
        | ({"provinces"} if "owners" in kept else set())
    assert carried(variant, players, 1, lambda: position_of(game.view(0))) == expected


@pytest.fixture
def ruins():
    """The plug-in whose pyramids and stones fall between kingdoms (tests/plugins/ruins_rule.py)."""
    yield from _test_plugin("ruins_rule", "ruins", "ruins.toml")


def test_a_transition_that_clears_pyramids_makes_them_worth_nothing_later(ruins):
    """A house rule whose pyramids fall between kingdoms, in a plug-in the planner knows
    nothing of: looking past the kingdom, an Old Kingdom pyramid is worth what it scores in
    the Old Kingdom alone, where in classic2003 it is worth more."""
    from amunre.planning.horizon import carried

    worths = {}
    for variant in (load_variant("classic2003"), ruins):
        game = Game(variant, 4, 3)
        agents = make_agents(["planner"] * 4, 3)
        while not (game.state.round == 1 and game.view(game.pending.player).me.provinces):
            request = game.pending
            game.answer(agents[request.player].choose(game.view(request.player), request))
        view = game.view(game.pending.player)
        province = view.me.provinces[0]
        worths[variant.id] = [Worth(view, {}, 0.22, {}, later=later).pyramids(province) for later in (0.0, 1.0)]
    assert carried(ruins, 4, 1, lambda: None) == {"gold", "cards"}
    alone, looking = worths["classic2003-ruins"]
    assert looking == alone
    alone, looking = worths["classic2003"]
    assert looking > alone


@pytest.fixture
def farmers_stay():
    """The plug-in whose farmers stay on their provinces (tests/plugins/farmers_stay_rule.py)."""
    yield from _test_plugin("farmers_stay_rule", "farmers_stay", "farmers-stay.toml")


def _room_for_a_farmer(variant, view) -> list[int]:
    """The seat's provinces with a field free."""
    fields = variant.board.provinces
    return [pid for pid in view.me.provinces if view.provinces[pid].farmers < fields[pid].fields]


def _first_kingdom_view(variant, seed: int):
    """The view of the seat to answer at the first decision of the Old Kingdom from its second
    round on at which it holds a province with a field free (planners in every seat)."""
    game = Game(variant, 4, seed)
    agents = make_agents(["planner"] * 4, seed)
    while not (game.state.round >= 1 and _room_for_a_farmer(variant, game.view(game.pending.player))):
        assert game.state.kingdom == 0, "no seat held a province with a field free in the Old Kingdom"
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return game.view(game.pending.player)


def test_farmers_that_stay_pay_a_share_of_the_next_kingdoms_harvests(farmers_stay):
    """A house rule whose farmers stay on their provinces into the next kingdom (R-GAME-05 kept
    in part, declared by a plug-in the planner knows nothing of): the transition played on two
    positions says the farmers are carried, the game keeps them, and looking past the kingdom a
    farmer bought in the Old Kingdom is worth more than its own kingdom's harvests, where in
    classic2003 the next kingdom adds nothing to it (its farmers go back to the supply)."""
    from amunre.planning.horizon import carried

    worths = {}
    for variant in (load_variant("classic2003"), farmers_stay):
        view = _first_kingdom_view(variant, 3)
        room = _room_for_a_farmer(variant, view)
        worths[variant.id] = [Worth(view, {}, 0.22, {}, later=later).farmers(room[0]) for later in (0.0, 1.0)]
    assert carried(farmers_stay, 4, 1, lambda: None) == {"farmers", "stones", "pyramids", "gold", "cards"}
    alone, looking = worths["classic2003"]
    assert looking == alone
    alone, looking = worths["classic2003-farmers-stay"]
    assert looking > alone


def test_a_kept_transition_leaves_the_farmers_and_clears_the_owners(farmers_stay):
    """R-GAME-05 with the farmers kept: after the transition every province has the farmers it
    had and no owner, and the supply has not taken them back."""
    from amunre.planning.horizon import project

    game = Game(farmers_stay, 4, 5)
    agents = make_agents(["planner"] * 4, 5)
    while game.state.round < 2:  # into the Old Kingdom's last round: farmers stand on the board
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    state = game.state.copy()
    farmers = [(prov.farmers, prov.free_farmers) for prov in state.provinces]
    supply = state.supply_farmers
    assert any(f or g for f, g in farmers), "some farmer stands on the board"
    project(state, farmers_stay, 1)
    assert [(prov.farmers, prov.free_farmers) for prov in state.provinces] == farmers
    assert all(prov.owner is None for prov in state.provinces) and state.supply_farmers == supply

