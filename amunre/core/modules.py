"""A variant's rule modules, built once, and what the core learns from their declarations.

`Modules(variant)` instantiates every pipeline entry's module with its params and its
rulings, and gathers what they declare (see `amunre.core.contract`): decision kinds, events,
reasons for gold, default terms, scoring items in table order. Presentation code (the
play-by-play, the final table, the human seat) asks this object, never a particular rule.
The core's own declarations (the setup, the flow of the game, the shared moves) are
gathered here too, so one lookup serves every event and decision.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from amunre.core.contract import Decision, Event, Rule, ScoringItem
from amunre.core.errors import AmunreError
from amunre.core.facets import HiddenFacet, WordsFacet
from amunre.core.registry import get_rule

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from typing import TypeAlias

    from amunre.core.flow import PlanStep
    from amunre.core.model import RuleSpec, Variant
    from amunre.core.state import GameState

    #: (index of the module, message, what was expected)
    Clash: TypeAlias = tuple[int, str, str]


def core_declarations() -> tuple[dict[str, Event], dict[str, Decision], dict[str, str | None]]:
    """(events, decisions, reasons) of the core: the game's flow and its shared moves."""
    from amunre.core import flow_words, mechanics

    return ({**flow_words.EVENTS, **mechanics.EVENTS}, dict(mechanics.DECISIONS), dict(mechanics.REASONS))


def declaration_clashes(classes: Sequence[type[Rule]]) -> Iterator[Clash]:
    """(index, message, expected) for each of `classes` (rule module classes in pipeline
    order) that declares a decision kind or an event which another module, or the core,
    declares already. A kind or an event belongs to one module: a second declaration would
    silently replace the first, and agents would answer it as the other (two entries of one
    rule declare the same, which is fine)."""
    events, decisions, _ = core_declarations()
    owners: dict[tuple[str, str], str | None] = {("decision", k): None for k in decisions}
    owners.update((("event", k), None) for k in events)
    for index, cls in enumerate(classes):
        for what, names in (("decision", getattr(cls, "decisions", {})), ("event", getattr(cls, "events", {}))):
            for name in names:
                owner = owners.setdefault((what, name), cls.id)
                if owner != cls.id:
                    by = f"rule module {owner!r}" if owner is not None else "the core"
                    yield (index, f"rule module {cls.id!r} declares the {what} {name!r}, which {by} declares already",
                           f"expected a {what} name of its own in {cls.id!r} (rename it)")
    yield from _encoding_problems(classes, decisions)
    yield from _reads_problems(classes)
    yield from _published_problems(classes)


def _published_problems(classes: Sequence[type[Rule]]) -> Iterator[Clash]:
    """(index, message, expected) for a value two rule modules publish (its readers would not
    know whose to read), and for a value a module reads that no module of the variant
    publishes and it cannot go without (it would fail in the middle of a game instead)."""
    from amunre.core.registry import all_rules

    publisher: dict[str, str] = {}
    for index, cls in enumerate(classes):
        for name in getattr(cls, "publishes", {}):
            first = publisher.setdefault(name, cls.id)
            if first != cls.id:
                yield (index, f"rule module {cls.id!r} publishes {name!r}, which rule module {first!r} publishes "
                              "already", f"expected one module publishing {name!r} in a variant: remove one of them")
    known = {name for c in all_rules().values() for name in getattr(c, "publishes", {})}
    for index, cls in enumerate(classes):
        reads = getattr(cls, "reads_published", ())
        for name in reads:
            if name in publisher:
                continue
            if not isinstance(reads, Mapping):
                makers = sorted(r for r, c in all_rules().items() if name in getattr(c, "publishes", {}))
                yield (index, f"rule module {cls.id!r} reads {name!r}, which no rule module of the variant publishes",
                       f"expected a module publishing {name!r} in the pipelines"
                       + (f", such as {', '.join(makers)}" if makers else ""))
                continue
            # a mapping gives what it reads where nobody publishes the name: it may go without, unless
            # the name is a slip for one that rule modules do publish (it would read its stand-in all game)
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.8)
            if name not in known and close:
                yield (index, f"rule module {cls.id!r} reads {name!r}, which no rule module publishes (it would "
                              "read its stand-in all game)", f"expected a published name: did you mean {close[0]!r}?")


def _reads_problems(classes: Sequence[type[Rule]]) -> Iterator[Clash]:
    """(index, message, expected) for a `ValuationFacet.reads` that is not a set of the aspects
    `amunre.core.facets.valuation` names, or names a card kind no rule module plays: the planner would not
    value that module again when the aspect changes, silently."""
    from amunre.core.facets.valuation import ASPECTS, CARD_KIND
    from amunre.core.registry import all_rules

    kinds = {kind for cls in all_rules().values() for kind in cls.cards}
    expected = (f"expected a frozenset of {', '.join(sorted(ASPECTS))} or {CARD_KIND}<card kind> "
                f"(a card kind's name), or None")
    for index, cls in enumerate(classes):
        reads = getattr(cls, "reads", None)
        if reads is None:
            continue
        if not isinstance(reads, (set, frozenset)) or not all(isinstance(aspect, str) for aspect in reads):
            yield (index, f"rule module {cls.id!r} declares what it reads as {type(reads).__name__}", expected)
            continue
        for aspect in sorted(reads):
            if aspect in ASPECTS or aspect.startswith(CARD_KIND) and aspect[len(CARD_KIND):] in kinds:
                continue
            yield (index, f"rule module {cls.id!r} declares it reads {aspect!r}, which is no aspect of a holding "
                          f"nor a card kind", expected)


def _encoding_problems(classes: Sequence[type[Rule]], core_decisions: dict[str, Decision]) -> Iterator[Clash]:
    """(index, message, expected) for each observation field or context key declared with an
    encoding the observation does not know, and each context key two decision kinds encode
    differently (one key, one encoding: the observation has one section per key)."""
    from amunre.core.contract import CONTEXT_ENCODINGS, OBSERVATION_ENCODINGS

    seen: dict[str, tuple[str, str, str]] = {  # key -> (encoding, kind, whose)
        key: (how, kind, "the core") for kind, d in core_decisions.items() for key, how in d.context.items()}
    for index, cls in enumerate(classes):
        observation = getattr(cls, "observation", {})
        if not isinstance(observation, dict):
            yield (index, f"rule module {cls.id!r} declares its observation as {type(observation).__name__}",
                   f"expected a table of its data's fields, each one of {', '.join(OBSERVATION_ENCODINGS)}")
            continue
        for field, how in observation.items():
            if how not in OBSERVATION_ENCODINGS:
                yield (index, f"rule module {cls.id!r} declares its observation field {field!r} as {how!r}",
                       f"expected one of {', '.join(OBSERVATION_ENCODINGS)}")
        for kind, decision in getattr(cls, "decisions", {}).items():
            for key, how in decision.context.items():
                if how not in CONTEXT_ENCODINGS:
                    yield (index, f"rule module {cls.id!r} declares the context {key!r} of {kind!r} as {how!r}",
                           f"expected one of {', '.join(CONTEXT_ENCODINGS)}")
                    continue
                first = seen.setdefault(key, (how, kind, f"rule module {cls.id!r}"))
                if first[0] != how:
                    yield (index, f"rule module {cls.id!r} declares the context {key!r} of {kind!r} as {how!r}, but "
                                  f"{first[2]} declares it as {first[0]!r} for {first[1]!r}",
                           "expected one encoding per context key (rename the key)")


class Modules:
    """The rule modules of one variant, in pipeline order, and their declarations."""

    flow_plan: list[PlanStep]  # the game's plan, once `amunre.core.flow.flow_plan` has built it

    def __init__(self, variant: Variant):
        def build(specs: Iterable[RuleSpec]) -> tuple[Rule, ...]:
            return tuple(get_rule(s.rule)(s, variant, variant.rulings.of(get_rule(s.rule).Rulings)) for s in specs)

        self.phases = build(variant.phases)
        self.scoring = build(variant.scoring)
        self.final_scoring = build(variant.final_scoring)
        self.all = self.phases + self.scoring + self.final_scoring
        # what scores at each kingdom's end, worked out once (the flow and the planner read it);
        # a kingdom whose scoring is every entry's shares the very tuple `scoring`
        self._scoring_in: dict[int, tuple[Rule, ...]] = {}
        for k in range(len(variant.edition.kingdoms)):
            chosen = tuple(m for m in self.scoring if m.spec.kingdoms is None or k in m.spec.kingdoms)
            self._scoring_in[k] = self.scoring if len(chosen) == len(self.scoring) else chosen
        # the round as the players see it: (entry or group id, heading, its steps); face-up
        # cards are discarded when a whole phase ends
        rounds: list[tuple[str, str, list[Rule]]] = []
        for module in self.phases:
            group = module.spec.group
            if group is not None and rounds and rounds[-1][0] == group:
                rounds[-1][2].append(module)
            else:
                rounds.append((group or module.spec.id, module.spec.heading or module.name, [module]))
        self.round_phases = tuple((gid, heading, tuple(steps)) for gid, heading, steps in rounds)
        events, decisions, reasons = core_declarations()
        self.events: dict[str, Event] = events
        self.decisions: dict[str, Decision] = decisions
        self.reasons: dict[str, str | None] = reasons
        self.terms: dict[str, str] = {}
        # the loader reports a clash at its key; a variant built without it stops here
        for _, message, expected in declaration_clashes([type(module) for module in self.all]):
            raise AmunreError(f"{message} ({expected})")
        for module in self.all:
            self.events.update(module.events)
            self.decisions.update(module.decisions)
            if isinstance(module, WordsFacet):
                self.reasons.update(module.reasons)
                for key, word in module.terms.items():
                    self.terms.setdefault(key, word)
        object.__setattr__(variant, "_modules", self)  # before the labels, which may ask for terms
        self.items: tuple[ScoringItem, ...] = tuple(item for m in self.all for item in m.score_items())
        self.item_labels = {item.key: item.label for item in self.items}
        levels = [m.max_offering_level() for m in self.all]
        #: the highest offering level any module can set; None when none sets one
        self.max_offering_level = max((level for level in levels if level is not None), default=None)
        counts = tuple(variant.edition.players)
        #: player count -> the id of the rule module that rules it out
        self.players_ruled_out: dict[int, str] = {}
        for module in self.all:
            allowed = module.player_counts(counts)
            self.players_ruled_out.update((n, module.id) for n in counts if n not in allowed)
            counts = allowed
        #: what of the board stays for the next kingdom where R-GAME-05 clears it: what any
        #: module keeps (`Rule.keeps_between_kingdoms`)
        self.kept_between_kingdoms: frozenset[str] = frozenset().union(*(m.keeps_between_kingdoms for m in self.all))
        #: the player counts the variant is played by: the edition's, as its modules allow
        self.players: tuple[int, ...] = counts
        # the modules that keep data of their own (they override `initial_state`)
        self.stateful = tuple(m for m in self.all if type(m).initial_state is not Rule.initial_state)
        #: each stateful module, and whether it hides some of its data (the hidden-information
        #: facet): what a view shows, worked out once rather than at every view of the data
        self.shown = tuple((m, isinstance(m, HiddenFacet)) for m in self.stateful)
        #: each published value's name -> the key of its publisher's data (`Rule.publishes`)
        self.published_at: dict[str, str] = {}
        for module in self.all:
            for name in module.publishes:
                self.published_at.setdefault(name, module.key)
        for module in self.all:
            module.published_at = {name: self.published_at[name] for name in module.reads_published
                                   if name in self.published_at}
        self._index()

    def scoring_in(self, kingdom: int) -> tuple[Rule, ...]:
        """The kingdom-scoring modules (in pipeline order) that score at the end of the kingdom
        with this 0-based index: those whose entry names no `kingdoms`, and those naming it.
        The same tuple at every call; `scoring` itself where every entry scores there."""
        try:
            return self._scoring_in[kingdom]
        except (KeyError, TypeError):
            raise AmunreError(f"no kingdom {kingdom!r} in this variant (expected an index from 0 to "
                              f"{len(self._scoring_in) - 1})") from None

    def published(self, state: GameState, name: str, default: Any = None) -> Any:
        """The live value published under `name` on `state` (`Rule.publishes`), `default` when no
        module of the variant publishes it: to read, never to change."""
        key = self.published_at.get(name)
        return default if key is None else state.rules[key][name]

    def set_published(self, state: GameState, name: str, value: Any) -> None:
        """Set the value published under `name` on a prepared or hypothetical `state` (a
        position file, the planner's copy of a position), where no module plays; in a game only
        its publisher writes it. Nothing when no module publishes it."""
        key = self.published_at.get(name)
        if key is not None:
            state.rules[key][name] = value

    def players_note(self, n: int) -> str:
        """Why `n` players cannot play the variant, if a rule module rules it out ("" otherwise)."""
        rule = self.players_ruled_out.get(n)
        return f" (rule module {rule!r} does not allow {n} players: see its rulings in docs/rulings.md)" if rule else ""

    def rule(self, key: str) -> Rule | None:
        """The module of the pipeline entry with this id (or its `kind:id` state key), else
        the first module using this rule id; None when there is none.

        The loader keeps an id to one entry across all the pipelines, and keeps an entry id
        from naming another entry's rule (`amunre.loader.pipelines.check_ids`), so the two
        readings of `key` never find different modules. A variant built without the loader
        may break that: such a key raises instead of silently finding one of them."""
        if key in self._ambiguous:
            raise AmunreError(f"{self._ambiguous[key]}: rule {key!r} cannot be looked up by id (expected each "
                              "entry id once across the pipelines, and no entry id naming another entry's rule)")
        found = self._by_id.get(key)
        if found is None:
            found = self._by_rule.get(key)
        return found

    def _index(self) -> None:
        """The lookups of `rule`, and the keys that would find two different modules."""
        self._by_id: dict[str, Rule] = {}
        self._by_rule: dict[str, Rule] = {}
        self._ambiguous: dict[str, str] = {}
        for module in self.all:
            for key in dict.fromkeys((module.spec.id, module.key)):
                if key in self._by_id:
                    self._ambiguous[key] = f"entry id {key!r} is used twice"
                self._by_id.setdefault(key, module)
            self._by_rule.setdefault(module.id, module)
        for key, module in self._by_id.items():
            user = self._by_rule.get(key)
            if user is not None and user.id != module.id:
                self._ambiguous.setdefault(key, f"entry id {key!r} names rule {key!r} of another entry")
