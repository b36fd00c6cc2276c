#!/usr/bin/env python3
"""Machine instructions per trick, counted by Valgrind: a speed figure no machine load changes.

    python bench/instructions.py            # playout and floor, about half a minute
    python bench/instructions.py --json     # the same as JSON on stdout
    python bench/instructions.py --games 5  # fewer games (default 20 per scenario)
    python bench/instructions.py --no-fast-tricks   # the kernel's own trick loop (kernel.fastpath off)

bench.py times the playouts against the floor in CPU seconds, which a shared
machine makes noisy (its repeats spread over a third of their median). This
script runs the same random playouts (bench.time_playouts) and the same floor
(bench.time_floor) under `valgrind --tool=callgrind` and counts the
instructions executed inside them only: the count is the same on every run,
so a change to the kernel can be measured to the percent. It is a proxy, not
the target: the interpreter runs the floor's few instructions faster (fewer
cache and branch misses), so the time ratio is larger than this one.

Each side runs in its own process: the loading runs uninstrumented, then the
child turns instrumentation on (callgrind_control) and callgrind collects only
inside functools.reduce, which wraps the measured games and nothing else.
Needs valgrind (callgrind_control comes with it).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(what: str, games: int, fast_tricks: bool) -> None:
    """Run under callgrind: measure `what` and print the tricks played."""
    sys.path.insert(0, str(HERE))
    import bench
    from happydayz.kernel import fastpath

    fastpath.ENABLED = fast_tricks

    setups = [setup for setup, *_ in bench.setups().values()]
    for setup in setups:
        bench.time_playouts(setup, 2, 99)  # fill the lazily built tables before counting
    bench.time_floor(5, 99)
    gc.collect()  # the one-off full collection after loading, before counting starts (not inside it)
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True, check=False)
    if what == "playout":
        tricks = functools.reduce(lambda n, setup: n + bench.time_playouts(setup, games, 1)[1], setups, 0)
    else:  # the floor plays 12 tricks a round, about as many as a playout
        tricks = functools.reduce(lambda n, _: n + bench.time_floor(games, 1)[1], setups, 0)
    print(f"tricks {tricks}", file=sys.stderr)


def count(what: str, games: int, fast_tricks: bool = True) -> float:
    """Instructions per trick of `what`, from a callgrind run of this script."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--instr-atstart=no",
               "--collect-atstart=no", "--toggle-collect=functools_reduce",
               sys.executable, __file__, "--child", what, "--games", str(games)]
    if not fast_tricks:
        command.append("--no-fast-tricks")
    out = subprocess.run(command, capture_output=True, text=True, check=False).stderr
    collected = re.search(r"Collected : (\d+)", out)
    tricks = re.search(r"tricks (\d+)", out)
    if not (collected and tricks) or not int(tricks.group(1)) or not int(collected.group(1)):
        # (no instruction collected: callgrind_control could not turn the instrumentation on)
        sys.exit(f"callgrind gave no count for the {what}:\n{out[-2000:]}")
    return int(collected.group(1)) / int(tricks.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="express games per scenario (default 20)")
    parser.add_argument("--json", action="store_true", help="JSON on stdout instead of a table")
    parser.add_argument("--no-fast-tricks", dest="fast_tricks", action="store_false",
                        help="play the tricks with the kernel's own loop, not the one generated per setup")
    parser.add_argument("--child", choices=("playout", "floor"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.games, args.fast_tricks)
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("valgrind is not installed: this script counts instructions with callgrind")
    playout, floor = count("playout", args.games, args.fast_tricks), count("floor", args.games)
    figures = {"playout_instructions_per_trick": round(playout), "floor_instructions_per_trick": round(floor),
               "instructions_ratio": round(playout / floor, 2), "games_per_scenario": args.games}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"  playout (kernel, no event log)  {playout / 1e3:8.1f}k instructions/trick")
    print(f"  floor (bare trick loop)         {floor / 1e3:8.1f}k instructions/trick")
    print(f"  playout / floor                 {playout / floor:8.2f} x   (instructions, not time)")


if __name__ == "__main__":
    main()
