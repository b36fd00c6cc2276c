"""How strong are the bots? Reproduces the claims of docs/bots.md.

Two match-ups, each over 4-player games (express by default) with the seats
rotated (game i puts the bot under test in seat i mod 4):

* greedy vs 3 random  — GreedyAgent against three RandomAgents;
* ismcts vs 3 greedy  — ISMCTSAgent (the stated budget) against three GreedyAgents.

"greedy" here is GreedyAgent, the registry's `greedy-reference` (the figures
of docs/bots.md measured with it stay reproducible); bench/strength_table.py
plays the registry's bots by name, `greedy` being FastGreedyAgent.

A game's win goes to the Communities with the most Survivors; a shared win
counts as a fraction (1/k for k winners). The table gives the bot's win share,
its 95% confidence interval (normal approximation over the per-game shares),
the fair share (1/players) and the bot's mean final margin over the best
other Community, and the bot's speed: decisions per second over all its
decisions, and for ISMCTS over the decisions it searched, and its longest
decision (wall time: on a busy machine it says more of the machine than of the
bot). Every game and every
bot is seeded from --seed, so the same command prints the same win shares and
margins whatever --jobs is (not with --milliseconds, whose searches depend on
the machine's speed; the speeds always do).

    python bench/bot_strength.py                       # 2000 + 200 games per scenario
    python bench/bot_strength.py --games 200 --ismcts-games 40 --iterations 100
    python bench/bot_strength.py --campaign --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

from happydayz.players.agents import RandomAgent
from happydayz.data.environment import Environment
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent
from happydayz.kernel.game import Game
from happydayz.players.ismcts import ISMCTSAgent
from happydayz.kernel.setup import GameOptions, build_setup

SCENARIOS = ("woodstock-fever/1", "american-dream/1")


@lru_cache(maxsize=None)
def make_setup(scenario: str, players: int, express: bool):
    env = Environment()
    sc, lib = env.resolve_scenario(scenario)
    return build_setup(sc, lib, GameOptions(players=players, express=express), env)


def seed_of(seed: int, matchup: str, scenario: str, index: int) -> int:
    return random.Random(f"{seed}/{matchup}/{scenario}/{index}").getrandbits(32)


def make_agent(kind: str, seed: int, setup, seat: int, budget: dict):
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(seed).bind(setup, seat)
    if kind == "fast-greedy":  # the registry's "greedy"
        return FastGreedyAgent(seed).bind(setup, seat)
    if kind == "ismcts":
        return ISMCTSAgent(seed, **budget).bind(setup, seat)
    raise ValueError(kind)


def play_one(args) -> dict:
    """One game: the bot under test in seat index % players; its share of the win and its margin."""
    matchup, hero, villain, scenario, players, express, seed, index, budget = args
    setup = make_setup(scenario, players, express)
    game_seed = seed_of(seed, matchup, scenario, index)
    seat = index % players
    agents = [make_agent(hero if s == seat else villain, random.Random(f"{game_seed}/{s}").getrandbits(32),
                         setup, s, budget) for s in range(players)]
    game = Game(setup, game_seed)
    thinking = longest = cpu = 0.0
    decisions = 0
    while game.decision is not None:
        d = game.decision
        start, start_cpu = time.perf_counter(), time.process_time()
        index_ = agents[d.actor].decide(game.observe(d.actor), d)
        if d.actor == seat:
            took = time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            thinking += took
            longest = max(longest, took)
            decisions += 1
        game.apply(index_)
    pops = game.population
    share = 1.0 / len(game.winners) if seat in game.winners else 0.0
    margin = pops[seat] - max(p for s, p in enumerate(pops) if s != seat)
    searched = getattr(agents[seat], "stats", {}).get("decisions", 0)
    searched_time = getattr(agents[seat], "stats", {}).get("seconds", 0.0)
    return {"share": share, "margin": margin, "thinking": thinking, "cpu": cpu, "decisions": decisions,
            "searched": searched, "searched_seconds": searched_time, "longest": longest}


def run_matchup(matchup: str, hero: str, villain: str, scenario: str, games: int, players: int, express: bool,
                seed: int, budget: dict, jobs: int, progress) -> dict:
    tasks = [(matchup, hero, villain, scenario, players, express, seed, i, budget) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = []
            for k, r in enumerate(pool.map(play_one, tasks, chunksize=max(1, min(16, games // (4 * jobs) or 1)))):
                results.append(r)
                progress(matchup, scenario, k + 1, games)
    else:
        results = []
        for k, t in enumerate(tasks):
            results.append(play_one(t))
            progress(matchup, scenario, k + 1, games)
    elapsed = time.perf_counter() - start
    shares = [r["share"] for r in results]
    n = len(shares)
    mean = sum(shares) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in shares) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    decisions = sum(r["decisions"] for r in results)
    thinking = sum(r["thinking"] for r in results)
    searched = sum(r["searched"] for r in results)
    searched_seconds = sum(r["searched_seconds"] for r in results)
    return {
        "matchup": matchup,
        "bot": hero,
        "opponents": villain,
        "scenario": scenario,
        "players": players,
        "express": express,
        "games": n,
        "win_share": round(mean, 4),
        "ci95": [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)],
        "fair_share": round(1 / players, 4),
        "mean_margin": round(sum(r["margin"] for r in results) / n, 2) if n else None,
        "bot_decisions_per_second": round(decisions / thinking, 1) if thinking else None,  # all its decisions
        "searched_decisions_per_second": round(searched / searched_seconds, 2) if searched_seconds else None,  # ISMCTS
        # the mean wall and CPU time of a searched decision (ISMCTS; on a shared machine the CPU time is what one
        # core of its own would take)
        "searched_decision_seconds": round(searched_seconds / searched, 4) if searched else None,
        "bot_cpu_seconds_per_decision": round(sum(r["cpu"] for r in results) / decisions, 4) if decisions else None,
        "longest_decision_seconds": round(max((r["longest"] for r in results), default=0.0), 3),  # wall time
        "budget": budget if hero == "ismcts" else None,
        "seconds": round(elapsed, 1),
    }


def table(rows: list[dict]) -> str:
    head = f"{'match-up':<20} {'scenario':<19} {'games':>5} {'win share':>9} {'95% CI':>15} {'fair':>5} " \
           f"{'margin':>7} {'bot dec/s':>9} {'searched/s':>10} {'longest s':>9} {'seconds':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
        rate = r["bot_decisions_per_second"]
        searched = r["searched_decisions_per_second"]
        lines.append(f"{r['matchup']:<20} {r['scenario']:<19} {r['games']:>5} {r['win_share']:>9.3f} {ci:>15} "
                     f"{r['fair_share']:>5.2f} {r['mean_margin']:>7.2f} {rate if rate is not None else '-':>9} "
                     f"{searched if searched is not None else '-':>10} {r['longest_decision_seconds']:>9.3f} "
                     f"{r['seconds']:>8.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Win rates of the bots, with 95% confidence intervals.")
    p.add_argument("--games", type=int, default=2000, help="games of greedy vs 3 random, per scenario (2000)")
    p.add_argument("--ismcts-games", type=int, default=200, help="games of ismcts vs 3 greedy, per scenario (200)")
    p.add_argument("--scenario", action="append", help="a scenario id (repeatable; default: both first-game scenarios)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--campaign", action="store_true", help="campaign games (4 rounds) instead of express")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--iterations", type=int, default=None,
                   help="ISMCTS iterations (playouts) per searched decision (default: the agent's)")
    p.add_argument("--milliseconds", type=float, default=None, help="ISMCTS time per searched decision instead")
    p.add_argument("--clock", default=None, choices=["wall", "cpu"],
                   help="ISMCTS --milliseconds counted in wall time (the agent's default) or in the process's CPU "
                        "time (a core of its own, on a shared machine)")
    p.add_argument("--rollout", default="light", choices=["light", "random", "greedy"], help="ISMCTS playout policy")
    p.add_argument("--search", default=None, choices=["paired", "tree"],
                   help="ISMCTS: the paired flat search or the tree search (default: the agent's, paired)")
    p.add_argument("--race", type=float, default=None,
                   help="ISMCTS paired: drop a candidate its leader beats by this many standard errors")
    p.add_argument("--playout-explore", type=float, default=None, help="ISMCTS: the playouts' share of random leads")
    p.add_argument("--ismcts-opponents", default="greedy", choices=["greedy", "fast-greedy", "random"],
                   help="ISMCTS's three opponents: greedy (GreedyAgent, the registry's greedy-reference: the "
                        "default), fast-greedy (FastGreedyAgent, the registry's greedy) or random")
    p.add_argument("--reward", default=None, choices=["mean", "best", "margin", "win"],
                   help="ISMCTS: what a playout's reward compares (default: the agent's)")
    p.add_argument("--widen", type=int, default=6, help="ISMCTS: search GreedyAgent's best N root moves (0: all)")
    p.add_argument("--final", default="anchored", choices=["anchored", "visits"], help="ISMCTS: how the move is picked")
    p.add_argument("--confidence", type=float, default=2.0,
                   help="ISMCTS anchored: standard errors a move must beat GreedyAgent's by (2.0)")
    p.add_argument("--opponents-in-tree", action="store_true", help="ISMCTS: tree nodes for the others' moves too")
    p.add_argument("--skip-greedy", action="store_true")
    p.add_argument("--skip-ismcts", action="store_true")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    scenarios = args.scenario or list(SCENARIOS)
    express = not args.campaign
    budget = {"rollout": args.rollout, "widen": args.widen or None,
              "final": args.final, "confidence": args.confidence, "opponents_in_tree": args.opponents_in_tree}
    for key, value in (("iterations", args.iterations), ("search", args.search), ("race", args.race),
                       ("playout_explore", args.playout_explore), ("clock", args.clock)):
        if value is not None:
            budget[key] = value
    if args.milliseconds:
        budget["milliseconds"] = args.milliseconds
    if args.reward:
        budget["reward"] = args.reward

    live = sys.stderr.isatty()

    def progress(matchup, scenario, done, total):
        if args.quiet:
            return
        if live and (done == total or done % max(1, total // 50) == 0):
            print(f"\r{matchup} {scenario}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr,
                  flush=True)
        elif not live and (done == total or done % max(1, total // 20) == 0):  # a log file: a line per 5%
            print(f"{matchup} {scenario}: {done}/{total} games", file=sys.stderr, flush=True)

    rows = []
    for scenario in scenarios:
        if not args.skip_greedy and args.games > 0:
            rows.append(run_matchup("greedy vs 3 random", "greedy", "random", scenario, args.games, args.players,
                                    express, args.seed, {}, args.jobs, progress))
        if not args.skip_ismcts and args.ismcts_games > 0:
            rows.append(run_matchup(f"ismcts vs 3 {args.ismcts_opponents}", "ismcts", args.ismcts_opponents,
                                    scenario, args.ismcts_games,
                                    args.players, express, args.seed, budget, args.jobs, progress))
    command = "python bench/bot_strength.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.json:
        print(json.dumps({"command": command.strip(), "results": rows}, indent=2))
    else:
        print(table(rows))
        if any(r["budget"] for r in rows):
            print(f"ismcts budget: {budget}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
