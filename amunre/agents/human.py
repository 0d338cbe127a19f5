"""The `human` agent: asks at the terminal (on stderr), showing what the player's seat may
see and the numbered legal options in the edition's words; anything but a listed number is
asked again."""

from __future__ import annotations

import click


def holdings(view) -> str:
    """One line with what the player holds, in the edition's words."""
    variant = view.variant
    me = view.me
    cards = ", ".join(f"{n}x {variant.term(variant.cards[k])}" for k, n in enumerate(view.hand) if n) or "none"
    provinces = []
    for i in me.provinces:
        prov = view.provinces[i]
        provinces.append(f"{variant.board.provinces[i].name} ({prov.all_farmers()} {variant.term('farmers')}, "
                         f"{prov.stones} {variant.term('stones')}, {prov.pyramid_count()} pyramids)")
    return (f"{variant.term('gold')} {me.gold}; {variant.term('favor_plural')}: {cards}; "
            f"provinces: {'; '.join(provinces) or 'none'}; points {me.score}")


class HumanAgent:
    """Asks on stderr, the terminal's side channel: stdout stays the command's own output
    (one JSON document with `--json`, the play-by-play otherwise)."""

    name = "human"

    def choose(self, view, request):
        from amunre.narrate import Words, describe_option, literal, player_names

        def say(text: str) -> None:
            click.echo(literal(text), err=True)

        words = Words(view.variant)
        name = player_names(view.n_players)[request.player]
        say(f"\n{name}, your decision ({request.kind}) in {view.phase}")
        say(f"  you hold: {holdings(view)}")
        for i, option in enumerate(request.options):
            say(f"  {i:>3}. {describe_option(words, request.kind, option)}")
        while True:
            try:
                index = click.prompt("choice", type=int, err=True)
            except (RuntimeError, OSError):  # stdin closed (`<&-`): no one can answer
                raise click.Abort() from None
            if 0 <= index < len(request.options):
                return request.options[index]
            say(f"enter a number from 0 to {len(request.options) - 1}")
