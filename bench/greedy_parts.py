#!/usr/bin/env python3
"""Where a greedy decision's time goes: its set-up (reading the observation, the estimate) and its scoring.

    python bench/greedy_parts.py                       # greedy and greedy-reference, 300 decisions per box
    python bench/greedy_parts.py --bots greedy --decisions 100

The decisions are bench/bots.py's (every third lead or follow with a choice of
random express games, --seed 1), 300 per scenario by default. For each bot,
over 3 repeats (the fastest kept): the observation's keys that the bots read,
made key by key as play_game hands them (`obs`); the bot's estimate of the
decision, the observation included (`estimate`); the scoring of the options
on that estimate (`scoring`); the whole decision (`decision`). In floor tricks
(bench/bench.py's bare trick loop, timed after them), CPU time.

The `greedy` bot scores leads and follows by players/lean_play.py where its
tables hold (every bundled Happy DayZ box): there `obs` is the keys it reads
(lean_play.read), `estimate` its decision facts with them (lean_play.prepare),
`scoring` the options scored on those (lean_play.score_options). `--general`
measures its general scoring instead (FastEstimate and FastGreedyAgent's
_play_scores, the `greedy` bot before lean_play), as `greedy-general`.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import time_floor  # noqa: E402
from bots import SCENARIOS, decisions  # noqa: E402

KEYS = ("seat", "players", "hand#ids", "transfer#ids", "encounter#ids", "expedition_face_up#ids",
        "expedition_known#ids", "trick", "hand_sizes", "voids", "factions")


def parts(bot: str, positions: list, repeats: int) -> dict:
    from happydayz.players import lean_play
    from happydayz.players.agents import Observation, seat_view
    from happydayz.players.fast_greedy import hook_table
    from happydayz.players.greedy import _readable
    from happydayz.players.registry import BOTS

    general = bot == "greedy-general"  # the greedy bot's general scoring, its lean path off
    if general:
        bot = "greedy"
        real_statics = lean_play.statics
        lean_play.statics = lambda *a: _Off()
    try:
        return _parts(bot, positions, repeats, lean_play, Observation, seat_view, hook_table, _readable, BOTS,
                      general)
    finally:
        if general:
            lean_play.statics = real_statics


class _Off:
    ok = False  # (lean_play's tables said not to hold: the general scoring answers)


def _parts(bot, positions, repeats, lean_play, Observation, seat_view, hook_table, _readable, BOTS, general):
    clock = time.process_time
    view = lambda g, d: Observation(partial(g.observe, d.actor), seat_view(g, d.actor))  # noqa: E731
    for game, d in positions[:20]:  # warm up: the models, the hook tables
        BOTS[bot](1).bind(game.setup, d.actor).decide(view(game, d), d)
    best: dict = {}
    for _ in range(repeats):
        spent = dict.fromkeys(("obs", "estimate", "scoring", "decision"), 0.0)
        for k, (game, d) in enumerate(positions):
            agent = BOTS[bot](k).bind(game.setup, d.actor)
            obs = _readable(view(game, d))
            lean = bot == "greedy" and not general and lean_play.statics(agent.model, obs, d.actor, hook_table).ok
            start = clock()
            if lean:
                lean_play.read(lean_play.statics(agent.model, obs, d.actor, hook_table), obs)
            else:
                for key in KEYS:
                    obs._part(key)
            spent["obs"] += clock() - start
            obs = _readable(view(game, d))
            if lean:
                statics = lean_play.statics(agent.model, obs, d.actor, hook_table)
                start = clock()
                ctx = lean_play.prepare(statics, obs)
                spent["estimate"] += clock() - start
                start = clock()
                lean_play.score_options(ctx, d.options, d.kind == "lead")
                spent["scoring"] += clock() - start
            else:
                start = clock()
                est = agent._estimate(obs)
                spent["estimate"] += clock() - start
                start = clock()
                agent._play_scores(est, d, d.kind == "lead")
                spent["scoring"] += clock() - start
            agent = BOTS[bot](k).bind(game.setup, d.actor)
            start = clock()
            agent.decide(view(game, d), d)
            spent["decision"] += clock() - start
        best = {key: min(value, best.get(key, value)) for key, value in spent.items()}
    seconds, tricks = time_floor(300, 3)
    floor = seconds / tricks
    return {key: round(value / len(positions) / floor, 1) for key, value in best.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="A greedy decision's set-up and scoring, in floor tricks.")
    p.add_argument("--bots", type=lambda s: s.split(","), default=["greedy", "greedy-reference"],
                   help="bots of the registry, or greedy-general (the greedy bot's general scoring)")
    p.add_argument("--general", action="store_true", help="also greedy-general")
    p.add_argument("--decisions", type=int, default=300)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.general and "greedy-general" not in args.bots:
        args.bots.insert(1, "greedy-general")
    print(f"{'scenario':<20} {'bot':<17} {'obs':>6} {'estimate':>9} {'scoring':>8} {'decision':>9}  (floor tricks)")
    for scenario in SCENARIOS:
        positions = decisions(scenario, args.decisions, args.seed)
        for bot in args.bots:
            r = parts(bot, positions, args.repeats)
            print(f"{scenario:<20} {bot:<17} {r['obs']:>6} {r['estimate']:>9} {r['scoring']:>8} {r['decision']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
