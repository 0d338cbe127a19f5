"""The domain errors: each carries a message written for the user, never a traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Iterable


@attrs.frozen
class Problem:
    """One problem of a variant or board file, structured (`amunre.loader.problems` finds
    them): where (file, line, column when known, key path) and what."""

    file: str
    line: int | None
    path: str  # as messages print it: `phases[1].params.bid_spaces`; "" for the whole file
    message: str
    expected: str | None = None
    column: int | None = None
    text: str = ""  # the line the report prints

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "line": self.line, "path": self.path,
                                  "message": self.message, "expected": self.expected}
        if self.column is not None:
            out["column"] = self.column
        return out


class AmunreError(Exception):
    """Base class for every error the CLI turns into a clean message and exit code 2."""


class VariantError(AmunreError, ValueError):
    """A variant or board file is wrong, or an override makes it so. Holds every problem
    found, one per line. A ValueError too, as a TOML file that does not parse is
    (`tomllib.TOMLDecodeError`): to a Python caller it is a wrong value."""

    #: The problems structured, where the loader raised it (`Problems.error`): else not set
    details: list[Problem]

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class ArgumentError(AmunreError):
    """A Python caller passed a public function a bad argument (`amunre.core.arguments`): the
    message names the argument, what was expected and the value given, cut short. Raised as
    one of the two below, which are also Python's own errors, so that `except TypeError` /
    `except ValueError` catch them as they would any library's; the CLI shows them as any
    AmunreError."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (`None` where a count is expected, a str for a list)."""


class ArgumentValueError(ArgumentError, ValueError):
    """An argument of the right type and a wrong value (a seat past the last, an unknown agent)."""


class UnknownVariantError(AmunreError, ValueError):
    """A variant id or path that does not exist; the message lists the available ones. A
    ValueError too: to a Python caller it is a wrong value of `load_variant`'s argument."""


class IllegalAnswerError(AmunreError, ValueError):
    """An agent answered a decision with something that is not one of its legal options (a
    ValueError too: a wrong value of `Game.answer`'s argument)."""


class PositionError(AmunreError):
    """A position file cannot be read or contradicts the variant."""


class ReplayError(AmunreError):
    """A log file cannot be replayed or its replay diverges from what it recorded."""


class RuleModuleError(AmunreError):
    """A rule module broke the rule-author contract (docs/architecture.md) while it ran: a
    plug-in's bug, not the user's input. The message names the module and the fix."""


class AgentError(AmunreError):
    """An agent of one's own (a module, a file or an installed package's) failed while a game
    was played: it raised, or answered something that is not an option. The message names the
    agent, its seat and the decision; the command line exits 1 (a failure found, as `amunre
    check`'s `[agent]`), not 2 (bad input)."""
