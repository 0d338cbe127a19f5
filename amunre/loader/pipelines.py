"""Pipeline entries: the round's phases, a kingdom's scoring and the final scoring.

An entry names a rule module (`rule`), or groups several entries under one heading
(`steps`, e.g. the 2016 Auction Phase, which starts by drawing the provinces). Every entry
has an id, unique across the variant's pipelines (default: its rule id), by which a file
that `extends` another edits it (see `amunre.loader.merge`) and the core and the agents look
its module up (`Modules.rule`); `check_ids` holds them to it. A `[[scoring]]` entry may name
the kingdoms at whose end it scores (`kingdoms`, checked by `check_kingdoms`). `flat_entries`
walks the entries with their key paths, groups opened; `build_specs` types them into
`RuleSpec`s.
"""

from __future__ import annotations

from amunre.core.model import RuleSpec
from amunre.loader.problems import did_you_mean, show
from amunre.loader.shape import field_names, structure
from amunre.loader.unsettled import Unsettled, settle

#: The pipelines of a variant file, by the rule kind each accepts.
PIPELINES = {"phases": "phase", "scoring": "scoring", "final_scoring": "final_scoring"}


def entry_id(entry) -> str | None:
    """The id of an entry: its own `id`, else its rule id (None when it has neither)."""
    if not isinstance(entry, dict):
        return None
    value = entry.get("id", entry.get("rule"))
    return value if isinstance(value, str) else None


def flat_entries(entries, path: tuple, group: tuple | None = None):
    """(key path, entry, group) for every rule entry, the steps of groups included; `group`
    is (id, heading) of the group an entry is a step of, else None."""
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        if "steps" in entry:
            gid, heading = entry.get("id"), entry.get("name", entry.get("id"))
            inner = (gid, heading) if isinstance(gid, str) and isinstance(heading, str) else None
            yield from flat_entries(entry["steps"], path + (i, "steps"), group or inner)
        else:
            yield path + (i,), entry, group


def check_ids(data: dict, report, closeness=lambda path: 0, rules: dict | None = None) -> None:
    """Every entry and group has an id of its own across all the pipelines, and a group an id.

    A lookup by id (`Modules.rule`: an entry id, else a rule id) must find one module, of the
    pipeline meant: so an id is never used twice, even in two pipelines (a phase named like a
    scoring entry), and never names a rule module that another entry uses (a phase with id
    "bonus_cards" beside the scoring entry of rule `bonus_cards`). A clash is reported at the
    one of its keys written closest to the user (`closeness`: a `--set`, then the file being
    loaded, then a parent), the later one on a tie. An entry without an `id` whose rule
    (one of `rules`) belongs in another pipeline is left out: that is its problem, reported
    by `check_meaning`, and its id follows its rule once that is fixed."""
    seen: dict[str, tuple] = {}  # entry id -> where it is first set
    rule_users: dict[str, tuple] = {}  # rule id -> the `rule` key of the first entry using it
    own_ids: list[tuple] = []  # (id, where it is set, its rule) of entries with an explicit id
    twice: set[str] = set()  # ids reported as duplicates already

    def walk(entries, path):
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(entry, dict):
                continue
            at = path + (i,)
            if "steps" in entry:
                if len(path) > 1:
                    report(at, "a step of a group cannot be a group itself", "expected groups one level deep")
                if "rule" in entry or "params" in entry:
                    report(at, "a group of `steps` has no `rule` or `params` of its own",
                           "expected the rule and its params on each step")
                if not isinstance(entry.get("id"), str):
                    report(at, "a group of `steps` needs an `id`", "expected id = \"...\" naming the group")
                walk(entry["steps"], at + ("steps",))
            elif "rule" not in entry:
                report(at, "an entry needs `rule` (a rule module id) or `steps` (a group)",
                       "expected rule = \"...\"")
            for edit in ("after", "before", "remove"):
                if edit in entry:
                    report(at + (edit,), f"`{edit}` only edits an entry of the file this one extends",
                           "expected it in a file with `extends`")
            if isinstance(entry.get("rule"), str) and "steps" not in entry:
                rule_users.setdefault(entry["rule"], at + ("rule",))
            eid = entry_id(entry)
            if eid is None or ("id" not in entry and eid in misplaced):
                continue
            key = at + (("id",) if "id" in entry else ("rule",))
            if "id" in entry and "steps" not in entry:  # a group is no module: no lookup finds it
                own_ids.append((eid, key, entry.get("rule")))
            if eid in seen:
                twice.add(eid)
                where, other = (seen[eid], key) if closeness(seen[eid]) < closeness(key) else (key, seen[eid])
                report(where, f"duplicate entry id {eid!r} (also at {_shown(other[:-1])})",
                       "expected each id once across [[phases]], [[scoring]] and [[final_scoring]]; "
                       "give one of them its own `id`")
            else:
                seen[eid] = key

    for pipeline, kind in PIPELINES.items():
        misplaced = {r for r, cls in (rules or {}).items() if getattr(cls, "kind", "phase") != kind}
        walk(data.get(pipeline), (pipeline,))
    for eid, key, rule in own_ids:
        user = rule_users.get(eid)
        if user is not None and rule != eid and eid not in twice:
            where = key if closeness(key) <= closeness(user) else user
            report(where, f"entry id {eid!r} of {_shown(key[:-1])} is also the rule of {_shown(user[:-1])}: "
                   f"a lookup of {eid!r} could not tell them apart",
                   "expected an id that is no other entry's rule id")


def kingdom_names(data: dict) -> list[str] | None:
    """The edition's kingdom names in play order, as the merged data gives them; None when
    they are not a list (the shape layer reports that)."""
    edition = data.get("edition")
    names = edition.get("kingdoms") if isinstance(edition, dict) else None
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else None


def _every_entry(entries, path: tuple):
    """(key path, entry) of every entry, groups and their steps included."""
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, dict):
            yield path + (i,), entry
            yield from _every_entry(entry.get("steps"), path + (i, "steps"))


def check_kingdoms(data: dict, report, closeness=lambda path: 0) -> None:
    """An entry's `kingdoms` (the kingdoms at whose end it scores): only on a `[[scoring]]`
    entry of a rule, never on a phase, a final scoring item or a group; a non-empty list of the
    edition's kingdom names, each once. Run before the shape layer, whose words for the same
    keys (an unknown key, too few or repeated items) say less. A name no kingdom has is reported
    at that key or at `edition.kingdoms`, whichever was written closest to the user
    (`closeness`: a house rule that renames its parent's kingdoms is told so at its own line)."""
    names = kingdom_names(data)
    for pipeline in PIPELINES:
        for at, entry in _every_entry(data.get(pipeline), (pipeline,)):
            if "kingdoms" not in entry:
                continue
            key, value = at + ("kingdoms",), entry["kingdoms"]
            if pipeline != "scoring":
                when = "once per round" if pipeline == "phases" else "once, after the last kingdom's scoring"
                report(key, f"`kingdoms` belongs to [[scoring]] entries only: a [[{pipeline}]] entry runs {when}",
                       "expected no `kingdoms` here; a [[scoring]] entry, scored at a kingdom's end, takes it")
            elif "steps" in entry:
                report(key, "a group of `steps` has no `kingdoms` of its own",
                       "expected `kingdoms` on each step it applies to")
            elif not isinstance(value, list):
                continue  # its type is the shape layer's to report
            elif not value:
                report(key, "an empty list: the entry would score at no kingdom's end",
                       "expected one or more of the edition's kingdoms"
                       + (f": {', '.join(names)}" if names else "")
                       + "; leave `kingdoms` out to score at the end of every kingdom")
            else:
                given = [name for name in value if isinstance(name, str)]  # others: the shape layer's
                wrong = list(dict.fromkeys(name for name in given if names is not None and name not in names))
                seen: set[str] = set()
                twice: list[str] = []
                for name in given:
                    if name in seen and name not in twice:
                        twice.append(name)
                    seen.add(name)
                where = min([key, ("edition", "kingdoms")], key=closeness) if wrong else key
                parts = []
                if wrong:
                    # said at the edition's kingdoms (a house rule renamed them): which entry names them
                    named = "" if where == key else f"the [[scoring]] entry {entry_id(entry)!r} names "
                    parts.append(named + ", ".join(show(name) for name in wrong)
                                 + (", which" if named else "")
                                 + (" is not a kingdom" if len(wrong) == 1 else " are not kingdoms")
                                 + " of this edition")
                if twice:
                    parts.append(", ".join(show(name) for name in twice) + (" is" if len(twice) == 1 else " are")
                                 + " named twice")
                if not parts:
                    continue
                hint = did_you_mean(wrong[0], names) if wrong and names else ""
                report(where, "; ".join(parts), f"{hint}expected each of the edition's kingdoms at most once"
                       + (f": {', '.join(names)}" if names else ""))


def resolve_kingdoms(value, names: list[str] | None) -> tuple[int, ...] | None:
    """A scoring entry's `kingdoms` as 0-based kingdom indexes, each once, in play order;
    None when it has none (every kingdom). Names that are not the edition's are left out
    (`check_kingdoms` reports them)."""
    if value is None:
        return None
    if not isinstance(value, list) or names is None:
        return ()
    # (an edition that names two kingdoms alike: the name is each of them)
    return tuple(k for k, name in enumerate(names) if name in value)


def check_declarations(data: dict, report, rules: dict) -> None:
    """A decision kind or an event belongs to one rule module (or the core): a module of the
    pipelines that declares one another module (or the core) declares already is reported at
    its `rule` key. Agents answer a decision by its kind, the play-by-play tells an event by
    its name: a second declaration would silently replace the first (two entries of one rule
    declare the same, which is fine)."""
    from amunre.core.modules import declaration_clashes

    found = [(path, rules[entry["rule"]]) for pipeline in PIPELINES
             for path, entry, _ in flat_entries(data.get(pipeline), (pipeline,))
             if isinstance(entry.get("rule"), str) and entry["rule"] in rules]
    for index, message, expected in declaration_clashes([cls for _, cls in found]):
        report(found[index][0] + ("rule",), message, expected)


def _shown(path: tuple) -> str:
    from amunre.loader.tomlpos import format_path

    return format_path(path)


def rules_used(data: dict) -> set[str]:
    """The rule ids the pipelines name (valid or not)."""
    return {e["rule"] for p in PIPELINES for _, e, _ in flat_entries(data.get(p), (p,))
            if isinstance(e.get("rule"), str)}


def typed_params(rule_id: str, cls, raw: dict, path: tuple, report):
    """A rule entry's params table typed by its module's `Params`, or None after reporting
    every bad key (at `path`, the entry's `params`)."""
    hint = "unknown parameter" if field_names(cls.Params) else f"unknown parameter (rule {rule_id!r} takes none)"
    return structure(raw, cls.Params, path, report, hint)


def build_specs(data: dict, pipeline: str, rules: dict, report) -> tuple:
    """The typed entries of one pipeline, groups flattened, one per rule entry. An entry whose
    params do not type (reported) or whose rule is unknown (reported by `check_meaning`)
    gets `Unsettled` params, so that the other entries' checks still run."""
    specs = []
    names = kingdom_names(data)
    for path, entry, group in flat_entries(data.get(pipeline, []), (pipeline,)):
        rule_id = entry.get("rule")
        cls = rules.get(rule_id) if isinstance(rule_id, str) else None
        raw = entry.get("params", {})
        params = None
        if cls is not None and isinstance(raw, dict):
            params = typed_params(rule_id, cls, raw, path + ("params",), report)
        if params is None:
            params = settle(raw, cls.Params, f"{pipeline} params") if cls else Unsettled(f"{pipeline} params")
        eid = entry_id(entry) or ""
        name = entry.get("name", eid)  # the play-by-play and the final table tell entries apart by it
        kingdoms = resolve_kingdoms(entry.get("kingdoms"), names) if pipeline == "scoring" else None
        specs.append(RuleSpec(rule=rule_id if isinstance(rule_id, str) else "", params=params, id=eid,
                              name=name if isinstance(name, str) else eid,
                              group=group[0] if group else None, heading=group[1] if group else None,
                              kingdoms=kingdoms))
    return tuple(specs)
