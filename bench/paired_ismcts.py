#!/usr/bin/env python3
"""Paired comparison of ISMCTS configurations against 3 GreedyAgents.

Every configuration plays the same games (the same seeds, the bot under test
in seat i mod 4 of game i), and so does a GreedyAgent in its place: the
difference of each game's result from the greedy baseline's is far less noisy
than two independent win shares. Prints, for each configuration, its win
share, its mean final margin over the best other Community, and both as
differences from the baseline with their standard errors.

    python bench/paired_ismcts.py --games 200 --jobs 2 \\
        --config '{"iterations": 100}' --config '{"iterations": 100, "reward": "mean"}'

`--oracle` is a diagnostic, not a bot: it hands the search the real game
instead of determinizations sampled from the observation (every hidden card
known), an upper bound on what better inference of the hidden cards could
buy. No agent of the package does this.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, __file__.rsplit("/", 1)[0])  # bot_strength, beside this file

import bot_strength  # noqa: E402

from happydayz.players.greedy import GreedyAgent  # noqa: E402
from happydayz.kernel.game import Game  # noqa: E402
from happydayz.players.ismcts import ISMCTSAgent  # noqa: E402


def play(task) -> tuple[float, int]:
    """(win share, margin) of the bot under test in one game."""
    config, oracle, scenario, seed, index = task
    setup = bot_strength.make_setup(scenario, 4, True)
    game_seed = bot_strength.seed_of(seed, "exp", scenario, index)  # "exp": the label docs/bots.md's runs used
    seat = index % 4
    agents = []
    for s in range(4):
        agent_seed = random.Random(f"{game_seed}/{s}").getrandbits(32)
        if s == seat and config is not None:
            agents.append(ISMCTSAgent(agent_seed, **config).bind(setup, s))
        else:
            agents.append(GreedyAgent(agent_seed).bind(setup, s))
    game = Game(setup, game_seed)
    if oracle and config is not None:
        def real_game(observation, decision):  # the diagnostic: the true state, not a sample
            twin = game.copy()
            twin.record = False
            return twin

        agents[seat]._sample = real_game
    while game.decision is not None:
        d = game.decision
        game.apply(agents[d.actor].decide(game.observe(d.actor), d))
    pops = game.population
    share = 1.0 / len(game.winners) if seat in game.winners else 0.0
    return share, pops[seat] - max(p for s, p in enumerate(pops) if s != seat)


def mean_and_error(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, sd / math.sqrt(n)


def difference(rows: list, base: list) -> str:
    """The paired differences of share and margin from `base`, game by game, each ± one standard error."""
    d_share = mean_and_error([a[0] - b[0] for a, b in zip(rows, base)])
    d_margin = mean_and_error([a[1] - b[1] for a, b in zip(rows, base)])
    return f"{d_share[0]:>+8.3f} ± {d_share[1]:.3f} {d_margin[0]:>+8.2f} ± {d_margin[1]:.2f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="ISMCTS configurations against 3 greedy, paired with a greedy baseline.")
    p.add_argument("--config", action="append", default=[],
                   help="ISMCTSAgent keyword arguments as JSON (repeatable; default: the agent's defaults)")
    p.add_argument("--scenario", default="american-dream/1")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--oracle", action="store_true", help="diagnostic: the search sees the real game (see above)")
    p.add_argument("--out", help="write every game's (share, margin) of each configuration to this JSON file")
    args = p.parse_args(argv)
    configs = [json.loads(c) for c in args.config] or [{}]
    runs = [("greedy (baseline)", None)] + [(json.dumps(c, sort_keys=True), c) for c in configs]
    results = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name, config in runs:
            tasks = [(config, args.oracle, args.scenario, args.seed, i) for i in range(args.games)]
            results[name] = list(pool.map(play, tasks, chunksize=2))
            print(f"done: {name}", file=sys.stderr, flush=True)
    base = results["greedy (baseline)"]
    print(f"{args.games} games of {args.scenario} against 3 greedy{' (oracle)' if args.oracle else ''}")
    print(f"{'configuration':<48} {'share':>6} {'margin':>7} {'share - greedy':>16} {'margin - greedy':>16}")
    for name, rows in results.items():
        share = sum(r[0] for r in rows) / len(rows)
        margin = sum(r[1] for r in rows) / len(rows)
        print(f"{name:<48} {share:>6.3f} {margin:>7.2f} {difference(rows, base)}")
    names = list(results)
    if len(names) > 2:  # each later configuration against the first, on the same games
        first = results[names[1]]
        print(f"against the first configuration, {names[1]} (± one standard error):")
        for name in names[2:]:
            print(f"{name:<48} {'':>6} {'':>7} {difference(results[name], first)}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"scenario": args.scenario, "games": args.games, "seed": args.seed, "results": results}, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
