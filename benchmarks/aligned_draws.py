"""How often two variants lay out the same provinces on the same seed (named random streams).

    .venv/bin/python benchmarks/aligned_draws.py [SEEDS] [VARIANT_A] [VARIANT_B] [--set KEY=VALUE ...]

Plays SEEDS four-player games of each variant (greedy seats; the province draws do not
depend on the play) and compares, seed by seed, the provinces laid out at each round. Prints
the share of seeds whose first round matches, whose every round of the first kingdom matches,
and whose every round of the game matches. `--set` edits the second variant (default: the
first with one more card of its first kind in the card deck), to show that a change of
another component leaves the province draws alone.
"""

from __future__ import annotations

import sys

from amunre.loader import load_variant
from amunre.testing.layouts import province_layouts


def layouts(variant, seed: int) -> list[tuple]:
    return province_layouts(variant, seed, agent="greedy")


def main(argv: list[str]) -> None:
    sets = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--set"]
    plain = [arg for i, arg in enumerate(argv) if arg != "--set" and (i == 0 or argv[i - 1] != "--set")]
    seeds = int(plain[0]) if plain else 200
    first = load_variant(plain[1] if len(plain) > 1 else "classic2003")
    if len(plain) > 2:
        second = load_variant(plain[2], sets)
    else:
        kind = next(iter(first.components.deck))
        sets = sets or [f"components.deck.{kind}={first.components.deck[kind] + 1}"]
        second = load_variant(plain[1] if len(plain) > 1 else "classic2003", sets)
    first_round = first_kingdom = whole = 0
    for seed in range(seeds):
        a, b = layouts(first, seed), layouts(second, seed)
        first_round += a[:1] == b[:1]
        first_kingdom += [x for x in a if x[0] == 0] == [x for x in b if x[0] == 0]
        whole += a == b
    print(f"{first.id} against {second.id}{' with ' + ', '.join(sets) if sets else ''}, {seeds} seeds:")
    print(f"  first round's provinces the same:            {first_round / seeds:6.1%}")
    print(f"  every round of the first kingdom the same:   {first_kingdom / seeds:6.1%}")
    print(f"  every round of the game the same:            {whole / seeds:6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
