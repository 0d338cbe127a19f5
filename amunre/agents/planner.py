"""The `planner` agent: plays the variant it is given, valuing every option by its rules.

At each decision it asks the decision's own module what each option is worth
(`Decision.appraise(option, asking, worth)`, or `appraise_all` for all at once), in points for
its seat, and answers with the
best (the first of equals: it is deterministic). The module turns an option into changes of
the seat's holding with its own prices, and `amunre.planning.worth.Worth` values a change by playing
the variant's own scoring items, final items and income phases on a copy of the position
built from the seat's view. So the planner knows no rule, decision kind, card or price: change
a scoring value, an income, a price, a ruling or the pipeline, and what it prefers follows.

A decision whose module declares no appraisal (a plug-in's) is answered by looking one step
ahead: in a game drawn from the seat's view (`view.sample_game`), each option is given and the
seat's position valued the same way, the best taken.

Parameters (`planner:buys=0.3:pyramids=2`): `horizon`, how far it looks: `game` (the default)
values a holding over the rest of the game, the kingdoms after this one too
(`amunre.planning.horizon`), `kingdom` up to this kingdom's scoring and the final one (the
planner of version 0.4.0, which plays the very same games); `later`, the weight of the next
kingdom's points against this one's (with `horizon=game`); `regain`, the share of what goes
back to auction at a kingdom's end it counts as its own in the kingdoms after (likewise);
`buys` (`gold`, its old spelling, is still read), the points a gold is worth to it in the
game's middle for what it buys (unless given, with `horizon=game` read from the variant: what
one more pyramid brings on an even table, `amunre.planning.even_table`, times
`BUYS_PER_PYRAMID_POINT`; with `horizon=kingdom` `DEFAULT_BUYS`); `foresight`, the share of
what the final items make of a gold at the end it counts on top (the two: one number, a
gold's worth, `PlannerAgent.gold_now`); `early`, how much more that number is before the
middle and less after, with either horizon (the game's length is the variant's); and a
weight for any scoring item key of the variant (`amunre show VARIANT` lists them; 1 if not given), to pit
styles against each other.
"""

from __future__ import annotations

import math

from amunre.agents.asking import owner_of
from amunre.agents.numbers import plain_number
from amunre.core.contract import Asking
from amunre.core.errors import AmunreError, ArgumentValueError
from amunre.core.facets import ValuationFacet
from amunre.core.words import Words
from amunre.planning.even_table import one_more_pyramid_points
from amunre.planning.runs import runs_left
from amunre.planning.worth import CardWorths, Worth, final_gold_of

#: Points a gold is worth to the planner for what it still buys, in the game's middle, unless
#: told otherwise. On top comes what the final items make of it at the end
#: (`PlannerAgent.gold_now`): with the printed gold ranking among four, 0.35 x 0.3, so a gold is
#: worth the 0.22 measured before in the game's middle.
DEFAULT_BUYS = 0.115
#: With `horizon=game` and no `buys` given, what a gold buys is read from the variant: this many
#: points a gold for each point one more pyramid brings a seat on an even table while a kingdom
#: is played (`amunre.planning.even_table.one_more_pyramid_points`: 1 in classic2003, so its 0.115 as
#: before; 2 in supermeeple2016, whose item of the fewest pyramids pays for a pyramid on a lone
#: province, so 0.23). `horizon=kingdom` keeps `DEFAULT_BUYS`, the planner of version 0.4.0.
#: Measured, one planner against three `horizon=kingdom` planners, 2,000 games: supermeeple2016
#: 30.4%, 31.4%, 30.8% at seeds 3, 4, 5 (26.1%, 25.7%, 23.2% before), against three greedy
#: 49.8% and 50.8% at seeds 3 and 5 (46.0%, 46.3%); classic2003 the very same games.
BUYS_PER_PYRAMID_POINT = DEFAULT_BUYS
#: How much more a gold is worth at the first round than in the middle, twice over: at 1, 1.5
#: times its middle worth at the start and 0.5 times plus a round's share at the end. It scales
#: the whole of a gold's worth, the final items' part too: scaling only what a gold buys (at 2,
#: the same numbers within 0.005 a gold among four) measured weaker, 25.0% and 26.2% of the
#: wins against three `horizon=kingdom` planners where this gave 27.4% and 27.8% (classic2003,
#: 2,000 games, seeds 3 and 4).
DEFAULT_EARLY = 1.0
#: The share of what the final items make of a gold on an even table (a gold ranking's points)
#: it counts in a gold's worth while the game goes on: a gold held now may be spent before the
#: end.
DEFAULT_FORESIGHT = 0.35
#: How far it looks unless told otherwise (`HORIZONS`).
DEFAULT_HORIZON = "game"
#: What each horizon looks at.
HORIZONS = {"game": "the rest of the game, the kingdoms after this one too",
            "kingdom": "this kingdom's scoring and the final one only"}
#: The weight of the next kingdom's points against this one's, unless told otherwise: in full
#: (who will hold a province then is already counted by the share, `amunre.planning.horizon`).
#: Measured: against three `horizon=kingdom` planners, 26.1%, 25.8%, 25.8% and 25.4% of the wins at
#: 0.3, 0.5, 0.7 and 1 (1,200 classic2003 games each: no difference), and at 1 a change of a later
#: kingdom's scoring moves the first kingdom's play most (pyramids worth 2 in the New Kingdom:
#: +0.31 pyramids built in the Old, [+0.20, +0.42], 150 paired games; at 0.5 no detectable move).
DEFAULT_LATER = 1.0
#: The share of what goes back to auction at a kingdom's end (the provinces, and what stands
#: on them) it counts as its own in the kingdoms after, unless told otherwise (None: 1/n, the
#: share it can expect to win). Measured, one planner against three `horizon=kingdom` planners,
#: 2,000 games, seed 3: classic2003 24.7%, 25.0%, 26.3%, 27.4% at 1/4, 0.5, 0.75, 1;
#: supermeeple2016 24.7%, 26.0%, 26.1% at 1/4, 0.75, 1; against three greedy, classic2003 45.1%
#: at 1/4, 49.2% at 1. So a pyramid built before the last kingdom counts a point in each
#: kingdom left, as if it stayed the builder's: the planner underbuilds otherwise.
DEFAULT_REGAIN = 1.0
#: At most this many options are tried one by one where a decision has no appraisal.
MOST_LOOKED_AHEAD = 40


class PlannerAgent:
    name = "planner"

    def __init__(self, rng, buys: float | None = None, weights: dict[str, float] | None = None,
                 early: float = DEFAULT_EARLY, foresight: float = DEFAULT_FORESIGHT,
                 horizon: str = DEFAULT_HORIZON, later: float = DEFAULT_LATER,
                 regain: float | None = DEFAULT_REGAIN):
        self.rng = rng
        self.horizon = horizon
        # the weight of later kingdoms' points: none when it looks no further than this kingdom
        self.later = later if horizon == "game" else 0.0
        self.buys = buys  # (None: read from the variant with `horizon=game`: `buys_now`)
        self.early = early
        self.foresight = foresight
        self.regain = regain
        self.weights = dict(weights or {})
        self._final_gold_at = None  # ((variant, players), what the final items make of a gold)
        self._checked = None  # the variant whose item keys the weights were checked against
        self._words: Words | None = None
        self._worth = None
        self._card_worths = CardWorths()
        self._asked: dict = {}  # decision kind -> (its declaration if it appraises, the module asking it)
        self._when, self._runs = None, None  # (view, module, kingdom, round) -> its income runs
        # what a gold is worth at the last decision, and `_spread` then
        self._gold_now, self._spread_now = DEFAULT_BUYS if buys is None else buys, 1

    def check_variant(self, variant) -> None:
        """Its item weights name scoring items of `variant` (else a clear AmunreError)."""
        check_weights(self.weights, variant)

    def choose(self, view, request):
        options = request.options
        if len(options) == 1:
            return options[0]
        best, best_value = options[0], -math.inf
        for option, value in zip(options, self.values(view, request)):
            if value > best_value:
                best, best_value = option, value
        return best

    def ranked(self, view, request) -> list:
        """The request's options from the one it values most (the first of equals first)."""
        options = request.options
        values = self.values(view, request)
        return [options[i] for i in sorted(range(len(options)), key=lambda i: -values[i])]

    def values(self, view, request) -> list[float]:
        """What it values each of the request's options at, in points for its seat."""
        options = request.options
        variant = view.variant
        if self._checked is not variant:
            check_weights(self.weights, variant)
            # the variant's words, as a person's seat has them: an `appraise` may read them too
            self._checked, self._asked, self._words = variant, {}, Words(variant)
        kind = request.kind
        found = self._asked.get(kind)
        if found is None:  # a decision's declaration and module stay put for the variant
            declared = variant.modules.decisions.get(kind)
            # (a declaration without an appraisal is kept as none: it is looked ahead too)
            found = self._asked[kind] = (declared if declared is not None and declared.appraises else None,
                                         owner_of(variant, kind))
        decision, owner = found
        if decision is None:
            return self._look_ahead(view, request)
        worth = self._worth_for(view, variant, owner)
        asking = Asking(view=view, request=request, words=self._words, rule=owner)
        return decision.appraisals(options, asking, worth)  # type: ignore[return-value]  # (it appraises)

    def gold_now(self, view) -> float:
        """Points a gold is worth to the seat at this round, one number (the thrift its `Worth`
        values every gold with): what it still buys plus what the final items make of it at the
        end,

            (`buys` + `foresight` x `Worth.final_gold`)
            x (1 + `early` x (1/2 - the share of the game's rounds begun)).

        `buys` is what a gold buys in the game's middle (`buys_now`: with `horizon=game` and
        none given, read from the variant); `final_gold` what the final items make
        of a gold on an even table (the variant's gold ranking for this many players; nothing
        without one), counted at `foresight`, as a gold held now may be spent before the end; the
        whole is worth more before the middle and less after, as the decisions left to the seat
        run out (`DEFAULT_EARLY` says what scaling only what it buys measured). So a house rule
        that makes gold left at the end worth more, or nothing, changes what every gold is worth
        from the first round. (What the ranking makes of a gold on the present
        standings, instead, measured far weaker: 14-18% of the wins against three planners of the
        old horizon, 1,000 games: the standings before the end say little about the final ones.)
        At the final scoring a gold buys nothing: the seat's `Worth` then values it by the final
        items on the true standings alone."""
        in_the_middle = self.buys_now(view) + self.foresight * self._final_gold(view)
        return in_the_middle * (1 + self.early * (0.5 - _played_share(view)))

    def buys_now(self, view) -> float:
        """What a gold buys in the game's middle (whatever the round: `gold_now` applies
        `early`): `buys` if given; else, with `horizon=game`, `BUYS_PER_PYRAMID_POINT` times what
        one more pyramid brings a seat on an even table of the variant
        (`amunre.planning.even_table`), and `DEFAULT_BUYS` with `horizon=kingdom` or where the
        board cannot lay that table."""
        if self.buys is not None:
            return self.buys
        points = one_more_pyramid_points(view.variant, view.n_players) if self.horizon == "game" else None
        return DEFAULT_BUYS if points is None else BUYS_PER_PYRAMID_POINT * points

    def _final_gold(self, view) -> float:
        """`Worth.final_gold` for the seat's variant and table, worked out once for them."""
        table = (view.variant, view.n_players)
        if self._final_gold_at is None or self._final_gold_at[0] != table:
            self._final_gold_at = (table, final_gold_of(view, self.weights, _spread(view)))
        return self._final_gold_at[1]

    # -- what a holding is worth now -------------------------------------------------------
    def _worth_for(self, view, variant, owner) -> Worth:
        """The seat's `Worth` now; it takes what the last one worked out if the position and
        the phase asking are the same (nothing is worked out before a value is asked for)."""
        # (a view is of one game, so the same view is of the same variant and table)
        when = (view, owner, view.kingdom, view.round)
        if when != self._when:  # they change with the round and the phase asking only (in one game)
            self._runs = _income_runs(view, variant.modules, owner)
            before, self._when = self._when, when
            # (the thrift and the spread follow the round, not the phase asking)
            if before is None or before[0] is not view or before[2:] != when[2:]:
                self._gold_now, self._spread_now = self.gold_now(view), _spread(view)
        runs, only_final_left = self._runs
        self._worth = Worth(view, self.weights, self._gold_now, runs, only_final_left,
                            self._card_worths.at(view, only_final_left),
                            previous=self._worth, foresight=self.foresight, spread=self._spread_now,
                            later=self.later, regain=self.regain)
        return self._worth

    def _look_ahead(self, view, request) -> list[float]:
        """A decision without an appraisal: give each option in a game drawn from the view and
        value the seat's position after it (options past `MOST_LOOKED_AHEAD`: not tried)."""
        sample = view.sample_game(self.rng)
        me = view.player
        values = []
        for option in request.options[:MOST_LOOKED_AHEAD]:
            twin = sample.clone()
            twin.answer(option)
            seen = twin.view(me)
            after = Worth(seen, self.weights, self.gold_now(view), {}, False, foresight=self.foresight,
                          spread=_spread(view), later=self.later, regain=self.regain)
            # the points the option scored at once count as what they are (its worth values
            # what is held, not what is banked)
            values.append(after.whole(()) + seen.me.score)
        return values + [-math.inf] * (len(request.options) - len(values))


def _played_share(view) -> float:
    """The share of the game's rounds begun before this one (0 at the first round, 5/6 at the
    last of six): the game's length is the variant's, its kingdoms times rounds per kingdom."""
    edition = view.variant.edition
    return ((view.kingdom * edition.rounds_per_kingdom + view.round)
            / (len(edition.kingdoms) * edition.rounds_per_kingdom))


def _spread(view) -> int:
    """How far the others' gold at the end may lie from what it is now, as the planner guesses
    it: half a starting purse of the variant."""
    return max(1, view.variant.components.starting_gold // 2)


def _income_runs(view, modules, owner) -> tuple[dict, bool]:
    """How many times each phase that pays for holdings still runs in this kingdom, from
    where the game stands (the module asking, in the round's order), and whether only the
    final scoring is left."""
    phases, variant = modules.phases, view.variant
    scoring = owner is not None and owner.kind != "phase"  # the kingdom's phases are over
    # a shared move (no owner) is taken as asked after this round's phases
    at = phases.index(owner) if owner is not None and not scoring else len(phases)
    runs = {module: 0 if scoring else runs_left(variant, view.round, index > at)
            for index, module in enumerate(phases) if isinstance(module, ValuationFacet) and module.pays_for_holdings}
    return runs, owner is not None and owner.kind == "final_scoring"


def check_weights(weights: dict, variant) -> None:
    """Each weight names a scoring item of the variant (a key with a colon written with a
    dot, as a spec splits on colons: `bonus_cards.west_east`)."""
    keys = set(variant.modules.item_labels)
    unknown = sorted(set(weights) - keys)
    if unknown:
        written = ", ".join(sorted(key.replace(":", ".") for key in keys))
        raise AmunreError(f"planner: {', '.join(repr(key.replace(':', '.')) for key in unknown)} is no scoring "
                          f"item of {variant.id} (expected horizon, buys, early, foresight, later or regain, "
                          f"or a weight for one of: "
                          f"{written})")


#: The old spelling of `buys` in a spec (`planner:gold=0.3`), still read: a scoring item of this
#: name would need another spelling.
OLD_BUYS = "gold"
#: Each parameter's range, and what it means (a scoring item's weight: -100 to 100).
RANGES = {
    "buys": (0.0, 10.0, "points a gold is worth for what it buys in the game's middle"),
    OLD_BUYS: (0.0, 10.0, "points a gold is worth for what it buys in the game's middle: `buys`"),
    "early": (-2.0, 2.0, "beyond, gold would be worth less than nothing at one end of the game"),
    "foresight": (0.0, 1.0, "the share of the final items' worth of a gold it counts"),
    "later": (0.0, 1.0, "the weight of the next kingdom's points against this one's"),
    "regain": (0.0, 1.0, "the share of what goes back to auction it counts on winning in a later kingdom"),
}
WEIGHTS = (-100.0, 100.0, "a scoring item's weight")


def make(rng, **params) -> PlannerAgent:
    """The agent of a spec's parameters (text values): `horizon` (a name of `HORIZONS`); `buys`
    (or `gold`, its old spelling), `early`, `foresight`, `later`, `regain` and item weights (a
    key's colon written as a dot), each a plain decimal number in its range."""
    values = {}
    params = dict(params)
    if "buys" in params and OLD_BUYS in params:
        raise ArgumentValueError(f"planner: buys and {OLD_BUYS} are one parameter ({OLD_BUYS} is its old spelling): "
                                 "give it once (expected buys=NUMBER)")
    horizon = params.pop("horizon", DEFAULT_HORIZON)
    if horizon not in HORIZONS:
        raise ArgumentValueError(f"planner: horizon={_clipped(horizon)!r} is not a horizon (expected "
                                 + " or ".join(f"{name} ({meaning})" for name, meaning in HORIZONS.items()) + ")")
    for name, text in params.items():
        low, high, meaning = RANGES.get(name, WEIGHTS)
        value = plain_number(text)
        if not low <= value <= high:  # NaN fails too
            raise ArgumentValueError(f"planner: {name}={_clipped(text)!r} is not a number from {low:g} to {high:g} "
                                     f"({meaning})")
        values[name if name in RANGES else name.replace(".", ":")] = value
    buys = values.pop("buys", values.pop(OLD_BUYS, None))
    return PlannerAgent(rng, buys=buys, early=values.pop("early", DEFAULT_EARLY),
                        foresight=values.pop("foresight", DEFAULT_FORESIGHT), horizon=horizon,
                        later=values.pop("later", DEFAULT_LATER),
                        regain=values.pop("regain", DEFAULT_REGAIN), weights=values)


def _clipped(text: str) -> str:
    """A value as an error shows it: at most 40 characters."""
    return text if len(text) <= 40 else text[:40] + "..."


__all__ = ["PlannerAgent", "make", "check_weights"]
