"""The `human` agent: asks at the terminal, showing the player's holdings and the numbered
legal options; anything but a listed number is asked again."""

from __future__ import annotations

import click

from amunre.model import CARD_KINDS


def holdings(game, player: int) -> str:
    """One line with what the player holds, in the edition's words."""
    state, variant = game.state, game.variant
    me = state.players[player]
    cards = ", ".join(f"{n}x {variant.term(CARD_KINDS[k])}" for k, n in enumerate(me.hand) if n) or "none"
    provinces = []
    for i in me.provinces:
        prov = state.provinces[i]
        provinces.append(f"{variant.board.provinces[i].name} ({prov.all_farmers()} {variant.term('farmers')}, "
                         f"{prov.stones} {variant.term('stones')}, {prov.pyramid_count()} pyramids)")
    return (f"{variant.term('gold')} {me.gold}; {variant.term('favor_plural')}: {cards}; "
            f"provinces: {'; '.join(provinces) or 'none'}; points {me.score}")


class HumanAgent:
    name = "human"

    def choose(self, game, request):
        from amunre.narrate import describe_option, player_names

        name = player_names(game.n_players)[request.player]
        click.echo(f"\n{name}, your decision ({request.kind}) in {game.phase_name}")
        click.echo(f"  you hold: {holdings(game, request.player)}")
        for i, option in enumerate(request.options):
            click.echo(f"  {i:>3}. {describe_option(game, request.kind, option)}")
        while True:
            index = click.prompt("choice", type=int)
            if 0 <= index < len(request.options):
                return request.options[index]
            click.echo(f"enter a number from 0 to {len(request.options) - 1}")
