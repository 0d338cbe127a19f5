"""The state's invariants, cheap enough for every step: conservation of gold, cards and pieces,
and the structure of provinces, counts, level, start player and scores (`check_state`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amunre.testing.invariants.checking import Checker


def check_state(checker: Checker) -> None:
    """Conservation and structure: cheap enough for every step."""
    state, comp, n = checker.game.state, checker.variant.components, checker.n
    players = state.players
    # gold
    golds = [p.gold for p in players]
    if any(g < 0 for g in golds):
        checker.fail("gold-negative", f"player gold {golds}")
    expected = checker.start_gold * n + state.bank_given - state.bank_paid
    if sum(golds) != expected:
        checker.fail("gold-bank", f"players hold {sum(golds)} gold but starting gold {checker.start_gold}x{n} "
                                  f"+ given {state.bank_given} - paid {state.bank_paid} = {expected}")
    if sum(checker.paid) != state.bank_paid or sum(checker.received) != state.bank_given:
        checker.fail("gold-events", f"events report {sum(checker.paid)} paid and {sum(checker.received)} given, the "
                                    f"bank counted {state.bank_paid} paid and {state.bank_given} given")
    for i, p in enumerate(players):
        if p.gold != checker.start_gold + checker.received[i] - checker.paid[i]:
            checker.fail("gold-player", f"player {i} holds {p.gold} gold, the events say "
                                        f"{checker.start_gold} + {checker.received[i]} - {checker.paid[i]}")
    provs = state.provinces
    if any(pr.gold < 0 for pr in provs):
        checker.fail("gold-negative", "negative gold lying on a province")
    # cards, kind by kind
    variant_cards = checker.variant.cards
    counts = [0] * len(variant_cards)
    for pile in (state.deck, state.discard, state.in_play):
        for card in pile:
            counts[card] += 1
    for pr in provs:
        for card in pr.cards:
            counts[card] += 1
    for i, p in enumerate(players):
        if any(c < 0 for c in p.hand):
            checker.fail("cards", f"player {i} holds a negative number of cards: {p.hand}")
        for k, c in enumerate(p.hand):
            counts[k] += c
    # the theft cards held, where a module publishes them (the offering: dealt by the components)
    for i, held in enumerate(checker.variant.modules.published(state, "theft_cards", ())):
        if not 0 <= held <= comp.theft_cards_per_player:
            checker.fail("theft", f"player {i} holds {held} theft cards (0..{comp.theft_cards_per_player})")
    if counts != checker.deck:
        diff = {variant_cards[k]: counts[k] - checker.deck[k] for k in range(len(counts))
                if counts[k] != checker.deck[k]}
        checker.fail("cards", f"cards found minus cards in the deck, by kind: {diff} "
                              f"({sum(counts)} found, deck size {comp.deck_size})")
    # pieces
    board = checker.variant.board.provinces
    farmers = sum(pr.farmers + pr.free_farmers for pr in provs)
    stones = sum(pr.stones for pr in provs)
    singles = sum(pr.pyramids for pr in provs)
    doubles = sum(pr.doubles for pr in provs)
    pieces = (("farmers", farmers, state.supply_farmers, comp.farmers),
              ("stones", stones, state.supply_stones, comp.stones),
              ("pyramids", singles, state.supply_pyramids, comp.pyramids),
              ("double pyramids", doubles, state.supply_doubles, comp.double_pyramids))
    finite = checker.variant.rulings.finite_supply
    for name, on_board, supply, total in pieces:
        if supply < 0 or on_board < 0:
            checker.fail("supply", f"{name}: {on_board} on the board, {supply} in the supply")
        if finite and on_board + supply != total:
            checker.fail("supply", f"{name}: {on_board} on the board + {supply} in the supply != {total}")
    for i, pr in enumerate(provs):
        if min(pr.farmers, pr.free_farmers, pr.stones, pr.pyramids, pr.doubles) < 0:
            checker.fail("supply", f"negative pieces in province {i} ({board[i].name})")
        if pr.farmers > board[i].fields:
            checker.fail("fields", f"{pr.farmers} farmers on the {board[i].fields} fields of {board[i].name}")
        if pr.owner is None and (pr.farmers or pr.free_farmers):
            checker.fail("fields", f"farmers stand in {board[i].name}, which nobody owns")
    # provinces
    seen = {}
    for i, p in enumerate(players):
        for pid in p.provinces:
            if pid in seen:
                checker.fail("provinces", f"province {pid} held by players {seen[pid]} and {i}")
            seen[pid] = i
            if provs[pid].owner != i:
                checker.fail("provinces", f"player {i} lists {board[pid].name} but its owner is {provs[pid].owner}")
    for pid, pr in enumerate(provs):
        if pr.owner is not None and seen.get(pid) != pr.owner:
            checker.fail("provinces", f"{board[pid].name} is owned by {pr.owner} but not in their list")
    owned = [len(p.provinces) for p in players]
    if checker.in_scoring:
        need = checker.variant.edition.rounds_per_kingdom
        if any(c != need for c in owned):
            checker.fail("scoring-count", f"during the scoring the players hold {owned} provinces, expected {need}")
    elif checker.rounds_started and any(c not in (checker.rounds_started - 1, checker.rounds_started) for c in owned):
        checker.fail("province-count", f"in round {checker.rounds_started} the players hold {owned} provinces")
    # level, start player, indexes
    level = checker.variant.modules.published(state, "offering_level", 0)  # (0 where no module publishes one)
    checker.level_seen = checker.level_seen or level >= 1  # once set, a level never returns to none
    low = 1 if checker.level_seen else 0
    high = checker.max_level
    if not low <= level <= high:
        checker.fail("level", f"offering level {level}, expected {low}..{high}")
    if not 0 <= state.start_player < n:
        checker.fail("start-player", f"start player {state.start_player} with {n} players")
    edition = checker.variant.edition
    if not 0 <= state.kingdom < len(edition.kingdoms) or not 0 <= state.round < edition.rounds_per_kingdom:
        checker.fail("start-player", f"kingdom {state.kingdom}, round {state.round} out of range")
    # scores
    for i, p in enumerate(players):
        if p.score < checker.last_scores[i]:
            checker.fail("score", f"player {i}'s score fell from {checker.last_scores[i]} to {p.score}")
        if p.score != sum(p.breakdown.values()):
            checker.fail("score", f"player {i} scores {p.score} but the breakdown adds up to "
                                  f"{sum(p.breakdown.values())}")
        checker.last_scores[i] = p.score
