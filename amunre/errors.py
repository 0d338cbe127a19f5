"""The domain errors: each carries a message written for the user, never a traceback."""


class AmunreError(Exception):
    """Base class for every error the CLI turns into a clean message and exit code 2."""


class VariantError(AmunreError):
    """A variant or board file is wrong. Holds every problem found, one per line."""

    def __init__(self, problems):
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
