"""Resolve a variant file's `extends` chain and `[params.<rule id>]` overrides into one table.

`extends = "classic2003"` (a shipped id) or `extends = "../my.toml"` (a path relative to the
file) starts from another variant: tables merge key by key, pipeline entries merge by id
(`amunre.loader.edits`), other arrays are replaced whole. `[params.<rule id>]` changes single
parameters of every pipeline entry that uses that rule, without copying the pipeline.

Alongside the merged data it keeps the `Origins` of every key: a key set by a file that
`extends` another is reported in that file, a key it inherits in the file it was inherited
from, and a parameter set through `[params.<rule id>]` under the name the author wrote.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from amunre.core.registry import all_rules
from amunre.loader.edits import merge_pipelines, strip_sources
from amunre.loader.files import allowed_folders, available_variants, exists, inside, read_toml, shipped_file
from amunre.loader.pipelines import PIPELINES, flat_entries
from amunre.loader.problems import Origins, Problems, did_you_mean, got, one_of


@attrs.define
class _Layer:
    path: Path
    label: str


def _merge(base: dict, over: dict) -> dict:
    """`over` on top of `base`: tables merge key by key, everything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _replaced(data: dict, prefix: tuple = ()):
    """Key paths where `data` sets a value that replaces (not merges into) a parent's."""
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _replaced(value, prefix + (key,))
        else:
            yield prefix + (key,)


def _merge_origins(parent: Origins, child: Origins, child_data: dict) -> Origins:
    roots = set(_replaced(child_data))
    at = {p: v for p, v in parent.at.items() if not any(p[:k] in roots for k in range(1, len(p) + 1))}
    shown = {p: v for p, v in parent.shown.items() if p in at}
    at.update(child.at)
    shown.update(child.shown)
    return Origins(at, shown)


def _place_origins(pipeline: str, entries: list, merged: Origins, parent: Origins, child: Origins) -> list:
    """The edited pipeline without its tags; its origins moved to where its entries now stand.

    An entry the child file wrote or edited is reported in the child, under the path the
    author wrote: its keys the child did not write point at the child's entry."""
    placed: list = []
    clean = strip_sources(entries, (pipeline,), placed)
    for table in (merged.at, merged.shown):
        for key in [k for k in table if k[:1] == (pipeline,) and len(k) > 1]:
            del table[key]
    for new_path, sources in placed:
        edited = [old for source, old in sources if source == "child"]
        for source, old_path in sources:
            if edited and source == "parent":
                continue
            origins = parent if source == "parent" else child
            for key, hit in origins.at.items():
                if key[:len(old_path)] == old_path and not _in_steps(key, len(old_path)):
                    merged.at[new_path + key[len(old_path):]] = hit
                    # shown as the file that set it numbers it
                    merged.shown[new_path + key[len(old_path):]] = origins.shown.get(key, key)
    return clean


def _in_steps(key: tuple, depth: int) -> bool:
    """Whether a key path below an entry lies inside its steps (those move on their own)."""
    return len(key) > depth and key[depth] == "steps" and len(key) > depth + 1


def _find_parent(value: str, child: Path) -> Path | None:
    """The file `extends = value` names: a path ending in `.toml` (relative to the child),
    else a shipped id. Nothing else is opened: a variant file is data, and `extends` must not
    make the loader read arbitrary files (`resolve_extends` also keeps it in its folders)."""
    if value.endswith(".toml"):
        relative = child.parent / value
        # anything there, a pipe or a folder too, is the parent: reading it says what it is
        return relative if not Path(value).is_absolute() and exists(relative) else None
    if "/" in value or "\\" in value or value.startswith("."):
        return None
    return shipped_file(value)


def _extends_expected() -> str:
    return (f"expected a shipped variant id ({', '.join(sorted(available_variants()))}) "
            "or a path to a .toml file relative to this file, in its folder or below")


def resolve_extends(path: Path, label: str, stack: tuple, problems: Problems,
                    folders: tuple[Path, ...] = ()) -> tuple[dict, Origins, list]:
    """Merged data, origins and the chain of files (child first) for one variant file.

    `folders`: where its parents may lie (`allowed_folders`; default: those of `path`)."""
    folders = folders or allowed_folders(path)
    problems.files.append(label)
    data, lines = read_toml(path, label, problems)
    origins = Origins({p: (label, path, line) for p, line in lines.items()})

    def report(where, what, expected=None):
        problems.add(label, lines.get(where) or lines.get(where[:1]) or 1, where, what, expected)

    chain = [_Layer(path, label)]
    extends = data.pop("extends", None)
    overrides = data.pop("params", None)
    merged, merged_origins = data, origins
    if extends is not None:
        if not isinstance(extends, str) or not extends.strip():
            # without its parent, the rest of the file cannot be judged: every key would be missing
            report(("extends",), f"wrong type: {got(extends)}" if not isinstance(extends, str) else "empty",
                   _extends_expected())
            raise problems.error()
        else:
            parent = _find_parent(extends, path)
            here = stack + ((path.resolve(), label),)
            if parent is None:
                odd = ("/" in extends or "\\" in extends or extends.startswith(".")) and not extends.endswith(".toml")
                absolute = extends.endswith(".toml") and Path(extends).is_absolute()
                close = ("" if odd or absolute or extends.endswith(".toml")
                         else did_you_mean(extends, available_variants()))
                report(("extends",), f"{extends!r} is a path but not to a .toml file" if odd
                       else f"{extends!r} is an absolute path" if absolute else f"cannot find {extends!r}"
                       + (f" (no file {path.parent / extends})" if extends.endswith(".toml") else ""),
                       close + _extends_expected())
                if odd or absolute or stack:
                    raise problems.error()
                # the file's own problems are still worth reporting: what needs no parent is checked
                problems.orphaned = True
                return data, origins, chain
            if not inside(parent, folders):
                report(("extends",), f"{extends!r} lies outside the folder of the variant being loaded",
                       f"expected a shipped variant id or a .toml file in {folders[0]} or below")
                raise problems.error()
            if any(parent.resolve() == seen for seen, _ in here):
                start = [seen for seen, _ in here].index(parent.resolve())
                names = [name for _, name in here[start:]] + [here[start][1]]
                report(("extends",), "extends cycle: " + " -> ".join(names),
                       "expected a chain that ends in a file without `extends`")
                raise problems.error()
            pdata, porigins, pchain = resolve_extends(parent, str(parent), here, problems, folders)
            edited = merge_pipelines(pdata, data, report)
            merged = _merge(pdata, {k: v for k, v in data.items() if k not in edited})
            merged_origins = _merge_origins(porigins, origins, {k: v for k, v in data.items() if k not in edited})
            for pipeline, entries in edited.items():
                merged[pipeline] = _place_origins(pipeline, entries, merged_origins, porigins, origins)
            chain += pchain
            _check_own_id(data, pdata, report)
    if overrides is not None:
        _apply_overrides(overrides, merged, merged_origins, origins, label, path, report)
    return merged, merged_origins, chain


def _check_own_id(data: dict, parent: dict, report) -> None:
    edition = data.get("edition")
    parent_id = parent.get("edition", {}).get("id") if isinstance(parent.get("edition"), dict) else None
    own = edition.get("id") if isinstance(edition, dict) else None
    if parent_id is None:
        return
    if own is None:
        report(("edition",) if isinstance(edition, dict) else ("extends",),
               "a variant that extends another needs its own edition.id",
               f"expected an id other than {parent_id!r}, e.g. [edition] id = \"my-{parent_id}\"")
    elif own == parent_id:
        report(("edition", "id"), f"{own!r} is the id of the file it extends", "expected an id of its own")


def _apply_overrides(overrides, merged: dict, merged_origins: Origins, own: Origins, label: str,
                     path: Path, report) -> None:
    """Apply `[params.<rule id>]` to every pipeline entry of `merged` using that rule."""
    if not isinstance(overrides, dict):
        report(("params",), f"wrong type: {got(overrides)}", "expected a table of [params.<rule id>] tables")
        return
    rules = all_rules()
    for rule_id, values in overrides.items():
        where = ("params", rule_id)
        if rule_id not in rules:
            report(where, f"unknown rule module {rule_id!r}", did_you_mean(rule_id, rules) + one_of(rules))
            continue
        if not isinstance(values, dict):
            report(where, f"wrong type: {got(values)}", f"expected a table of parameters of rule {rule_id!r}")
            continue
        used = False
        for pipeline in PIPELINES:
            if isinstance(merged.get(pipeline), list):
                # copies all the way down: never change the parent's lists
                merged[pipeline], hits = _with_params(merged[pipeline], (pipeline,), rule_id, values)
                used = used or bool(hits)
                for target in hits:
                    for key_path, hit in own.at.items():
                        if key_path[:2] == where and len(key_path) > 2:
                            merged_origins.at[target + key_path[2:]] = hit
                            merged_origins.shown[target + key_path[2:]] = key_path
        if not used:
            in_use = sorted({e.get("rule") for p in PIPELINES for _, e, _ in flat_entries(merged.get(p), (p,))
                             if isinstance(e.get("rule"), str)})
            report(where, f"no pipeline entry uses rule {rule_id!r}",
                   "expected a rule of the pipeline: " + ", ".join(in_use))


def _with_params(entries: list, path: tuple, rule_id: str, values: dict) -> tuple[list, list]:
    """Copies of the entries with `values` laid over the params of those using `rule_id`;
    and the key paths of their params tables."""
    out, hits = [], []
    for i, entry in enumerate(entries):
        if isinstance(entry, dict) and isinstance(entry.get("steps"), list):
            steps, found = _with_params(entry["steps"], path + (i, "steps"), rule_id, values)
            entry = dict(entry, steps=steps)
            hits += found
        elif isinstance(entry, dict) and entry.get("rule") == rule_id:
            params = entry.get("params", {})
            entry = dict(entry, params=_merge(params, values) if isinstance(params, dict) else dict(values))
            hits.append(path + (i, "params"))
        out.append(entry)
    return out, hits
