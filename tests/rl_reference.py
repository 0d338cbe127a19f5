"""The observation encoder and action mask as they were before they were written straight
from the state (issue 39): field by field from the seat's view, through Python lists. Kept
only as the reference tests/test_rl_encoding.py compares the fast encoder with; not used by
the package.
"""

from __future__ import annotations

import numpy as np

from amunre.core.decisions import to_json_value
from amunre.core.errors import AmunreError
from amunre.rl.actions import _key
from amunre.rl.observation import BOUND


def reference_encode(layout, game, seat: int):
    """The observation vector of `seat`, written as the first encoder wrote it."""
    n = layout.n
    view = game.view(seat)
    request = game.pending
    out = np.zeros(layout.size, dtype=np.float32)
    s = layout.slices

    def rel(player: int) -> int:
        return (player - seat) % n

    def one_hot(name: str, index: int | None) -> None:
        part = s[name]
        if index is not None and 0 <= index < part.stop - part.start:
            out[part.start + index] = 1.0

    one_hot("seat", seat)
    one_hot("to_move", n if request is None else rel(request.player))
    if request is not None:
        one_hot("kind", layout.space.kinds.index(request.kind) if request.kind in layout.space.kinds else None)
        out[s["simultaneous"].start] = float(bool(request.simultaneous))
    one_hot("kingdom", view.kingdom)
    one_hot("round", view.round)
    phase = view.phase
    one_hot("phase", layout.phases.index(phase) if phase in layout.phases else len(layout.phases))
    one_hot("start_player", rel(view.start_player))
    one_hot("offering_level", min(view.published("offering_level", 0), layout.levels - 1))
    out[s["hand"]] = view.hand
    players = []
    theft = view.published("theft_cards") or [0] * n
    for q in range(n):
        info = view.players[(seat + q) % n]
        players += [info.gold, info.score, theft[(seat + q) % n], info.hand_size, len(info.provinces)]
    out[s["players"]] = players
    on_auction = set(view.published("on_auction", ()))
    rows = []
    for pid, prov in enumerate(view.provinces):
        owner = [0.0] * (n + 1)
        owner[n if prov.owner is None else rel(prov.owner)] = 1.0
        rows += owner + [prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles, prov.gold,
                         prov.cards, float(pid in on_auction)]
    out[s["provinces"]] = rows
    supplies = view.supplies
    out[s["supplies"]] = [min(supplies[k], BOUND) for k in ("farmers", "stones", "pyramids", "doubles")]
    cards = len(layout.variant.cards)
    pile = [float(view.deck_size)] + [0.0] * (2 * cards)
    for card in view.discard:
        pile[1 + card] += 1
    for card in view.in_play:
        pile[1 + cards + card] += 1
    out[s["cards"]] = pile
    if layout.rule_data:
        data = view.rules
        for module, fields, name in layout.rule_data:
            mine = data.get(module.key) or {}
            for field, what in fields.items():
                _put(layout, out, s[f"rules.{name}.{field}"], what, mine.get(field), rel)
    if request is not None and request.player == seat and request.context:
        context = request.context
        for key, what in layout.space.context.items():
            if key in context:
                _put(layout, out, s[f"context.{key}"], what, context[key], rel)
    np.clip(out, -BOUND, BOUND, out=out)
    return out


def _put(layout, out, part: slice, what: str, value, rel) -> None:
    if value is None:
        return
    size = part.stop - part.start
    if what == "count":
        if isinstance(value, (int, float)):
            out[part.start] = value
        elif isinstance(value, (list, tuple)):
            out[part.start] = len(value)
    elif what in ("provinces", "province"):
        for pid in (value if isinstance(value, (list, tuple)) else [value]):
            if isinstance(pid, int) and 0 <= pid < size:
                out[part.start + pid] = 1.0
    elif what == "players":
        if isinstance(value, (list, tuple)) and len(value) == layout.n:
            for player, v in enumerate(value):
                out[part.start + rel(player)] = v
    elif what == "seats":
        for player in value:
            if isinstance(player, int) and 0 <= player < layout.n:
                out[part.start + rel(player)] = 1.0
    elif what == "bids":
        for player, pid, amount in value:
            if 0 <= pid < len(layout.variant.board):
                out[part.start + pid * layout.n + rel(player)] = amount + 1


def reference_mask(space, game, seat: int):
    """The int8 action mask of `seat`, as the first mask was made."""
    mask = np.zeros(len(space), dtype=np.int8)
    request = game.pending if game is not None else None
    if request is not None and request.player == seat:
        ids = space._ids.get(request.kind, {})  # the space's ids by each option's strict key
        legal = [i for i in (ids.get(_key(option)) for option in request.options) if i is not None]
        if not legal:
            raise AmunreError(f"none of the options of {request.kind!r} is in the action space "
                              f"(e.g. {to_json_value(request.options[0])!r})")
        mask[legal] = 1
    return mask
