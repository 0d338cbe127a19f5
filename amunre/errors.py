"""The domain errors: each carries a message written for the user, never a traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from amunre.loader.problems import Problem


class AmunreError(Exception):
    """Base class for every error the CLI turns into a clean message and exit code 2."""


class VariantError(AmunreError):
    """A variant or board file is wrong. Holds every problem found, one per line."""

    #: The problems structured, where the loader raised it (`Problems.error`): else not set
    details: list[Problem]

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class UnknownVariantError(AmunreError):
    """A variant id or path that does not exist; the message lists the available ones."""


class IllegalAnswerError(AmunreError):
    """An agent answered a decision with something that is not one of its legal options."""


class PositionError(AmunreError):
    """A position file cannot be read or contradicts the variant."""


class ReplayError(AmunreError):
    """A log file cannot be replayed or its replay diverges from what it recorded."""


class RuleModuleError(AmunreError):
    """A rule module broke the rule-author contract (docs/architecture.md) while it ran: a
    plug-in's bug, not the user's input. The message names the module and the fix."""
