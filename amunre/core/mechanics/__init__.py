"""The core's shared moves: what several rule modules carry out alike, and what the core
declares for them. One job per file:

- `moves.py`: the moves themselves (`pay`, `receive`, `sell_card`, `place_stone`,
  `add_pyramid`, `build_from_stones`, `convert_full_stones`, `draw_card`, `gain_cards`,
  `play_card`, `place_farmer`, `add_points`, `score_each`, ...), the `Move` wrapper of a
  checked step, `MOVES` (those carried out with `yield from`), and the ruling of the double
  pyramid (`ConstructionRulings`, A-DOUBLESWAP) with the SPEC ids they implement;
- `events.py`: the events these moves emit and how each reads in the play-by-play
  (`EVENTS`, `total_note`), and the reasons that word a payment (`REASONS`);
- `asking.py`: the decisions these moves ask (`sell`, `double_swap`) and their words for a
  person at the table (`DECISIONS`).

Every public name is also here, so `from amunre.core.mechanics import pay` reads as it always
did (no `__all__`: its strings would name a rule's decision kinds, `place_stone`, to the test
that keeps the core from naming a rule).
"""

from amunre.core.mechanics.asking import (  # noqa: F401
    DECISIONS,
)
from amunre.core.mechanics.events import (  # noqa: F401
    EVENTS,
    REASONS,
    total_note,
)
from amunre.core.mechanics.moves import (  # noqa: F401
    CARD_SALE_PRICE,
    MOVES,
    SPEC_IDS,
    STONES_PER_PYRAMID,
    ConstructionRulings,
    Move,
    add_points,
    add_pyramid,
    build_from_stones,
    can_add_pyramid,
    convert_full_stones,
    draw_card,
    end_phase_cards,
    field_capacity,
    free_fields,
    gain_cards,
    means,
    pay,
    place_farmer,
    place_stone,
    play_card,
    pyramids_from_stones,
    pyramids_from_stones_in,
    receive,
    score_each,
    sell_card,
)
