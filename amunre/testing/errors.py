"""`ConformanceError`: what a failed invariant raises, for the driver and every invariant family."""

from __future__ import annotations


class ConformanceError(AssertionError):
    """An invariant failed. The message says where, and how to rerun that game."""

    def __init__(self, message: str, invariant: str = ""):
        super().__init__(message)
        self.invariant = invariant
