"""The optional extras of the rl layer, whether they are installed, and the one clear error
naming the extra when one is not:

- `amunre[rl]` (pettingzoo, gymnasium, numpy): the PettingZoo environment, the Gymnasium
  environment and the observation encoder they share (`require_extra`, `require_gymnasium`);
- `amunre[openspiel]` (open_spiel, and the packages of `rl` for the shared encoder): the
  OpenSpiel game (`require_openspiel`).

The modules that use an extra (`amunre.rl.observation`, `amunre.rl.pettingzoo`, `amunre.rl.vector`,
`amunre.rl.gymnasium`, `amunre.rl.openspiel`) import it themselves and call its `require_*`
before they use it; the action space (`amunre.rl.actions`) needs none of it.
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
    """An environment's optional dependencies are not installed."""


def require_extra() -> None:
    """Raise a clear error naming the extra when pettingzoo or numpy is missing."""
    if _MISSING is not None:
        raise MissingExtraError(
            f"the PettingZoo environment needs the optional extra: pip install 'amunre[rl]' "
            f"(pettingzoo and numpy; {_MISSING})")


def require_gymnasium() -> None:
    """Raise a clear error naming the extra when gymnasium (or the rest of `amunre[rl]`) is missing."""
    if _MISSING is not None:
        raise MissingExtraError(
            f"the Gymnasium environment needs the optional extra: pip install 'amunre[rl]' "
            f"(gymnasium, pettingzoo and numpy; {_MISSING})")


def require_openspiel() -> None:
    """Raise a clear error naming the extra when OpenSpiel (or the encoder's numpy) is missing.
    OpenSpiel is imported only here, when asked: it is a large compiled package."""
    try:
        import pyspiel  # noqa: F401 - only whether it imports
    except ImportError as error:
        missing: ImportError | None = error
    else:
        missing = _MISSING
    if missing is not None:
        raise MissingExtraError(
            f"the OpenSpiel game needs the optional extra: pip install 'amunre[openspiel]' "
            f"(open_spiel, with numpy, gymnasium and pettingzoo for the shared observation encoder; {missing})")
