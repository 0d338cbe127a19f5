"""The third layer of validation: whether a well-formed variant makes a playable game.

Rule ids exist and sit in the right pipeline, the round's phases come in a workable order,
card kinds are known, the deck can deal the starting cards, player counts make sense, and
every rule module's own `check(variant)` passes. Problems go to a
`report(path, what, expected)` callback, like those of the other layers.
"""

from __future__ import annotations

import re

from amunre.core.contract import ROUND_MUST_PROVIDE, CheckProblem
from amunre.core.model import MAX_PLAYERS, MIN_PLAYERS, Variant
from amunre.core.registry import BROKEN_PLUGINS, all_rules
from amunre.core.terms import is_known, known_terms
from amunre.loader.pipelines import PIPELINES, flat_entries
from amunre.loader.problems import did_you_mean, one_of
from amunre.loader.shape import field_names


def declared_cards(rules: dict) -> list[str]:
    """Every card kind some registered rule module plays."""
    return sorted({kind for cls in rules.values() for kind in cls.cards})


def card_kinds(components, modules) -> tuple[str, ...]:
    """A variant's card kinds in id order: the deck's, then those its modules play that the
    deck lacks (so every module finds its cards, if only zero of them)."""
    kinds = list(components.deck)
    for cls in modules:
        kinds += [kind for kind in cls.cards if kind not in kinds]
    return tuple(kinds)


#: Said after the built-in ids of an unknown one: a plug-in's module is found only once installed.
OR_A_PLUGIN = "; or a plug-in's rule module, once the package that provides it is installed"


def unknown_rule(rule_id: str, rules: dict) -> tuple[str, str]:
    """(what, expected) of a rule id no module has: a plug-in that failed to load says so;
    otherwise the known ids, and that a plug-in's module must be installed to be found (a
    variant sent by a co-designer may need one)."""
    broken = BROKEN_PLUGINS.get(rule_id)
    if broken:
        return f"unknown rule module {rule_id!r}: its plug-in failed to load ({broken})", (
            did_you_mean(rule_id, rules) + one_of(rules))
    return f"unknown rule module {rule_id!r}", did_you_mean(rule_id, rules) + one_of(rules) + OR_A_PLUGIN


def check_meaning(data: dict, report, closeness=lambda path: 0) -> None:
    """Rule ids, the order of the round's phases, player counts and cards of the merged data;
    a problem that comes from several keys is reported at the one written closest to the
    user (`closeness`, as in `check_rules`)."""
    rules = all_rules()
    for pipeline, kind in PIPELINES.items():
        for at, entry, _ in flat_entries(data.get(pipeline), (pipeline,)):
            rule_id = entry.get("rule")
            if not isinstance(rule_id, str):
                continue
            cls = rules.get(rule_id)
            if cls is None:
                report(at + ("rule",), *unknown_rule(rule_id, rules))
            elif rule_id in BROKEN_PLUGINS:
                # a plug-in claims the id too: using either one without a word would be a guess
                report(at + ("rule",), f"rule module {rule_id!r} is claimed by a plug-in that was not loaded "
                       f"({BROKEN_PLUGINS[rule_id]})", "expected each rule module id once: give the plug-in an "
                       "entry-point name of its own (and the same id on its class), or uninstall it")
            elif getattr(cls, "kind", "phase") != kind:
                fitting = sorted(r for r, c in rules.items() if getattr(c, "kind", "phase") == kind)
                report(at + ("rule",), f"{rule_id!r} is a {cls.kind} rule, not a {kind} rule",
                       f"expected in [[{pipeline}]] one of: {', '.join(fitting)}")

    _check_pipeline(data.get("phases"), rules, report, closeness)
    _check_terms(data, rules, report)

    components = data.get("components")
    edition = data.get("edition")
    players = edition.get("players") if isinstance(edition, dict) else None
    # counts out of range are reported by the schema: no derived problem from them
    counts = ([n for n in players if type(n) is int and MIN_PLAYERS <= n <= MAX_PLAYERS]
              if isinstance(players, list) else [])
    if not isinstance(components, dict):
        return
    known = declared_cards(rules)
    deck = components.get("deck")
    if not isinstance(deck, dict):
        return  # its type is reported; counting cards in it would only add knock-on problems
    for kind in deck:
        if kind not in known:
            report(("components", "deck", kind), "unknown card kind (no rule module plays it)",
                   did_you_mean(kind, known) + one_of(known))
    starting = components.get("starting_cards")
    if isinstance(starting, list):
        most = max(counts, default=0)
        first: dict[str, int] = {}
        for i, kind in enumerate(starting):
            if not isinstance(kind, str):
                continue
            if kind not in known:
                report(("components", "starting_cards", i), f"{kind!r} is not a card kind",
                       did_you_mean(kind, known) + one_of(known))
            else:
                first.setdefault(kind, i)
        for kind, i in first.items():
            need = starting.count(kind) * most
            have = deck.get(kind, 0)
            if type(have) is int and 0 <= have < need:  # a count out of range is reported already
                causes = [("components", "starting_cards", i), ("components", "deck", kind), ("edition", "players")]
                report(min(causes, key=closeness),
                       f"{most} players need {need} {kind!r} cards from the deck but it holds {have}",
                       f"expected components.deck.{kind} >= {need}")


def _check_terms(data: dict, rules: dict, report) -> None:
    """Every `[terms]` key names a word of the engine, of a rule module or a card kind."""
    terms = data.get("terms")
    if not isinstance(terms, dict):
        return
    # the words of every registered module: a word of a module this variant dropped (an
    # edition's bid_marker once its auction is replaced) changes nothing, but is no typo
    deck = data.get("components", {}).get("deck") if isinstance(data.get("components"), dict) else None
    known = known_terms(rules.values(), declared_cards(rules) + (list(deck) if isinstance(deck, dict) else []))
    for key in terms:
        if not is_known(key, known):
            report(("terms", key), "unknown term (no word of the engine, its rule modules or cards)",
                   did_you_mean(key, known) + one_of(known))


def _check_pipeline(entries, rules, report, closeness=lambda path: 0) -> None:
    """The round's phases in a workable order: each phase's needs are provided by an earlier
    phase, a once-per-round phase appears once, and the round gives every player a province.
    A missing phase is reported at the pipeline, or at a `--set` that changed one of its rules."""
    if not isinstance(entries, list):
        return
    flat = list(flat_entries(entries, ("phases",)))
    if any(not isinstance(e.get("rule"), str) or e.get("rule") not in rules for _, e, _ in flat):
        return  # an unknown id is reported already; guessing its contract would only add noise
    provided: dict[str, str] = {}
    seen: set[str] = set()
    for at, entry, _ in flat:
        cls = rules.get(entry.get("rule"))
        if cls is None or getattr(cls, "kind", "phase") != "phase":
            continue
        for need in cls.requires:
            if need not in provided:
                makers = sorted(r for r, c in rules.items() if need in getattr(c, "provides", ()))
                report(at + ("rule",), f"{cls.id!r} needs {need!r} from an earlier phase of the round",
                       f"expected one of {', '.join(makers)} before it")
        if cls.once and cls.id in seen:
            report(at + ("rule",), f"{cls.id!r} may appear only once per round",
                   "expected a single entry for it in [[phases]]")
        seen.add(cls.id)
        for made in cls.provides:
            if made in provided and provided[made] != cls.id:
                # two makers of one thing (two ways to deal the round's provinces) would play nonsense
                report(at + ("rule",), f"{cls.id!r} provides {made!r}, which {provided[made]!r} already "
                       "provides in this round", f"expected one phase providing {made!r}: remove one of them")
            provided.setdefault(made, cls.id)
    for need in ROUND_MUST_PROVIDE:
        if need not in provided:
            makers = sorted(r for r, c in rules.items() if need in getattr(c, "provides", ()))
            changed = [at + ("rule",) for at, _, _ in flat if closeness(at + ("rule",)) == 0]
            report(changed[0] if changed else ("phases",),
                   f"no phase of the round provides {need!r}: players would never acquire provinces",
                   f"expected a phase such as {', '.join(makers)}")


def check_rules(variant: Variant, report, closeness=lambda path: 0, settled: bool = True) -> None:
    """Every pipeline entry's own `check(variant)`, each message at the parameter it names,
    or, for a `CheckProblem`, at the key it comes from that was written closest to the
    user (`closeness(path)`: a `--set` first, then the file being loaded, then a parent).

    `settled` is False when other problems are known and `variant` holds stand-ins for the
    parts that failed (`amunre.loader.unsettled`): a check that stumbles on one is skipped,
    since its answer waits for that fix; only a check of a settled variant that fails is
    itself reported."""
    rules = all_rules()
    for pipeline in PIPELINES:
        paths = [at for at, _, _ in flat_entries(variant.resolved.get(pipeline), (pipeline,))]
        for spec, at in zip(getattr(variant, pipeline), paths):
            cls = rules.get(spec.rule)
            try:
                found = cls(spec, variant, variant.rulings.of(cls.Rulings)).check(variant)
            except Exception as exc:  # noqa: BLE001 - a broken check is itself a problem to report
                if not settled:
                    continue
                found = [f"the module's check failed with {type(exc).__name__}: {exc}"]
            names = set(field_names(cls.Params)) if cls else set()
            for message in found or ():
                if isinstance(message, CheckProblem) and message.keys:
                    keys = [(at if key.startswith("params.") else ()) + tuple(key.split("."))
                            for key in message.keys]
                    where = min(keys, key=closeness)
                    report(where, message.message, f"checked by rule module {spec.rule!r}")
                    continue
                message = getattr(message, "message", message)
                # a message that starts with a parameter's name is about that parameter
                first = re.match(r"\w+", message)
                where = at + ("params",) + ((first.group(),) if first and first.group() in names else ())
                report(where, message, f"checked by rule module {spec.rule!r}")
