"""What the flow of a game declares (see `amunre.core.contract`): its events (`EVENTS`: setup,
kingdoms, rounds, phases, scorings, the game's end), each narrated in the variant's words,
and how a tie on points was decided (`tie_line`).
"""

from __future__ import annotations

from amunre.core.contract import Event
from amunre.core.standing import standing


def _setup_line(e, w) -> str:
    comp = w.variant.components
    things = [f"{e['gold']} {w.t('gold')}"]
    if comp.theft_cards_per_player:
        count = comp.theft_cards_per_player
        things.append(w.a(w.t("theft")) if count == 1 else f"{count} x {w.t('theft')}")
    things += [w.a(w.card_noun(kind)) for kind in comp.starting_cards]
    seed = "" if w.hide_seed else f", seed {e['seed']}"  # the seed tells every hidden card: not to a seat
    return (f"{w.variant.edition.name}: {e['players']} players{seed}. Each starts with "
            f"{w.join(things)}. {w.who(e['start_player'])} is {w.t('start_player')}.")


def _round_end_line(e, w) -> str | None:
    """The state at the end of a round: only with --verbose."""
    if not w.verbose:
        return None
    kingdoms = w.variant.edition.kingdoms
    kingdom = kingdoms[e["kingdom"]] if e["kingdom"] < len(kingdoms) else f"kingdom {e['kingdom'] + 1}"
    lines = [f"  -- after round {e['round'] + 1} of the {kingdom} --"]
    owned: dict = {}
    loose = []
    for pid, owner, farmers, free, stones, singles, doubles in e["provinces"]:
        things = [w.count(farmers + free, "farmer")] if owner is not None else []
        if stones or owner is not None:
            things.append(w.count(stones, "stone"))
        if singles:
            things.append(w.count(singles, "pyramid"))
        if doubles:
            things.append(w.count(doubles, "double_pyramid"))
        text = f"{w.province(pid)} ({', '.join(things)})"
        (owned.setdefault(owner, []) if owner is not None else loose).append(text)
    for p, gold in enumerate(e["gold"]):
        lines.append(f"    {w.who(p)}: {gold} {w.t('gold')}, {w.count(e['hands'][p], 'favor')} in hand, "
                     f"{w.count(e['scores'][p], 'points')}; " + ("; ".join(owned.get(p, [])) or "no province"))
    if loose:
        lines.append("    without an owner: " + "; ".join(loose))
    return "\n".join(lines)


def _scoring_end_line(e, w) -> str:
    order = sorted(range(len(e["scores"])), key=lambda p: -e["scores"][p])
    points = w.t("points")
    return (f"  {points[:1].upper() + points[1:]} after the {w.t('scoring')} of the {e['name']}: "
            + ", ".join(f"{w.who(p)} {e['scores'][p]}" for p in order) + ".")


def _game_end_line(e, w) -> str:
    won = w.names_of(e["winners"])
    best = max(e["scores"])
    lines = [f"\nGame over. {'Winners' if len(e['winners']) > 1 else 'Winner'}: {won} "
             f"with {w.count(best, 'points')}."]
    tie = tie_line(e, w)
    if tie:
        lines.append(tie)
    return "\n".join(lines)


def end_of(game) -> dict:
    """A finished game's `game_end` event as it was emitted (for a line said without listening,
    `amunre run --quiet`)."""
    state = game.state
    standings = [standing(state, p) for p in range(state.n_players)]
    return {"event": "game_end", "winners": list(state.winners), "scores": [s[0] for s in standings],
            "pyramids": [s[1] for s in standings], "stones": [s[2] for s in standings]}


def tie_line(e, w) -> str | None:
    """How a tie on points was decided, one line (None without a tie): see `_tie_break`."""
    best = max(e["scores"])
    top = [p for p, score in enumerate(e["scores"]) if score == best]
    return _tie_break(e, w, top, best) if len(top) > 1 else None


def _tie_break(e, w, top: list[int], best: int) -> str:
    """How a tie on points was decided (R-GAME-06): the most pyramids in own provinces, then
    the most stones in them, else the victory is shared."""
    n = len(e["scores"])
    equal = [w.count(best, "points")]  # what the players still tied have as much of
    decided = []  # "more pyramids (red 9, blue 8)", in the order they decided
    for key, one in (("pyramids", "pyramid"), ("stones", "stone")):
        word = w.noun(2, one)
        values = {p: e.get(key, [0] * n)[p] for p in top}
        if len(set(values.values())) == 1:
            equal.append(w.count(values[top[0]], one))
            continue
        between = f"between {w.names_of(top)}, " if decided else ""
        decided.append(f"{between}the most {word} in own provinces (" +
                       ", ".join(f"{w.who(p)} {values[p]}" for p in top) + ")")
        most = max(values.values())
        top = [p for p in top if values[p] == most]
        if len(top) == 1:
            break
    tied = [p for p, score in enumerate(e["scores"]) if score == best]
    line = f"{w.names_of(tied)} tie with {w.join(equal)}{' each' if len(equal) > 1 else ''}"
    if decided:
        line += "; the tie-break: " + ", then ".join(decided)
    if len(top) > 1:
        line += f"; {w.names_of(top)} share the victory" if decided else " and share the victory"
    return line + "."


EVENTS = {
    "setup": Event("The game is set up: players, seed, start player, starting gold.", _setup_line),
    "kingdom": Event("A kingdom begins.", lambda e, w: f"\n=== {e['name']} ==="),
    "round": Event("A round begins (with its start player).",
                   lambda e, w: f"\n--- round {e['round'] + 1} ({w.who(e['start_player'])} starts) ---"),
    "phase": Event("A phase of the round begins (`rule`: its pipeline entry or group id, `name`: its heading).",
                   lambda e, w: f"[{e['name']}]"),
    "round_end": Event("A round is over: the public state in brief (gold, hand sizes, points per player; "
                       "provinces with their owner, farmers, stones and pyramids), narrated with --verbose.",
                       _round_end_line),
    "scoring": Event("A kingdom's scoring begins.",
                     lambda e, w: f"\n=== {w.t('scoring')} of the {e['name']} ==="),
    "scoring_end": Event("A kingdom's scoring is over: every player's points.", _scoring_end_line),
    "final_scoring": Event("The final scoring begins.", lambda e, w: f"\n=== {w.t('final_scoring')} ==="),
    "transition": Event("Between kingdoms the provinces lose owners and farmers (R-GAME-05).",
                        lambda e, w: f"Every province loses its owner and its {w.t('farmers')}; the "
                                     f"{w.noun(2, 'pyramid')} and {w.t('stones')} stay where they stand."),
    "game_end": Event("The game is over: winners, and each player's points, pyramids and stones (what decides a "
                      "tie, R-GAME-06).", _game_end_line),
    "answer": Event("A decision was answered (what the log replays)."),
    "decision": Event("A decision is asked."),
}
