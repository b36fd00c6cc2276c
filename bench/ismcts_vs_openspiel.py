"""Hearts: our ISMCTSAgent on our engine against three of OpenSpiel's C++ ISMCTS bots on OpenSpiel's "hearts".

The two engines are kept in lockstep by the classic-games harness (tests/conformance/hearts_lockstep.py):
hand i is dealt by OpenSpiel from seed first_seed + i and laid into the kernel (the pass direction too);
at every decision both engines must ask the same player for the same kind of move with the same cards;
the move chosen — by our bot from its own seat's observation (Game.observe), or by OpenSpiel's bot from
OpenSpiel's state — is applied to both (apply_both: a refusal is a mismatch), and at the end every player's
points must agree. Our bot sits in seat i mod 4. A hand's winner takes the fewest points; a tie shares the
win (1/k each).

The same wall time per decision: our bot thinks `--milliseconds` (250) per searched decision, and so does
OpenSpiel's (its ISMCTSBot's own max_wall_clock_time, checked between simulations): on a shared machine a
load that slows one side slows the other. `--calibrate` gives OpenSpiel's bot a simulation count instead,
measured here so that its mean decision takes as long (`--simulations N` to name one). Both sides' mean and
longest decision times are measured and printed (decisions with one legal move excluded: neither thinks).

OpenSpiel's hearts resamples a pass-phase state wrongly once the player who passes to the searcher has
passed (HeartsState::ResampleFromInfostate lays that player's real passed cards, which its resampled hand
need not hold, and the search then crashes). Its bot's pass decisions are therefore searched from the same
information with the seats turned so that the searcher is player 0 (the first to pass): the same hands,
the same pass direction, its own cards passed so far; nothing it cannot see is given to it.

One JSON line per hand is appended to --out (resumable: --resume plays the hands the file lacks).

    python bench/ismcts_vs_openspiel.py --hands 100
    python bench/ismcts_vs_openspiel.py --hands 100 --resume          # goes on where the file stops
    python bench/ismcts_vs_openspiel.py --hands 20 --ours random      # control: a random bot in our seat
    python bench/ismcts_vs_openspiel.py --hands 40 --ours greedy      # our rules of thumb alone in our seat
    python bench/ismcts_vs_openspiel.py --hands 50 --calibrate        # theirs: a calibrated simulation count
    python bench/ismcts_vs_openspiel.py --summary                     # the figures of the file
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "conformance"))
sys.path.insert(0, str(ROOT / "bench"))

import pyspiel  # noqa: E402

import hearts_lockstep as lockstep  # noqa: E402
from lockstep_report import apply_both  # noqa: E402
from strength_table import interval  # noqa: E402  (the mean of the shares and its 95% interval)

from happydayz.players.agents import RandomAgent  # noqa: E402
from happydayz.players.fast_greedy import FastGreedyAgent  # noqa: E402
from happydayz.players.ismcts import ISMCTSAgent  # noqa: E402

OUT = ROOT / "docs" / "bots" / "hearts-vs-openspiel.jsonl"
PLAYERS = 4
PASS_END = 53 + 12  # OpenSpiel's history: the direction, 52 dealt cards, then 12 passed ones (with a pass)
FINAL = {"max_visit_count": pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
         "normalized_visit_count": pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
         "max_value": pyspiel.ISMCTSFinalPolicyType.MAX_VALUE}


# ------------------------------------------------------------------ OpenSpiel's side
class Theirs:
    """OpenSpiel's ISMCTSBot (a RandomRolloutEvaluator's playouts) for one seat, or a uniform random one."""

    def __init__(self, kind: str, seed: int, simulations: int, uct_c: float, final: str, seconds: float):
        self.kind = kind
        self.rng = random.Random(seed)
        if kind == "ismcts":
            evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
            self.bot = pyspiel.ISMCTSBot(seed, evaluator, uct_c, simulations, -1, FINAL[final],
                                         False, False, seconds if seconds > 0 else -1.0)

    def decide(self, state, spiel_game) -> int:
        if self.kind == "random":
            return self.rng.choice(state.legal_actions())
        if len(state.history()) < PASS_END and state.history()[0] != 0:
            return self.bot.step(turned(state, spiel_game))
        return self.bot.step(state)


def turned(state, spiel_game):
    """The pass-phase state with the seats turned so that the player to pass is player 0 (see the docstring).

    The same deal (each seat's hand, turned), the same pass direction (a relative one: left, across, right),
    and the cards the player has passed so far; nobody else has passed yet, which is all the player knows.
    """
    history = [int(a) for a in state.history()]
    player = state.current_player()
    dealt = history[1:53]  # card k went to player k % 4
    out = spiel_game.new_initial_state()
    out.apply_action(history[0])
    for k in range(52):
        seat, j = k % PLAYERS, k // PLAYERS
        out.apply_action(dealt[j * PLAYERS + (seat + player) % PLAYERS])
    for card in history[53 + 3 * player:]:  # the passes are made player by player, three each
        out.apply_action(card)
    assert out.current_player() == 0 and sorted(out.legal_actions()) == sorted(state.legal_actions())
    return out


# ------------------------------------------------------------------ one hand
def our_agent(kind: str, seed: str, milliseconds: float, iterations: int | None, game, seat: int):
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":  # (the registry's greedy: what the search is anchored to)
        return FastGreedyAgent(seed).bind(game.setup, seat)
    budget = {"iterations": iterations} if iterations else {"milliseconds": milliseconds}
    return ISMCTSAgent(seed, **budget).bind(game.setup, seat)


def play_hand(index: int, args, kernel, spiel_game, simulations: int) -> dict:
    """Hand `index` in lockstep: our bot in seat index mod 4, OpenSpiel's in the others."""
    seed = args.seed + index
    me = index % PLAYERS
    state, game, direction = lockstep.deal(seed, kernel, spiel_game, random.Random(seed))
    ours = our_agent(args.ours, f"{seed}/ours", args.milliseconds, args.iterations, game, me)
    theirs = {p: Theirs(args.theirs, seed * 10 + p, simulations, args.uct_c, args.final, args.their_seconds)
              for p in range(PLAYERS) if p != me}
    times = {side: {kind: [0, 0.0, 0.0] for kind in ("pass", "play")} for side in ("ours", "theirs")}
    step = 0
    while not state.is_terminal():
        moves = lockstep.same_decision(state, game, direction, seed, step)
        player = state.current_player()
        kind = "pass" if len(state.history()) < (PASS_END if direction else 53) else "play"
        start = time.perf_counter()
        if player == me:
            index_of = ours.decide(game.observe(me), game.decision)  # its own seat's observation only
            card = next(c for c, i in moves.items() if i == index_of)
        else:
            card = theirs[player].decide(state, spiel_game)
        spent = time.perf_counter() - start
        if len(moves) > 1:  # (one legal move: nobody thinks)
            t = times["ours" if player == me else "theirs"][kind]
            t[0], t[1], t[2] = t[0] + 1, t[1] + spent, max(t[2], spent)
        apply_both(state, game, moves[card], card, seed, step)
        step += 1
    points = lockstep.same_points(state, game, seed)
    best = min(points)
    winners = [p for p in range(PLAYERS) if points[p] == best]
    return {"hand": index, "seed": seed, "seat": me, "direction": lockstep.DIRECTIONS[direction],
            "points": points, "share": 1 / len(winners) if me in winners else 0.0, "times": times,
            "decisions": step, "our_search": dict(getattr(ours, "stats", {}))}  # (ISMCTS: searches, iterations)


# ------------------------------------------------------------------ calibration
def calibrate(seconds: float, spiel_game, uct_c: float, final: str, hands: int = 2, probe: int = 1000) -> int:
    """The simulation count whose mean decision takes `seconds`: OpenSpiel's bots play `hands` hands among
    themselves at `probe` simulations (passes included), timed per simulation."""
    spent = decisions = 0
    for h in range(hands):
        rng = random.Random(10_000 + h)
        state = spiel_game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        bots = [Theirs("ismcts", 10_000 + 4 * h + p, probe, uct_c, final, -1.0) for p in range(PLAYERS)]
        while not state.is_terminal():
            if len(state.legal_actions()) == 1:
                state.apply_action(state.legal_actions()[0])
                continue
            start = time.perf_counter()
            action = bots[state.current_player()].decide(state, spiel_game)
            spent += time.perf_counter() - start
            decisions += 1
            state.apply_action(action)
    per_simulation = spent / (decisions * probe)
    count = max(1, round(seconds / per_simulation))
    print(f"calibration: {decisions} decisions at {probe} simulations, {1000 * spent / decisions:.1f} ms each "
          f"({1e6 * per_simulation:.1f} µs a simulation): {count} simulations for {seconds:.3f} s", flush=True)
    return count


# ------------------------------------------------------------------ the file
def config_of(args) -> dict:
    """What a line's hands were played with (the hands of one configuration are pooled in the summary)."""
    return {"ours": args.ours, "theirs": args.theirs, "calibrated": args.calibrate,
            "milliseconds": None if args.iterations else args.milliseconds, "iterations": args.iterations,
            "their_seconds": args.their_seconds if args.their_seconds > 0 else None,
            "uct_c": args.uct_c, "final": args.final, "first_seed": args.seed}


KEY = ("ours", "theirs", "calibrated", "milliseconds", "iterations", "their_seconds", "uct_c", "final", "first_seed")


def key_of(line: dict) -> tuple:
    return tuple(line.get(k) for k in KEY)


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def commit(out: Path) -> str:
    """HEAD's short hash, "+dirty" if a tracked file other than the results' file differs from it."""
    try:
        sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        where = out.resolve()
        spec = [".", f":(exclude){where.relative_to(ROOT)}"] if where.is_relative_to(ROOT) else ["."]
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", *spec],
                               capture_output=True, text=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def summary(lines: list[dict]) -> list[dict]:
    """One row per configuration: games, win rate and its 95% interval, mean points, decision times."""
    groups: dict[tuple, list[dict]] = {}
    for line in lines:
        groups.setdefault(key_of(line), []).append(line)
    rows = []
    for key, group in groups.items():
        shares = [g["share"] for g in group]
        mean, low, high = interval(shares)
        ours_points = [g["points"][g["seat"]] for g in group]
        their_points = [p for g in group for s, p in enumerate(g["points"]) if s != g["seat"]]
        timing = {}
        for side in ("ours", "theirs"):
            for kind in ("pass", "play"):
                n = sum(g["times"][side][kind][0] for g in group)
                total = sum(g["times"][side][kind][1] for g in group)
                longest = max(g["times"][side][kind][2] for g in group)
                timing[f"{side}_{kind}"] = {"decisions": n, "mean_ms": 1000 * total / n if n else None,
                                            "max_ms": 1000 * longest}
        searched = [g["our_search"] for g in group if g.get("our_search")]
        searches = sum(x["decisions"] for x in searched)
        iterations = sum(x["iterations"] for x in searched) / searches if searches else None
        rows.append({**dict(zip(KEY, key)), "games": len(group), "iterations_per_search": iterations, "win_rate": mean, "ci95": [low, high],
                     "fair_share": 1 / PLAYERS, "at_fair_share": low >= 1 / PLAYERS,
                     "mean_points": sum(ours_points) / len(ours_points),
                     "their_mean_points": sum(their_points) / len(their_points),
                     "simulations": sorted({g["simulations"] for g in group}),
                     "commits": sorted({g["commit"] for g in group}), "timing": timing})
    return rows


def show(rows: list[dict]) -> str:
    out = []
    for r in rows:
        ours = f"{r['ours']} ({r['milliseconds']} ms)" if r["ours"] == "ismcts" and r["milliseconds"] else (
            f"{r['ours']} ({r['iterations']} iterations)" if r["ours"] == "ismcts" else r["ours"])
        budget = f"{r['their_seconds']} s" if r["their_seconds"] else \
            f"{'/'.join(map(str, r['simulations']))} simulations"
        theirs = r["theirs"] if r["theirs"] == "random" else \
            f"OpenSpiel ISMCTS ({budget}, uct_c={r['uct_c']}, {r['final']})"
        low, high = max(r["ci95"][0], 0.0), min(r["ci95"][1], 1.0)
        verdict = "lower end at or above it" if r["at_fair_share"] else "lower end below it"
        out.append(f"{ours} vs 3 x {theirs}: {r['games']} hands, win rate {100 * r['win_rate']:.1f}% "
                   f"(95% interval {100 * low:.1f}–{100 * high:.1f}%; fair share 25%: {verdict}), "
                   f"mean points {r['mean_points']:.2f} (theirs {r['their_mean_points']:.2f}); "
                   f"commits {', '.join(r['commits'])}")
        if r["iterations_per_search"]:
            out.append(f"    our searches: {r['iterations_per_search']:.0f} iterations each on average")
        for name, t in r["timing"].items():
            if t["decisions"]:
                out.append(f"    {name}: {t['decisions']} decisions, mean {t['mean_ms']:.0f} ms, "
                           f"longest {t['max_ms']:.0f} ms")
    return "\n".join(out)


# ------------------------------------------------------------------ the command
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100, help="hands of this configuration in the file, in all")
    parser.add_argument("--seed", type=int, default=0, help="hand i is dealt from seed SEED + i")
    parser.add_argument("--ours", choices=("ismcts", "greedy", "random"), default="ismcts",
                        help="the bot in our seat (random: the negative control; greedy: the search's anchor alone)")
    parser.add_argument("--theirs", choices=("ismcts", "random"), default="ismcts")
    parser.add_argument("--milliseconds", type=float, default=250.0, help="our bot's time per searched decision")
    parser.add_argument("--iterations", type=int, default=None, help="our bot's iterations instead of a time")
    parser.add_argument("--simulations", type=int, default=None,
                        help="OpenSpiel's simulations per decision, in place of its wall-clock budget")
    parser.add_argument("--calibrate", action="store_true",
                        help="OpenSpiel's simulations per decision: as many as take --milliseconds on average")
    parser.add_argument("--uct-c", type=float, default=26.0,
                        help="OpenSpiel's UCT constant (its returns span 26 points: 26 less the points taken)")
    parser.add_argument("--final", choices=tuple(FINAL), default="max_visit_count")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--resume", action="store_true", help="play only the hands the file lacks")
    parser.add_argument("--summary", action="store_true", help="print the file's figures and stop")
    parser.add_argument("--json", action="store_true", help="the summary as JSON")
    args = parser.parse_args(argv)
    fixed = args.calibrate or args.simulations is not None or args.theirs == "random"
    args.their_seconds = 0.0 if fixed else args.milliseconds / 1000.0

    if args.summary:
        rows = summary(read_lines(args.out))
        print(json.dumps(rows, indent=1) if args.json else show(rows))
        return 0
    config = config_of(args)
    lines = read_lines(args.out)
    mine = [line for line in lines if key_of(line) == key_of(config)]
    if mine and not args.resume:
        print(f"{args.out} already holds {len(mine)} hands of this configuration: --resume to go on, "
              f"or another --out", file=sys.stderr)
        return 2
    done = {line["hand"] for line in mine}
    spiel_game = pyspiel.load_game("hearts", lockstep.spiel_settings(lockstep.DEFAULTS))
    kernel = lockstep.Kernel(lockstep.DEFAULTS)
    simulations = args.simulations
    if simulations is None:
        earlier = {line["simulations"] for line in mine}
        if earlier and args.calibrate:  # (resumed: the count the file's hands were played with)
            simulations = max(earlier)
            print(f"simulations: {simulations}, as in the file's {len(mine)} hands", flush=True)
        elif args.calibrate and args.theirs == "ismcts":
            simulations = calibrate(args.milliseconds / 1000.0, spiel_game, args.uct_c, args.final)
        else:
            simulations = 0  # (their wall-clock budget decides, or they play at random)
    sha = commit(args.out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(args.hands) if i not in done]
    started = time.perf_counter()
    for n, index in enumerate(todo, 1):
        line = {**config, **play_hand(index, args, kernel, spiel_game, simulations),
                "simulations": simulations, "commit": sha}
        with args.out.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"hand {index} (seat {line['seat']}): points {line['points']}, share {line['share']:.2f} "
              f"[{n}/{len(todo)}, {time.perf_counter() - started:.0f} s]", flush=True)
    rows = [r for r in summary(read_lines(args.out)) if key_of(r) == key_of(config)]
    print(show(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
