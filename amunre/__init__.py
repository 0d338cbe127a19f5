"""amunre: a rules engine for Reiner Knizia's Amun-Re in which each edition's rules are data.

The public entry points are `load_variant` (a TOML variant file to a typed `Variant`),
`Game` (drives one seeded game through the variant's phase pipeline) and `play_game`
(plays a game to the end with a list of agents):

    from amunre import load_variant, Game, play_game
"""

__version__ = "0.4.0"

__all__ = ["Game", "load_variant", "play_game", "__version__"]

from amunre import _moved

_moved.install()


def __getattr__(name: str):
    # imported on first use, so `import amunre` (the CLI's start) stays light
    if name in ("Game", "play_game"):
        from amunre.core import engine

        return getattr(engine, name)
    if name == "load_variant":
        from amunre.loader import load_variant

        return load_variant
    raise AttributeError(f"module 'amunre' has no attribute {name!r}")
