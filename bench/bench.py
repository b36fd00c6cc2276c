#!/usr/bin/env python3
"""Benchmark of the happydayz kernel, in one run.

    python bench/bench.py            # a table, about a minute
    python bench/bench.py --json     # machine-readable JSON only, on stdout
    python bench/bench.py --quick    # a tiny budget (seconds): checks the script, not the speed
    python bench/bench.py --profile  # also the top functions of a cProfile of the playouts (stderr)
    python bench/bench.py --calls    # only Python function calls per trick: a count no machine load changes
    python bench/bench.py --no-codegen          # the same with the powers run as the compiler's closures
    python bench/bench.py --no-fast-tricks      # the same with the kernel's own trick loop (kernel.fastpath off)
    python bench/bench.py --compare-codegen     # only the playouts, generated code and closures in turn
    python bench/bench.py --no-openspiel        # without OpenSpiel's hearts beside the floor

(bench/instructions.py counts the same playouts' machine instructions under Valgrind.)

It measures:

- playout: random playouts of express rounds (one round, 4 players) of the two
  first-game scenarios, woodstock-fever/1 and american-dream/1, played with
  Game.play and every decision answered by the randrange of one random.Random
  (the kernel alone, no bot; the floor also has one generator), in
  microseconds per trick: without an event log (Game(..., record=False), as search playouts run),
  the headline figure; and with the event log (the default, as `simulate` plays);
- the simulate path: the same games as `simulate` plays them (random bots,
  and the record `simulate --json` keeps, per-power statistics included), and
  its ratio to the logged playout (`simulate_kernel_ratio`; target <= 1.5);
- greedy bots: a game between greedy bots over the same game between random
  bots, both on the simulate path, the same scenarios and seeds
  (`greedy_random_ratio`): what a look-ahead bot costs per game;
- what that target leaves a greedy decision: the random game in floor tricks,
  times (3 - 1), over the decisions with a choice of a greedy game
  (`greedy_decision_budget_floor_tricks`; bench/bots.py prints what one costs);
- floor: a bare pure-Python trick loop of the same shape (4 players, 12 cards
  each dealt from a 62-card deck of suits with values, must follow, highest of
  the suit led wins, random legal card with random.Random), microseconds per
  trick;
- their ratio, measured in each repeat and reported as the median
  (`playout_floor_ratio`; target <= 3);
- beside the floor, when open-spiel is installed (the `[rl]` extra): OpenSpiel's
  hearts (4 players, its default rules, 13 tricks a deal, the deal and the pass
  included as our playout includes the deal and the Transfer), random legal
  actions, driven two ways: by a Python loop over pyspiel's state
  (`openspiel_python_floor_ratio`; issue 19's goal is a playout faster than it,
  `playout_openspiel_python_ratio` < 1) and by OpenSpiel's own C++ loop,
  pyspiel.evaluate_bots with uniform random bots (`openspiel_cpp_floor_ratio`);
- loading every bundled power (parse, check, compile) in-process with every
  cache cleared, in milliseconds: cold (the Lark parser built too) and with the
  parser already built (target <= 100 ms for cold);
- the cost of a state copy, `game.copy()`, in the middle of an express round, in
  microseconds.

Timings are CPU time of this process (time.process_time), not wall time: on a
shared machine another process's load then stretches neither side, and
what is left of the noise is shared, since the playout and the floor take
turns in short slices within each repeat. Each figure is the median of
several repeats.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time

SCENARIOS = ("woodstock-fever/1", "american-dream/1")
PLAYERS = 4
# The targets of issue 19 ("balance answers in seconds"); `meets` in the JSON says which are met.
TARGET_RATIO = 3.0
TARGET_SIMULATE_RATIO = 1.5  # the simulate path's cost per trick over the kernel's logged playout
TARGET_GREEDY_RATIO = 3.0  # a game between greedy bots over the same game between random bots
TARGET_LOAD_MS = 100.0


# ------------------------------------------------------------------- the floor

def floor_deck() -> list[tuple[int, int]]:
    """62 cards: three suits of 13 (values 1-13), a suit of 20 (1-20), three cards of value 0."""
    deck = [(suit, value) for suit in range(3) for value in range(1, 14)]
    deck += [(3, value) for value in range(1, 21)]
    deck += [(4, 0)] * 3
    assert len(deck) == 62
    return deck


def floor_round(rng: random.Random, deck: list[tuple[int, int]], players: int = PLAYERS, hand_size: int = 12) -> int:
    """One round of the bare trick loop; the number of tricks played."""
    cards = deck[:]
    rng.shuffle(cards)
    hands = [cards[i * hand_size:(i + 1) * hand_size] for i in range(players)]
    leader = 0
    tricks = 0
    while hands[leader]:
        led = None
        best = -1
        winner = leader
        for step in range(players):
            seat = (leader + step) % players
            hand = hands[seat]
            if led is None:
                legal = hand
            else:
                legal = [c for c in hand if c[0] == led] or hand
            card = legal[rng.randrange(len(legal))]
            hand.remove(card)
            if led is None:
                led, best, winner = card[0], card[1], seat
            elif card[0] == led and card[1] > best:
                best, winner = card[1], seat
        leader = winner
        tricks += 1
    return tricks


clock = time.process_time  # CPU seconds of this process: see the module's docstring

HEARTS_TRICKS = 13  # a deal of OpenSpiel's hearts: 52 cards, 4 players


def openspiel_hearts():
    """OpenSpiel's hearts, or None when open-spiel is not installed (it comes with the [rl] extra)."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("hearts")


def time_openspiel_python(game, deals: int, seed: int) -> tuple[float, int]:
    """(seconds, tricks): `deals` deals of hearts played by a Python loop, random legal actions.

    Chance nodes (the pass direction, each card dealt) are sampled uniformly from the outcomes
    listed: hearts gives them equal probabilities (checked in `openspiel_check`).
    """
    randrange = random.Random(seed).randrange
    start = clock()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[randrange(len(legal))]
            state.apply_action(action)
    return clock() - start, deals * HEARTS_TRICKS


def time_openspiel_cpp(game, deals: int, seed: int) -> tuple[float, int]:
    """(seconds, tricks): `deals` deals of hearts played by OpenSpiel's C++ loop (evaluate_bots), random bots."""
    import pyspiel

    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in range(game.num_players())]
    start = clock()
    for i in range(deals):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return clock() - start, deals * HEARTS_TRICKS


def openspiel_check(game) -> None:
    """The Python loop's uniform sampling is right for hearts: every chance node's outcomes are equally likely."""
    state = game.new_initial_state()
    while state.is_chance_node():
        probabilities = {p for _, p in state.chance_outcomes()}
        assert max(probabilities) - min(probabilities) < 1e-9, "hearts' chance outcomes are not uniform"
        state.apply_action(state.chance_outcomes()[0][0])


def time_floor(rounds: int, seed: int) -> tuple[float, int]:
    """(seconds, tricks) for `rounds` rounds of the floor loop."""
    deck = floor_deck()
    rng = random.Random(seed)
    tricks = 0
    start = clock()
    for _ in range(rounds):
        tricks += floor_round(rng, deck)
    return clock() - start, tricks


# ----------------------------------------------------------------- the kernel

def setups(codegen: bool = True):
    """{scenario: (setup, simulate's worker, simulate's job with random bots, the same with greedy bots)}.

    `codegen`: the powers run as generated Python code (the default), else as the compiler's closures.
    """
    from happydayz.data.environment import Environment
    from happydayz.kernel.setup import prepare
    from happydayz.simulation.parallel import Worker
    from happydayz.simulation.simulate import job_for

    env = Environment(codegen=codegen)
    out = {}
    for sid in SCENARIOS:
        setup, scenario = prepare(env, sid, players=PLAYERS, express=True)
        job = job_for(setup, scenario, ["random"] * PLAYERS, None, env)
        greedy = job_for(setup, scenario, ["greedy"] * PLAYERS, None, env)
        out[sid] = (setup, Worker(env, {job: setup, greedy: setup}), job, greedy)
    return out


def _tricks(game) -> int:
    return game.tricks_played  # an express game is one round: its tricks are the game's


def time_playouts(setup, games: int, seed: int, record: bool = False) -> tuple[float, int]:
    """(seconds, tricks): `games` express rounds, every decision answered by random.Random."""
    from happydayz.kernel.game import Game

    elapsed = 0.0
    tricks = 0
    randrange = random.Random(seed).randrange  # one RNG for every game's answers, as the floor has
    for i in range(games):
        start = clock()
        game = Game(setup, seed + i, record=record)
        game.play(lambda decision: randrange(len(decision.options)))
        elapsed += clock() - start
        tricks += _tricks(game)  # counting is not timed
    return elapsed, tricks


def time_simulate_path(worker, job, games: int, seed: int) -> tuple[float, int]:
    """(seconds, tricks): `games` games as `simulate` plays them: random bots, the record simulate --json keeps."""
    elapsed = 0.0
    tricks = 0
    for i in range(games):
        start = clock()
        game = worker.play(job, seed + i)
        worker.record(game, i)
        elapsed += clock() - start
        tricks += _tricks(game)
    return elapsed, tricks


def greedy_choices(setup, games: int, seed: int) -> float:
    """Decisions with more than one option that greedy bots answer in a game, on average (untimed)."""
    from happydayz.kernel.game import Game
    from happydayz.players.agents import play_game
    from happydayz.players.greedy import GreedyAgent

    class Counting(GreedyAgent):
        choices = 0

        def decide(self, observation, decision):
            self.choices += len(decision.options) > 1
            return super().decide(observation, decision)

    total = 0
    for i in range(games):
        agents = [Counting(f"{seed + i}/{seat}") for seat in range(PLAYERS)]
        play_game(Game(setup, seed + i, record=False), agents)
        total += sum(agent.choices for agent in agents)
    return total / games


def time_copy(setup, copies: int, seed: int = 7) -> float:
    """Median microseconds of game.copy() half-way through an express round."""
    from happydayz.kernel.game import Game

    game = Game(setup, seed)
    rng = random.Random(seed)
    probe = game.copy()
    decisions = 0
    while probe.decision is not None:  # count the round's decisions on a copy
        probe.apply(rng.randrange(len(probe.decision.options)))
        decisions += 1
    rng = random.Random(seed)
    for _ in range(decisions // 2):
        game.apply(rng.randrange(len(game.decision.options)))
    samples = []
    for _ in range(copies):
        start = clock()
        game.copy()
        samples.append(clock() - start)
    return statistics.median(samples) * 1e6


# ------------------------------------------------------------- loading powers

def _clear_caches() -> None:
    from happydayz.language import parser

    for name in dir(parser):
        cached = getattr(parser, name)
        if callable(getattr(cached, "cache_clear", None)):
            cached.cache_clear()


def time_load_powers(build_parser: bool, codegen: bool = True) -> tuple[float, int]:
    """(milliseconds, powers): parse, check and compile every bundled power (and generate its code), caches cleared."""
    from happydayz.language import parser
    from happydayz.data.boxes import load_library
    from happydayz.language.loader import load_power  # no cache: the Environment keeps compiled powers
    from happydayz.base.resources import data_dir

    files = sorted(data_dir("powers").glob("*.power"))
    known = set(load_library().all_factions())
    _clear_caches()
    if not build_parser:
        parser.lark_parser()  # built before the clock starts
    start = clock()
    for path in files:
        load_power(path, known, codegen)
    elapsed = clock() - start
    return elapsed * 1e3, len(files)


# ----------------------------------------------------------------------- main

def fast_tricks_on() -> bool:
    """Whether Game.play (without an event log) runs the trick loop generated per setup (kernel.fastpath)."""
    from happydayz.kernel import fastpath

    return fastpath.ENABLED


def measure(quick: bool = False, seed: int = 1, codegen: bool = True, openspiel: bool = True) -> dict:
    if quick:
        repeats, slices, games, floor_rounds, sim_games, greedy_games, copies, load_repeats, deals = \
            2, 1, 3, 30, 2, 1, 20, 1, 2
    else:  # (a greedy game costs tens of random ones: fewer of them)
        repeats, slices, games, floor_rounds, sim_games, greedy_games, copies, load_repeats, deals = \
            7, 5, 40, 1500, 20, 10, 300, 5, 60
    hearts = openspiel_hearts() if openspiel else None
    if hearts is not None:
        openspiel_check(hearts)

    all_setups = setups(codegen)
    kernels = {sid: setup for sid, (setup, *_) in all_setups.items()}
    # Warm up: imports, first-call costs, the CPU's clock.
    time_floor(20, seed)
    if hearts is not None:
        time_openspiel_python(hearts, 2, seed)
        time_openspiel_cpp(hearts, 2, seed)
    for sid, (setup, worker, job, greedy) in all_setups.items():
        time_playouts(setup, 2, seed)
        time_simulate_path(worker, job, 2, seed)
        time_simulate_path(worker, greedy, 1, seed)
    # Loading left thousands of young objects (parser, powers) for the collector: one full
    # collection now keeps that one-off pause out of the timed repeats.
    gc.collect()

    ratios, floor_us, playout_us, simulate_us, simulate_ratios = [], [], [], [], []
    logged_us, logged_ratios, greedy_ratios, random_game_floor = [], [], [], []
    hearts_py_us, hearts_cpp_us, hearts_py_ratios, hearts_cpp_ratios, beside_hearts = [], [], [], [], []
    per_scenario: dict[str, list[float]] = {sid: [] for sid in SCENARIOS}
    tricks_seen = {sid: 0 for sid in SCENARIOS}
    share = games // slices  # each slice plays the next `share` games of the repeat, seed after seed
    sim_share = max(1, sim_games // slices)
    greedy_share = max(1, greedy_games // slices)
    for r in range(repeats):
        # The floor and the playouts take turns in short slices (a twentieth of a second or
        # so), so that a change in the machine's speed during a repeat (another process, the
        # CPU's clock) falls on both sides of the ratio rather than on one. So do the logged
        # playouts and the simulate path, whose ratio is the other headline.
        f_seconds = f_tricks = p_seconds = p_tricks = l_seconds = l_tricks = s_seconds = s_tricks = 0
        g_seconds = r_seconds = 0.0  # greedy bots, and random bots on the same games
        hp_seconds = hc_seconds = 0.0  # OpenSpiel's hearts: the Python loop and the C++ loop
        hp_tricks = hc_tricks = 0
        scenario_seconds = {sid: 0.0 for sid in SCENARIOS}
        scenario_tricks = {sid: 0 for sid in SCENARIOS}
        for j in range(slices):
            s, t = time_floor(floor_rounds // slices, (seed + r) * slices + j)
            f_seconds += s
            f_tricks += t
            if hearts is not None:
                s, t = time_openspiel_python(hearts, max(1, deals // slices), (seed + r) * slices + j)
                hp_seconds += s
                hp_tricks += t
                s, t = time_openspiel_cpp(hearts, max(1, deals // slices), (seed + r) * slices + j)
                hc_seconds += s
                hc_tricks += t
            base = seed * 100_000 + r * 1000 + j * share
            for sid, setup in kernels.items():
                s, t = time_playouts(setup, share, base)
                scenario_seconds[sid] += s
                scenario_tricks[sid] += t
                p_seconds += s
                p_tricks += t
            for sid, (setup, worker, job, greedy) in all_setups.items():
                s, t = time_playouts(setup, sim_share, base, record=True)
                l_seconds += s
                l_tricks += t
                s, t = time_simulate_path(worker, job, sim_share, base)
                s_seconds += s
                s_tricks += t
                g_seconds += time_simulate_path(worker, greedy, greedy_share, base)[0]
                r_seconds += time_simulate_path(worker, job, greedy_share, base)[0]
        for sid in SCENARIOS:
            per_scenario[sid].append(scenario_seconds[sid] / scenario_tricks[sid] * 1e6)
            tricks_seen[sid] += scenario_tricks[sid]
        f = f_seconds / f_tricks * 1e6
        p = p_seconds / p_tricks * 1e6
        lg = l_seconds / l_tricks * 1e6
        sim = s_seconds / s_tricks * 1e6
        floor_us.append(f)
        playout_us.append(p)
        logged_us.append(lg)
        simulate_us.append(sim)
        ratios.append(p / f)
        logged_ratios.append(lg / f)
        simulate_ratios.append(sim / lg)
        greedy_ratios.append(g_seconds / r_seconds)  # as many games on each side: per game
        random_game_floor.append(r_seconds / (greedy_share * slices * len(SCENARIOS)) / (f / 1e6))
        if hearts is not None:
            hearts_py_us.append(hp_seconds / hp_tricks * 1e6)
            hearts_cpp_us.append(hc_seconds / hc_tricks * 1e6)
            hearts_py_ratios.append(hearts_py_us[-1] / f)
            hearts_cpp_ratios.append(hearts_cpp_us[-1] / f)
            beside_hearts.append(p / hearts_py_us[-1])

    cold = [time_load_powers(True, codegen) for _ in range(load_repeats)]
    warm = [time_load_powers(False, codegen) for _ in range(load_repeats)]
    copy_us = statistics.median(time_copy(setup, copies) for setup in kernels.values())
    choices = statistics.mean(greedy_choices(setup, greedy_games, seed) for setup in kernels.values())

    median = statistics.median
    result = {
        "machine": {"python": platform.python_version(), "implementation": platform.python_implementation(),
                    "platform": platform.platform(), "cpus": os.cpu_count()},
        "budget": {"quick": quick, "repeats": repeats, "slices": slices, "games_per_scenario": games,
                   "floor_rounds": floor_rounds, "simulate_games_per_scenario": sim_games,
                   "greedy_games_per_scenario": greedy_share * slices},
        "codegen": codegen,  # the powers ran as generated code (else as the compiler's closures)
        "fast_tricks": fast_tricks_on(),  # the tricks ran in the loop generated per setup (kernel.fastpath)
        "playout_us_per_trick": round(median(playout_us), 2),
        "playout_us_per_trick_by_scenario": {sid: round(median(v), 2) for sid, v in per_scenario.items()},
        "tricks_per_round": {sid: round(tricks_seen[sid] / (repeats * games), 2) for sid in SCENARIOS},
        "logged_playout_us_per_trick": round(median(logged_us), 2),
        "simulate_us_per_trick": round(median(simulate_us), 2),
        "floor_us_per_trick": round(median(floor_us), 3),
        # the first key with "ratio" in its name is the headline: keep it first
        "playout_floor_ratio": round(median(ratios), 2),
        "simulate_kernel_ratio": round(median(simulate_ratios), 2),
        "logged_playout_floor_ratio": round(median(logged_ratios), 2),
        "greedy_random_ratio": round(median(greedy_ratios), 1),
        "playout_floor_ratio_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "simulate_kernel_ratio_range": [round(min(simulate_ratios), 2), round(max(simulate_ratios), 2)],
        "greedy_random_ratio_range": [round(min(greedy_ratios), 1), round(max(greedy_ratios), 1)],
        # What the greedy target leaves a greedy decision: a random game's cost, in floor tricks, times
        # (target - 1), shared among the decisions with a choice of a greedy game (bench/bots.py prints
        # what one costs, greedy_decision_floor_tricks)
        "random_game_floor_tricks": round(median(random_game_floor), 1),
        "greedy_choices_per_game": round(choices, 1),
        "greedy_decision_budget_floor_tricks": round(
            (TARGET_GREEDY_RATIO - 1) * median(random_game_floor) / choices, 2),
        "load_powers": cold[0][1],
        "load_powers_cold_ms": round(median(ms for ms, _ in cold), 1),
        "load_powers_warm_parser_ms": round(median(ms for ms, _ in warm), 1),
        "copy_us": round(copy_us, 1),
        # OpenSpiel's hearts beside the floor (None without open-spiel): the goal is a playout
        # faster than its Python-driven loop, playout_openspiel_python_ratio < 1
        "openspiel": None if hearts is None else {
            "game": "hearts", "deals": max(1, deals // slices) * slices * repeats,
            "python_loop_us_per_trick": round(median(hearts_py_us), 2),
            "cpp_loop_us_per_trick": round(median(hearts_cpp_us), 2)},
        "openspiel_python_floor_ratio": round(median(hearts_py_ratios), 2) if hearts is not None else None,
        "openspiel_cpp_floor_ratio": round(median(hearts_cpp_ratios), 2) if hearts is not None else None,
        "playout_openspiel_python_ratio": round(median(beside_hearts), 2) if hearts is not None else None,
        "targets": {"playout_floor_ratio": TARGET_RATIO, "simulate_kernel_ratio": TARGET_SIMULATE_RATIO,
                    "greedy_random_ratio": TARGET_GREEDY_RATIO, "load_powers_cold_ms": TARGET_LOAD_MS},
    }
    result["meets"] = {key: result[key] <= target for key, target in result["targets"].items()}
    return result


def profile_playouts(games: int, top: int, seed: int = 1, codegen: bool = True) -> str:
    """The top functions (by own time) of a cProfile of kernel playouts."""
    kernels = [setup for setup, *_ in setups(codegen).values()]
    profiler = cProfile.Profile()
    profiler.enable()
    for setup in kernels:
        time_playouts(setup, games, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def count_calls(games: int = 100, seed: int = 5, codegen: bool = True) -> dict:
    """Python function calls per trick under cProfile: the kernel (with and without the log) and the floor."""
    kernels = [setup for setup, *_ in setups(codegen).values()]
    out = {}
    for record in (False, True):
        profiler = cProfile.Profile()
        tricks = 0
        profiler.enable()
        for setup in kernels:
            tricks += time_playouts(setup, games, seed, record=record)[1]
        profiler.disable()
        out["logged_playout" if record else "playout"] = round(pstats.Stats(profiler).total_calls / tricks, 1)
    profiler = cProfile.Profile()
    profiler.enable()
    tricks = time_floor(games * 5, seed)[1]
    profiler.disable()
    out["floor"] = round(pstats.Stats(profiler).total_calls / tricks, 1)
    return out


def compare_codegen(quick: bool = False, seed: int = 1) -> dict:
    """The playouts (no event log) with the powers run as generated code and as the compiler's closures.

    Each repeat plays the same games both ways, in turn in short slices (which goes first
    alternates), so that the machine's load falls on both; the speed-up is closures ÷
    generated code, the median of the repeats (above 1: the generated code is faster).
    """
    repeats, slices, games, call_games = (2, 1, 3, 3) if quick else (15, 5, 200, 100)
    kernels = {codegen: [setup for setup, *_ in setups(codegen).values()] for codegen in (True, False)}
    for codegen, some in kernels.items():  # warm up
        for setup in some:
            time_playouts(setup, 2, seed)
    gc.collect()
    share = games // slices
    us: dict[bool, list[float]] = {True: [], False: []}
    speedups = []
    for r in range(repeats):
        seconds, tricks = {True: 0.0, False: 0.0}, {True: 0, False: 0}
        for j in range(slices):
            base = seed * 100_000 + r * 1000 + j * share
            for codegen in ((True, False) if (r + j) % 2 == 0 else (False, True)):
                for setup in kernels[codegen]:
                    s, t = time_playouts(setup, share, base)
                    seconds[codegen] += s
                    tricks[codegen] += t
        assert tricks[True] == tricks[False], "the two ways played different games"
        for codegen in us:
            us[codegen].append(seconds[codegen] / tricks[codegen] * 1e6)
        speedups.append(seconds[False] / seconds[True])
    median = statistics.median
    return {
        "generated_us_per_trick": round(median(us[True]), 2),
        "closures_us_per_trick": round(median(us[False]), 2),
        "codegen_speedup": round(median(speedups), 3),
        "codegen_speedup_range": [round(min(speedups), 3), round(max(speedups), 3)],
        "calls_per_trick": {"generated": count_calls(call_games, codegen=True)["playout"],
                            "closures": count_calls(call_games, codegen=False)["playout"]},
    }


def render(result: dict) -> str:
    lines = [
        f"happydayz benchmark (Python {result['machine']['python']}, {result['machine']['cpus']} CPUs"
        f"{', quick budget' if result['budget']['quick'] else ''})",
        "",
        f"  playout (kernel, no event log)     {result['playout_us_per_trick']:>10.1f} us/trick",
    ]
    for sid, value in result["playout_us_per_trick_by_scenario"].items():
        lines.append(f"    {sid:<32} {value:>10.1f} us/trick "
                     f"({result['tricks_per_round'][sid]:.1f} tricks a round)")
    lines += [
        f"  playout (kernel, event log)        {result['logged_playout_us_per_trick']:>10.1f} us/trick",
        f"  simulate path (random bots, record){result['simulate_us_per_trick']:>10.1f} us/trick",
        f"  floor (bare trick loop)            {result['floor_us_per_trick']:>10.2f} us/trick",
        f"  playout / floor                    {result['playout_floor_ratio']:>10.1f} x   "
        f"(target <= {TARGET_RATIO:g}; repeats {result['playout_floor_ratio_range'][0]:.1f}"
        f"-{result['playout_floor_ratio_range'][1]:.1f})",
        f"  logged playout / floor             {result['logged_playout_floor_ratio']:>10.1f} x",
        f"  simulate path / logged playout     {result['simulate_kernel_ratio']:>10.2f} x   "
        f"(target <= {TARGET_SIMULATE_RATIO:g}; repeats {result['simulate_kernel_ratio_range'][0]:.2f}"
        f"-{result['simulate_kernel_ratio_range'][1]:.2f})",
        f"  greedy / random bots, per game     {result['greedy_random_ratio']:>10.1f} x   "
        f"(target <= {TARGET_GREEDY_RATIO:g}; repeats {result['greedy_random_ratio_range'][0]:.1f}"
        f"-{result['greedy_random_ratio_range'][1]:.1f})",
    ]
    if result["openspiel"] is not None:
        lines += [
            f"  OpenSpiel hearts, Python loop      {result['openspiel']['python_loop_us_per_trick']:>10.1f} us/trick"
            f"   ({result['openspiel_python_floor_ratio']:.1f} x floor)",
            f"  OpenSpiel hearts, C++ loop         {result['openspiel']['cpp_loop_us_per_trick']:>10.2f} us/trick"
            f"   ({result['openspiel_cpp_floor_ratio']:.2f} x floor)",
            f"  playout / OpenSpiel Python loop    {result['playout_openspiel_python_ratio']:>10.2f} x   (goal < 1)",
        ]
    lines += [
        f"  a random game                      {result['random_game_floor_tricks']:>10.1f} floor tricks; "
        f"the target leaves {result['greedy_decision_budget_floor_tricks']:.1f} a greedy decision "
        f"({result['greedy_choices_per_game']:.1f} a game)",
        f"  load {result['load_powers']} powers, cold                {result['load_powers_cold_ms']:>10.1f} ms"
        f"   (target <= {TARGET_LOAD_MS:g})",
        f"  load {result['load_powers']} powers, parser built        {result['load_powers_warm_parser_ms']:>10.1f} ms",
        f"  game.copy() mid-round              {result['copy_us']:>10.1f} us",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the happydayz kernel against a bare trick loop.")
    parser.add_argument("--json", action="store_true", help="print JSON only, on stdout")
    parser.add_argument("--quick", action="store_true", help="a tiny budget: checks the script, not the speed")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of the playouts (top functions by own time) on stderr")
    parser.add_argument("--calls", action="store_true",
                        help="only count Python function calls per trick (cProfile), a figure no load changes")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games and the floor (default 1)")
    parser.add_argument("--no-codegen", dest="codegen", action="store_false",
                        help="run the powers as the compiler's closures, not as the code generated for them")
    parser.add_argument("--no-fast-tricks", dest="fast_tricks", action="store_false",
                        help="play the tricks with the kernel's own loop, not the one generated per setup "
                             "(kernel.fastpath)")
    parser.add_argument("--no-openspiel", dest="openspiel", action="store_false",
                        help="do not measure OpenSpiel's hearts beside the floor (skipped anyway without open-spiel)")
    parser.add_argument("--compare-codegen", action="store_true",
                        help="only the playouts, with generated code and with closures in turn: the speed-up")
    args = parser.parse_args(argv)
    if not args.fast_tricks:
        from happydayz.kernel import fastpath

        fastpath.ENABLED = False
    if args.compare_codegen:
        compared = compare_codegen(quick=args.quick, seed=args.seed)
        print(json.dumps(compared, indent=2) if args.json else "\n".join([
            f"  playout, generated code   {compared['generated_us_per_trick']:>8.2f} us/trick "
            f"({compared['calls_per_trick']['generated']} calls)",
            f"  playout, closures         {compared['closures_us_per_trick']:>8.2f} us/trick "
            f"({compared['calls_per_trick']['closures']} calls)",
            f"  closures / generated      {compared['codegen_speedup']:>8.3f} x   (repeats "
            f"{compared['codegen_speedup_range'][0]:.3f}-{compared['codegen_speedup_range'][1]:.3f})"]))
        return 0
    if args.calls:
        calls = count_calls(codegen=args.codegen)
        print(json.dumps(calls, indent=2) if args.json else
              "\n".join(f"  {name:<16} {value:>7.1f} calls/trick" for name, value in calls.items()))
        return 0
    result = measure(quick=args.quick, seed=args.seed, codegen=args.codegen, openspiel=args.openspiel)
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        print(render(result))
    if args.profile:
        print(profile_playouts(5 if args.quick else 60, 30, args.seed, args.codegen), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
