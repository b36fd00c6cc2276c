#!/usr/bin/env python3
"""The `greedy` bot's Transfer passes against GreedyAgent's, on the same games (docs/bots.md, "Passing where the
fewest win").

Game i (seeded from --seed + i) puts the bot under test in seat i mod 4 among three `greedy` bots that pass as
GreedyAgent does; it is played twice, once with `greedy` (FastGreedyAgent, its own passes) in that seat and once
with the same bot passing as GreedyAgent. Everything else is alike, so the difference game by game is what the
passes do. Prints both win shares (a shared win counts 1/k), the paired difference in win share and in points
(signed: ahead is positive, whichever way the game counts), each with its 95% interval. One express game each
(for Hearts: one hand).

    python bench/greedy_passes.py --scenario hearts/1 --games 1000 --first 2000
"""

from __future__ import annotations

import argparse
import math
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])  # bot_strength, beside this file

import bot_strength  # noqa: E402

from happydayz.kernel.game import Game  # noqa: E402
from happydayz.players.fast_greedy import FastGreedyAgent  # noqa: E402
from happydayz.players.greedy import GreedyAgent  # noqa: E402


class ReferencePasses(FastGreedyAgent):
    """`greedy` passing as GreedyAgent does (its hand worth: any burden first)."""

    _transfer = GreedyAgent._transfer

    def option_scores(self, observation, decision):
        return GreedyAgent.option_scores(self, observation, decision)


def result(setup, index: int, seed: int, bot) -> tuple[float, float]:
    """(win share, score) of the seat index mod 4 in game `index` with `bot` there (signed: higher is better)."""
    players = setup.n
    seat = index % players
    game = Game(setup, seed + index)
    bots = [(bot if s == seat else ReferencePasses)(index * 10 + s).bind(setup, s) for s in range(players)]
    game.play(lambda d: bots[d.decider].decide(game.observe(d.decider), d))
    sign = -1 if setup.winner == "fewest" else 1
    scores = [sign * p for p in game.population]
    best = max(scores)
    return (1 / scores.count(best) if scores[seat] == best else 0.0), scores[seat]


def interval(xs: list[float]) -> str:
    n = len(xs)
    m = sum(xs) / n
    e = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return f"{m:+.4f} (95% {m - 1.96 * e:+.4f} to {m + 1.96 * e:+.4f})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="hearts/1")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--first", type=int, default=0, help="the first game's index")
    p.add_argument("--seed", type=int, default=1000, help="game i is seeded SEED + i")
    a = p.parse_args(argv)
    if a.games < 2:
        p.error("--games must be at least 2 (an interval needs two games)")
    setup = bot_strength.make_setup(a.scenario, 4, True)
    wins, points, own, ref = [], [], 0.0, 0.0
    for i in range(a.first, a.first + a.games):
        (w_new, s_new), (w_old, s_old) = result(setup, i, a.seed, FastGreedyAgent), result(setup, i, a.seed,
                                                                                           ReferencePasses)
        wins.append(w_new - w_old)
        points.append(s_new - s_old)
        own, ref = own + w_new, ref + w_old
    print(f"{a.scenario}, games {a.first}-{a.first + a.games - 1}: greedy {own / a.games:.1%}, "
          f"passing as GreedyAgent {ref / a.games:.1%}; win share {interval(wins)}; points {interval(points)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
