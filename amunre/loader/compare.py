"""Compare two loaded variants: their effective rules side by side, only what differs.

`compare(a, b)` returns the differences grouped as a reader looks for them: the edition,
its words (terminology, card names included), the components and deck, the round's phase
structure (ids, rules, names, groups and their steps, order), the scorings (their items,
the kingdoms an item scores in where it names them, and order), every entry's params by
entry id, and the rulings with their SPEC ids. Values are plain JSON data (`amunre diff
--json`); `text(value)` words one for a table (`amunre diff`, `docs/editions.md`). Both
sides are effective values: defaults filled in, `extends` and overrides applied.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from amunre.loader.pipelines import PIPELINES, entry_id
from amunre.loader.schema import json_value

#: The groups in the order they are shown.
GROUPS = ("edition", "terminology", "components", "pipeline", "scoring", "params", "rulings")


def players(variant) -> list[int]:
    """The player counts a variant allows: `variant.players` where the model has it (the
    counts after the rule modules narrowed them), else the edition's."""
    return list(getattr(variant, "players", None) or variant.edition.players)


def _order(variant, pipeline: str) -> list:
    """A pipeline's entries in order: an id, or {"group": id, "steps": [ids]} for a group."""
    out = []
    for entry in variant.resolved.get(pipeline) or []:
        if isinstance(entry, dict) and isinstance(entry.get("steps"), list):
            out.append({"group": entry_id(entry), "steps": [entry_id(s) for s in entry["steps"]]})
        else:
            out.append(entry_id(entry))
    return out


def _entries(variant, pipeline: str) -> dict[str, dict]:
    """Entry id -> {rule, name, group} for each entry of a pipeline; a group -> {name, steps}."""
    out: dict[str, dict] = {}
    for entry in variant.resolved.get(pipeline) or []:
        if isinstance(entry, dict) and isinstance(entry.get("steps"), list):
            gid = entry_id(entry)
            out[gid] = {"name": entry.get("name", gid), "steps": [entry_id(s) for s in entry["steps"]]}
    for spec in getattr(variant, pipeline):
        out[spec.id] = {"rule": spec.rule, "name": spec.name, **({"group": spec.group} if spec.group else {})}
        if spec.kingdoms is not None:  # only where set: an entry of every kingdom reads as before
            out[spec.id]["kingdoms"] = entry_kingdoms(variant, spec)
    return out


def entry_kingdoms(variant, spec) -> list[str]:
    """The kingdoms a scoring entry names (`RuleSpec.kingdoms`, 0-based indexes) as a file
    names them: by the edition's names, in play order, each once."""
    names = variant.edition.kingdoms
    return list(dict.fromkeys(names[k] for k in spec.kingdoms or ()))


def _terms(variant) -> dict[str, str]:
    keys = list(variant.terms)
    try:
        keys += [k for k in variant.modules.terms if k not in keys]
    except Exception:  # noqa: BLE001 - without its modules a variant still has its own words
        pass
    return {key: variant.term(key) if hasattr(variant, "term") else variant.terms[key] for key in keys}


def _params(variant) -> dict[str, dict]:
    return {f"{pipeline}.{spec.id}": json_value(spec.params)
            for pipeline in PIPELINES for spec in getattr(variant, pipeline)}


def _rulings(variant) -> dict[str, tuple[Any, str]]:
    """Ruling key -> (effective value, SPEC id)."""
    from amunre.core.registry import all_rules
    from amunre.loader.rulings import declared_rulings

    owners = declared_rulings(all_rules())
    out = {}
    for key, value in ordered_rulings(variant).items():
        cls = owners.get(key, (None,))[0]
        spec = attrs.fields_dict(cls)[key].metadata.get("spec", "") if cls else ""
        out[key] = (json_value(value), spec)
    return out


def ordered_rulings(variant) -> dict:
    """A variant's rulings in a fixed order: the core's, then each module's by rule id, each
    class in field order (the composed rulings keep no order of their own)."""
    from amunre.core.registry import all_rules
    from amunre.loader.rulings import declared_rulings

    values = variant.rulings.as_dict()
    order = [key for key in declared_rulings(all_rules()) if key in values]
    return {key: values[key] for key in order + sorted(set(values) - set(order))}


def _rows(a: dict, b: dict, prefix: str = "") -> list[dict]:
    """Rows for the keys of two tables whose values differ (a missing key is None)."""
    keys = list(a) + [k for k in b if k not in a]
    return [{"key": prefix + key, "a": a.get(key), "b": b.get(key)} for key in keys if a.get(key) != b.get(key)]


def compare(a, b) -> dict[str, list[dict]]:
    """Group name -> rows {key, a, b} (rulings also {spec}) where the two variants differ."""
    groups: dict[str, list[dict]] = {}

    def edition(v):
        e = v.edition
        return {"name": e.name, "summary": e.summary, "players": players(v), "kingdoms": list(e.kingdoms),
                "rounds_per_kingdom": e.rounds_per_kingdom, "board": e.board}

    groups["edition"] = _rows(edition(a), edition(b))
    groups["terminology"] = _rows(_terms(a), _terms(b))

    def components(v):
        c = json_value(v.components)
        deck = c.pop("deck")
        return {**c, **{f"deck.{kind}": n for kind, n in deck.items()}}

    groups["components"] = _rows(components(a), components(b))
    groups["pipeline"] = _rows({"order": _order(a, "phases")}, {"order": _order(b, "phases")}, "phases.")
    groups["pipeline"] += _rows(_entries(a, "phases"), _entries(b, "phases"), "phases.")
    groups["scoring"] = []
    for pipeline in ("scoring", "final_scoring"):
        groups["scoring"] += _rows({"order": _order(a, pipeline)}, {"order": _order(b, pipeline)}, f"{pipeline}.")
        groups["scoring"] += _rows(_entries(a, pipeline), _entries(b, pipeline), f"{pipeline}.")
    pa, pb = _params(a), _params(b)
    groups["params"] = []
    for entry in list(pa) + [e for e in pb if e not in pa]:
        groups["params"] += _rows(pa.get(entry) or {}, pb.get(entry) or {}, f"{entry}.")
    ra, rb = _rulings(a), _rulings(b)
    groups["rulings"] = [
        {"key": key, "a": ra.get(key, (None, ""))[0], "b": rb.get(key, (None, ""))[0],
         "spec": (ra.get(key) or rb.get(key))[1]}
        for key in list(ra) + [k for k in rb if k not in ra]
        if ra.get(key, (None,))[0] != rb.get(key, (None,))[0]
    ]
    return groups


def compare_json(a, b, b_settings=(), a_settings=()) -> dict:
    """The comparison as one JSON document (`amunre diff --json`); `b_settings` are the
    `--set KEY=VALUE` texts laid over B (`a_settings` over A: a `--sweep`'s first value)."""
    return {"a": {"id": a.id, "source": a.source, "set": list(a_settings), "plugins": plugins(a)},
            "b": {"id": b.id, "source": b.source, "set": list(b_settings), "plugins": plugins(b)},
            "groups": compare(a, b)}


def plugins(variant) -> list[dict]:
    """The rule modules the variant uses that are not built into amunre, in pipeline order:
    what a co-designer must install to play it (`registry.plugin_origin`: the rule id, the
    module its class comes from, its package where known)."""
    from amunre.core.registry import plugin_origin

    out, seen = [], set()
    for spec in variant.phases + variant.scoring + variant.final_scoring:
        if spec.rule not in seen:
            seen.add(spec.rule)
            origin = plugin_origin(spec.rule)
            if origin is not None:
                out.append(origin)
    return out


def plugins_text(variant) -> str | None:
    """`needs the plug-in rule tall_pyramids (module tallpyramids, package amunre-tallpyramids)`,
    or None for a variant of built-in rules only."""
    found = plugins(variant)
    if not found:
        return None
    each = [f"{p['rule']} (module {p['module']}" + (f", package {p['package']})" if p["package"] else ")")
            for p in found]
    return f"needs the plug-in rule{'' if len(each) == 1 else 's'} {', '.join(each)}"


def plugin_lines(*variants) -> list[str]:
    """A line per variant that needs plug-ins (`plugins_text`), naming it; said once where
    two sides read alike (a variant against itself with `--set`)."""
    lines = [f"{variant.id} {said}" for variant in variants if (said := plugins_text(variant))]
    return list(dict.fromkeys(lines))


def side_names(a, b, b_settings=(), a_settings=()) -> tuple[str, str, str]:
    """(heading, A's column name, B's column name): a side is marked when `--set` (or a
    `--sweep` value) changed it, and the two are told apart as A and B when they read alike."""
    from amunre.loader.overrides import option_of
    from amunre.loader.resources import shipped_name

    def side(variant, settings):
        # a shipped variant by its id alone, not by where pip put it
        words = variant.id if shipped_name(variant.source) else f"{variant.id} ({variant.source})"
        return words + (" with " + " ".join(f"{option_of(s)} {s}" for s in settings) if settings else "")

    def name(variant, settings):
        if settings and option_of(settings[0]) == "--sweep":  # the sweep's value tells the columns apart
            return str(settings[0])
        return variant.id + (f" with {option_of(settings[0])}" if settings else "")

    heading = f"{side(a, a_settings)} vs {side(b, b_settings)}"
    a_name, b_name = name(a, a_settings), name(b, b_settings)
    if a_name == b_name:
        a_name, b_name = f"A: {a_name}", f"B: {b_name}"
    return heading, a_name, b_name


def text(value: Any) -> str:
    """A value in a table cell: `-` for absent, arrays and tables spelled out, entries and
    orders as the phase structure reads."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "steps" in value and "rule" not in value:
            return f"group {_quoted(value.get('name'))}: " + ", ".join(str(s) for s in value["steps"])
        if "rule" in value:
            group = f", in {value['group']}" if value.get("group") else ""
            only = (f", only at the end of: {', '.join(str(k) for k in value['kingdoms'])}"
                    if isinstance(value.get("kingdoms"), list) else "")
            return f"{value['rule']} {_quoted(value.get('name'))}{group}{only}"
        return "{" + ", ".join(f"{k} = {text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        parts = []
        for item in value:
            if isinstance(item, dict) and "group" in item:
                parts.append(f"{item['group']}[{', '.join(item['steps'])}]")
            else:
                parts.append(text(item))
        return ", ".join(parts) or "(none)"
    return str(value)


def _quoted(name) -> str:
    return json.dumps(name, ensure_ascii=False)


def key_text(row: dict) -> str:
    """A row's key, with the SPEC id of a ruling."""
    return f"{row['key']} ({row['spec']})" if row.get("spec") else row["key"]
