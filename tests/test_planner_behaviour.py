"""The planner reacts to rules: eight rule changes of different kinds, each played
by `planner` in every seat of 4-player classic2003 and of the changed variant on the same
seeds, move the statistic the change rewards in its direction, significantly.

Each case names its change (made with `--set` overrides, or with a small file that
`extends` classic2003 for a pipeline entry removed or added: written to a temporary folder,
never to variants/), the statistic, and the direction expected with its reason. The test:
the paired t-test (`amunre.compare.stats.paired`, what `amunre compare` uses) on the
per-game difference changed - base over the same seeds 0 .. GAMES-1, two-sided at 5%, and
the mean difference on the expected side. The greedy agent (a hand-written heuristic) does
not see most of these changes: for the scoring and ruling changes it plays the very same
games, so its statistic does not move at all in any game, which is asserted too.

Games per variant: 50 in the quick `ci` profile, 400 in `deep`, keyed off the hypothesis
profile as the other game-count tests are (the deep run: `AMUNRE_DEEP=1 pytest ...`);
`AMUNRE_BEHAVIOUR_GAMES=n` sets it outright. Run with `-s` to see each case's numbers.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import nullcontext
from functools import cache
from pathlib import Path

import attrs
import pytest
from helpers import registered_plugin
from hypothesis import settings

from amunre.agents import make_agents
from amunre.compare.collect import StatsCollector
from amunre.compare.stats import estimate, paired
from amunre.core.engine import Game, play_on
from amunre.loader import load_variant

#: The quick profile's games per variant, times up to 8 in deeper profiles.
GAMES = int(os.environ.get("AMUNRE_BEHAVIOUR_GAMES") or 50 * min(8, max(1, settings.default.max_examples // 25)))
BASE = "classic2003"
PLAYERS = 4
#: Two-sided level of the paired test.
ALPHA = 0.05


@attrs.frozen
class Case:
    """A rule change, the statistic it rewards and which way that should move (+1 or -1)."""

    id: str
    kind: str
    change: tuple[str, ...] = ()  # `--set` overrides of classic2003
    extends: str = ""  # or: the body of a file extending classic2003
    statistic: str = ""
    direction: int = 1
    why: str = ""
    games: int = 1  # times GAMES: a statistic with more noise than the others needs more
    plugin: tuple[str, ...] = ()  # a test plug-in the change uses: (module in tests/plugins/, rule id)


CASES = [
    Case("complete-sets-worth-9", "a scoring value", ("scoring.complete_sets.params.points=9",),
         statistic="complete_sets", direction=+1,
         why="a complete set scores 9 points rather than 3, so spreading pyramids over all three provinces "
             "pays more: more sets are completed"),
    Case("gold-ranking-triple", "a final-scoring value", ("final_scoring.gold_ranking.params.points=[18, 12, 6]",),
         statistic="gold_end", direction=+1,
         why="the most gold scores 18, 12, 6 rather than 6, 4, 2, so gold held at the end is worth more: "
             "more gold is kept (version 0.4.0's planner needed 250 games, p = 0.003; since it values a gold "
             "by what the final items make of it, 50 games give +18.5 gold, [+14.2, +22.8], p = 2e-11)"),
    Case("flat-market-price", "a price", ("phases.market.params.price_step=0",),
         statistic="items_bought", direction=+1,
         why="every card, farmer and stone costs 1 gold however many are bought (1, 2, 3, ... rather than "
             "1, 3, 6, ... for 1, 2, 3): more items are bought"),
    Case("caravans-never-pay", "an income", ("phases.harvest.params.camel_levels=[]",),
         statistic="caravan_gold", direction=-1,
         why="caravans pay at no offering level rather than at levels 1 and 2, so a caravan province "
             "earns less: less gold is bid for caravan provinces"),
    Case("temples-score-at-harvest", "a ruling", ("rulings.temples_score_at_harvest=true",),
         statistic="temple_gold", direction=+1,
         why="temples also score the offering level at every harvest (A-TEMPLEHARVEST), so a temple "
             "province scores up to four times a kingdom rather than once: more gold is bid for them"),
    Case("no-pyramid-item", "a pipeline entry removed", extends='[[scoring]]\nid = "pyramids"\nremove = true\n',
         statistic="pyramids_built", direction=-1,
         why="pyramids no longer score a point each (only through sets and the Nile sides): fewer are built"),
    Case("pyramids-worth-2", "a pipeline entry added",
         extends='[[scoring]]\nid = "pyramids_again"\nrule = "pyramids"\nafter = "pyramids"\n',
         statistic="pyramids_built", direction=+1,
         why="a second pyramids item makes each pyramid worth 2 points: more are built"),
    Case("starting-gold-40", "a starting resource", ("components.starting_gold=40",),
         statistic="auction_price", direction=+1,
         why="every player starts with 40 gold rather than 20, and gold held is worth less than the "
             "provinces it buys: more gold is paid per province in the auction"),
]

#: Changes that act in a later kingdom than the one they are decided in: the first kingdom's
#: play moves for the planner that looks over the whole game (`horizon=game`), and does not move
#: at all for the one that looks to its kingdom's end (`horizon=kingdom`): the same games.
LATER_CASES = [
    Case("pyramids-worth-2-in-the-last-kingdom", "a later kingdom's scoring value",
         extends='[[scoring]]\nid = "pyramids_again"\nrule = "pyramids"\nafter = "pyramids"\n'
                 'kingdoms = ["New Kingdom"]\n',
         statistic="pyramids_first_kingdom", direction=+1,
         why="a second pyramids item scores at the New Kingdom's end only, and a pyramid built in the Old "
             "Kingdom still stands then: more are built in the Old Kingdom"),
    Case("farmers-stay", "farmers kept into the next kingdom",
         extends='[[phases]]\nid = "farmers_stay"\nrule = "farmers_stay"\nname = "farmers stay"\nafter = "harvest"\n',
         plugin=("farmers_stay_rule", "farmers_stay"), statistic="farmers_first_kingdom", direction=+1,
         why="a plug-in keeps every province's farmers on it into the New Kingdom, where whoever holds the "
             "province then harvests them: a farmer bought in the Old Kingdom pays a share more, so more are bought"),
]

#: Changes to what gold left at the end is worth: gold held is worth what it still buys plus what
#: the final items make of it (`PlannerAgent.gold_now`), so the first kingdom's play moves with
#: either horizon (the final scoring is in both).
GOLD_CASES = [
    Case("gold-left-worth-nothing", "a final item that rewards gold left at the end not at all",
         ("final_scoring.gold_ranking.params.points=[0, 0, 0]",), statistic="gold_first_kingdom", direction=-1,
         why="the gold ranking scores nothing, so a gold kept to the end is worth only what it buys before: "
             "less gold is carried out of the first kingdom"),
    Case("gold-left-worth-triple", "a final item that rewards gold left at the end more",
         ("final_scoring.gold_ranking.params.points=[18, 12, 6]",), statistic="gold_first_kingdom", direction=+1,
         why="the most gold at the end scores 18, 12, 6 rather than 6, 4, 2, so every gold is worth more from the "
             "first round: more gold is carried out of the first kingdom (it varies much, yet at 50 games the "
             "interval excludes 0 with either horizon: [+20.2, +37.5] and [+9.4, +25.6])"),
]

#: Why the planner does not pass a case yet (it stays marked until it does: strict).
NOT_YET: dict[str, str] = {}

#: The cases greedy cannot see (it ignores scoring values, pipelines and this ruling): its games stay identical.
GREEDY_BLIND = ["complete-sets-worth-9", "gold-ranking-triple", "temples-score-at-harvest", "no-pyramid-item",
                "pyramids-worth-2"]


# -- the statistics -------------------------------------------------------------------------
class _Extra:
    """What the compare rows (`StatsCollector`) do not count: complete sets scored, items bought
    in the market, and the gold bid for provinces with temples or with a caravan."""

    listens_to = frozenset({"set_points", "purchase", "acquire", "pyramid", "transition"})

    def __init__(self, variant):
        self.game = None  # (the game heard: the gold held when the first kingdom ends is read off it)
        self.gold_first_kingdom = 0
        self.board = variant.board.provinces
        self.sets = self.items = self.temple_gold = self.caravan_gold = 0
        self.first_kingdom, self.pyramids_first_kingdom, self.farmers_first_kingdom = True, 0, 0

    def __call__(self, event: dict) -> None:
        name = event["event"]
        if name == "transition":  # (the first kingdom is over)
            if self.first_kingdom:
                self.gold_first_kingdom = sum(player.gold for player in self.game.state.players)
            self.first_kingdom = False
        elif name == "pyramid":
            self.pyramids_first_kingdom += self.first_kingdom
        elif name == "set_points":
            self.sets += event["sets"]
        elif name == "purchase":
            self.items += event["count"]
            if event["what"] == "farmers":
                self.farmers_first_kingdom += event["count"] * self.first_kingdom
        else:  # the same seed draws the same provinces: only what is bid for them differs
            province = self.board[event["province"]]
            self.temple_gold += event["amount"] if province.temples else 0
            self.caravan_gold += event["amount"] if province.caravan else 0


@cache
def variant_of(case_id: str):
    """The changed variant of a case (classic2003 itself for "base")."""
    if case_id == "base":
        return load_variant(BASE)
    case = next(c for c in CASES + LATER_CASES + GOLD_CASES if c.id == case_id)
    if not case.extends:
        return load_variant(BASE, case.change)
    with tempfile.TemporaryDirectory(prefix="amunre-behaviour-") as folder, \
            (registered_plugin(*case.plugin) if case.plugin else nullcontext()):
        path = Path(folder) / f"{case.id}.toml"
        path.write_text(f'extends = "{BASE}"\n[edition]\nid = "{case.id}"\nname = "{BASE}, {case.kind}"\n'
                        + case.extends, encoding="utf-8")
        variant = load_variant(path)
        variant.modules  # noqa: B018 - made now, while the plug-in is registered: it may go afterwards
        return variant


@cache
def records(case_id: str, agent: str, games: int) -> tuple[dict, ...]:
    """Each game's statistics, seeds 0 .. games-1, with `agent` in every seat."""
    variant = variant_of(case_id)
    rows = StatsCollector(variant)
    out = []
    for seed in range(games):
        rows.reset()
        extra = _Extra(variant)
        game = extra.game = Game(variant, PLAYERS, seed, [rows, extra])
        play_on(game, make_agents([agent] * PLAYERS, seed))
        record = rows.record(game)
        out.append({
            "gold_end": record["gold_end"],  # gold per player at the end
            "pyramids_built": record.get("pyramids_built", 0),  # per game
            "auction_price": record["auction_price"],  # mean gold paid per province
            "complete_sets": extra.sets / PLAYERS,  # sets scored per player over both kingdoms
            "items_bought": extra.items / PLAYERS,  # cards, farmers and stones per player
            "temple_gold": extra.temple_gold,  # per game
            "caravan_gold": extra.caravan_gold,  # per game
            "pyramids_first_kingdom": extra.pyramids_first_kingdom,  # per game, built in the first kingdom
            "farmers_first_kingdom": extra.farmers_first_kingdom,  # per game, bought in the first kingdom
            "gold_first_kingdom": extra.gold_first_kingdom,  # per game, held when the first kingdom ends
            "answers": tuple(game.answers),
        })
    return tuple(out)


def compared(case: Case, agent: str):
    games = GAMES * case.games
    base = [r[case.statistic] for r in records("base", agent, games)]
    changed = [r[case.statistic] for r in records(case.id, agent, games)]
    result = paired(base, changed)
    line = (f"{agent} {case.id} ({case.kind}): {case.statistic} base {estimate(base).mean:.3f}, "
            f"changed {estimate(changed).mean:.3f}, paired difference {result.diff:+.3f} "
            f"[{result.low:+.3f}, {result.high:+.3f}], p = {result.p:.3g} (two-sided), {result.n} games; "
            f"expected {'up' if case.direction > 0 else 'down'}: {case.why}")
    print(line)
    return result, line


# -- the tests ------------------------------------------------------------------------------
def test_eight_kinds_of_change_are_covered():
    kinds = {c.kind for c in CASES}
    assert len(CASES) >= 8 and {"a scoring value", "a final-scoring value", "a price", "an income", "a ruling",
                                "a pipeline entry removed", "a pipeline entry added", "a starting resource"} <= kinds
    base = variant_of("base")
    for case in CASES:  # each changed variant plays other rules than the base
        changed = variant_of(case.id)
        assert attrs.evolve(changed, edition=base.edition) != base, case.id


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[c.id])) if c.id in NOT_YET else c
    for c in CASES], ids=[c.id for c in CASES])
def test_the_planner_moves_the_statistic_the_change_rewards(case):
    result, line = compared(case, "planner")
    assert result.diff * case.direction > 0 and result.p < ALPHA, line


@pytest.mark.parametrize("case", [c for c in CASES if c.id in GREEDY_BLIND], ids=lambda c: c.id)
def test_greedy_does_not_see_a_scoring_or_ruling_change(case):
    """Greedy's own formulas ignore these changes: every game is the same, so the statistic
    does not move in any of them (a difference of exactly 0, game by game)."""
    result, line = compared(case, "greedy")
    games = GAMES * case.games
    base, changed = records("base", "greedy", games), records(case.id, "greedy", games)
    assert [r["answers"] for r in base] == [r["answers"] for r in changed], line
    assert all(b[case.statistic] == c[case.statistic] for b, c in zip(base, changed)) and result.diff == 0, line


@pytest.mark.parametrize("case", LATER_CASES, ids=lambda c: c.id)
def test_a_change_in_a_later_kingdom_moves_the_first_kingdoms_play(case):
    """The planner that looks over the whole game plays the first kingdom otherwise when only a
    later kingdom's rules changed (paired over the same seeds, significantly, the expected way)."""
    result, line = compared(case, "planner")
    assert result.diff * case.direction > 0 and result.p < ALPHA, line


@pytest.mark.parametrize("case", LATER_CASES, ids=lambda c: c.id)
def test_the_planner_of_one_kingdom_does_not_see_a_later_kingdoms_change(case):
    """With `horizon=kingdom` the first kingdom's statistic does not move in any game: what
    the looking-ahead planner does differently comes from its horizon alone."""
    agent, games = "planner:horizon=kingdom", GAMES * case.games
    base = [r[case.statistic] for r in records("base", agent, games)]
    changed = [r[case.statistic] for r in records(case.id, agent, games)]
    assert base == changed, compared(case, agent)[1]
    assert sum(base) > 0  # (something is counted: a statistic that never moves would prove nothing)


@pytest.mark.parametrize("agent", ["planner", "planner:horizon=kingdom"])
@pytest.mark.parametrize("case", GOLD_CASES, ids=lambda c: c.id)
def test_what_gold_left_at_the_end_is_worth_moves_the_first_kingdoms_play(case, agent):
    """Gold held is worth what it still buys plus what the final items make of it: when the
    gold ranking pays nothing, or three times as much, the first kingdom's play moves already
    (paired over the same seeds, significantly, the expected way), with either horizon."""
    result, line = compared(case, agent)
    assert result.diff * case.direction > 0 and result.p < ALPHA, line
