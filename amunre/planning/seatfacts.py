"""What a seat may be told besides the board: what each of its cards does, and what the
coming scoring would give each player if it came now.

Both read only the seat's view (`amunre.core.view.PlayerView`; a spectator's view, of no seat,
too): the card texts are the rule modules' own (`Rule.cards`) with the variant's parameter
values filled in, and the projection plays the variant's own scoring modules on a position
made of the view alone (`amunre.planning.worth.position_of`: the others' hands unknown, so empty),
so it cannot reach a hidden fact. The human seat (`p` and `c` at its prompt) and the pages
of `amunre serve` show them.
"""

from __future__ import annotations

import re

from amunre.core.boardtext import theft_cards
from amunre.core.words import Words

_PARAM = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def card_text(variant, kind: str) -> str:
    """What a card kind does, as the module that plays it declares it, each parameter it
    names (`big_harvest_bonus`) written as this variant's value and each ruling it names
    (`bribery_scope`) as the module's words for this variant's answer (`Rule.ruling_words`);
    a card a module deals besides the deck (`Rule.held_cards`: the theft card) too; "" for a
    card no module declares."""
    for module in variant.modules.all:
        text = module.cards.get(kind, module.held_cards.get(kind))
        if text is None:
            continue
        return _PARAM.sub(lambda match: _named(module, match.group(1)), text)  # noqa: B023 - used at once
    return ""


def _named(module, name: str) -> str:
    """A card text's `name`: the ruling's answer in words, or the parameter's value."""
    if name in module.ruling_words:
        return module.ruling_words[name].get(getattr(module.rulings, name, None), name.replace("_", " "))
    found = getattr(module.params, name, None)
    plain = isinstance(found, (int, float, str)) and not isinstance(found, bool)
    return str(found) if plain else name.replace("_", " ")


def hand_cards(view, words: Words) -> list[tuple[str, int, str]]:
    """(name in the edition's words, count, what it does) of each card kind in the seat's hand,
    the theft cards last."""
    variant = view.variant
    out = [(words.card_noun(variant.cards[kind]), count, card_text(variant, variant.cards[kind]))
           for kind, count in enumerate(view.hand) if count]
    theft = theft_cards(view, view.player)  # (where a module publishes them)
    if theft:
        out.append((words.t("theft"), theft, card_text(variant, "theft")))
    return out


def projection(view, words: Words):
    """(title, the `ScoreSheet` of the coming scoring played on the view's position): the
    kingdom's scoring, and the final scoring too in the last kingdom."""
    from amunre.planning.position import score_position
    from amunre.planning.worth import position_of

    variant = view.variant
    last = view.kingdom >= len(variant.edition.kingdoms) - 1
    sheet = score_position(variant, position_of(view), final=last, names=words.names)
    title = f"if the {words.t('final_scoring') if last else words.t('scoring')} came now"
    return title, sheet
