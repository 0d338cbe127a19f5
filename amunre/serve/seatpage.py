"""What a seat's page shows, as JSON: built from that seat's view and nothing else.

Everything in a payload comes from what the seat may know: its view
(`amunre.core.view.PlayerView`: the public board, its own hand), its own request when it is
asked (and its own sealed answer of a secret batch under way), who is still to answer (never
what the others answered before the reveal), and the public face of the game (the board
picture's snapshot, the play-by-play, whose turn it is). The spectator's payload is built
from a view of no seat. The projection ("if the kingdom ended now") scores a position made of
the view alone (`amunre.planning.worth.position_of`), so it cannot reach a hidden fact either.
tests/test_serve.py and tests/test_serve_batch.py check it the hard way: payloads are
compared over HTTP across games that differ only in what the seat may not know.
"""

from __future__ import annotations

from amunre.agents.asking import asking_for, fact_lines, option_text, question_text
from amunre.core.boardtext import theft_cards
from amunre.core.flow_words import end_of, tie_line
from amunre.core.standing import ranks
from amunre.core.view import PlayerView
from amunre.core.words import Words
from amunre.picture.steps import snapshot, where_text
from amunre.planning.seatfacts import hand_cards, projection

#: Play-by-play lines a payload carries (the newest): a page shows the recent story.
LINES_KEPT = 400


def _hand(view, words: Words) -> list[dict]:
    return [{"card": name, "count": count, "text": text} for name, count, text in hand_cards(view, words)]


def _standings(table, words: Words) -> dict:
    """A finished game's places, best first: each player's place (1 = won; equal standing,
    equal place), points, and the pyramids and stones in his provinces that break a tie on
    points (R-GAME-06, as the engine decided it); and the tie-break in words, as the terminal
    says it (None without a tie on the best points)."""
    end = end_of(table.game)
    place = ranks(table.game.state)
    rows = [{"place": place[p], "name": table.names[p], "points": end["scores"][p], "pyramids": end["pyramids"][p],
             "stones": end["stones"][p]} for p in range(len(place))]
    heads = ["place", "", words.t("points"), f"{words.noun(2, 'pyramid')} in own provinces",
             f"{words.noun(2, 'stone')} in own provinces"]
    return {"heads": heads, "rows": sorted(rows, key=lambda row: row["place"]), "tie": tie_line(end, words)}


def _decision(view, request) -> dict:
    asking = asking_for(view, request)
    decision = view.variant.modules.decisions.get(request.kind)
    options = []
    for index, option in enumerate(request.options):
        entry = {"index": index, "text": option_text(asking, option)}
        if decision is not None and decision.group is not None and option is not None:
            entry["group"] = decision.group(option, asking.words)[0]
        where = decision.province_of(option) if decision is not None else None
        if where is not None:
            entry["province"] = where
        options.append(entry)
    return {"kind": request.kind, "secret": bool(request.simultaneous), "question": question_text(asking),
            "facts": fact_lines(asking), "options": options}


def _turn(table, request) -> dict | None:
    """Whose turn it is: every seat still to answer (all of a secret batch's at once), the
    first of them named on its own too."""
    if request is None:
        return None
    waiting = [{"name": table.names[ask.seat], "seat": ask.seat, "bot": table.is_bot(ask.seat)}
               for ask in table.asks()]
    first = waiting[0] if waiting else {"name": table.names[request.player], "seat": request.player,
                                        "bot": table.is_bot(request.player)}
    return {**first, "secret": bool(request.simultaneous), "waiting": waiting}


def _sealed(table, view, seat: int | None) -> str | None:
    """The seat's own sealed answer of the secret batch under way, in words (None: none)."""
    ask = None if seat is None or seat not in table.held else next(
        (ask for ask in table.batch() if ask.seat == seat), None)  # (none at a table stopped meanwhile)
    return None if ask is None else option_text(asking_for(view, ask.request), table.held[seat])


def _cards_text(words: Words, cards: int, theft: int) -> str:
    """A player's cards in the edition's words: "2 power cards, 1 -3 card"."""
    said = words.count(cards, "favor", "favor_plural")
    return said + (f", {words.count(theft, 'theft')}" if theft else "")


def _projection(view, words: Words) -> dict:
    title, sheet = projection(view, words)
    return {"title": title, "items": [{"name": item.name, "points": list(item.points)} for item in sheet.items],
            "totals": list(sheet.totals)}


def seat_payload(table, seat: int | None, picture) -> dict:
    """The page data of `seat` (None: the spectator) at `table` (`amunre.serve.table.Table`);
    `picture`: the table's `BoardPicture`."""
    game = table.game
    variant = table.variant
    view = PlayerView(game, seat) if seat is None else game.view(seat)
    words = Words(variant, table.names)
    state = game.state  # only its public face: `snapshot` reads nothing hidden
    request = table.pending
    finished = table.finished
    players = [{"name": table.names[p], "seat": table.seats[p] if table.is_bot(p) else "human",
                "points": info.score, "gold": info.gold, "cards": info.hand_size, "theft": theft_cards(view, p),
                "cards_text": _cards_text(words, info.hand_size, theft_cards(view, p)),
                "provinces": [words.province(pid) for pid in info.provinces]}
               for p, info in enumerate(view.players)]
    payload = {
        "table": table.id,
        "variant": variant.id,
        "edition": variant.edition.name,
        "seat": seat,
        "you": None if seat is None else table.names[seat],
        "version": table.version,
        "number": table.number,
        "where": where_text(variant, state, game.phase_name) if not finished else "game over",
        "players": players,
        "theft_word": words.t("theft"),
        # (a house rule's table replays with the copy of its variant the server keeps)
        "replay_command": "amunre replay LOG" + ("" if table.record is None or table.record.variant_text is None
                                                 else " --variant FILE (a copy of the house rule this table was "
                                                 "opened with: the server keeps one, variants/<table>/variant.toml "
                                                 "in its data folder)"),
        "board": picture.document(snapshot(variant, state, game.phase_name, table.markers, game)),
        "lines": table.lines[-LINES_KEPT:],
        "sheets": table.scoresheets.sheets,
        "last_move": table.lastmove.as_data(),  # (every kingdom's scoring so far, from the events all are told)
        "finished": finished,
        "failure": table.failure,
        "closed": table.closed,  # (its creator closed it: `failure` says so too)
        "winners": [table.names[p] for p in state.winners] if finished else [],
        "standings": _standings(table, words) if finished else None,
        "turn": _turn(table, request),
        "decision": _decision(view, mine) if (mine := None if seat is None or request is None
                                              else table.request_of(seat)) is not None else None,
        "sealed": _sealed(table, view, seat),
        "hand": _hand(view, words) if seat is not None else None,
        "projection": None if finished else _projection(view, words),
        "undo": None if seat is None else table.undo_problem(seat),
    }
    return payload
