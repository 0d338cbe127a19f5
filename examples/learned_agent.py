"""A learned agent: a softmax policy over the variant's fixed action ids (`amunre.rl.actions`),
its weights trained by examples/selfplay_train.py and saved as a .npz file. Needs numpy
(`pip install 'amunre[rl]'`).

The policy is the smallest that learns: one preference per action id, whatever the board
shows (bid low, buy farmers, offer some gold...), a softmax over the legal ones. A richer one
would read the view too: `amunre.rl.observation` encodes it as a vector. Measured against the
ladder as any agent is:

    .venv/bin/python examples/selfplay_train.py --out policy.npz
    amunre arena --agents ./examples/learned_agent.py:Learned:weights=policy.npz,random,random,random --games 200
    amunre arena --agents ./examples/learned_agent.py:Learned:weights=policy.npz,greedy,greedy,greedy --games 200
"""

from __future__ import annotations

import numpy as np

from amunre.rl.actions import action_space

_loaded: dict[tuple[str, str], np.ndarray] = {}  # by file and variant: an agent is made for every seat of every game


def load_weights(path: str, variant) -> np.ndarray:
    """The preferences saved in `path`, checked against `variant`'s action space."""
    if (path, variant.id) not in _loaded:
        with np.load(path) as saved:
            if str(saved["variant"]) != variant.id or saved["theta"].shape != (len(action_space(variant)),):
                raise ValueError(f"{path} holds a policy of {saved['variant']} with {saved['theta'].shape[0]} "
                                 f"actions, not of {variant.id} (expected weights trained on the variant played)")
            _loaded[path, variant.id] = saved["theta"]
    return _loaded[path, variant.id]


class Learned:
    """Answers with a softmax over the legal actions' preferences: sampled with its own
    generator (`sample=true`, as in training) or the most preferred (the default)."""

    def __init__(self, rng=None, weights: str = "policy.npz", sample: bool = False, theta=None):
        self.weights, self.sample, self.theta = weights, sample, theta
        self.rng = np.random.default_rng(rng.getrandbits(64) if rng is not None else None)
        self.trace: list[tuple[np.ndarray, np.ndarray, int]] = []  # (legal ids, their probabilities, choice)

    def choose(self, view, request):
        space = action_space(view.variant)
        if self.theta is None:
            self.theta = load_weights(self.weights, view.variant)
        ids = np.array(space.legal(request))
        preference = self.theta[ids]
        p = np.exp(preference - preference.max())
        p /= p.sum()
        k = int(self.rng.choice(len(ids), p=p)) if self.sample else int(p.argmax())
        self.trace.append((ids, p, k))
        return space.option(int(ids[k]))[1]
