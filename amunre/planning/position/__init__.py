"""Game positions: holdings written by hand (TOML or JSON) so a rules author can score a case.

A position names, per player, the gold, theft cards, hand and provinces (by board name,
each with its farmers, free farmers, stones, single and double pyramids), plus the
kingdom, the offering level, the start player, optionally the supplies and the unowned
provinces still holding stones or pyramids. Example (TOML):

    variant = "classic2003"          # a shipped variant id, never a file (default classic2003)
    kingdom = "New Kingdom"          # or 2; default 1
    offering_level = 1
    start_player = "blue"            # a name or a 0-based index; default 0
    scoring = "final"                # what `amunre score` shows: "kingdom" (default) or "final" too

    [[players]]
    name = "blue"
    gold = 4
    hand = { upper_lower = 1 }
    [players.provinces.Edfu]
    pyramids = 1
    doubles = 1

    [unowned.Memphis]
    stones = 2

`load_position` reads and checks a file against `schemas/position.schema.json` and the
variant (province names, ownership, field spaces, card kinds, component counts) and
reports every problem at once in one `PositionError`, each at its file, line and key, as
the variant loader does (whatever the file holds: see `amunre.planning.position.read`);
`position_variant` is the shipped variant a position names; `position_to_dict` is its inverse;
`score_position` runs the variant's own scoring rule modules on a position through the
engine's decision protocol, answering their decisions by a fixed policy.
"""

from amunre.planning.position.build import build_state
from amunre.planning.position.fields import PROVINCE_COUNTS, SUPPLIES, UNOWNED_COUNTS, Position
from amunre.planning.position.read import (
    load_position,
    position_from_data,
    position_variant,
    read_position,
    read_position_data,
    read_position_raw,
)
from amunre.planning.position.score import ScoreItem, ScoreSheet, answer_policies, score_position
from amunre.planning.position.write import default_names, position_to_dict, write_position

__all__ = [
    "PROVINCE_COUNTS", "SUPPLIES", "UNOWNED_COUNTS", "Position", "ScoreItem", "ScoreSheet", "answer_policies",
    "build_state", "default_names", "load_position", "position_from_data", "position_variant",
    "position_to_dict", "read_position", "read_position_data", "read_position_raw", "score_position",
    "write_position",
]
