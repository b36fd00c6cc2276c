#!/usr/bin/env python3
"""Paired comparison of ISMCTS configurations against greedy bots, on any box.

Every configuration plays the same express games (the same seeds, the bot
under test in seat i mod players of game i), and so does an opponent-kind bot
in its place (the baseline): the difference of each game's result from the
baseline's is far less noisy than two independent win shares. Prints, for
each configuration, its side's win share (a team wins together; a shared win
counts 1/k), its mean final margin over the best other side (signed so that
ahead is positive: fewer points where the fewest win), and both as
differences from the baseline with their standard errors.

    python bench/paired_ismcts.py --games 200 --jobs 2 \\
        --config '{"iterations": 100}' --config '{"iterations": 100, "reward": "mean"}'
    python bench/paired_ismcts.py --scenario oh-hell/3 --opponents greedy --games 100 \\
        --config '{"anchor": "greedy-reference"}' --config '{}'

Players: the scenario's own number (a classic's fixed seats), else 4
(`--players`). Opponents: `greedy-reference` (GreedyAgent, the default, as
docs/bots.md's Happy DayZ runs) or `greedy` (FastGreedyAgent).

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
import strength_table  # noqa: E402

from happydayz.players.registry import BOTS  # noqa: E402
from happydayz.kernel.game import Game  # noqa: E402
from happydayz.players.ismcts import ISMCTSAgent  # noqa: E402


def play(task) -> tuple[float, int]:
    """(win share, margin) of the bot under test's side in one game (strength_table's reading: a team together)."""
    config, oracle, scenario, seed, index, players, opponents = task
    setup = bot_strength.make_setup(scenario, players, True)
    game_seed = bot_strength.seed_of(seed, "exp", scenario, index)  # "exp": the label docs/bots.md's runs used
    seat = index % players
    agents = []
    for s in range(players):
        agent_seed = random.Random(f"{game_seed}/{s}").getrandbits(32)
        if s == seat and config is not None:
            agents.append(ISMCTSAgent(agent_seed, **config).bind(setup, s))
        else:
            agents.append(BOTS[opponents](agent_seed).bind(setup, s))
    game = Game(setup, game_seed)
    if oracle and config is not None:
        def real_game(observation, decision):  # the diagnostic: the true state, not a sample
            twin = game.copy()
            twin.record = False
            return twin

        agents[seat]._sample = real_game
    while game.decision is not None:
        d = game.decision
        game.apply(agents[d.decider].decide(game.observe(d.decider), d))  # (a dummy's cards: its controller)
    winners, margin, _ = strength_table.side_result(game, seat)
    return (1.0 / winners if winners else 0.0), margin


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
    p = argparse.ArgumentParser(description="ISMCTS configurations against greedy bots, paired with a baseline.")
    p.add_argument("--config", action="append", default=[],
                   help="ISMCTSAgent keyword arguments as JSON (repeatable; default: the agent's defaults)")
    p.add_argument("--scenario", default="american-dream/1")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=None,
                   help="seats (default: the scenario's own number of players, else 4)")
    p.add_argument("--opponents", choices=("greedy-reference", "greedy"), default="greedy-reference",
                   help="the bot in every other seat, and the baseline's in the tested one (default: greedy-reference)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--oracle", action="store_true", help="diagnostic: the search sees the real game (see above)")
    p.add_argument("--out", help="write every game's (share, margin) of each configuration to this JSON file")
    args = p.parse_args(argv)
    configs = [json.loads(c) for c in args.config] or [{}]
    players = args.players or strength_table.players_of(args.scenario, 4)
    baseline = f"{args.opponents} (baseline)"
    runs = [(baseline, None)] + [(json.dumps(c, sort_keys=True), c) for c in configs]
    results = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name, config in runs:
            tasks = [(config, args.oracle, args.scenario, args.seed, i, players, args.opponents)
                     for i in range(args.games)]
            results[name] = list(pool.map(play, tasks, chunksize=2))
            print(f"done: {name}", file=sys.stderr, flush=True)
    base = results[baseline]
    print(f"{args.games} games of {args.scenario} ({players} players) against {players - 1} {args.opponents}"
          f"{' (oracle)' if args.oracle else ''}")
    print(f"{'configuration':<48} {'share':>6} {'margin':>7} {'share - base':>16} {'margin - base':>16}")
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
