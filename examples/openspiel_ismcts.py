"""OpenSpiel's ISMCTS bot against uniform random bots on Amun-Re, played with OpenSpiel's own
`evaluate_bots`.

The game is `python_amunre` (`amunre.rl.openspiel`); ISMCTS searches worlds drawn again from
what its seat knows (`resample_from_infostate`), each rolled out at random to the end. The
seats rotate: game g seats ISMCTS at seat g mod players. Needs the extra: pip install
'amunre[openspiel]'.

    .venv/bin/python examples/openspiel_ismcts.py
    .venv/bin/python examples/openspiel_ismcts.py --variant supermeeple2016 --players 3 --games 4 --simulations 50
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from amunre.core.errors import AmunreError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic2003", help="a variant id or file (default classic2003)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--simulations", type=int, default=20, help="ISMCTS simulations per decision (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the chance draws and the bots (default 1)")
    args = parser.parse_args()
    if args.games < 1 or args.simulations < 1:
        sys.exit("error: --games and --simulations must be at least 1")

    try:
        import pyspiel
        from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

        import amunre.rl.openspiel  # noqa: F401 - registers python_amunre
    except (ImportError, AmunreError) as exc:  # the extra is missing: its clear message
        sys.exit(f"error: {exc}")
    try:
        game = pyspiel.load_game("python_amunre", {"variant": args.variant, "players": args.players})
    except (ValueError, pyspiel.SpielError) as exc:  # a bad variant or player count
        sys.exit(f"error: {exc}")

    class Searcher(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTS bot, as `evaluate_bots` seats it: it searches afresh at every
        decision, so a new game or another seat's action needs no bookkeeping."""

        def restart_at(self, state):
            self.reset()

        def inform_action(self, state, player, action):
            pass

    rng = np.random.RandomState(args.seed)
    players = game.num_players()
    wins = 0.0
    for g in range(args.games):
        seat = g % players
        bots = [pyspiel.make_uniform_random_bot(p, int(rng.randint(2**31))) for p in range(players)]
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(rng.randint(2**31)))
        bots[seat] = Searcher(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                              random_state=np.random.RandomState(rng.randint(2**31)))
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[seat]
        print(f"game {g + 1}: ISMCTS in seat {seat}, returns {[round(r, 3) for r in returns]}")
    print(f"ISMCTS ({args.simulations} simulations a decision) won {wins:g} of {args.games} games against "
          f"{players - 1} random bots (a random seat's share: {args.games / players:g})")


if __name__ == "__main__":
    main()
