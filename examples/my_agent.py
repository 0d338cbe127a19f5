"""An agent of one's own in 30 lines: greedy's play, with a cap on what it offers the gods.

    amunre arena --agents ./examples/my_agent.py:Thrifty,greedy,random,random --games 40
    amunre arena --agents ./examples/my_agent.py:Thrifty:share=0.5,greedy,greedy,greedy --games 400

`Thrifty(rng, share)` is made for each seat of each game: `rng` is the seat's own generator,
`share` comes from the spec (`:share=0.5`) as a float, its default's type. docs/agent-view.md
lists what `view` and `request` hold; docs/decisions.md what each kind's options look like.
"""

from amunre.agents.greedy import GreedyAgent


class Thrifty:
    """Answers as greedy does, except in the secret offering: there it offers gold only, at
    most `share` of the gold it holds (the most it may, within that)."""

    def __init__(self, rng, share: float = 0.25):
        self.greedy = GreedyAgent(rng)
        self.share = share

    def choose(self, view, request):
        if request.kind == "offer":  # options: ("gold", amount, adjust) or ("theft", 0, adjust)
            limit = self.share * view.me.gold
            gold = [o for o in request.options if o[0] == "gold" and o[1] <= limit and not o[2]]
            if gold:
                return max(gold, key=lambda option: option[1])
        return self.greedy.choose(view, request)
