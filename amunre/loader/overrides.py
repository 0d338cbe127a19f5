"""`--set KEY=VALUE`: change single keys of a variant from the command line.

The overrides are laid over the variant's merged data (after `extends` and
`[params.<rule id>]`), before any validation, so a value set this way is checked exactly
like one written in a file, and a problem with it is reported as
`--set KEY=VALUE: what is wrong (what was expected)`. Nothing is half-applied: loading
either returns the variant with every override or raises with every problem.

KEY is a dotted TOML key of the resolved file:

- `components.starting_gold`, `rulings.bribery_scope`, `edition.rounds_per_kingdom`,
  `components.deck.architect`, `terms.architect`: the key itself (tables merge, anything
  else is replaced);
- `phases.<entry id>.<key>`, likewise `scoring.` and `final_scoring.`: a key of the
  pipeline entry with that id, wherever it stands (a step of a group too), e.g.
  `phases.auction.params.protection_skip` or `scoring.nile_sides.name`; another `rule`
  replaces the entry (id and place kept, the old params dropped), as in a file that extends;
- `params.<rule id>.<param>`: that parameter of every entry using the rule, as a
  `[params.<rule id>]` table does.

VALUE is a TOML value (`25`, `true`, `"text"`, `[1, 2]`, `{ architect = 8 }`); a bare word
that is not one (`one_rebid`) is taken as a string.
"""

from __future__ import annotations

import tomllib

from amunre.loader.files import MAX_DEPTH, MAX_ITEMS, MAX_STRING, nesting_depth
from amunre.loader.merge import _merge, _with_params
from amunre.loader.pipelines import PIPELINES, entry_id
from amunre.loader.problems import Origins, Problems, did_you_mean, one_of, printable
from amunre.loader.tomlpos import format_path

_KEY_EXAMPLE = ("expected KEY=VALUE with a dotted key such as components.starting_gold or "
                "phases.auction.params.protection_skip")


class SweepValue(str):
    """One `KEY=VALUE` of `amunre compare --sweep`: set like a `--set`, named as the sweep's."""

    option = "--sweep"


def option_of(text: str) -> str:
    """The command-line option an override came from, to name it in messages."""
    return getattr(text, "option", "--set")


def parse_override(text: str) -> tuple[tuple, object]:
    """(key path, value) of one `KEY=VALUE`; ValueError(what, expected) when it is not one."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key:
        raise ValueError("not KEY=VALUE", _KEY_EXAMPLE)
    try:
        parsed = tomllib.loads(f"{key} = 0")
    except (tomllib.TOMLDecodeError, RecursionError):
        raise ValueError(f"{key!r} is not a TOML key", _KEY_EXAMPLE) from None
    path: list = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        (name, parsed), = parsed.items()
        path.append(name)
    if not raw:
        raise ValueError("no value after '='", "expected a TOML value: 25, true, \"text\", [1, 2]")
    return tuple(path), _value(raw)


def _value(raw: str):
    try:
        doc = tomllib.loads(f"v = {raw}")
    except RecursionError:
        raise ValueError("the value nests too deep", f"expected at most {MAX_DEPTH} levels") from None
    except tomllib.TOMLDecodeError as exc:
        if raw[0] in "\"'[{" or "\n" in raw:
            raise ValueError(f"not a TOML value ({exc})",
                             "expected a TOML value: 25, true, \"text\", [1, 2], { key = 1 }") from None
        return _sized(raw)  # a bare word: a string
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise ValueError("a number too long to read", "expected a number of at most a few hundred digits") from None
    if set(doc) != {"v"}:
        raise ValueError("more than one value", "expected a single TOML value")
    if nesting_depth(doc["v"]) > MAX_DEPTH:
        raise ValueError("the value nests too deep", f"expected at most {MAX_DEPTH} levels")
    return _sized(doc["v"])


def _sized(value):
    """`value`, unless it holds a string or an array larger than a file may (MAX_STRING, MAX_ITEMS)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str) and len(item) > MAX_STRING:
            raise ValueError(f"a string of {len(item)} characters, too long", f"expected at most {MAX_STRING}")
        if isinstance(item, list) and len(item) > MAX_ITEMS:
            raise ValueError(f"{len(item)} items, too many", f"expected at most {MAX_ITEMS}")
        todo += list(item.values()) if isinstance(item, dict) else item if isinstance(item, list) else []
    return value


def _entries(entries, path: tuple):
    """(key path, entry) of every entry of a pipeline, groups and their steps included."""
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, dict):
            yield path + (i,), entry
            if isinstance(entry.get("steps"), list):
                yield from _entries(entry["steps"], path + (i, "steps"))


def apply_overrides(texts, data: dict, origins: Origins, problems: Problems) -> dict:
    """`data` with every `KEY=VALUE` of `texts` applied (a copy; `data` is left alone);
    problems with an override are added to `problems` under its own label."""
    import copy

    data = copy.deepcopy(data)
    seen: dict[tuple, str] = {}  # key path -> the label that set it first
    for text in texts:
        shown = printable(text)
        # a huge argument is named by its ends, as a log's excerpts are: the middle adds nothing
        label = f"{option_of(text)} {shown if len(shown) <= 120 else shown[:80] + ' ... ' + shown[-30:]}"
        try:
            key, value = parse_override(text)
        except ValueError as exc:
            what, expected = exc.args
            problems.arguments[label] = ""
            problems.add(label, None, (), what, expected)
            continue
        problems.arguments[label] = format_path(key)
        if key in seen:  # which of two values is meant cannot be guessed: say so
            problems.add(label, None, (), f"sets {format_path(key)} a second time (first with {seen[key]})",
                         "expected each key once")
            continue
        seen[key] = label

        def report(what, expected=None, _label=label):
            problems.add(_label, None, (), what, expected)

        target = _target(key, data, report, option_of(text))
        if target is None:
            continue
        for at, sub in target:
            if key[0] in PIPELINES and sub == ("rule",) and _replaced_entry(data, at, value):
                # another rule replaces the entry, as in a file that extends (amunre.loader.edits):
                # its id and place stay, the old rule's params and name go with it
                for old in [p for p in origins.at if p[:len(at)] == at]:
                    del origins.at[old]
                origins.at[at] = (label, None, None)
                origins.at[at + ("id",)] = (label, None, None)
                origins.shown[at + ("id",)] = key[:2] + ("id",)
            else:
                _set(data, at + sub, value, report)
            for old in [p for p in origins.at if p[:len(at + sub)] == at + sub and not isinstance(value, dict)]:
                del origins.at[old]
            origins.at[at + sub] = (label, None, None)
            origins.shown[at + sub] = key
    return data


def _target(key: tuple, data: dict, report, option: str = "--set"):
    """[(entry or table path, key path inside it)] the override sets; None after reporting why not."""
    head = key[0]
    if head == "extends":
        report(f"{option} cannot change `extends`",
               "expected a key of the resolved variant, e.g. components.starting_gold")
        return None
    if head in PIPELINES:
        if len(key) < 3:
            report("a pipeline key needs an entry id and a key of that entry",
                   f"expected {head}.<entry id>.<key>, e.g. phases.auction.params.protection_skip")
            return None
        found = [(at, e) for at, e in _entries(data.get(head), (head,)) if entry_id(e) == key[1]]
        if not found:
            ids = [entry_id(e) for _, e in _entries(data.get(head), (head,)) if entry_id(e)]
            report(f"no entry {key[1]!r} in [[{head}]]", did_you_mean(key[1], ids) + one_of(ids))
            return None
        return [(found[0][0], key[2:])]
    if head == "params":
        from amunre.core.registry import all_rules

        rules = all_rules()
        if len(key) < 3:
            report("a params key needs a rule id and a parameter",
                   "expected params.<rule id>.<param>, e.g. params.auction.protection_skip")
            return None
        if key[1] not in rules:
            report(f"unknown rule module {key[1]!r}", did_you_mean(key[1], rules) + one_of(rules))
            return None
        hits = []
        for pipeline in PIPELINES:
            if isinstance(data.get(pipeline), list):
                _, found = _with_params(data[pipeline], (pipeline,), key[1], {})
                hits += [(at, key[2:]) for at in found]
        if not hits:
            used = sorted({e["rule"] for p in PIPELINES for _, e in _entries(data.get(p), (p,))
                           if isinstance(e.get("rule"), str)})
            report(f"no pipeline entry uses rule {key[1]!r}", "expected a rule of the pipeline: " + ", ".join(used))
            return None
        return hits
    return [((), key)]


def _replaced_entry(data: dict, at: tuple, rule) -> bool:
    """Replace the pipeline entry at `at` by a bare entry of `rule` (its id kept) when `rule`
    is another rule than its own; whether it did."""
    holder = data
    for part in at[:-1]:
        holder = holder[part]
    entry = holder[at[-1]]
    if not isinstance(entry, dict) or "steps" in entry or entry.get("rule") == rule:
        return False
    holder[at[-1]] = {"id": entry_id(entry), "rule": rule}
    return True


def _set(data: dict, path: tuple, value, report) -> None:
    """Set `path` in `data` to `value`: tables on the way are made, a table value merges in."""
    table = data
    for i, part in enumerate(path[:-1]):
        if isinstance(part, int):  # a pipeline entry's place, found by its id
            table = table[part]
            continue
        if part not in table:
            table[part] = {}
        if not isinstance(table[part], (dict, list)) or (
                isinstance(table[part], list) and not isinstance(path[i + 1], int)):
            report(f"{format_path(path[:i + 1])} is not a table, so it has no key {path[i + 1]!r}",
                   "expected a key of a table")
            return
        table = table[part]
    last = path[-1]
    if isinstance(value, dict) and isinstance(table.get(last), dict):
        table[last] = _merge(table[last], value)
    else:
        table[last] = value
