"""The optional extra `amunre[rl]` (pettingzoo, with gymnasium, and numpy): whether it is installed,
and the one clear error naming it when it is not (`require_extra`).

The modules that use the extra (`amunre.rl.observation`, `amunre.rl.pettingzoo`) import it
themselves and call `require_extra()` before they use it; the action space
(`amunre.rl.actions`) needs none of it.
"""

from __future__ import annotations

from amunre.core.errors import AmunreError

try:  # the optional extra `amunre[rl]`, every part the environment imports, in its order
    import numpy  # noqa: F401 - only whether it imports
    from gymnasium import spaces  # noqa: F401
    from pettingzoo import AECEnv  # noqa: F401
    from pettingzoo.utils import wrappers  # noqa: F401
except ImportError as error:  # pragma: no cover - tested with the extra installed
    _MISSING: ImportError | None = error
else:
    _MISSING = None


class MissingExtraError(AmunreError, ImportError):
    """The environment's optional dependencies are not installed."""


def require_extra() -> None:
    """Raise a clear error naming the extra when pettingzoo or numpy is missing."""
    if _MISSING is not None:
        raise MissingExtraError(
            f"the PettingZoo environment needs the optional extra: pip install 'amunre[rl]' "
            f"(pettingzoo and numpy; {_MISSING})")
