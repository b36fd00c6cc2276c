#!/usr/bin/env python3
"""How fast do the bots think? ISMCTS iterations per second and decisions per second.

    python bench/bots.py                      # a table (about a minute on an idle 2-core machine)
    python bench/bots.py --json               # the same figures as JSON, and nothing else, on stdout
    python bench/bots.py --quick              # a tiny budget: checks the script, not the speed
    python bench/bots.py --profile ismcts     # also a cProfile of the searches (top 30 by own time), on stderr
    python bench/bots.py --profile greedy     # … of the greedy bot's decisions (or: greedy-reference)

A fixed set of decisions: random express games of woodstock-fever/1 and
american-dream/1 (4 players, the games seeded from --seed), every third lead
or follow with a choice, up to --decisions per scenario. At each of them a
fresh ISMCTSAgent (seeded from --seed and the decision's number, the default
configuration, an --iterations budget: iterations, not milliseconds, so that
the work is the same on every machine) answers it, and so does a fresh bot of
each of GREEDY_BOTS (the registry's `greedy` and `greedy-reference`, in the same
run so that they can be compared); the observation is handed over as
`play_game` hands it (made key by key as the bot reads it, which is timed).

It prints, per scenario and over both: ISMCTS iterations per second (over the
decisions it searched), ISMCTS decisions per second, GreedyAgent decisions per
second, the cost of one determinization as a search makes it (--iterations of
them per decision), and a fingerprint of the moves chosen (the same fingerprint from two
versions of the code says they chose the same moves). Times are CPU time of
this process (time.process_time), the median of --repeats runs over the same
decisions. The figures are printed, never checked: compare two versions by
running this script against each, one after the other, on the same machine.

A busy machine slows everything down alike, so each repeat also times the
floor of bench/bench.py (a bare pure-Python trick loop) between the bots'
decisions, and the script prints what an ISMCTS iteration and a GreedyAgent
decision cost in floor tricks — for each greedy bot per scenario too, each
scenario's decisions against the floor timed around them: those figures move
far less with the machine's load than the rates do.

It also times the kernel's part of an iteration alone: from each decision,
--iterations times, a copy of the game (without its event log, as a search's
games have none) plays the round out with every decision answered at random
(`Game.play`): the moves an iteration must play to reach a reward, without
choosing them. In floor tricks beside the iteration's cost, it bounds how much
faster an iteration can get while its playouts still play the round out.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import io
import json
import platform
import pstats
import random
import statistics
import sys
import time

from bench import time_floor  # the floor: bench/bench.py's bare trick loop (this folder is on the path)

SCENARIOS = ("woodstock-fever/1", "american-dream/1")
PLAYERS = 4
FLOOR_ROUNDS = 300  # floor rounds timed beside each scenario's decisions, in each repeat
GREEDY_BOTS = ("greedy", "greedy-reference")  # the registry's cheap greedy bot and the one it replaced, side by side
clock = time.process_time  # CPU seconds of this process: another process's load does not count


def decisions(scenario: str, count: int, seed: int) -> list:
    """[(game at the decision, decision)]: every third lead or follow with a choice of random express games."""
    from happydayz.data.environment import Environment
    from happydayz.kernel.game import Game
    from happydayz.kernel.setup import prepare

    setup, _ = prepare(Environment(), scenario, players=PLAYERS, express=True)
    rng = random.Random(f"{seed}/{scenario}")
    out: list = []
    game_seed = seed
    while len(out) < count:
        game = Game(setup, game_seed)
        seen = 0
        while game.decision is not None and len(out) < count:
            d = game.decision
            if d.kind in ("lead", "follow") and len(d.options) > 1:
                seen += 1
                if seen % 3 == 0:
                    out.append((game.copy(), d))
            game.apply(rng.randrange(len(d.options)))
        game_seed += 1
    return out


def _observation(game, seat: int):
    """The observation as `play_game` hands it: made key by key as the bot reads it (seat_view)."""
    from functools import partial

    from happydayz.players.agents import Observation, seat_view

    return Observation(partial(game.observe, seat), seat_view(game, seat))


def run_ismcts(positions: list, iterations: int, seed: int) -> tuple[float, float, int, int, list]:
    """(seconds of all decisions, seconds of the searched ones, iterations, searched decisions, moves)."""
    from happydayz.players.ismcts import ISMCTSAgent

    total = searched_seconds = 0.0
    done = searched = 0
    moves = []
    for k, (game, d) in enumerate(positions):
        agent = ISMCTSAgent(seed=f"{seed}/{k}", iterations=iterations).bind(game.setup, d.actor)
        obs = _observation(game, d.actor)
        start = clock()
        moves.append(agent.decide(obs, d))
        elapsed = clock() - start
        total += elapsed
        if agent.stats["iterations"]:
            searched_seconds += elapsed
            done += agent.stats["iterations"]
            searched += 1
    return total, searched_seconds, done, searched, moves


def greedy_factory(name: str):
    """The registered bot `name`, built from a seed (a tree older than the registry's greedy-reference: GreedyAgent)."""
    try:
        from happydayz.players.registry import BOTS
    except ImportError:  # pragma: no cover - the code of before
        BOTS = {}
    if name in BOTS:
        return BOTS[name]
    from happydayz.players.greedy import GreedyAgent

    return GreedyAgent


def run_greedy(positions: list, seed: int, name: str = "greedy") -> tuple[float, list]:
    """(seconds, moves): a fresh bot `name` (greedy or greedy-reference) answers each decision."""
    factory = greedy_factory(name)
    total = 0.0
    moves = []
    for k, (game, d) in enumerate(positions):
        agent = factory(f"{seed}/{k}").bind(game.setup, d.actor)
        obs = _observation(game, d.actor)
        start = clock()
        moves.append(agent.decide(obs, d))
        total += clock() - start
    return total, moves


def run_samples(positions: list, samples: int, seed: int) -> float:
    """Seconds for `samples` determinizations of each decision's observation, as a search makes them.

    (With a tree older than determinize.Sampler, through sample_state: this script can measure the
    code of before too.)
    """
    from happydayz.kernel import determinize

    total = 0.0
    for k, (game, d) in enumerate(positions):
        rng = random.Random(f"{seed}/{k}/samples")
        observation = game.observe(d.actor)
        start = clock()
        if hasattr(determinize, "Sampler"):
            sampler = determinize.Sampler(game.setup, observation, decision=d, quiet=True)
            for _ in range(samples):
                sampler.sample(rng)
        else:  # pragma: no cover - the code of before
            for _ in range(samples):
                determinize.sample_state(game.setup, observation, rng, decision=d, quiet=True)
        total += clock() - start
    return total


def run_round_playouts(positions: list, playouts: int, seed: int) -> tuple[float, int]:
    """(seconds, playouts): from each decision, `playouts` copies of the game play the round out at random."""
    total = 0.0
    for k, (game, _) in enumerate(positions):
        randrange = random.Random(f"{seed}/{k}/playouts").randrange
        for _ in range(playouts):
            copy = game.copy()
            copy.record = False  # a search's games keep no event log
            start = clock()
            copy.play(lambda decision: randrange(len(decision.options)), round_only=True)
            total += clock() - start
    return total, playouts * len(positions)


def fingerprint(moves: list) -> str:
    return hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:12]


def measure(count: int, iterations: int, repeats: int, seed: int) -> dict:
    sets = {sid: decisions(sid, count, seed) for sid in SCENARIOS}
    run_ismcts(sets[SCENARIOS[0]][:1], 5, seed)  # warm up: imports, first-call caches
    gc.collect()
    result: dict = {
        "machine": {"python": platform.python_version(), "implementation": platform.python_implementation()},
        "budget": {"decisions_per_scenario": count, "iterations": iterations, "repeats": repeats, "seed": seed,
                   "players": PLAYERS},
        "scenarios": {},
    }
    overall = {"ismcts": [], "ismcts_decisions": [], "floor_us": [], "iteration_floor": [], "sample_us": [],
               "playout_floor": []}
    overall.update({f"{bot}{what}": [] for bot in GREEDY_BOTS for what in ("", "_floor")})
    per = {sid: {"ismcts": [], "ismcts_decisions": [], **{f"{bot}{what}": [] for bot in GREEDY_BOTS
                                                          for what in ("", "_floor")}} for sid in SCENARIOS}
    moves = {}
    floor_rounds = max(FLOOR_ROUNDS * count // 12, 10)
    for r in range(repeats):
        sums = [0.0, 0.0, 0, 0]  # all seconds, searched seconds, iterations, decisions
        greedy_seconds = dict.fromkeys(GREEDY_BOTS, 0.0)
        f_seconds = f_tricks = 0
        for j, (sid, positions) in enumerate(sets.items()):
            s1, t1 = time_floor(floor_rounds // 2, seed * 1000 + r * 10 + j)  # the floor, in turn with the bots
            total, searched_s, its, _, ismcts_moves = run_ismcts(positions, iterations, seed)
            moves[sid] = {"ismcts": fingerprint(ismcts_moves)}
            for bot in GREEDY_BOTS:
                g_total, greedy_moves = run_greedy(positions, seed, bot)
                greedy_seconds[bot] += g_total
                per[sid][bot].append(len(positions) / g_total if g_total else 0.0)
                per[sid][f"{bot}_floor"].append(g_total / len(positions))  # seconds; in floor tricks below
                moves[sid][bot] = fingerprint(greedy_moves)
            s2, t2 = time_floor(floor_rounds - floor_rounds // 2, seed * 1000 + r * 10 + j + 5)
            f_seconds, f_tricks = f_seconds + s1 + s2, f_tricks + t1 + t2
            for bot in GREEDY_BOTS:  # this scenario's decisions in the floor timed around them
                per[sid][f"{bot}_floor"][-1] /= (s1 + s2) / (t1 + t2)
            per[sid]["ismcts"].append(its / searched_s if searched_s else 0.0)
            per[sid]["ismcts_decisions"].append(len(positions) / total)
            for i, v in enumerate((total, searched_s, its, len(positions))):
                sums[i] += v
        floor = f_seconds / f_tricks  # seconds per floor trick
        samples = max(iterations, 1)
        seconds, playouts = map(sum, zip(*(run_round_playouts(positions, samples, seed) for positions in sets.values())))
        overall["playout_floor"].append(seconds / playouts / floor)
        overall["sample_us"].append(sum(run_samples(positions, samples, seed) for positions in sets.values())
                                    / (samples * sum(len(positions) for positions in sets.values())) * 1e6)
        overall["ismcts"].append(sums[2] / sums[1] if sums[1] else 0.0)
        overall["ismcts_decisions"].append(sums[3] / sums[0])
        overall["floor_us"].append(floor * 1e6)
        overall["iteration_floor"].append(sums[1] / sums[2] / floor if sums[2] else 0.0)
        for bot, g_seconds in greedy_seconds.items():
            overall[bot].append(sums[3] / g_seconds if g_seconds else 0.0)
            overall[f"{bot}_floor"].append(g_seconds / sums[3] / floor)
    median = statistics.median
    for sid in SCENARIOS:
        result["scenarios"][sid] = {
            "ismcts_iterations_per_second": round(median(per[sid]["ismcts"]), 1),
            "ismcts_decisions_per_second": round(median(per[sid]["ismcts_decisions"]), 2),
            "moves": moves[sid],
        }
        for bot in GREEDY_BOTS:  # e.g. greedy_decisions_per_second, greedy_reference_decision_floor_tricks
            stem = bot.replace("-", "_")
            result["scenarios"][sid][f"{stem}_decisions_per_second"] = round(median(per[sid][bot]), 1)
            result["scenarios"][sid][f"{stem}_decision_floor_tricks"] = round(median(per[sid][f"{bot}_floor"]), 1)
    result["ismcts_iterations_per_second"] = round(median(overall["ismcts"]), 1)
    result["ismcts_iterations_per_second_range"] = [round(min(overall["ismcts"]), 1), round(max(overall["ismcts"]), 1)]
    result["ismcts_decisions_per_second"] = round(median(overall["ismcts_decisions"]), 2)
    for bot in GREEDY_BOTS:
        result[f"{bot.replace('-', '_')}_decisions_per_second"] = round(median(overall[bot]), 1)
    result["floor_us_per_trick"] = round(median(overall["floor_us"]), 3)
    result["determinization_us"] = round(median(overall["sample_us"]), 1)  # one sampled state, as a search makes it
    # what an ISMCTS iteration and a GreedyAgent decision cost, in floor tricks (measured in each repeat)
    result["ismcts_iteration_floor_tricks"] = round(median(overall["iteration_floor"]), 1)
    for bot in GREEDY_BOTS:
        result[f"{bot.replace('-', '_')}_decision_floor_tricks"] = round(median(overall[f"{bot}_floor"]), 1)
    # the kernel's part of an iteration: the round played out at random from the decision, in floor tricks
    result["round_playout_floor_tricks"] = round(median(overall["playout_floor"]), 1)
    result["ismcts_kernel_share"] = round(median(p / i for p, i in zip(overall["playout_floor"],
                                                                        overall["iteration_floor"]) if i), 2)
    return result


def profile(bot: str, count: int, iterations: int, seed: int, top: int = 30) -> str:
    sets = [decisions(sid, count, seed) for sid in SCENARIOS]
    profiler = cProfile.Profile()
    profiler.enable()
    for positions in sets:
        if bot in GREEDY_BOTS:
            run_greedy(positions, seed, bot)
        else:
            run_ismcts(positions, iterations, seed)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def render(result: dict) -> str:
    b = result["budget"]
    lines = [f"bots benchmark (Python {result['machine']['python']}; {b['decisions_per_scenario']} decisions per "
             f"scenario, {b['players']} players, {b['iterations']} iterations, median of {b['repeats']}, "
             f"seed {b['seed']})", "",
             f"  {'':<22}{'ISMCTS it/s':>13}{'ISMCTS dec/s':>14}{'greedy dec/s':>14}{'reference dec/s':>17}"
             f"   moves (ismcts, greedy, greedy-reference)"]
    for sid, r in result["scenarios"].items():
        lines.append(f"  {sid:<22}{r['ismcts_iterations_per_second']:>13.1f}{r['ismcts_decisions_per_second']:>14.2f}"
                     f"{r['greedy_decisions_per_second']:>14.1f}{r['greedy_reference_decisions_per_second']:>17.1f}"
                     f"   {r['moves']['ismcts']} {r['moves']['greedy']} {r['moves']['greedy-reference']}")
    low, high = result["ismcts_iterations_per_second_range"]
    lines.append(f"  {'both':<22}{result['ismcts_iterations_per_second']:>13.1f}"
                 f"{result['ismcts_decisions_per_second']:>14.2f}{result['greedy_decisions_per_second']:>14.1f}"
                 f"{result['greedy_reference_decisions_per_second']:>17.1f}"
                 f"   (ISMCTS it/s over the repeats: {low:.1f}-{high:.1f})")
    lines += ["",
              f"  floor (bench.py's bare trick loop)  {result['floor_us_per_trick']:.2f} us/trick",
              f"  an ISMCTS iteration                 {result['ismcts_iteration_floor_tricks']:.1f} floor tricks",
              f"  the round played out at random      {result['round_playout_floor_tricks']:.1f} floor tricks "
              f"(the kernel's part of an iteration: {result['ismcts_kernel_share']:.0%})",
              *(f"  a {bot} decision{'':<{17 - len(bot)}}  {result['scenarios'][sid][bot.replace('-', '_') + '_decision_floor_tricks']:.1f}"
                f" floor tricks on {sid}" for bot in GREEDY_BOTS for sid in result["scenarios"]),
              f"  one determinization (in a search)   {result['determinization_us']:.1f} us"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="ISMCTS iterations per second and bot decisions per second.")
    parser.add_argument("--decisions", type=int, default=12, help="decisions per scenario (default 12)")
    parser.add_argument("--iterations", type=int, default=100, help="ISMCTS iterations per decision (default 100)")
    parser.add_argument("--repeats", type=int, default=3, help="runs over the same decisions; the median (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games and the bots (default 1)")
    parser.add_argument("--quick", action="store_true", help="2 decisions per scenario, 10 iterations, 1 repeat")
    parser.add_argument("--json", action="store_true", help="print JSON only, on stdout")
    parser.add_argument("--profile", choices=("ismcts", *GREEDY_BOTS),
                        help="also print a cProfile of that bot's decisions (top 30 by own time) on stderr")
    args = parser.parse_args(argv)
    if args.quick:
        args.decisions, args.iterations, args.repeats = 2, 10, 1
    result = measure(args.decisions, args.iterations, args.repeats, args.seed)
    print(json.dumps(result, indent=2) if args.json else render(result))
    if args.profile:
        print(profile(args.profile, args.decisions, args.iterations, args.seed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
