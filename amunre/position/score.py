"""Score a position with the variant's own scoring rule modules, answering their decisions by policy."""

from __future__ import annotations

from typing import Any

import attrs

from amunre.engine import Game, winners
from amunre.errors import AmunreError
from amunre.model import BONUS_CARDS, Variant
from amunre.position.write import default_names
from amunre.rules.scoring import bonus_met
from amunre.state import GameState

PLAY_BONUS = ("met", "all", "none")


@attrs.frozen
class ScoreItem:
    """Points one scoring rule module gave each player (`details`: its sub-items)."""

    key: str
    name: str
    points: tuple[int, ...]
    details: dict[str, tuple[int, ...]] = attrs.field(factory=dict)


@attrs.frozen
class ScoreSheet:
    """The result of `score_position`: per player, per scoring item."""

    names: tuple[str, ...]
    items: tuple[ScoreItem, ...]
    before: tuple[int, ...]  # points each player had before this scoring
    totals: tuple[int, ...]  # points after it
    final: bool
    winners: tuple[int, ...] = ()  # after a final scoring only

    def points(self, player: int) -> dict[str, int]:
        """Item key -> points for one player."""
        return {item.key: item.points[player] for item in self.items}

    def gained(self, player: int) -> int:
        return self.totals[player] - self.before[player]

    def to_dict(self) -> dict[str, Any]:
        return {
            "final": self.final,
            "items": [{"key": i.key, "name": i.name} for i in self.items],
            "players": [
                {
                    "name": name,
                    "before": self.before[p],
                    "points": self.points(p),
                    "details": {
                        i.key: {k: v[p] for k, v in i.details.items()} for i in self.items if i.details
                    },
                    "gained": self.gained(p),
                    "total": self.totals[p],
                }
                for p, name in enumerate(self.names)
            ],
            "winners": [self.names[p] for p in self.winners],
        }


def score_position(
    variant: Variant,
    state: GameState,
    play_bonus: str = "met",
    final: bool = False,
    sell_cards: bool = False,
    names=None,
) -> ScoreSheet:
    """Score a position with the variant's own scoring rule modules (`scoring`, and
    `final_scoring` too when `final` says this is the last kingdom).

    The modules run through the engine on a copy of `state` (the argument is not changed)
    and their decisions are answered by policy: `play_bonus` "met" plays every bonus card
    whose condition holds, "all" every bonus card held, "none" none; cards are sold before
    the gold ranking only with `sell_cards`.
    """
    if play_bonus not in PLAY_BONUS:
        raise AmunreError(f"play_bonus must be one of {', '.join(PLAY_BONUS)}, not {play_bonus!r}")
    names = tuple(names) if names is not None else default_names(state.n_players)
    game = Game.from_state(variant, state.clone())
    rules = list(game.scoring) + (list(game.final_scoring) if final else [])
    items: list[ScoreItem] = []
    before = tuple(p.score for p in game.state.players)
    used: dict[str, int] = {}
    for rule in rules:
        start = [dict(p.breakdown) for p in game.state.players]
        game.run_rules([rule])
        while game.pending is not None:
            game.answer(_policy(game, rule, game.pending, play_bonus, sell_cards))
        details: dict[str, list[int]] = {}
        for p, player in enumerate(game.state.players):
            for key, value in player.breakdown.items():
                gained = value - start[p].get(key, 0)
                if gained or key not in start[p]:
                    sub = key.split(":", 1)[1] if ":" in key else key
                    details.setdefault(sub, [0] * state.n_players)[p] += gained
        used[rule.id] = used.get(rule.id, 0) + 1
        key = rule.id if used[rule.id] == 1 else f"{rule.id}#{used[rule.id]}"
        totals = tuple(sum(v[p] for v in details.values()) for p in range(state.n_players))
        sub_items = {k: tuple(v) for k, v in details.items()}
        if list(sub_items) == [rule.id]:
            sub_items = {}
        items.append(ScoreItem(key=key, name=rule.name, points=totals, details=sub_items))
    return ScoreSheet(
        names=names,
        items=tuple(items),
        before=before,
        totals=tuple(p.score for p in game.state.players),
        final=final,
        winners=tuple(winners(game.state)) if final else (),
    )


def _policy(game: Game, rule, request, play_bonus: str, sell_cards: bool):
    kind, options = request.kind, request.options
    if kind == "play_bonus":
        kinds = [o for o in options if o is not None]
        if play_bonus == "none" or not kinds:
            return None
        if play_bonus == "all":
            return kinds[0]
        state = game.state
        owned = state.players[request.player].provinces
        for card in kinds:
            if card in BONUS_CARDS and bonus_met(card, state, game.variant.board.provinces, owned, rule.params):
                return card
        return None
    if kind == "sell_cards":
        return max(options) if sell_cards else min(options)
    raise AmunreError(
        f"scoring item {rule.name!r} asks a {kind!r} decision that scoring a position cannot answer"
    )
