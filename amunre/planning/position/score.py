"""Score a position with the variant's own scoring rule modules, answering their decisions by policy."""

from __future__ import annotations

from typing import Any

import attrs

from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.core.model import Variant
from amunre.core.standing import winners
from amunre.core.state import GameState
from amunre.planning.position.write import default_names


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


def answer_policies(variant: Variant) -> dict[str, tuple[str, ...]]:
    """Decision kind -> the named policies its module offers for answering it unattended
    (the first is the default), for every decision a scoring can ask that has some: the
    scoring modules' and the core's shared moves' (a phase's, the Treasury's say, is never
    asked while a position is scored)."""
    phases = {kind for module in variant.modules.phases for kind in module.decisions}
    return {kind: tuple(d.policies) for kind, d in variant.modules.decisions.items()
            if d.policies and kind not in phases}


def score_position(
    variant: Variant,
    state: GameState,
    answers: dict[str, str] | None = None,
    final: bool = False,
    names=None,
) -> ScoreSheet:
    """Score a position with the variant's own scoring rule modules (those scoring at the end
    of the position's kingdom, `Modules.scoring_in`, and `final_scoring` too when `final` says
    this is the last kingdom).

    The modules run through the engine on a copy of `state` (the argument is not changed)
    and their decisions are answered by the policies their modules declare: `answers` maps
    a decision kind to a policy name (see `answer_policies`); other kinds take the first.
    """
    offered = answer_policies(variant)
    chosen = {kind: policies[0] for kind, policies in offered.items()}
    for kind, policy in (answers or {}).items():
        if kind not in offered:
            raise AmunreError(f"no scoring decision {kind!r} in {variant.id} takes a policy "
                              f"(expected one of: {', '.join(sorted(offered)) or 'none'})")
        if policy not in offered[kind]:
            raise AmunreError(f"{kind!r} has no policy {policy!r} (expected one of: {', '.join(offered[kind])})")
        chosen[kind] = policy
    names = tuple(names) if names is not None else default_names(state.n_players)
    game = Game.from_state(variant, state.clone())
    # the items of the position's kingdom's end (an entry may score in some kingdoms only)
    rules = list(variant.modules.scoring_in(game.state.kingdom)) + (list(game.final_scoring) if final else [])
    items: list[ScoreItem] = []
    before = tuple(p.score for p in game.state.players)
    used: dict[str, int] = {}
    for rule in rules:
        start = [dict(p.breakdown) for p in game.state.players]
        game.run_rules([rule])
        while game.pending is not None:
            game.answer(_answer(game, rule, game.pending, chosen))
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
        items.append(ScoreItem(key=key, name=group_name(rule), points=totals, details=sub_items))
    return ScoreSheet(
        names=names,
        items=tuple(items),
        before=before,
        totals=tuple(p.score for p in game.state.players),
        final=final,
        winners=tuple(winners(game.state)) if final else (),
    )


def group_name(rule) -> str:
    """The title of a scoring entry's rows: its name in the variant, unless that is also the
    label of one of the items it scores below it (the 2003 entry of the bonus cards is named
    "power card bonus", one card's name): then its rule module's id in words ("bonus
    cards"), so that a group is never titled with one of its members."""
    labels = {item.label for item in rule.score_items() if item.key != rule.item_key}
    return rule.id.replace("_", " ") if rule.name in labels else rule.name


def _answer(game: Game, rule, request, chosen: dict[str, str]):
    decision = game.variant.modules.decisions.get(request.kind)
    if decision is None or request.kind not in chosen:
        raise AmunreError(
            f"scoring item {rule.name!r} asks a {request.kind!r} decision that scoring a position cannot answer"
        )
    return decision.policies[chosen[request.kind]](rule, game, request)
