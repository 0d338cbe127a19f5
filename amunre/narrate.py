"""The human play-by-play: turns engine events into lines in the edition's own words.

A 2003 game speaks of power cards, the builder and the sacrifice; a 2016 game of Favor
cards, the Architect and the Offering, because every word comes from the variant's
`[terms]` table.
"""

from __future__ import annotations

from amunre.model import CARD_KINDS

COLOURS = ("red", "blue", "black", "white", "yellow")


def player_names(n: int) -> list[str]:
    return [COLOURS[i] if i < len(COLOURS) else f"player {i + 1}" for i in range(n)]


def _a(word: str) -> str:
    """`word` with its indefinite article."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


class Narrator:
    """Listener that writes one readable line per interesting event to `write`."""

    def __init__(self, variant, write, names: list[str] | None = None):
        self.variant = variant
        self.write = write
        self.names = names
        self.provinces = [p.name for p in variant.board.provinces]

    def t(self, key: str) -> str:
        return self.variant.term(key)

    def who(self, player) -> str:
        return self.names[player] if self.names and player is not None else f"player {player}"

    def card(self, kind: str) -> str:
        return self.t(kind)

    def __call__(self, event: dict) -> None:
        handler = getattr(self, "on_" + event["event"], None)
        if handler is not None:
            line = handler(event)
            if line:
                self.write(line)

    # -- structure ----------------------------------------------------------------------
    def on_setup(self, e):
        if self.names is None:
            self.names = player_names(e["players"])
        return (f"{self.variant.edition.name}: {e['players']} players, seed {e['seed']}. Each starts with "
                f"{e['gold']} {self.t('gold')}, a {self.t('theft')} and a {self.card('architect')}. "
                f"{self.who(e['start_player'])} is {self.t('start_player')}.")

    def on_kingdom(self, e):
        return f"\n=== {e['name']} ==="

    def on_round(self, e):
        return f"\n--- round {e['round'] + 1} ({self.who(e['start_player'])} starts) ---"

    def on_phase(self, e):
        return f"[{e['name']}]"

    def on_scoring(self, e):
        return f"\n=== {self.t('scoring')} of the {e['name']} ==="

    def on_final_scoring(self, e):
        return "\n=== final scoring ==="

    def on_transition(self, e):
        return "The provinces are cleared of owners and farmers; pyramids and stones stay."

    def on_game_end(self, e):
        won = " and ".join(self.who(p) for p in e["winners"])
        return f"\nGame over. {'Winners' if len(e['winners']) > 1 else 'Winner'}: {won}."

    # -- provinces and auction ----------------------------------------------------------
    def on_provinces(self, e):
        names = ", ".join(self.provinces[i] for i in e["provinces"])
        return f"{self.who(e['player'])} draws the province cards: {names}."

    def on_bid(self, e):
        cards = "".join(f" playing {self.card(c)}" for c in e["cards"])
        verb = "moves the {} to" if e["moved_from"] is not None else "places the {} on"
        return (f"  {self.who(e['player'])} {verb.format(self.t('bid_marker'))} space {e['amount']} of "
                f"{self.provinces[e['province']]}{cards}.")

    def on_pass(self, e):
        return f"  {self.who(e['player'])} is not outbid and passes."

    def on_acquire(self, e):
        return f"  {self.who(e['player'])} acquires {self.provinces[e['province']]} for {e['amount']} {self.t('gold')}."

    # -- goods --------------------------------------------------------------------------
    def on_pay(self, e):
        if e["why"] == "bid":
            return None  # already said by `acquire`
        why = {"cards": self.t("favor_plural"), "farmers": self.t("farmers"), "stones": self.t("stones"),
               "offering": f"the {self.t('offering')}"}.get(e["why"], e["why"])
        return f"  {self.who(e['player'])} pays {e['amount']} {self.t('gold')} for {why}."

    def on_gold(self, e):
        reasons = {"harvest": "as income", "theft": f"with the {self.t('theft')}", "free": "from the province",
                   "sell": "for a sold card"}
        if e["why"] == "sell":
            return None
        return f"  {self.who(e['player'])} takes {e['amount']} {self.t('gold')} {reasons.get(e['why'], e['why'])}."

    def on_cards(self, e):
        return f"  {self.who(e['player'])} takes {_plural(e['count'], self.t('favor'), self.t('favor_plural'))} ({e['why']})."

    def on_sell(self, e):
        return f"  {self.who(e['player'])} sells {_a(self.card(e['card']))} for 1 {self.t('gold')}."

    def on_play(self, e):
        where = f" on {self.provinces[e['province']]}" if e.get("province") is not None else ""
        return f"  {self.who(e['player'])} plays {self.card(e['card'])}{where}."

    def on_farmer(self, e):
        where = self.provinces[e["province"]]
        extra = f" ({self.card('free_farmer')})" if e["free"] else ""
        return f"  {self.who(e['player'])} places a {self.t('farmer')} in {where}{extra}."

    def on_stone(self, e):
        return f"  {self.who(e['player'])} places a {self.t('stone')} in {self.provinces[e['province']]}."

    def on_pyramid(self, e):
        piece = self.t("double_pyramid") if e["kind"] == "double" else self.t("pyramid")
        return f"  A {piece} now stands in {self.provinces[e['province']]}."

    def on_reshuffle(self, e):
        return f"  The {self.t('favor')} discard pile is reshuffled ({e['cards']} cards)."

    # -- offering -----------------------------------------------------------------------
    def on_offers(self, e):
        parts = []
        for p, (kind, amount, adjust) in e["offers"].items():
            what = self.t("theft") if kind == "theft" else f"{amount} {self.t('gold')}"
            if adjust:
                what += f" + {self.card('offering_adjustment')}"
            parts.append(f"{self.who(int(p))} {what}")
        return f"  Revealed {self.t('offering')}: " + ", ".join(parts) + "."

    def on_offering_total(self, e):
        return f"  Total {self.t('offering')}: {e['total']}."

    def on_adjust(self, e):
        return f"  {self.who(e['player'])} corrects the total by {e['delta']:+d} to {e['total']}."

    def on_level(self, e):
        return f"  The {self.t('offering_level')} moves to level {e['level']}."

    def on_reward(self, e):
        item = self.t("favor") if e["item"] == "card" else self.t(e["item"])
        return f"  {self.who(e['player'])} chooses a reward: a {item}."

    def on_start_player(self, e):
        return f"  {self.who(e['player'])} becomes {self.t('start_player')}."

    # -- scoring ------------------------------------------------------------------------
    def on_score(self, e):
        from amunre.results import item_label

        return (f"  {self.who(e['player'])} scores {e['points']} {self.t('points')} for "
                f"{item_label(self.variant, e['item'])}.")


def describe_option(game, kind: str, option) -> str:
    """A short readable label for one legal option (used by the human agent)."""
    variant = game.variant
    names = [p.name for p in variant.board.provinces]
    if option is None:
        return "no"
    if kind == "bid":
        pid, amount, cards = option
        extra = "".join(f" + play {variant.term(CARD_KINDS[c])}" for c in cards)
        return f"bid {amount} on {names[pid]}{extra}"
    if kind in ("place_farmer", "place_stone", "free_farmer", "architect", "treasury", "big_harvest"):
        return names[option]
    if kind == "offer":
        what, amount, adjust = option
        text = variant.term("theft") if what == "theft" else f"{amount} {variant.term('gold')}"
        return text + (f" + {variant.term('offering_adjustment')}" if adjust else "")
    if kind == "reward":
        if option == "card":
            return variant.term("favor")
        return f"{variant.term(option[0])} in {names[option[1]]}"
    if kind == "sell_for_offering":
        return variant.term(CARD_KINDS[option])
    if kind in ("sell",):
        return variant.term(CARD_KINDS[option])
    if kind == "play_bonus":
        return variant.term(option)
    return str(option)
