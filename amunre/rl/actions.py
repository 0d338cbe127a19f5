"""The fixed action space of a variant: action id <-> (decision kind, option). Plain Python: it
needs neither numpy nor pettingzoo (the environment, `amunre.rl.pettingzoo`, plays with it).

Every decision kind declares every option it can ever ask (`Decision.actions`, see
`amunre.core.contract`). A variant's action space is those lists concatenated: the kinds of
its rule modules in pipeline order (phases, scoring, final scoring), then the core's shared
moves (`sell`, `double_swap`); a kind two modules declare is listed once, its options merged.
Action id i is the i-th (kind, option). Unbounded options are capped by their module
(`offering.MOST_OFFERED`, `market.MOST_BOUGHT`, `gold_ranking.MOST_SOLD`); every request
keeps at least one option in the space. `ActionSpace.to_string` words an id in the edition's
words (the module's `describe`), `ActionSpace.from_string` reads it back (the environment's
`action_to_string` and `string_to_action`).
"""

from __future__ import annotations

import difflib
import json

from amunre.core import arguments
from amunre.core.decisions import from_json_value, to_json_value
from amunre.core.errors import AmunreError, ArgumentValueError


def _key(option):
    """A hashable key telling apart options that compare equal across types (True and 1)."""
    if isinstance(option, tuple):
        return ("tuple", tuple(_key(o) for o in option))
    return (type(option).__name__, option)


#: What `ActionSpace.answer_of` gives for an action that is not legal (None may be an option).
NOT_LEGAL = object()


def _normal(text: str) -> str:
    return " ".join(str(text).split()).casefold()


class ActionSpace:
    """The fixed discrete action space of one variant: action id <-> (kind, option).

    `kinds`: the decision kinds in order; `ranges[kind]`: its ids (a range); `len(space)`:
    the number of actions. Built from the `actions` each decision kind declares; a kind
    without them is an AmunreError naming it (and its module) when the space is built."""

    def __init__(self, variant):
        from amunre.core.modules import core_declarations

        self.variant = variant
        modules = variant.modules
        declared: list[tuple] = []  # (kind, module or None, decision), in pipeline order then the core's
        for module in modules.all:
            declared += [(kind, module, d) for kind, d in module.decisions.items()]
        declared += [(kind, None, d) for kind, d in core_declarations()[1].items()]
        missing = [f"{kind!r} ({f'rule module {module.id!r}' if module is not None else 'the core'})"
                   for kind, module, d in declared if d.actions is None]
        if missing:
            raise AmunreError(
                f"{variant.id} cannot be played through the fixed action space: these decision kinds declare no "
                f"`actions` (Decision.actions(rule, variant): every option the kind can ever ask): "
                f"{', '.join(dict.fromkeys(missing))}")
        options: dict[str, dict] = {}  # kind -> {key: option}, first seen first
        for kind, module, decision in declared:
            listed = options.setdefault(kind, {})
            try:
                for option in decision.actions(module, variant):
                    listed.setdefault(_key(option), option)
            except TypeError as error:  # an unhashable option (a list instead of a tuple)
                raise AmunreError(f"the `actions` of decision kind {kind!r} must list plain values and tuples, "
                                  f"not lists or dicts ({error})") from None
        self.kinds: tuple[str, ...] = tuple(options)
        #: the request context keys the observation encodes, as the decisions declare them
        #: (`Decision.context`), first declared first (the loader checked the encodings and that
        #: each key has one: `amunre.core.modules.declaration_clashes`)
        self.context: dict[str, str] = {}
        for _, _, decision in declared:
            for key, how in decision.context.items():
                self.context.setdefault(key, how)
        self._entries: list[tuple[str, object]] = []
        self._ids: dict[str, dict] = {}
        self.ranges: dict[str, range] = {}
        for kind, listed in options.items():
            start = len(self._entries)
            self._ids[kind] = {key: start + i for i, key in enumerate(listed)}
            self._entries += [(kind, option) for option in listed.values()]
            self.ranges[kind] = range(start, len(self._entries))
        # per kind, its ids by the option itself, looked up at C speed: for every kind none of
        # whose options looks like another (True and 1), so that equal options are the same one
        self._plain: dict[str, dict] = {}
        for kind, listed in options.items():
            plain = {option: self._ids[kind][key] for key, option in listed.items()}
            if len(plain) == len(listed):
                self._plain[kind] = plain
        # the last request's legal ids: the mask and the step that follows ask for the same request
        self._last: tuple[object, list[int]] = (None, [])
        self._strings: list[str] | None = None
        self._by_string: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"ActionSpace({self.variant.id}: {len(self)} actions, {len(self.kinds)} kinds)"

    def option(self, action: int) -> tuple[str, object]:
        """(kind, option) of an action id."""
        if type(action) is int and 0 <= action < len(self._entries):  # (the quick test first: every step asks)
            return self._entries[action]
        index = arguments.whole_number("action", action, hint=f"expected an action id: the actions of "
                                       f"{self.variant.id} are 0 to {len(self) - 1}")  # numpy's integers too
        if not 0 <= index < len(self._entries):
            raise ArgumentValueError(f"no action {index}: the actions of {self.variant.id} are 0 to {len(self) - 1}")
        return self._entries[index]

    def id_of(self, kind: str, option) -> int | None:
        """The action id of an option of a kind; None when it is not in the space (over a cap)."""
        ids = self._ids.get(kind)
        try:
            return None if ids is None else ids.get(_key(option))
        except TypeError:  # an unhashable value (a dict) is no option
            return None

    def legal(self, request) -> list[int]:
        """The action ids of a request's legal options that the space holds, in option order (a
        new list each time: its reader may change it)."""
        last, ids = self._last
        if last is not request:
            ids = self._legal(request)
            self._last = (request, ids)
        return list(ids)

    def answer_of(self, request, action: int, legal: list[int] | None = None):
        """The request's own option that action id `action` stands for, or `NOT_LEGAL` when the
        action is not one of its legal options (`legal`: the request's `legal` ids, when the
        caller keeps them). The engine takes its own option object at once; an equal one it
        compares type by type."""
        ids = legal
        if ids is None:
            last, ids = self._last
            if last is not request:
                ids = self._legal(request)
                self._last = (request, ids)
        try:
            at = ids.index(action)
        except ValueError:
            return NOT_LEGAL
        if len(ids) == len(request.options):
            return request.options[at]
        return self._entries[action][1]  # (some options are over the space's caps: positions differ)

    def _legal(self, request) -> list[int]:
        plain = self._plain.get(request.kind)
        if plain is not None:  # (the options a module asks are of the types its `actions` declare)
            try:
                found = list(map(plain.get, request.options))
            except TypeError:  # an unhashable option (a list): looked up by its key below
                pass
            else:
                return [i for i in found if i is not None] if None in found else found
        ids = self._ids.get(request.kind, {})
        keyed = (ids.get(_key(option)) for option in request.options)
        return [i for i in keyed if i is not None]

    # -- in the edition's words ---------------------------------------------------------------
    def to_string(self, action: int) -> str:
        """An action in the edition's words: "<kind>: <the option as the module describes it>"."""
        self.option(action)  # the range check
        return self._words()[0][int(action)]

    def from_string(self, text: str) -> int:
        """The action id of a `to_string` text (case and spacing aside), or of "<kind>: <JSON
        of the option>" (`bid: [3, 6, []]`, `architect: null`)."""
        arguments.text("an action's text", text, "expected `kind: words` as action_to_string gives, or "
                       "`kind: JSON option`")
        strings, by_string = self._words()
        found = by_string.get(_normal(text))
        if found is not None:
            return found
        found = self._from_json(text)
        if found is not None:
            return found
        close = difflib.get_close_matches(_normal(text), list(by_string), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(strings[by_string[c]]) for c in close)}?" if close else ""
        raise ArgumentValueError(f"no action of {self.variant.id} reads {arguments.shown(text)} (expected "
                                 f"`kind: words` as action_to_string gives, or `kind: JSON option`){hint}")

    def _from_json(self, text: str) -> int | None:
        """The action id of "<kind>: <JSON of the option>", None when it names none."""
        kind, sep, rest = text.partition(":")
        kind = kind.strip()
        if not sep or kind not in self._ids:
            return None
        try:
            return self.id_of(kind, from_json_value(json.loads(rest)))
        except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
            return None

    def _words(self) -> tuple[list[str], dict[str, int]]:
        if self._strings is None:
            from amunre.core.words import Words, describe_option

            words = Words(self.variant)
            strings = [f"{kind}: {describe_option(words, kind, option)}" for kind, option in self._entries]
            seen: dict[str, int] = {}
            for text in strings:
                seen[_normal(text)] = seen.get(_normal(text), 0) + 1
            # two options a module words alike (a board naming two provinces the same) keep apart by their JSON
            strings = [text if seen[_normal(text)] == 1 else f"{text} ({json.dumps(to_json_value(option))})"
                       for text, (kind, option) in zip(strings, self._entries)]
            self._strings = strings
            self._by_string = {_normal(text): i for i, text in enumerate(strings)}
        return self._strings, self._by_string


def action_space(variant) -> ActionSpace:
    """The variant's fixed action space (a loaded Variant's, or one's named by id or path), built
    once per variant (shared by its environments)."""
    from amunre.loader import as_variant

    variant = as_variant(variant)
    space = getattr(variant.modules, "action_space", None)  # not __dict__: see amunre.core.flow
    if space is None:
        space = ActionSpace(variant)
        variant.modules.action_space = space
    return space
