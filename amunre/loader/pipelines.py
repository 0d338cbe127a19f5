"""Pipeline entries: the round's phases, a kingdom's scoring and the final scoring.

An entry names a rule module (`rule`), or groups several entries under one heading
(`steps`, e.g. the 2016 Auction Phase, which starts by drawing the provinces). Every entry
has an id, unique across the variant's pipelines (default: its rule id), by which a file
that `extends` another edits it (see `amunre.loader.merge`). `flat_entries` walks the
entries with their key paths, groups opened; `build_specs` types them into `RuleSpec`s.
"""

from __future__ import annotations

from amunre.loader.shape import field_names, structure
from amunre.loader.unsettled import Unsettled, settle
from amunre.model import RuleSpec

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


def check_ids(data: dict, report) -> None:
    """Every entry of a pipeline has an id of its own there, and a group an id."""

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
            eid = entry_id(entry)
            if eid is None:
                continue
            if eid in seen:
                report(at + (("id",) if "id" in entry else ("rule",)),
                       f"duplicate entry id {eid!r} (also at {_shown(seen[eid])})",
                       "expected each entry once; give one of them its own `id`")
            else:
                seen[eid] = at

    for pipeline in PIPELINES:
        seen: dict[str, tuple] = {}
        walk(data.get(pipeline), (pipeline,))


def _shown(path: tuple) -> str:
    from amunre.loader.tomlpos import format_path

    return format_path(path)


def rules_used(data: dict) -> set[str]:
    """The rule ids the pipelines name (valid or not)."""
    return {e["rule"] for p in PIPELINES for _, e, _ in flat_entries(data.get(p), (p,)) if isinstance(e.get("rule"), str)}


def build_specs(data: dict, pipeline: str, rules: dict, report) -> tuple:
    """The typed entries of one pipeline, groups flattened, one per rule entry. An entry whose
    params do not type (reported) or whose rule is unknown (reported by `check_meaning`)
    gets `Unsettled` params, so that the other entries' checks still run."""
    specs = []
    for path, entry, group in flat_entries(data.get(pipeline, []), (pipeline,)):
        rule_id = entry.get("rule")
        cls = rules.get(rule_id) if isinstance(rule_id, str) else None
        raw = entry.get("params", {})
        params = None
        if cls is not None and isinstance(raw, dict):
            hint = "unknown parameter" if field_names(cls.Params) else f"unknown parameter (rule {rule_id!r} takes none)"
            params = structure(raw, cls.Params, path + ("params",), report, hint)
        if params is None:
            params = settle(raw, cls.Params, f"{pipeline} params") if cls else Unsettled(f"{pipeline} params")
        eid = entry_id(entry) or ""
        name = entry.get("name", eid)  # the play-by-play and the final table tell entries apart by it
        specs.append(RuleSpec(rule=rule_id if isinstance(rule_id, str) else "", params=params, id=eid,
                              name=name if isinstance(name, str) else eid,
                              group=group[0] if group else None, heading=group[1] if group else None))
    return tuple(specs)
