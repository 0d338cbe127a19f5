"""The `mcts` agent: information-set Monte Carlo tree search over determinized games.

Amun-Re hides the other hands, the draw pile and the secret offers, so a search cannot
start from the true state. Each iteration draws one game consistent with what the seat may
know (`PlayerView.sample_game`, i.e. `Game.determinize`), walks the one shared tree down it
and plays it out (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):

- A node is an answer given at that point of the game, by whoever was asked; its value is
  that player's reward, so each player is assumed to play for himself.
- An answer legal in this determinization but not yet in the tree is added first; among
  the answers already there, UCB1 picks, counting how often each was *available* rather
  than how often its parent was visited (options differ between determinizations).
- The playout is the fast default policy: `greedy` for every seat (a sound model of the
  usual opponents, and far more informative than random play), or `random`, or `planner`
  (it plays the variant's own rules, at about a tenth of greedy's speed: fewer iterations
  for the same time; docs/agents.md compares them).
- The reward of a finished game: the player's share of the win (1, 1/k for a k-way tie,
  0), plus `margin` times his points ahead of (or behind) the best other player, divided
  by 10: a small pull toward winning by more and losing by less.

The answer is the most visited of the root's legal options. Parameters (agent spec
`mcts:iterations=120:exploration=0.7:rollout=greedy:margin=0.1:top=3`, the defaults): `iterations` per
decision, `exploration` (UCB1's constant c), `rollout` (`greedy`, `random` or `planner`), `margin`,
`top` (the root searches the planner's `top` best options; 0: all).
It is deterministic for a game seed and seat: all its randomness comes from its generator.
A decision with one option is never asked; two or more get the full search.
"""

from __future__ import annotations

import math

from amunre.agents.numbers import plain_number
from amunre.core.arguments import shown
from amunre.core.errors import ArgumentValueError

ROLLOUTS = ("greedy", "random", "planner")
#: What a playout of each policy costs, in greedy playouts (a random one costs less; counted
#: as one, an upper bound): 8 iterations with planner playouts took the CPU of 60 with greedy
#: ones (docs/agents.md, mcts against three planner seats).
PLAYOUT_COST = {"greedy": 1, "random": 1, "planner": 8}


class _Node:
    __slots__ = ("children", "visits", "value", "available")

    def __init__(self):
        self.children: dict = {}
        self.visits = 0
        self.value = 0.0
        self.available = 0


class MctsAgent:
    name = "mcts"

    def __init__(self, rng, iterations: int = 120, exploration: float = 0.7, rollout: str = "greedy",
                 margin: float = 0.1, top: int = 3):
        self.rng = rng
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.margin = margin
        self.top = top
        self._ranker = None  # a planner ranking the root's options (with `top`)
        self.searched = 0  # decisions searched (for the benchmark's time per decision)

    @property
    def playouts_per_decision(self) -> int:
        """The most work a decision takes, in greedy playouts (`amunre.agents.playouts_per_decision`):
        each iteration plays one game out, by its rollout policy."""
        return self.iterations * PLAYOUT_COST[self.rollout]

    def choose(self, view, request):
        options = request.options
        if len(options) == 1:
            return options[0]
        return self._search(view, request)

    def _search(self, view, request):
        options = self._candidates(view, request)
        if len(options) == 1:
            return options[0]
        rng = self.rng
        root = _Node()
        players = view.n_players
        playout = self._playout_agents(players)
        c = self.exploration
        for _ in range(self.iterations):
            game = view.sample_game(rng)
            node, path = root, []
            # down the tree while every legal answer here has been tried
            while game.pending is not None:
                asked = game.pending
                children = node.children
                offered = options if node is root else asked.options
                untried = [a for a in offered if a not in children]
                if untried:
                    answer = untried[rng.randrange(len(untried))]
                    for a in offered:  # this determinization offered each of them
                        tried = children.get(a)
                        if tried is not None:
                            tried.available += 1
                    child = children[answer] = _Node()
                    child.available = 1
                    path.append((child, asked.player))
                    game.answer(answer)
                    break
                best, best_score = None, -math.inf
                for a in offered:
                    child = children[a]
                    child.available += 1
                    score = child.value / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                    if score > best_score:
                        best, best_score = a, score
                path.append((children[best], asked.player))
                game.answer(best)
                node = children[best]
            rewards = self._play_out(game, playout)
            for child, player in path:
                child.visits += 1
                child.value += rewards[player]
        self.searched += 1
        children = root.children
        return max(options, key=lambda a: (children[a].visits, children[a].value) if a in children else (-1, 0.0))

    def _candidates(self, view, request) -> list:
        """The root's options: all of them, or with `top` the planner's best `top` (what the
        planner values them at, in its order), so the iterations go to the likely answers."""
        options = request.options
        if not self.top or len(options) <= self.top:
            return list(options)
        if self._ranker is None:
            from amunre.agents.planner import PlannerAgent

            self._ranker = PlannerAgent(self.rng)
        ranked = self._ranker.ranked(view, request)
        return ranked[:self.top]

    def _playout_agents(self, players: int) -> list:
        if self.rollout == "greedy":
            from amunre.agents.greedy import GreedyAgent

            return [GreedyAgent(self.rng) for _ in range(players)]
        if self.rollout == "planner":
            from amunre.agents.planner import PlannerAgent

            return [PlannerAgent(self.rng) for _ in range(players)]
        from amunre.agents.random_agent import RandomAgent

        return [RandomAgent(self.rng) for _ in range(players)]

    def _play_out(self, game, agents) -> list[float]:
        views = [game.view(p) for p in range(len(agents))]
        request = game.pending
        while request is not None:
            game.answer(agents[request.player].choose(views[request.player], request))
            request = game.pending
        state = game.state
        scores = [p.score for p in state.players]
        share = 1 / len(state.winners)
        rewards = []
        for p, score in enumerate(scores):
            best_other = max(s for q, s in enumerate(scores) if q != p)
            won = share if p in state.winners else 0.0
            rewards.append(won + self.margin * (score - best_other) / 10)
        return rewards


def make(rng, **params) -> MctsAgent:
    """The agent of a spec's parameters (text values), each checked with a clear message."""
    known = {"iterations", "exploration", "rollout", "margin", "top"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ArgumentValueError(f"agent 'mcts' has no parameter {', '.join(map(shown, unknown))} "
                                 f"(expected some of: {', '.join(sorted(known))})")
    values = {}
    if "iterations" in params:
        text = params["iterations"]
        # at most 7 digits before int(): Python refuses to read a number of thousands of digits
        if not (text.isascii() and text.isdigit()) or len(text) > 7 or not 1 <= int(text) <= 1_000_000:
            raise ArgumentValueError(f"mcts: iterations={shown(text)} is not a whole number from 1 to 1000000")
        values["iterations"] = int(text)
    if "top" in params:
        text = params["top"]
        if not (text.isascii() and text.isdigit()) or len(text) > 4 or not 0 <= int(text) <= 1000:
            raise ArgumentValueError(f"mcts: top={shown(text)} is not a whole number from 0 to 1000 (0: every option)")
        values["top"] = int(text)
    for name, low, high in (("exploration", 0.0, 100.0), ("margin", 0.0, 10.0)):
        if name in params:
            text = params[name]
            value = plain_number(text)
            if not low <= value <= high:  # NaN fails too
                raise ArgumentValueError(f"mcts: {name}={shown(text)} is not a number from {low:g} to {high:g}")
            values[name] = value
    if "rollout" in params:
        if params["rollout"] not in ROLLOUTS:
            raise ArgumentValueError(f"mcts: rollout={shown(params['rollout'])} is not one of {', '.join(ROLLOUTS)}")
        values["rollout"] = params["rollout"]
    return MctsAgent(rng, **values)
