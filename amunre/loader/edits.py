"""Pipeline edits by id: how a file that `extends` another changes its phases and scoring.

In a child file, each `[[phases]]`, `[[scoring]]` or `[[final_scoring]]` entry addresses the
parent's entry with the same id (its `id`, or its rule id), anywhere in that pipeline,
steps of groups included:

- `remove = true` drops it;
- the same rule (or no `rule`): its keys merge into the parent's entry (`params` key by
  key, `name` and `steps` replaced); `after` / `before` also move it;
- another `rule`: the entry is replaced (id and place kept, the old params dropped);
- a new id inserts the entry `after` or `before` the entry with that id, else at the end.

Unknown ids, an entry given twice, `after` with `before`, and a removal of what does not
exist are reported at the child's line. `merge_pipelines` returns the merged data and,
for the origins, where each merged entry came from (to keep `file:line` reports true).
"""

from __future__ import annotations

from amunre.loader.pipelines import PIPELINES, entry_id
from amunre.loader.problems import did_you_mean, got, one_of

_EDIT_KEYS = ("after", "before", "remove")


def _find(entries: list, eid: str):
    """(list holding it, index) of the entry with this id, searching groups too."""
    for i, entry in enumerate(entries):
        if entry_id(entry) == eid:
            return entries, i
        if isinstance(entry, dict) and isinstance(entry.get("steps"), list):
            found = _find(entry["steps"], eid)
            if found:
                return found
    return None


def _ids(entries: list) -> list[str]:
    out = []
    for entry in entries:
        eid = entry_id(entry)
        if eid:
            out.append(eid)
        if isinstance(entry, dict) and isinstance(entry.get("steps"), list):
            out += _ids(entry["steps"])
    return out


def _tag(entries, source: str, path: tuple) -> list:
    """Copies of the entries (groups too), each tagged with where it was written."""
    out = []
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            out.append(entry)
            continue
        copy = dict(entry)
        copy["__from__"] = [(source, path + (i,))]
        if isinstance(entry.get("steps"), list):
            copy["steps"] = _tag(entry["steps"], source, path + (i, "steps"))
        out.append(copy)
    return out


def merge_pipelines(parent: dict, child: dict, report) -> dict:
    """`parent`'s pipelines edited by `child`'s entries; each entry carries `__from__`,
    a list of (source, path) that `sources` strips off: source "parent" or "child"."""
    merged = {}
    for pipeline in PIPELINES:
        base = _tag(parent.get(pipeline), "parent", (pipeline,)) if isinstance(parent.get(pipeline), list) else None
        edits = child.get(pipeline)
        if not isinstance(edits, list) or base is None:
            continue
        seen: set[str] = set()
        for i, edit in enumerate(edits):
            if isinstance(edit, dict):
                _apply(base, edit, (pipeline, i), seen, report)
        merged[pipeline] = base
    return merged


def _apply(base: list, edit: dict, at: tuple, seen: set, report) -> None:
    eid = entry_id(edit)
    if eid is None:
        base.append(dict(edit, __from__=[("child", at)]))  # the shape check reports what is wrong with it
        return
    if eid in seen:
        report(at, f"entry {eid!r} is edited twice in this file", "expected one entry per id")
        return
    seen.add(eid)
    after, before = edit.get("after"), edit.get("before")
    found = _find(base, eid)
    if after is not None and before is not None:
        report(at + ("before",), "an entry goes either `after` or `before` another", "expected one of them")
        _check_unplaced(edit, found, at, report)
        return
    anchor = after if after is not None else before
    ids = _ids(base)
    key = "after" if after is not None else "before"
    if anchor is not None:
        inside = _ids(found[0][found[1]].get("steps") or []) if found and isinstance(found[0][found[1]], dict) else []
        if anchor == eid or anchor in inside:
            report(at + (key,), f"entry {eid!r} cannot be placed next to itself or one of its own steps",
                   "expected the id of another entry")
            _check_unplaced(edit, found, at, report)
            return
        if not isinstance(anchor, str) or anchor not in ids:
            report(at + (key,), f"no entry {anchor!r} to place it next to",
                   did_you_mean(str(anchor), ids) + one_of(ids))
            if found is None and "rule" not in edit and "steps" not in edit and edit.get("remove") is not True:
                # a new entry: what it lacks is known without its place, and reported with it
                report(at, "an entry needs `rule` (a rule module id) or `steps` (a group)", "expected rule = \"...\"")
            _check_unplaced(edit, found, at, report)
            return
    if "remove" in edit and not isinstance(edit["remove"], bool):
        report(at + ("remove",), f"wrong type: {got(edit['remove'])}", "expected true or false")
        return
    tag = [("child", at)]
    body = {k: v for k, v in edit.items() if k not in _EDIT_KEYS}
    if edit.get("remove") is True:
        if found is None:
            report(at + ("remove",), f"no entry {eid!r} to remove", did_you_mean(eid, ids) + one_of(ids))
            return
        extra = sorted(set(edit) - {"id", "rule", "remove"})
        if extra or ("rule" in edit and edit["rule"] != found[0][found[1]].get("rule")):
            report(at + ((extra or ["rule"])[0],), "a removed entry takes no other keys",
                   "expected only its id (or its rule) and remove = true")
            return
        holder, i = found
        del holder[i]
        return
    if found is not None:
        holder, i = found
        old = holder[i]
        if "rule" in body and body["rule"] != old.get("rule"):
            entry = dict(body, id=eid, __from__=tag)  # another rule: replaced, in the same place
            if "id" not in old and "id" not in edit:
                entry.pop("id")
        else:
            entry = dict(old)
            for key, value in body.items():
                if key == "params" and isinstance(value, dict) and isinstance(old.get("params"), dict):
                    entry["params"] = {**old["params"], **value}
                else:
                    entry[key] = value
            entry["__from__"] = old.get("__from__", []) + tag
        if anchor is None:
            holder[i] = entry
            return
        del holder[i]
    else:
        if "rule" not in body and "steps" not in body:
            report(at, f"no entry {eid!r} in the pipeline it extends, and no `rule` or `steps` for a new one",
                   did_you_mean(eid, ids) + one_of(ids))
            return
        entry = dict(body, __from__=tag)
    if anchor is None:
        base.append(entry)
        return
    holder, i = _find(base, anchor)
    holder.insert(i + 1 if after is not None else i, entry)


def _check_unplaced(edit: dict, found, at: tuple, report) -> None:
    """What an entry left out of the pipeline (its place is wrong: reported) says about itself
    wherever it would stand, so that one mistake does not hide another: an unknown rule id,
    params its rule does not take or values out of range. The entry stays out (nothing is
    half-applied); only a new entry or one that replaces the rule of its id is a whole entry
    to check (an edit of an entry's keys needs the entry it edits)."""
    from amunre.core.registry import all_rules
    from amunre.loader.checks import unknown_rule
    from amunre.loader.pipelines import typed_params

    rule_id = edit.get("rule")
    if not isinstance(rule_id, str) or edit.get("remove") is True:
        return
    if found is not None and found[0][found[1]].get("rule") == rule_id:
        return
    rules = all_rules()
    cls = rules.get(rule_id)
    if cls is None:
        report(at + ("rule",), *unknown_rule(rule_id, rules))
    elif isinstance(edit.get("params"), dict):
        typed_params(rule_id, cls, edit["params"], at + ("params",), report)


def strip_sources(entries, path: tuple, out: list) -> list:
    """The entries without their `__from__` tags; appends (merged path, sources) to `out`."""
    clean = []
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            clean.append(entry)
            continue
        entry = dict(entry)
        out.append((path + (i,), entry.pop("__from__", [])))
        if isinstance(entry.get("steps"), list):
            entry["steps"] = strip_sources(entry["steps"], path + (i, "steps"), out)
        clean.append(entry)
    return clean
