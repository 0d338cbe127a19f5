"""What one more pyramid brings a seat while a kingdom is being played, read from the variant:
the measure of what a gold buys that the whole-game planner's gold worth follows
(`amunre.agents.planner.PlannerAgent.gold_now`).

A gold held now is worth what it will buy, and what it buys is worth what the variant's
scoring makes of it. The printed editions have the same prices and the same items' points;
what differs is how an item reads a holding the kingdom has not filled yet: the 2016 item of
the province with the fewest pyramids pays for a pyramid on a seat's only province, where the
2003 complete sets pay nothing before the third province. The planner values every purchase
on the holding as it stands (a seat holds one province at its first market), so in one edition
its purchases bring it more points than in the other, and a gold kept must be worth more to
it, or it spends what it will lack (docs/agents.md, "A gold's worth read from the variant").

The model, an even table: every seat holds `h` provinces, each with `PYRAMIDS_ON_EACH`
pyramids (so the contests are even: a Nile side's every province tied), the seat building one
pyramid more on one of its own. Its worth is what the variant's own items say
(`amunre.planning.worth.Worth`: this kingdom's scoring items and the final items, no horizon,
no income, gold at nothing), averaged over the provinces it builds on, the seat's place on the
board (every rotation of the board's provinces among the seats), `h` from 1 to the rounds of a
kingdom (a seat wins a province a round) and the kingdoms (one for each set of scoring items).
In both printed editions a pyramid
on an even table brings 1 point by the pyramids item (the Nile sides stay tied, the sets
unmoved); the 2016 item of the fewest adds 3 on a lone province: 1 in classic2003, 2 in
supermeeple2016. A house rule with other points, or items that read a holding otherwise, gets
its own number with no code; the price of stones is not read (the printed editions share it).

On an empty board (no pyramid anywhere) the first pyramid would win a Nile side outright,
which is the opening alone (6 and 7 points): `PYRAMIDS_ON_EACH` 1 reads the table in play, and 2
or more gives the same numbers in both editions. (Measured: the empty board's number lifted
supermeeple2016 to 27.5% and 27.3% of the wins against three `horizon=kingdom` planners, this
one to 30.4% and 30.8%; seeds 3 and 5, 2,000 games.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.core.engine import Game
from amunre.core.state import ProvinceState
from amunre.planning.worth import Worth

if TYPE_CHECKING:
    from amunre.core.model import Variant

#: The pyramids on each province held on the even table before the seat builds one more.
PYRAMIDS_ON_EACH = 1

#: (variant, players) -> the worth of one more pyramid, with the variant kept so its id stays its
#: own; worked out once per process (a few hundred valuations).
_KNOWN: dict[tuple[int, int], tuple[Variant, float]] = {}


def pyramid_points(variant: Variant, players: int) -> float:
    """What one more pyramid brings a seat on the even table (the module docstring), averaged
    over the kingdoms, the provinces held (1 to a kingdom's rounds), the seats' places on the
    board and the province it goes on."""
    found = _KNOWN.get((id(variant), players))
    if found is not None and found[0] is variant:
        return found[1]
    game = Game(variant, players, 0)  # (its state is the table, set again for each holding)
    provinces = len(game.state.provinces)
    holdings = [h for h in range(1, variant.edition.rounds_per_kingdom + 1) if players * h <= provinces]
    by_holding = [_mean([gain for kingdom in _kingdoms_scored_alike(variant) for offset in range(provinces)
                         for gain in _gains_on_even_table(game, kingdom, held, offset)])
                  for held in holdings]
    points = _mean(by_holding)
    _KNOWN[id(variant), players] = (variant, points)
    return points


def _kingdoms_scored_alike(variant: Variant) -> list[int]:
    """The kingdoms, one for each set of scoring items (a kingdom scored as one before it values
    a pyramid as it does: in the printed editions, the first kingdom alone)."""
    modules, seen, kingdoms = variant.modules, set(), []
    for kingdom in range(len(variant.edition.kingdoms)):
        items = tuple(id(module) for module in modules.scoring_in(kingdom))
        if items not in seen:
            seen.add(items)
            kingdoms.append(kingdom)
    return kingdoms


def _gains_on_even_table(game: Game, kingdom: int, held: int, offset: int) -> list[float]:
    """One pyramid more on each of seat 0's provinces, one at a time, on the even table of
    `kingdom` where seat s holds the `held` provinces from `offset + s * held` on (in the board's
    order, around), each with `PYRAMIDS_ON_EACH` pyramids and nothing else on the board (the
    game's own draw, which lays free stones on some provinces, is cleared)."""
    state = game.state
    state.kingdom = kingdom
    count = len(state.provinces)
    state.provinces = [ProvinceState() for _ in range(count)]
    for seat, player in enumerate(state.players):
        player.provinces = [(offset + seat * held + i) % count for i in range(held)]
        for pid in player.provinces:
            state.provinces[pid].owner = seat
            state.provinces[pid].pyramids = PYRAMIDS_ON_EACH
    worth = Worth(game.view(0), {}, 0.0, {})
    return [worth.points_of((("pyramids", pid, 1),)) for pid in state.players[0].provinces]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
