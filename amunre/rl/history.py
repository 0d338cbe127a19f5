"""The public history of the last round, an optional part of the observation (`history=True`
in the environments): what each seat bid in the auction, what each offered once the sealed
offers were revealed, and who stole instead of offering.

`RoundHistory` is a game listener: it hears only public events (`bid`, placed in the open;
`offers`, sent when the sealed offers are revealed, never before; `round_end`), keeps the
round under way, and at each round's end makes it the last round. The observation shows the
last complete round (all 0 during the first round), by seat relative to the observer, as
`ObservationLayout` lays it out (the sections `history.*`: `HISTORY_SECTIONS`). A variant
without an auction or an offering leaves those entries 0.
"""

from __future__ import annotations

from amunre.core import arguments

try:  # the optional extra `amunre[rl]` (the environments call require_extra() first)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

#: The sections the history adds at the end of the observation vector: (name, size for `n`
#: players and `provinces` provinces, what it holds).
HISTORY_SECTIONS = (
    ("history.bids", lambda n, provinces: provinces * n,
     "the last round's auction, per province id then relative seat: the last amount the seat bid on "
     "it, plus 1 (0: no bid there)"),
    ("history.offers", lambda n, provinces: n,
     "the last round's offering, per relative seat: the gold offered, plus 1 (0: none, or a theft)"),
    ("history.thefts", lambda n, provinces: n,
     "the last round's offering, per relative seat: 1 when the seat stole instead of offering"),
)


def checked_history(history) -> bool:
    """The environments' `history` argument: True or False (anything else a clear error)."""
    if not isinstance(history, bool):
        raise arguments.wrong_type("history", history, "True or False",
                                   "True adds the last round's public history to the observation")
    return history


class RoundHistory:
    """A listener keeping the public history of the round under way and of the last one (by
    absolute seat: `bids[province, seat]`, `offers[seat]`, `thefts[seat]`)."""

    listens_to = frozenset({"bid", "offers", "round_end"})

    def __init__(self, n_players: int, n_provinces: int):
        self.n, self.provinces = n_players, n_provinces
        self.last = self._empty()
        self.current = self._empty()
        self.rounds = 0  # the rounds ended: `last` changes only then (the observation's writer keys on it)

    def _empty(self) -> dict:
        return {"bids": np.zeros((self.provinces, self.n), dtype=np.int64),
                "offers": np.zeros(self.n, dtype=np.int64), "thefts": np.zeros(self.n, dtype=np.int64)}

    def __call__(self, event: dict) -> None:
        name = event["event"]
        if name == "bid":
            province, player = event["province"], event["player"]
            if 0 <= province < self.provinces and 0 <= player < self.n:
                self.current["bids"][province, player] = event["amount"] + 1
        elif name == "offers":  # sent once the sealed offers are revealed
            for seat, (kind, amount, _adjust) in event["offers"].items():
                player = int(seat)
                if kind == "theft":
                    self.current["thefts"][player] = 1
                else:
                    self.current["offers"][player] = amount + 1
        elif name == "round_end":
            self.last, self.current = self.current, self._empty()
            self.rounds += 1

    def write(self, out, at: int, seat: int) -> None:
        """Write the last round's history, seen from `seat`, into `out` from index `at`."""
        order = (seat + np.arange(self.n)) % self.n  # relative seat q is absolute seat order[q]
        last = self.last
        bids = last["bids"][:, order].ravel()
        out[at:at + bids.size] = bids
        at += bids.size
        out[at:at + self.n] = last["offers"][order]
        out[at + self.n:at + 2 * self.n] = last["thefts"][order]
