#!/usr/bin/env python3
"""The strength table: every bot against three random bots and against three greedy bots, on every box.

    python bench/strength_table.py --out docs/bots/strength.jsonl                 # play every row, from scratch
    python bench/strength_table.py --out docs/bots/strength.jsonl --resume        # go on where the file stops
    python bench/strength_table.py --out docs/bots/strength.jsonl --resume --markdown docs/bots.md
    python bench/strength_table.py --out F --no-play --markdown docs/bots.md      # only write the table
    python bench/strength_table.py --out F --no-play --compare greedy greedy-reference --opponents random
    python bench/strength_table.py --out F --bots greedy --opponents greedy-reference --games 2000

A row is (box, bot under test, opponents). Each box of the library gives one
scenario (its first: a box added later is one more set of rows, nothing to
edit here); the bots are those of players/registry.py (`--bots`, default
random, greedy, greedy-reference, ismcts at its default iteration budget), the
opponents three bots of one kind (`--opponents`, default random and greedy).

Game i of a scenario puts the bot under test in seat i mod players and is
seeded from (--seed, scenario, i) only, so every row plays the same deals at
the same seats: two rows with the same opponents can be compared game by game
(`--compare`, a paired difference, far less noisy than two separate rates).
Express games (`--campaign` for campaigns). A shared win counts 1/k to each
of its k winners.

Games are played in batches (`--batch`); each finished batch is one JSON line
appended to --out: the row, the first game's index, and per game the number
of winners if the bot under test is one of them (0 if not), its margin over
the best other Community, and the bot's decisions and thinking time. So an
interrupted run loses at most a batch, and `--resume` goes on from the file:
rows are played up to --games games (--ismcts-games for ISMCTS rows, which cost
some 300x more a decision), in turn, a batch of each row at a time.

Win rates are printed with their 95% interval (normal approximation over the
per-game shares) and their number of games; time per decision is the bot's
mean wall time (perf_counter) over its decisions, including reading its
observation, on whatever shares the machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache, partial
from pathlib import Path

BOTS = ("random", "greedy", "greedy-reference", "ismcts")
OPPONENTS = ("random", "greedy")
SEARCHERS = ("ismcts",)  # rows of these bots play --ismcts-games games
START, END = "<!-- strength-table:start -->", "<!-- strength-table:end -->"


def box_scenarios() -> list[str]:
    """One scenario per box of the library, its first, in the order of the box ids."""
    from happydayz.data.environment import Environment

    boxes = Environment().library.boxes
    return [boxes[b].scenarios[0].id for b in sorted(boxes) if boxes[b].scenarios]


@lru_cache(maxsize=None)
def make_setup(scenario: str, players: int, express: bool):
    from happydayz.data.environment import Environment
    from happydayz.kernel.setup import GameOptions, build_setup

    env = Environment()
    sc, lib = env.resolve_scenario(scenario)
    return build_setup(sc, lib, GameOptions(players=players, express=express), env)


def game_seed(seed: int, scenario: str, index: int) -> int:
    return random.Random(f"{seed}/strength/{scenario}/{index}").getrandbits(32)


def play(task: tuple) -> dict:
    """One game of a row: the bot under test in seat index % players. Its result, as a batch line keeps it."""
    from happydayz.kernel.game import Game
    from happydayz.players.agents import Observation, seat_view
    from happydayz.players.registry import BOTS as REGISTRY

    scenario, bot, opponents, players, express, seed, index = task
    setup = make_setup(scenario, players, express)
    g_seed = game_seed(seed, scenario, index)
    hero = index % players
    agents = []
    for s in range(players):
        agent = REGISTRY[bot if s == hero else opponents](random.Random(f"{g_seed}/{s}").getrandbits(32))
        if hasattr(agent, "bind"):
            agent.bind(setup, s)
        agents.append(agent)
    game = Game(setup, g_seed)
    views = [(partial(game.observe, s), seat_view(game, s)) for s in range(players)]
    thinking, decisions = 0.0, 0
    clock = time.perf_counter
    while game.decision is not None:
        d = game.decision
        make, part = views[d.actor]
        if d.actor == hero:
            start = clock()
            answer = agents[hero].decide(Observation(make, part), d)
            thinking += clock() - start
            decisions += 1
        else:
            answer = agents[d.actor].decide(Observation(make, part), d)
        game.apply(answer)
    pops = game.population
    winners = len(game.winners) if hero in game.winners else 0
    margin = pops[hero] - max(p for s, p in enumerate(pops) if s != hero)
    return {"winners": winners, "margin": margin, "decisions": decisions, "seconds": thinking}


# ---------------------------------------------------------------- the file
def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def row_key(line: dict) -> tuple:
    return (line["scenario"], line["bot"], line["opponents"], line["players"], line["express"], line["seed"])


def games_of(lines: list[dict]) -> dict[tuple, dict[int, dict]]:
    """row -> {game index: its result}, from the batch lines."""
    out: dict[tuple, dict[int, dict]] = {}
    for line in lines:
        games = out.setdefault(row_key(line), {})
        for k, (w, m) in enumerate(zip(line["winners"], line["margins"])):
            games[line["first"] + k] = {"winners": w, "margin": m}
    return out


def summary(lines: list[dict]) -> list[dict]:
    """One entry per row: games, win rate, its 95% interval, mean margin, time per decision."""
    rows: dict[tuple, dict] = {}
    for line in lines:
        r = rows.setdefault(row_key(line), {"shares": [], "margins": [], "decisions": 0, "seconds": 0.0})
        r["shares"] += [1.0 / w if w else 0.0 for w in line["winners"]]
        r["margins"] += line["margins"]
        r["decisions"] += line["decisions"]
        r["seconds"] += line["seconds"]
    out = []
    for (scenario, bot, opponents, players, express, seed), r in rows.items():
        mean, low, high = interval(r["shares"])
        out.append({"scenario": scenario, "bot": bot, "opponents": opponents, "players": players,
                    "express": express, "seed": seed, "games": len(r["shares"]), "win_rate": mean,
                    "ci95": [low, high], "fair_share": 1 / players,
                    "mean_margin": sum(r["margins"]) / len(r["margins"]),
                    "ms_per_decision": 1000 * r["seconds"] / r["decisions"] if r["decisions"] else None})
    return out


def interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, lower, upper): the 95% interval of the mean, normal approximation."""
    n = len(values)
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half  # (a rate's interval is clamped to [0, 1] where it is shown: pct_range)


def compare(lines: list[dict], a: str, b: str, opponents: str) -> list[dict]:
    """Per scenario: bot a's win share minus bot b's, game by game over the games both rows played."""
    games = games_of(lines)
    out = []
    for key, ga in games.items():
        scenario, bot, opp, players, express, seed = key
        if bot != a or opp != opponents:
            continue
        gb = games.get((scenario, b, opp, players, express, seed), {})
        both = sorted(set(ga) & set(gb))
        if not both:
            continue
        share = lambda g: 1.0 / g["winners"] if g["winners"] else 0.0  # noqa: E731
        mean, low, high = interval([share(ga[i]) - share(gb[i]) for i in both])
        out.append({"scenario": scenario, "a": a, "b": b, "opponents": opponents, "games": len(both),
                    "difference": mean, "ci95": [low, high]})
    return out


# ---------------------------------------------------------------- playing
def plan(scenarios, bots, opponents, args, lines) -> list[tuple]:
    """The rows still short of their games: (scenario, bot, opponents, games done, games wanted)."""
    done = games_of(lines)
    todo = []
    for scenario in scenarios:
        for opp in opponents:
            for bot in bots:
                want = args.ismcts_games if bot in SEARCHERS else args.games
                have = done.get((scenario, bot, opp, args.players, not args.campaign, args.seed), {})
                start = max(have, default=-1) + 1
                if start < want:
                    todo.append((scenario, bot, opp, start, want))
    return todo


def run(args, out: Path, progress=print) -> None:
    scenarios = args.scenario or box_scenarios()
    lines = read_lines(out)
    todo = plan(scenarios, args.bots, args.opponents, args, lines)
    pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
    try:
        while todo:
            for i, (scenario, bot, opp, start, want) in enumerate(todo):
                size = min(args.ismcts_batch if bot in SEARCHERS else args.batch, want - start)
                tasks = [(scenario, bot, opp, args.players, not args.campaign, args.seed, k)
                         for k in range(start, start + size)]
                began = time.perf_counter()
                results = list(pool.map(play, tasks, chunksize=max(1, size // (4 * args.jobs))) if pool
                               else map(play, tasks))
                line = {"scenario": scenario, "bot": bot, "opponents": opp, "players": args.players,
                        "express": not args.campaign, "seed": args.seed, "first": start,
                        "winners": [r["winners"] for r in results], "margins": [r["margin"] for r in results],
                        "decisions": sum(r["decisions"] for r in results),
                        "seconds": round(sum(r["seconds"] for r in results), 4)}
                with out.open("a") as f:
                    f.write(json.dumps(line) + "\n")
                progress(f"{scenario} {bot} vs 3 {opp}: games {start}-{start + size - 1} of {want} "
                         f"({time.perf_counter() - began:.0f} s)")
                todo[i] = (scenario, bot, opp, start + size, want)
            todo = [t for t in todo if t[3] < t[4]]
    finally:
        if pool:
            pool.shutdown()


# ---------------------------------------------------------------- output
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def pct_range(ci: list[float], sep: str = "–") -> str:
    return f"{pct(max(ci[0], 0.0))}{sep}{pct(min(ci[1], 1.0))}"


def markdown(rows: list[dict]) -> str:
    head = ("| box (scenario) | bot | opponents | games | win rate | 95% interval | fair share | mean margin "
            "| time per decision |\n|---|---|---|---|---|---|---|---|---|")
    order = {b: i for i, b in enumerate(BOTS)}
    body = []
    for r in sorted(rows, key=lambda r: (r["scenario"], r["opponents"] != "random", r["opponents"],
                                         order.get(r["bot"], 99), r["bot"])):
        ms = r["ms_per_decision"]
        body.append(f"| {r['scenario']} | {r['bot']} | 3 × {r['opponents']} | {r['games']} | **{pct(r['win_rate'])}** "
                    f"| {pct_range(r['ci95'])} | {pct(r['fair_share'])} | {r['mean_margin']:+.1f} "
                    f"| {'-' if ms is None else f'{ms:.3f} ms'} |")
    return "\n".join([head, *body])


def write_markdown(path: Path, rows: list[dict]) -> None:
    text = path.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"{path}: no {START} ... {END} markers to write the table between")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    path.write_text(f"{before}{START}\n{markdown(rows)}\n{END}{after}")


def text_table(rows: list[dict]) -> str:
    lines = [f"{'scenario':<20} {'bot':<17} {'opponents':<17} {'games':>6} {'win rate':>9} {'95% interval':>16} "
             f"{'margin':>7} {'ms/decision':>11}"]
    for r in rows:
        ms = r["ms_per_decision"]
        lines.append(f"{r['scenario']:<20} {r['bot']:<17} {'3 x ' + r['opponents']:<17} {r['games']:>6} "
                     f"{pct(r['win_rate']):>9} {pct_range(r['ci95'], '-'):>16} "
                     f"{r['mean_margin']:>+7.1f} {'-' if ms is None else f'{ms:.3f}':>11}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Win rates of every bot on every box, resumable.")
    p.add_argument("--out", required=True, type=Path, help="the JSONL file of finished batches")
    p.add_argument("--resume", action="store_true", help="go on from the games --out already holds")
    p.add_argument("--no-play", action="store_true", help="play nothing: summarise --out")
    p.add_argument("--games", type=int, default=2000, help="games per row (2000)")
    p.add_argument("--ismcts-games", type=int, default=200, help="games per ISMCTS row (200)")
    p.add_argument("--batch", type=int, default=250, help="games per batch line (250)")
    p.add_argument("--ismcts-batch", type=int, default=20, help="games per batch line of an ISMCTS row (20)")
    p.add_argument("--bots", type=lambda s: s.split(","), default=list(BOTS), help="bots under test (comma-separated)")
    p.add_argument("--opponents", type=lambda s: s.split(","), default=list(OPPONENTS), help="opponent kinds")
    p.add_argument("--scenario", action="append", help="only this scenario (repeatable; default: one per box)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--campaign", action="store_true", help="campaign games instead of express ones")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="processes (the results do not depend on it)")
    p.add_argument("--markdown", type=Path, help="write the table into this file, between the markers")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="print A's win share minus B's, game by game")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args(argv)
    from happydayz.players.registry import BOTS as REGISTRY

    for name in [*args.bots, *args.opponents, *(args.compare or ())]:
        if name not in REGISTRY:
            p.error(f"unknown bot {name!r} (known: {', '.join(sorted(REGISTRY))})")
    if not args.no_play:
        if args.out.exists() and args.out.stat().st_size and not args.resume:
            p.error(f"{args.out} holds games already: --resume to go on, or another --out")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        run(args, args.out, progress=lambda msg: print(msg, file=sys.stderr, flush=True))
    lines = read_lines(args.out)
    rows = summary(lines)
    if args.compare:
        result = [c for opp in args.opponents for c in compare(lines, *args.compare, opp)]
        if args.json:
            print(json.dumps(result, indent=2))
        for c in result:
            print(f"{c['scenario']}: {c['a']} - {c['b']} vs 3 {c['opponents']}: {100 * c['difference']:+.2f} points "
                  f"(95% interval {100 * c['ci95'][0]:+.2f} to {100 * c['ci95'][1]:+.2f}), {c['games']} paired games")
        return 0
    print(json.dumps(rows, indent=2) if args.json else text_table(rows))
    if args.markdown:
        write_markdown(args.markdown, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
