"""The `greedy` agent: a short-sighted but sensible player, reading only its own view.

It bids on the province it values most relative to the price and within its means, buys
farmers while they pay back within the kingdom, builds pyramids (placing stones where a
pyramid is closest), offers a share of its gold, and plays its cards when they help. It is
a baseline for comparisons, not a strong player. It knows the built-in decision kinds by
name, each mapped to its method in `GreedyAgent.HANDLERS`; a decision it does not know (a plug-in's, even
one named like a method of its own) is answered as the `planner` answers it, through what its
module declares (its appraisal, else a look one step ahead); a kind no module declares gets a
random legal option.
"""

from __future__ import annotations

# Cards it gives up first when it must sell; kinds it does not know go last.
_SELL_FIRST = (
    "bribery", "protection", "offering_adjustment", "nile_frontier", "west_east", "upper_lower",
    "master_of_scribes", "master_of_farmers", "big_harvest", "treasury", "free_farmer", "architect",
)


def _built_in_kinds(variant) -> frozenset:
    """The decision kinds of `variant` that a built-in rule module or the core declares."""
    from amunre.core.mechanics import DECISIONS

    kinds = set(DECISIONS)
    for module in variant.modules.all:
        if type(module).__module__.startswith("amunre.rules."):
            kinds.update(module.decisions)
    return frozenset(kinds)


def _prices(variant, kind: str):
    """What `count` items of the decision `kind` cost in this variant, as the module asking it
    prices them (the market's `price_table(kind)`, each kind its own), or None where it says
    nothing of a price."""
    for module in variant.modules.all:
        if kind in module.decisions:
            table = getattr(module, "price_table", None)
            return table(kind).price if table is not None else None
    return None


#: What `GreedyAgent._policy` gives where the decision's module declares no policy of that name.
NO_POLICY = object()


class _SeatRules(dict):
    """The rule modules' data as a seat sees it, each module's copied when a policy first
    reads it (the Treasury's reads only the offering level's holder)."""

    def __init__(self, view):
        super().__init__()
        self._view = view

    def __missing__(self, key):
        data = self[key] = self._view.rule_data(key)
        return data


class _SeatState:
    """A seat's view, read as a game state by the policies greedy asks (the Treasury's, the
    bonus cards'): the public board and holdings, and the modules' data as the seat sees it.
    Cheaper than a whole copy of the position, and it holds nothing the seat may not know."""

    def __init__(self, view):
        self.n_players = view.n_players
        self.provinces = view.provinces
        self.players = view.players
        self.rules = _SeatRules(view)


class _SeatGame:
    """What a decision's policy is given as its game (`GameLike`): the seat's view of it."""

    hearing: frozenset = frozenset()

    def __init__(self, view):
        self.variant = view.variant
        self.state = _SeatState(view)

    def emit(self, _event, **data):
        pass

    def reveal(self):
        pass


class GreedyAgent:
    name = "greedy"
    #: Decision kind -> the name of the method that answers it: the built-in kinds it knows.
    #: A fixed table: a subclass may override a method or extend the table, but no kind
    #: (a plug-in names its own) reaches a method that is not in it.
    HANDLERS = {kind: "_" + kind for kind in (
        "bid", "pick_province", "buy_cards", "buy_farmers", "place_farmer", "free_farmer", "buy_stones",
        "place_stone", "architect", "double_swap", "offer", "sell_for_offering", "adjust", "reward", "treasury",
        "big_harvest", "play_bonus", "sell_cards", "sell")}

    def __init__(self, rng):
        self.rng = rng
        self._variant = None
        self._known: frozenset = frozenset()
        self._planner = None  # answers the decisions of plug-ins (see `choose`)
        self._costs: dict = {}  # decision kind -> what its module charges for a count (`_prices`), per variant

    def choose(self, view, request):
        # the kinds it knows, from its fixed table: a kind is data (a plug-in names its own),
        # and a method looked up by it could be any of this class's (`rounds_left`). A kind is
        # known only where a built-in module (or the core) asks it: a plug-in's decision named
        # like a built-in one (`pick_province` in a variant without the draft) is not that one
        if view.variant is not self._variant:
            self._variant, self._known = view.variant, _built_in_kinds(view.variant)
            self._costs = {kind: _prices(view.variant, kind) for kind in ("buy_farmers", "buy_stones")}
        method = self.HANDLERS.get(request.kind) if request.kind in self._known else None
        if method is None:
            if request.kind in view.variant.modules.decisions:
                # a plug-in's decision: answered as the planner answers it, through what its
                # module declares (its appraisal, else a look one step ahead)
                if self._planner is None:
                    from amunre.agents.planner import PlannerAgent

                    self._planner = PlannerAgent(self.rng)
                return self._planner.choose(view, request)
            return self.rng.choice(request.options)
        self._context = request.context  # display facts some handlers read
        choice = getattr(self, method)(view, request.player, request.options)
        return choice if choice in request.options else request.options[0]

    # -- helpers ------------------------------------------------------------------------
    @staticmethod
    def _rounds_left(view) -> int:
        return view.variant.edition.rounds_per_kingdom - view.round

    @staticmethod
    def _has(view, kind: str) -> bool:
        cards = view.variant.cards
        return kind in cards and view.hand[cards.index(kind)] > 0

    def _province_value(self, view, pid: int) -> float:
        """What province `pid` is worth to its owner: what lies on it now (public) and what
        it yields over the rounds left in the kingdom. It reads the state, so a value holds
        for one decision only (see `_bid`)."""
        info = view.variant.board.provinces[pid]
        prov = view.provinces[pid]
        rounds = self._rounds_left(view)
        return (
            prov.gold + 2 * prov.cards + 2.5 * prov.stones + 5 * prov.pyramid_count()
            + info.mine * rounds + info.caravan * rounds * 0.5 + 3 * info.temples
            + 1.5 * min(info.fields, 4) + info.card_limit
        )

    # -- auction ------------------------------------------------------------------------
    def _bid(self, view, p, options):
        gold = view.me.gold
        cards = view.variant.cards
        # A province's value, computed once per decision rather than once per bid option
        # (a province has many: every amount, with and without cards). The cache is this
        # call's own: nothing changes the state while the agent chooses, and the next
        # decision starts afresh, so a value is never stale.
        values: dict[int, float] = {}
        best, best_score = options[0], None
        for option in options:
            pid, amount, played = option
            if amount > gold * 0.6 and amount > 0:
                continue
            value = values.get(pid)
            if value is None:
                value = values[pid] = self._province_value(view, pid)
            score = value - amount
            for card in played:
                # Protection is worth its card only on a bid worth defending
                score += 1.5 if cards[card] == "protection" and amount >= 6 else -2
            if best_score is None or score > best_score:
                best, best_score = option, score
        return best

    def _pick_province(self, view, p, options):
        # put the province it values most up for auction now, while the most rounds are left
        return max(options, key=lambda pid: self._province_value(view, pid))

    # -- market -------------------------------------------------------------------------
    def _buy_cards(self, view, p, options):
        return min(options[-1], 1 if view.me.gold >= 12 else 0)

    def _buy_farmers(self, view, p, options):
        price = self._costs["buy_farmers"]
        if price is None:  # a market that prices otherwise: it does not guess
            return self.rng.choice(options)
        payback = 2 * self._rounds_left(view)
        budget = view.me.gold - 4
        best = 0
        for n in options:
            if price(n) <= budget and n * payback - price(n) > best * payback - price(best):
                best = n
        return best

    def _place_farmer(self, view, p, options):
        return options[0]

    def _free_farmer(self, view, p, options):
        return options[1] if len(options) > 1 else None

    def _buy_stones(self, view, p, options):
        price = self._costs["buy_stones"]
        if price is None:  # a market that prices otherwise: it does not guess
            return self.rng.choice(options)
        budget = view.me.gold * 0.5
        need = min((3 - view.provinces[i].stones % 3 for i in view.me.provinces), default=3)
        if self._has(view, "architect"):
            need = max(1, need - 1)
        best = 0
        for n in options:
            if price(n) <= budget and (n >= need):
                best = n
                if n >= need + 3 or n >= 4:
                    break
        return best

    def _place_stone(self, view, p, options):
        provs = view.provinces
        # closest to a pyramid first, then the province with the fewest pyramids (sets)
        return max(options, key=lambda i: (provs[i].stones % 3, -provs[i].pyramid_count()))

    def _architect(self, view, p, options):
        # with k stones still to place (all going to the province closest to a pyramid), play
        # it now only if that ends with more pyramids than keeping it for the end of the turn
        k = self._context.get("stones_to_place", 0)
        for pid in options[1:]:
            s = view.provinces[pid].stones
            now = 1 + (s - 2 + k) // 3
            later = (s + k) // 3 + (1 if (s + k) % 3 >= 2 else 0)
            if k == 0 or now > later:
                return pid
        return None

    def _double_swap(self, view, p, options):
        return True  # a double scores the same and keeps a single for later

    # -- offering -----------------------------------------------------------------------
    def _offer(self, view, p, options):
        gold = view.me.gold
        if gold < 4 and any(o[0] == "theft" for o in options):
            return next(o for o in options if o[0] == "theft")
        target = max(1, gold // 4)
        # an adjustment card is only good in an offering: always bring it along
        adjust = 1 if any(o[2] for o in options) else 0
        golds = [o for o in options if o[0] == "gold" and o[2] == adjust]
        return min(golds, key=lambda o: abs(o[1] - target)) if golds else options[0]

    def _sell_for_offering(self, view, p, options):
        return None  # it offers a share of the gold it has

    def _adjust(self, view, p, options):
        farmers = sum(view.provinces[i].all_farmers() for i in view.me.provinces)
        return max(options) if farmers >= 2 else min(options)

    def _reward(self, view, p, options):
        provs = view.provinces
        stones = [o for o in options if isinstance(o, tuple) and o[0] == "stone"]
        finishing = [o for o in stones if provs[o[1]].stones == 2]
        if finishing:
            return finishing[0]
        farmers = [o for o in options if isinstance(o, tuple) and o[0] == "farmer"]
        if farmers and self._rounds_left(view) > 1:
            return farmers[0]
        if stones:
            return max(stones, key=lambda o: provs[o[1]].stones)
        return options[0]

    # -- harvest ------------------------------------------------------------------------
    def _policy(self, view, kind: str, p: int, options, name: str):
        """What the module asking `kind` answers by its policy `name` (`Decision.policies`) to
        seat `p` asked with `options`, on the seat's own position (what its view shows:
        `_SeatGame`), or `NO_POLICY` where it declares none of that name."""
        from amunre.agents.asking import owner_of
        from amunre.core.decisions import Request

        request = Request(p, kind, options, self._context)
        decision = view.variant.modules.decisions.get(kind)
        policy = decision.policies.get(name) if decision is not None else None
        if policy is None:
            return NO_POLICY
        return policy(owner_of(view.variant, request.kind), _SeatGame(view), request)

    def _treasury(self, view, p, options):
        # the province that yields least, when it yields less than the Treasury's gold; in a
        # kingdom's last round the card is worth nothing kept, so the poorest one anyway
        gainful = self._policy(view, "treasury", p, options, "gainful")
        if gainful is NO_POLICY:  # a module asking a kind of that name otherwise
            return self.rng.choice(options)
        if gainful is not None:
            return gainful
        return None if view.round < 2 else self._policy(view, "treasury", p, options, "poorest")

    def _big_harvest(self, view, p, options):
        provs = view.provinces
        best = max(options[1:], key=lambda i: provs[i].all_farmers())
        return best if provs[best].all_farmers() else None

    # -- scoring ------------------------------------------------------------------------
    def _play_bonus(self, view, p, options):
        # the first card held whose condition holds, else none
        met = self._policy(view, "play_bonus", p, options, "met")
        return self.rng.choice(options) if met is NO_POLICY else met

    def _sell_cards(self, view, p, options):
        return options[-1]

    def _sell(self, view, p, options):
        cards = view.variant.cards
        order = {kind: i for i, kind in enumerate(_SELL_FIRST)}
        return min(options, key=lambda card: order.get(cards[card], len(order)))

