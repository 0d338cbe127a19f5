"""One game through the PettingZoo environment, every seat choosing a random legal action.

No training: it shows the loop an agent plugs into, the action mask, the actions in the
edition's words, and the rewards at the end. Needs the extra: pip install 'amunre[rl]'.

    .venv/bin/python examples/pettingzoo_random.py
    .venv/bin/python examples/pettingzoo_random.py --variant supermeeple2016 --players 3 --seed 7 --show 20
"""

from __future__ import annotations

import argparse
import random
import sys

from amunre.core.errors import AmunreError
from amunre.rl.pettingzoo import env as make_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic2003", help="a variant id or file (default classic2003)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed, also the random seats' (default 1)")
    parser.add_argument("--reward", choices=("win", "score"), default="win", help="the reward at the end")
    parser.add_argument("--show", type=int, default=8, help="print the first N actions in words (default 8)")
    args = parser.parse_args()

    try:
        env = make_env(variant=args.variant, players=args.players, reward=args.reward)
        env.reset(seed=args.seed)
    except AmunreError as exc:  # a bad variant, player count or seed: say it in one line
        sys.exit(f"error: {exc}")
    rng = random.Random(args.seed)
    steps, rewards = 0, {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward  # the reward comes with the end of the game
            action = None
        else:
            legal = observation["action_mask"].nonzero()[0]
            action = int(rng.choice(legal))
            if steps < args.show:
                print(f"{agent}: {env.action_to_string(action)}  (action id {action}; {len(legal)} legal actions)")
            steps += 1
        env.step(action)

    game = env.unwrapped.game
    print(f"... {steps} decisions in all; observation vector of {observation['observation'].size} numbers, "
          f"{observation['action_mask'].size} actions")
    for agent, reward in sorted(rewards.items()):
        seat = int(agent.split("_")[1])
        print(f"{agent}: {game.state.players[seat].score} points, reward {reward:g}")
    env.close()


if __name__ == "__main__":
    main()
