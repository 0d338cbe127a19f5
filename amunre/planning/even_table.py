"""What one more pyramid brings a seat while a kingdom is being played, read from the
variant's own scoring: the measure of what a gold buys that the whole-game planner's gold worth
follows (`amunre.agents.planner.PlannerAgent.buys_now`).

A gold held now is worth what it will buy, and what it buys is worth what the variant's
scoring makes of it. The printed editions have the same prices and the same items' points;
what differs is how an item reads a holding the kingdom has not filled yet: the 2016 item of
the province with the fewest pyramids pays for a pyramid on a seat's only province, where the
2003 complete sets pay nothing before the third province. The planner values every purchase
on the holding as it stands (a seat holds one province at its first market), so in one edition
its purchases bring it more points than in the other, and a gold kept must be worth more to
it, or it spends what it will lack (docs/agents.md, "A gold's worth read from the variant").

The model, an even table: every seat holds `h` provinces, each with `d` pyramids and nothing
else on the board, and the seat builds one pyramid more on one of its own. What that brings is
what the variant's own items say the seat gains (`amunre.planning.worth.Worth`: the kingdom's
scoring items and the final items; no later kingdom, no income, gold at nothing, every item
at weight 1, whatever weights the planner is given), averaged over the province it builds on,
the seat's place on the board (every rotation of the board's provinces among the seats), `h`
from 1 to a kingdom's rounds (a seat wins a province a round; a size the board cannot deal
to every seat is left out) and every kingdom. Then the least over `d` in `DENSITIES`.

Why the least over densities: where a contest needs a few pyramids to start (a Nile side with
`nile_min_pyramids` 2, or totals of pyramids along a side), one pyramid more on a thin table
wins it outright for the seat, which is the opening, not what a gold buys later; the contests
pay only the seat's own points (a Nile side tied pays each tied owner alike), so on a table
where they are under way a pyramid more moves them for nobody. In both printed editions every
density gives the same number: the pyramid's own point, plus in 2016 the fewest's 3 where the
seat holds one province, one holding size in three: 1 in classic2003, (4 + 1 + 1) / 3 = 2 in
supermeeple2016. A house rule with other points, or items that read a holding otherwise,
gets its own number with no code; the price of stones is not read (the printed editions share
it), nor what a gold buys besides pyramids (provinces, farmers, cards).

The table is a real game of the variant set up by its own modules (so a plug-in's data is
there), with the provinces, their owners and the kingdom then set as above; the hands, the
supplies and the modules' own data stay as the set-up left them, which no shipped item reads
when it scores pyramids.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from amunre.core.engine import Game
from amunre.core.state import ProvinceState
from amunre.planning.worth import Worth

if TYPE_CHECKING:
    from amunre.core.model import Variant
    from amunre.core.modules import Modules

#: The pyramids on each province held on the even table before the seat builds one more (the
#: least of what they give is the number: the module docstring).
DENSITIES = (1, 2, 3)

#: What one more pyramid brings, by the variant's modules and the player count: worked out once
#: for each (some 135 positions), and forgotten with the variant.
_KNOWN: weakref.WeakKeyDictionary[Modules, dict[int, float | None]] = weakref.WeakKeyDictionary()


def one_more_pyramid_points(variant: Variant, players: int) -> float | None:
    """What one more pyramid brings a seat on the even table (the module docstring), or None
    where the board cannot deal even one province to every seat."""
    known = _KNOWN.get(variant.modules)  # (a get first: `setdefault` would make a weak reference at each ask)
    if known is None:
        known = _KNOWN[variant.modules] = {}
    if players not in known:
        known[players] = _worked_out(variant, players)
    return known[players]


def _worked_out(variant: Variant, players: int) -> float | None:
    game = Game(variant, players, 0)  # (its state is the table, set again for each holding)
    provinces = len(game.state.provinces)
    sizes = [h for h in range(1, variant.edition.rounds_per_kingdom + 1) if players * h <= provinces]
    if not sizes:
        return None
    by_items: dict[tuple, list[float]] = {}  # (a kingdom scored as one before it gains alike)
    by_density = []
    for density in DENSITIES:
        by_kingdom = []
        for kingdom in range(len(variant.edition.kingdoms)):
            items = (density, *map(id, variant.modules.scoring_in(kingdom)))
            if items not in by_items:
                by_items[items] = [_mean([gain for offset in range(provinces)
                                          for gain in _gains_on_even_table(game, kingdom, held, offset, density)])
                                   for held in sizes]
            by_kingdom.append(_mean(by_items[items]))
        by_density.append(_mean(by_kingdom))
    return min(by_density)


def _gains_on_even_table(game: Game, kingdom: int, held: int, offset: int, density: int) -> list[float]:
    """One pyramid more on each of seat 0's provinces, one at a time, on the even table of
    `kingdom` where seat s holds the `held` provinces from `offset + s * held` on (in the board's
    order, around), each with `density` pyramids and nothing else on the board (the game's own
    draw, which lays free stones on some provinces, is cleared)."""
    state = game.state
    state.kingdom = kingdom
    count = len(state.provinces)
    state.provinces = [ProvinceState() for _ in range(count)]
    for seat, player in enumerate(state.players):
        player.provinces = [(offset + seat * held + i) % count for i in range(held)]
        for pid in player.provinces:
            state.provinces[pid].owner = seat
            state.provinces[pid].pyramids = density
    worth = Worth(game.view(0), {}, 0.0, {})
    return [worth.points_of((("pyramids", pid, 1),)) for pid in state.players[0].provinces]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
