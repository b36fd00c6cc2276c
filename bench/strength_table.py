#!/usr/bin/env python3
"""The strength table: every bot against random bots and against greedy bots, on every box, the classics too.

    python bench/strength_table.py --out docs/bots/strength.jsonl                 # play every row, from scratch
    python bench/strength_table.py --out docs/bots/strength.jsonl --resume        # go on where the file stops
    python bench/strength_table.py --out docs/bots/strength.jsonl --resume --markdown docs/bots.md
    python bench/strength_table.py --out F --no-play --markdown docs/bots.md      # only write the table
    python bench/strength_table.py --out F --no-play --compare greedy greedy-reference --opponents random
    python bench/strength_table.py --out F --bots greedy --opponents greedy-reference --games 2000
    python bench/strength_table.py --out docs/bots/strength.jsonl --also docs/bots/strength-classics.jsonl \
        --resume --forget greedy,ismcts --markdown docs/bots.md   # after a change of those bots' decisions

A row is (scenario, bot under test, opponents). Each box of the library gives one
scenario (its first: a box added later is one more set of rows, nothing to
edit here), played by its own number of players (a classic's fixed seats; 4
where the scenario leaves it open, `--players`); the bots are those of
players/registry.py (`--bots`, default random, greedy, greedy-reference,
ismcts at its default iteration budget), the opponents bots of one kind
(`--opponents`, default random and greedy) in every other seat.

Game i of a scenario puts the bot under test in seat i mod players and is
seeded from (--seed, scenario, i) only, so every row plays the same deals at
the same seats: two rows with the same opponents can be compared game by game
(`--compare`, a paired difference, far less noisy than two separate rates).
Express games where the scenario plays Happy DayZ's hand (data.hand.HAPPY_DAYZ:
read from the box, no game named here), whole games otherwise (a classic
plays to its end; `--campaign` for Happy DayZ campaigns too). A side wins as a
whole: with teams (partners) the bot's side is its team, its partner one of
the opponents' kind; a shared win among k sides counts 1/k to each, and the
fair share is 1/sides. A dummy's cards are played by the seat that decides
for it (Decision.decider): the bot's decisions are those it is asked.

Games are played in batches (`--batch`); each finished batch is one JSON line
appended to --out: the row, the first game's index, and per game the number
of winning sides if the bot's side is one of them (0 if not), its side's
margin over the best other side (positive: ahead, whichever way the game
counts), the bot's decisions and thinking time, and the games' wall time. So
an interrupted run loses at most a batch, and `--resume` goes on from the
file: rows are played up to --games games (--ismcts-games for ISMCTS rows,
which cost some 300x more a decision; `--games-for` and `--ismcts-games-for`
set a scenario's or a box's own count), in turn, a batch of each row at a time.
`--also FILE` reads more result files (a row found there is not played again),
and `--forget BOTS` drops from --out and every --also file the rows where those
bots play (under test or as opponents) — with `--scenario`, on those scenarios
only — so that they are played again after a change of their decisions.

Win rates are printed with their 95% interval (Wilson's score interval, which
holds at a handful of games too; a paired difference's is the normal
approximation over the per-game differences) and their number of games; time per decision is the bot's
mean wall time (perf_counter) over its decisions, including reading its
observation, and time per game a whole game's wall time, on whatever shares
the machine.
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
#: ISMCTS games of a box whose whole game is long (a box id, or a scenario id): its many hands a game
ISMCTS_GAMES_FOR = {"hearts": 100, "oh-hell": 100}
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


@lru_cache(maxsize=None)
def players_of(scenario: str, default: int) -> int:
    """The scenario's own number of players (a classic's fixed seats), or `default` where it leaves it open."""
    from happydayz.data.environment import Environment

    sc, _ = Environment().resolve_scenario(scenario)
    return sc.players or default


@lru_cache(maxsize=None)
def happy_dayz_hand(scenario: str) -> bool:
    """Whether the scenario plays Happy DayZ's hand (every key but the Transfer's size as data.hand.HAPPY_DAYZ
    says, the hand read as the kernel does: the scenario's over its box's): its express game is a game; any
    other hand (a classic's) plays its whole game."""
    from dataclasses import fields

    from happydayz.data.boxes import scenario_hand
    from happydayz.data.environment import Environment
    from happydayz.data.hand import HAPPY_DAYZ

    sc, lib = Environment().resolve_scenario(scenario)
    hand = scenario_hand(lib.boxes[sc.box].hand, sc.house_rules, sc.hand)
    return all(getattr(hand, f.name) == getattr(HAPPY_DAYZ, f.name) for f in fields(HAPPY_DAYZ)
               if f.name != "transfer_cards")


def game_seed(seed: int, scenario: str, index: int) -> int:
    return random.Random(f"{seed}/strength/{scenario}/{index}").getrandbits(32)


def play(task: tuple) -> dict:
    """One game of a row: the bot under test in seat index % players. Its result, as a batch line keeps it."""
    from happydayz.kernel.game import Game
    from happydayz.players.agents import Observation, seat_view
    from happydayz.players.registry import BOTS as REGISTRY

    scenario, bot, opponents, players, express, seed, index = task
    clock = time.perf_counter
    setup = make_setup(scenario, players, express)  # (made once per process: not a game's time)
    began = clock()
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
    while game.decision is not None:
        d = game.decision
        asked = d.decider  # (a dummy's decision is asked of its controller)
        make, part = views[asked]
        if asked == hero:
            start = clock()
            answer = agents[hero].decide(Observation(make, part), d)
            thinking += clock() - start
            decisions += 1
        else:
            answer = agents[asked].decide(Observation(make, part), d)
        game.apply(answer)
    winners, margin, sides = side_result(game, hero)
    return {"winners": winners, "margin": margin, "decisions": decisions,
            "seconds": thinking, "sides": sides, "game_seconds": clock() - began}


def side_result(game, seat: int) -> tuple[int, float, int]:
    """(how many sides won, 0 if not the seat's; the seat's side's margin over the best other, ahead positive;
    how many sides there are)."""
    side_of, scores = sides_of(game)
    won = {side_of[s] for s in game.winners}
    mine = side_of[seat]
    sign = -1 if game.setup.winner == "fewest" else 1  # ahead: more Survivors, or fewer points where fewest wins
    margin = sign * (scores[mine] - (max if sign > 0 else min)(p for t, p in enumerate(scores) if t != mine))
    return (len(won) if mine in won else 0), margin, len(scores)


def sides_of(game) -> tuple[tuple[int, ...], list[int]]:
    """Each seat's side (its team, or itself without teams) and each side's score."""
    setup = game.setup
    if setup.teams is None:
        return tuple(range(len(game.population))), list(game.population)
    return setup.team_index, game.team_scores()


# ---------------------------------------------------------------- the file
def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def forget(path: Path, bots: set[str], scenarios: list[str] | None = None) -> int:
    """Drop from the file every batch line of a row where one of `bots` plays (on one of `scenarios`, if given);
    the number of lines dropped."""
    lines = read_lines(path)
    kept = [line for line in lines if (line["bot"] not in bots and line["opponents"] not in bots)
            or (scenarios and line["scenario"] not in scenarios)]
    if len(kept) < len(lines):
        path.write_text("".join(json.dumps(line) + "\n" for line in kept))
    return len(lines) - len(kept)


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
    """One entry per row: games, win rate, its 95% interval, fair share, mean margin, time per decision and game."""
    rows: dict[tuple, dict] = {}
    for line in lines:
        r = rows.setdefault(row_key(line), {"shares": [], "margins": [], "decisions": 0, "seconds": 0.0,
                                            "sides": line.get("sides", line["players"]), "timed": 0, "wall": 0.0})
        r["shares"] += [1.0 / w if w else 0.0 for w in line["winners"]]
        r["margins"] += line["margins"]
        r["decisions"] += line["decisions"]
        r["seconds"] += line["seconds"]
        if "game_seconds" in line:  # (lines written before it was kept have no time per game)
            r["timed"] += len(line["winners"])
            r["wall"] += line["game_seconds"]
    out = []
    for (scenario, bot, opponents, players, express, seed), r in rows.items():
        mean, low, high = rate_interval(r["shares"])
        out.append({"scenario": scenario, "bot": bot, "opponents": opponents, "players": players,
                    "express": express, "seed": seed, "games": len(r["shares"]), "win_rate": mean,
                    "ci95": [low, high], "sides": r["sides"], "fair_share": 1 / r["sides"],
                    "mean_margin": sum(r["margins"]) / len(r["margins"]),
                    "ms_per_decision": 1000 * r["seconds"] / r["decisions"] if r["decisions"] else None,
                    "s_per_game": r["wall"] / r["timed"] if r["timed"] else None})
    return out


def rate_interval(shares: list[float]) -> tuple[float, float, float]:
    """(mean, lower, upper): the 95% Wilson score interval of a win rate over len(shares) games.

    Wilson's rather than the normal approximation's because a row may hold a handful of games (the
    classics' ISMCTS rows): there the normal interval of 5 wins in 5 is 100%-100%, Wilson's 56.6%-100%.
    A shared win (1/k) makes a game's variance below p(1 - p): the interval is then a little wide.
    """
    n = len(shares)
    p = sum(shares) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(centre - half, 0.0), min(centre + half, 1.0)


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
def wanted(scenario: str, bot: str, args) -> int:
    """How many games a row plays: --games (--ismcts-games for a searcher), or its scenario's or box's own."""
    searcher = bot in SEARCHERS
    own = {**ISMCTS_GAMES_FOR, **dict(args.ismcts_games_for)} if searcher else dict(args.games_for)
    for key in (scenario, scenario.split("/", 1)[0]):
        if key in own:
            return own[key]
    return args.ismcts_games if searcher else args.games


def row_of(scenario: str, args) -> tuple[int, bool]:
    """(players, express) of a scenario's rows."""
    players = players_of(scenario, args.players)
    return players, not args.campaign and happy_dayz_hand(scenario)


def plan(scenarios, bots, opponents, args, lines) -> list[tuple]:
    """The rows still short of their games: (scenario, bot, opponents, games done, games wanted)."""
    done = games_of(lines)
    todo = []
    for scenario in scenarios:
        players, express = row_of(scenario, args)
        for opp in opponents:
            for bot in bots:
                want = wanted(scenario, bot, args)
                have = done.get((scenario, bot, opp, players, express, args.seed), {})
                start = max(have, default=-1) + 1
                if start < want:
                    todo.append((scenario, bot, opp, start, want))
    return todo


def run(args, out: Path, progress=print) -> None:
    scenarios = args.scenario or box_scenarios()
    lines = read_lines(out) + [line for path in args.also for line in read_lines(path)]
    todo = plan(scenarios, args.bots, args.opponents, args, lines)
    pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
    try:
        while todo:
            for i, (scenario, bot, opp, start, want) in enumerate(todo):
                players, express = row_of(scenario, args)
                size = min(args.ismcts_batch if bot in SEARCHERS else args.batch, want - start)
                tasks = [(scenario, bot, opp, players, express, args.seed, k) for k in range(start, start + size)]
                began = time.perf_counter()
                results = list(pool.map(play, tasks, chunksize=max(1, size // (4 * args.jobs))) if pool
                               else map(play, tasks))
                line = {"scenario": scenario, "bot": bot, "opponents": opp, "players": players,
                        "express": express, "seed": args.seed, "first": start, "sides": results[0]["sides"],
                        "winners": [r["winners"] for r in results], "margins": [r["margin"] for r in results],
                        "decisions": sum(r["decisions"] for r in results),
                        "seconds": round(sum(r["seconds"] for r in results), 4),
                        "game_seconds": round(sum(r["game_seconds"] for r in results), 4)}
                with out.open("a") as f:
                    f.write(json.dumps(line) + "\n")
                progress(f"{scenario} {bot} vs {players - 1} {opp}: games {start}-{start + size - 1} of {want} "
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


def seconds(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def ordered(rows: list[dict]) -> list[dict]:
    order = {b: i for i, b in enumerate(BOTS)}
    return sorted(rows, key=lambda r: (r["scenario"], r["opponents"] != "random", r["opponents"],
                                       order.get(r["bot"], 99), r["bot"]))


def markdown(rows: list[dict]) -> str:
    head = ("| box (scenario) | players | bot | opponents | games | win rate | 95% interval | fair share "
            "| mean margin | time per decision | time per game |\n|---|---|---|---|---|---|---|---|---|---|---|")
    body = []
    for r in ordered(rows):
        ms = r["ms_per_decision"]
        body.append(f"| {r['scenario']}{'' if r['express'] else ' (whole games)'} | {r['players']} | {r['bot']} "
                    f"| {r['players'] - 1} × {r['opponents']} | {r['games']} | **{pct(r['win_rate'])}** "
                    f"| {pct_range(r['ci95'])} | {pct(r['fair_share'])} | {r['mean_margin']:+.1f} "
                    f"| {'-' if ms is None else f'{ms:.3f} ms'} | {seconds(r['s_per_game'])} |")
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
             f"{'fair':>6} {'margin':>7} {'ms/decision':>11} {'s/game':>8}"]
    for r in ordered(rows):
        ms, sg = r["ms_per_decision"], r["s_per_game"]
        against = f"{r['players'] - 1} x {r['opponents']}"
        lines.append(f"{r['scenario']:<20} {r['bot']:<17} {against:<17} "
                     f"{r['games']:>6} {pct(r['win_rate']):>9} {pct_range(r['ci95'], '-'):>16} "
                     f"{pct(r['fair_share']):>6} {r['mean_margin']:>+7.1f} {'-' if ms is None else f'{ms:.3f}':>11} "
                     f"{'-' if sg is None else f'{sg:.3f}':>8}")
    return "\n".join(lines)


def count_for(text: str) -> tuple[str, int]:
    """SCENARIO=N (a scenario id, or a box id for all its scenarios)."""
    key, sep, n = text.rpartition("=")
    if not sep or not key or not n.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give SCENARIO=N, e.g. hearts/1=100 or hearts=100")
    return key, int(n)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Win rates of every bot on every box, resumable.")
    p.add_argument("--out", required=True, type=Path, help="the JSONL file of finished batches")
    p.add_argument("--resume", action="store_true", help="go on from the games --out already holds")
    p.add_argument("--no-play", action="store_true", help="play nothing: summarise --out")
    p.add_argument("--games", type=int, default=2000, help="games per row (2000)")
    p.add_argument("--ismcts-games", type=int, default=200, help="games per ISMCTS row (200)")
    p.add_argument("--games-for", type=count_for, action="append", default=[], metavar="SCENARIO=N",
                   help="games per row of this scenario, or of every scenario of this box (repeatable)")
    p.add_argument("--ismcts-games-for", type=count_for, action="append", default=[], metavar="SCENARIO=N",
                   help="games per ISMCTS row of this scenario or box (repeatable; default: "
                        + ", ".join(f"{k}={n}" for k, n in ISMCTS_GAMES_FOR.items()) + ")")
    p.add_argument("--also", type=Path, action="append", default=[], metavar="FILE",
                   help="read more results from this JSONL file (repeatable): its rows are shown, not played again")
    p.add_argument("--forget", type=lambda s: set(s.split(",")), default=set(), metavar="BOTS",
                   help="drop the rows where these bots play (under test or as opponents) from --out and every "
                        "--also file, on the --scenario ones if given, so they are played again (after a "
                        "change of their decisions)")
    p.add_argument("--batch", type=int, default=250, help="games per batch line (250)")
    p.add_argument("--ismcts-batch", type=int, default=20, help="games per batch line of an ISMCTS row (20)")
    p.add_argument("--bots", type=lambda s: s.split(","), default=list(BOTS), help="bots under test (comma-separated)")
    p.add_argument("--opponents", type=lambda s: s.split(","), default=list(OPPONENTS), help="opponent kinds")
    p.add_argument("--scenario", action="append", help="only this scenario (repeatable; default: one per box)")
    p.add_argument("--players", type=int, default=4, help="players where the scenario does not say (4)")
    p.add_argument("--campaign", action="store_true", help="campaign games instead of express ones (Happy DayZ)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="processes (the results do not depend on it)")
    p.add_argument("--markdown", type=Path, help="write the table into this file, between the markers")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="print A's win share minus B's, game by game")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args(argv)
    from happydayz.players.registry import BOTS as REGISTRY

    for name in [*args.bots, *args.opponents, *(args.compare or ()), *args.forget]:
        if name not in REGISTRY:
            p.error(f"unknown bot {name!r} (known: {', '.join(sorted(REGISTRY))})")
    if not args.no_play and args.out.exists() and args.out.stat().st_size and not args.resume:
        p.error(f"{args.out} holds games already: --resume to go on, or another --out")
    for path in [args.out, *args.also] if args.forget else ():
        if path.exists():
            print(f"{path}: {forget(path, args.forget, args.scenario)} batch lines of {', '.join(sorted(args.forget))} dropped",
                  file=sys.stderr)
    if not args.no_play:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        run(args, args.out, progress=lambda msg: print(msg, file=sys.stderr, flush=True))
    lines = read_lines(args.out) + [line for path in args.also for line in read_lines(path)]
    rows = summary(lines)
    if args.compare:
        result = [c for opp in args.opponents for c in compare(lines, *args.compare, opp)]
        if args.json:
            print(json.dumps(result, indent=2))
        for c in result:
            print(f"{c['scenario']}: {c['a']} - {c['b']} vs {c['opponents']}: {100 * c['difference']:+.2f} points "
                  f"(95% interval {100 * c['ci95'][0]:+.2f} to {100 * c['ci95'][1]:+.2f}), {c['games']} paired games")
        return 0
    print(json.dumps(rows, indent=2) if args.json else text_table(rows))
    if args.markdown:
        write_markdown(args.markdown, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
