"""The greedy bot's play for the hand's score and teams, against the same bot without it (docs/bots.md).

Two match-ups, each over 4-player games whose every bot is seeded from --seed:

* fewest: Hearts' game to 100 (hearts/1, `score.winner: fewest`), one `greedy` (FastGreedyAgent) against
  three that read every worth the Happy DayZ way round (more is better: what the bot did before it knew
  `score.winner`); the bot under test sits in seat i mod 4 in game i. Its share of the wins (a shared win
  counts 1/k) against the fair share of 1/4.
* teams: Woodstock Fever's first scenario in teams of two (bench/teams.scenario.yaml, pooled, one round),
  one team of `greedy` against a team of the same bot blind to its partner (its partner's trick a trick lost,
  every other Community a rival); the teams change sides every game. The team's share of the wins against
  the fair 1/2.

Each share has a 95% interval (normal approximation over the per-game shares).

    python bench/greedy_score_teams.py                  # 200 games each
    python bench/greedy_score_teams.py --games 50 --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup
from happydayz.players.agents import play_game
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import PowerModel

HERE = Path(__file__).resolve().parent


class BlindGreedy(FastGreedyAgent):
    """FastGreedyAgent without the hand's score (every worth read more-is-better) or without its teams."""

    def __init__(self, seed, score: bool = True, teams: bool = True) -> None:
        super().__init__(seed)
        self.knows_score, self.knows_teams = score, teams

    def bind(self, setup, seat=None):
        super().bind(setup, seat)
        model = PowerModel(setup)  # (its own model: the shared one keeps the real facts)
        if not self.knows_score:
            model.sign, model.survivors = 1, tuple(c.survivors for c in setup.cards)
        if not self.knows_teams:
            model.teams, model.team_of = None, {}
        self.model = model
        return self


def setup_of(scenario: str, express: bool):
    env = Environment()
    sc, lib = env.resolve_scenario(scenario)
    return build_setup(sc, lib, GameOptions(players=4, express=express), env)


def interval(shares: list[float]) -> tuple[float, float]:
    n = len(shares)
    mean = sum(shares) / n
    var = sum((s - mean) ** 2 for s in shares) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def fewest(games: int, seed: int) -> dict:
    setup = setup_of("hearts/1", express=False)
    shares, rounds = [], 0
    for i in range(games):
        s = random.Random(f"{seed}/fewest/{i}").getrandbits(32)
        test = i % 4
        agents = [FastGreedyAgent(f"{s}/{seat}") if seat == test else BlindGreedy(f"{s}/{seat}", score=False)
                  for seat in range(4)]
        result = play_game(Game(setup, s, record=False), agents)
        rounds += result["rounds"]
        winners = result["winners"]
        shares.append(1 / len(winners) if test in winners else 0.0)
    mean, half = interval(shares)
    return {"matchup": "fewest", "scenario": "hearts/1", "games": games, "share": mean, "half_width": half,
            "fair": 0.25, "mean_hands": rounds / games}


def teams(games: int, seed: int) -> dict:
    setup = setup_of(str(HERE / "teams.scenario.yaml"), express=True)
    shares = []
    for i in range(games):
        s = random.Random(f"{seed}/teams/{i}").getrandbits(32)
        side = i % 2  # the team under test: seats 0 and 2, or 1 and 3
        agents = [FastGreedyAgent(f"{s}/{seat}") if seat % 2 == side else BlindGreedy(f"{s}/{seat}", teams=False)
                  for seat in range(4)]
        result = play_game(Game(setup, s, record=False), agents)
        won = result["winning_teams"]
        shares.append(1 / len(won) if side in won else 0.0)
    mean, half = interval(shares)
    return {"matchup": "teams", "scenario": "bench/teams.scenario.yaml", "games": games, "share": mean,
            "half_width": half, "fair": 0.5}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("fewest", "teams"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [run(args.games, args.seed) for name, run in (("fewest", fewest), ("teams", teams))
            if args.only in (None, name)]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['matchup']:7} {r['scenario']}: {r['games']} games, share of the wins {r['share']:.3f} "
                  f"± {r['half_width']:.3f} (95%), fair {r['fair']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
