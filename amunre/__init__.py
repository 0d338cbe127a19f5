"""amunre: a rules engine for Reiner Knizia's Amun-Re in which each edition's rules are data.

The public entry points are `load_variant` (a TOML variant file to a typed `Variant`),
`Game` (drives one seeded game through the variant's phase pipeline) and `play_game`
(plays a game to the end with a list of agents).
"""

__version__ = "0.1.0"
