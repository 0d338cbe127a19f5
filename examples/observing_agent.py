"""An agent that reads the board through the observation vector, playable in `amunre arena`.

An agent is handed a view and a request, never the game: `encode_view(layout, view, request)`
(`amunre.rl.view_observation`) writes from them the very vector the PettingZoo, Gymnasium and
OpenSpiel environments give a learner for that seat, so a policy trained there plays here.
This one is linear: action a scores `W[a] . observation + b[a]`, and it answers with the legal
action scoring most. Its weights come from a .npz file (`W`, `b`, `variant`), or, without one,
are small random numbers drawn from the seat's generator (an untrained baseline). Needs numpy.

    amunre arena --agents ./examples/observing_agent.py:Observing,random,random,random --games 40
    amunre arena --agents ./examples/observing_agent.py:Observing:weights=linear.npz,greedy,greedy,greedy
"""

from __future__ import annotations

import numpy as np

from amunre.rl.view_observation import encode_view, layout_for


class Observing:
    """The legal action whose linear score of the observation is highest."""

    def __init__(self, rng=None, weights: str = ""):
        self.seed = rng.getrandbits(64) if rng is not None else None
        self.weights = weights
        self.W = self.b = None
        self.observation = None  # the last vector it read (a test compares it with the environments')

    def choose(self, view, request):
        layout = layout_for(view)  # the variant's observation layout and action space, made once
        if self.W is None:
            self.W, self.b = self._load(layout, view.variant.id)
        self.observation = encode_view(layout, view, request)
        legal = np.array(layout.space.legal(request))  # the request's options as action ids
        scores = self.W[legal] @ self.observation + self.b[legal]
        action = int(legal[scores.argmax()])
        return layout.space.option(action)[1]  # (kind, option): the engine takes the option

    def _load(self, layout, variant_id: str):
        shape = (len(layout.space), layout.size)
        if not self.weights:
            draw = np.random.default_rng(self.seed)
            return draw.normal(0.0, 0.01, shape), draw.normal(0.0, 1.0, shape[0])
        with np.load(self.weights) as saved:
            if str(saved["variant"]) != variant_id or saved["W"].shape != shape:
                raise ValueError(f"{self.weights} holds weights of {saved['variant']} shaped {saved['W'].shape}, "
                                 f"not {variant_id}'s {shape} (expected weights trained on the variant played)")
            return saved["W"], saved["b"]
