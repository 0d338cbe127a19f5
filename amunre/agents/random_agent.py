"""The `random` agent: picks uniformly among the legal options of every decision."""


class RandomAgent:
    name = "random"

    def __init__(self, rng):
        self._choice = rng.choice

    def choose(self, view, request):
        return self._choice(request.options)
