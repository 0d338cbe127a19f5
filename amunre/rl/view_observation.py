"""The observation vector from what an agent is handed: its view and its request.

An agent seated by `amunre arena` or `amunre run` gets `choose(view, request)`, never the
game; `ObservationLayout.encode(game, seat)` reads the game. `encode_view(layout, view,
request)` writes the same vector from the view alone (`amunre.core.view.PlayerView`): no fact
the seat may not know goes in, and it equals `layout.encode(game, seat)` for every seat at
every decision when `request` is the pending one (tests/test_rl_view_encoding.py plays whole
games of every variant file to hold it to that). `layout_for(view)` is the layout of the
view's variant and player count, made once per process.

    from amunre.rl.view_observation import encode_view, layout_for

    class MyPolicy:
        def choose(self, view, request):
            layout = layout_for(view)
            observation = encode_view(layout, view, request)     # numpy float32, layout.size
            legal = layout.space.legal(request)                  # the legal action ids
            ...
            return layout.space.option(chosen_id)[1]             # the option to answer with

It reads the view field by field (slower than `encode`, or the environments' kept vectors,
`amunre.rl.observation_writer`, but an agent's own decision seldom costs less). Needs numpy,
the optional extra `amunre[rl]`.
"""

from __future__ import annotations

from amunre.rl.actions import action_space
from amunre.rl.observation import BOUND, WRITERS, ObservationLayout

try:  # the optional extra `amunre[rl]` (ObservationLayout's require_extra() names it when missing)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

_layouts: dict[tuple[int, int, bool], ObservationLayout] = {}  # by variant object, player count, history


def layout_for(view, history: bool = False) -> ObservationLayout:
    """The observation layout of the view's variant and player count (made once, then kept:
    an agent is made for every seat of every game)."""
    key = (id(view.variant), view.n_players, history)
    layout = _layouts.get(key)
    if layout is None or layout.variant is not view.variant:
        layout = _layouts[key] = ObservationLayout(view.variant, view.n_players, action_space(view.variant),
                                                   history=history)
    return layout


def encode_view(layout: ObservationLayout, view, request=None, history=None):
    """The observation vector (a new numpy float32 array) of the seat whose `view` this is.
    `request` is the pending request: an agent's own, when it is asked (the to-move, kind and
    simultaneous entries come from it; its context only when it is this seat's); None writes
    "nobody to move". `history`: a `RoundHistory` for a layout made with `history=True`
    (None: those entries 0, as `encode` leaves them)."""
    seat, n = view.player, layout.n
    out = np.zeros(layout.size, dtype=np.float32)
    s = layout.slices

    def relative(player: int) -> int:
        return (player - seat) % n

    def one_hot(name: str, index: int | None) -> None:
        part = s[name]
        if index is not None and 0 <= index < part.stop - part.start:
            out[part.start + index] = 1.0

    one_hot("seat", seat)
    one_hot("to_move", n if request is None else relative(request.player))
    if request is not None:
        kinds = layout.space.kinds
        one_hot("kind", kinds.index(request.kind) if request.kind in kinds else None)
        out[s["simultaneous"].start] = float(bool(request.simultaneous))
    one_hot("kingdom", view.kingdom)
    one_hot("round", view.round)
    phase = view.phase
    one_hot("phase", layout.phases.index(phase) if phase in layout.phases else len(layout.phases))
    one_hot("start_player", relative(view.start_player))
    one_hot("offering_level", min(view.published("offering_level", 0), layout.levels - 1))
    out[s["hand"]] = view.hand
    theft = view.published("theft_cards") or [0] * n
    players = []
    for q in range(n):
        p = (seat + q) % n
        info = view.players[p]
        players += [info.gold, info.score, theft[p], info.hand_size, len(info.provinces)]
    out[s["players"]] = np.clip(players, -BOUND, BOUND)
    on_auction = set(view.published("on_auction", ()))
    rows: list[float] = []
    for pid, province in enumerate(view.provinces):
        owner = [0.0] * (n + 1)
        owner[n if province.owner is None else relative(province.owner)] = 1.0
        rows += owner + [province.farmers, province.free_farmers, province.stones, province.pyramids,
                         province.doubles, province.gold, province.cards, float(pid in on_auction)]
    out[s["provinces"]] = np.clip(rows, -BOUND, BOUND)
    supplies = view.supplies
    out[s["supplies"]] = [min(supplies[k], BOUND) for k in ("farmers", "stones", "pyramids", "doubles")]
    cards = len(layout.variant.cards)
    piles = [float(view.deck_size)] + [0.0] * (2 * cards)
    for card in view.discard:
        piles[1 + card] += 1
    for card in view.in_play:
        piles[1 + cards + card] += 1
    out[s["cards"]] = np.clip(piles, -BOUND, BOUND)
    if layout.rule_data:
        shown = view.rules  # (each module's data as it shows it to this seat)
        for module, fields, name in layout.rule_data:
            mine = shown.get(module.key)
            if not mine:
                continue
            for field, what in fields.items():
                _put(out, s[f"rules.{name}.{field}"], what, mine.get(field), n, seat)
    if request is not None and request.player == seat and request.context:
        for key, what in layout.space.context.items():
            if key in request.context:
                _put(out, s[f"context.{key}"], what, request.context[key], n, seat)
    if history is not None and layout.history:
        start = s["history.bids"].start
        history.write(out, start, seat)
        np.minimum(out[start:], BOUND, out=out[start:])
    return out


def _put(out, part: slice, what: str, value, n: int, seat: int) -> None:
    """A rule module's field or a context value, written as its declared encoding says."""
    if value is not None:
        WRITERS[what](out, part.start, part.stop - part.start, n, value, seat)
