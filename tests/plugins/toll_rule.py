"""A plug-in phase whose decision gets its own rows in `amunre compare`: a test fixture.

`toll` asks every player, in turn order, how much of a toll of up to 3 gold he pays (he may
pay what he holds, 0 included); each gold paid scores a point. Its decision declares a
`title`, so compare's row of options per decision reads in its words, `counted`, a row of
how often it is decided, and `summed`, a row of the sum of its answers; and its `toll` event
declares a statistic, the gold paid per player, so compare has that row too: nothing in
amunre names either (tests/test_compare_decisions.py).
"""

from __future__ import annotations

from amunre.core.contract import Decision, Event, Rule, Statistic
from amunre.core.decisions import decide
from amunre.core.facets import WordsFacet
from amunre.core.mechanics import add_points, pay

#: The most gold a toll takes.
MOST = 3


class Toll(Rule, WordsFacet):
    id = "toll"
    kind = "phase"
    summary = "Each player may pay a toll of up to 3 gold, a point for each (a test plug-in)."
    terms = {"toll": "toll"}
    decisions = {"toll": Decision(options="0..3 gold, no more than he holds", json="an integer",
                                  describe=lambda amount, words: f"pay {amount}", title="paying the {toll}",
                                  counted="{toll} questions", summed="{gold} paid in {toll} (a game)")}
    events = {"toll": Event("A player pays `amount` gold of toll (0: none).",
                            lambda e, w: f"  {w.who(e['player'])} pays {e['amount']} of {w.t('toll')}.",
                            statistics=(Statistic("toll_paid", "{gold} paid in {toll} per player",
                                                  lambda e: e["amount"], "per_player"),))}

    def run(self, game):
        for player in game.state.turn_order():
            held = game.state.players[player].gold
            amount = yield from decide(player, "toll", list(range(min(MOST, held) + 1)))
            if amount:
                yield from pay(game, player, amount, "toll")
                add_points(game, player, self.item_key, amount)
            if "toll" in game.hearing:
                game.emit("toll", player=player, amount=amount)
