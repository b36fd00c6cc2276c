"""How simulation scales: games per core-second for each bot mix, and the speed-up of 2 local processes and of a
local Ray instance over 1 process, all measured in one run. Prints figures; asserts nothing.

    python bench/scaling.py                  # the figures of docs/performance.md, "Scaling"
    python bench/scaling.py --quick          # a tiny budget: checks the script, not the speed
    python bench/scaling.py --json           # the same, as JSON on stdout

Wall-clock time is what a user waits for, so it is measured with time.perf_counter around the
`simulate` command run in this process (its workers are processes of their own). A prediction
for a bigger machine multiplies games per core-second by the cores, times the parallel
efficiency measured here (2 processes on this machine); it is a prediction, not a measurement.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time

from happydayz.cli import main

SCENARIO = "woodstock-fever/1"
MIXES = {"random": "random", "greedy": "greedy", "ismcts": "ismcts,greedy,greedy,greedy"}


def wall(args: list[str]) -> float:
    """Seconds `happydayz simulate ARGS` takes, its output thrown away."""
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["simulate", "--scenario", SCENARIO, "--players", "4", "--seed", "1", *args])
    if code != 0:
        raise SystemExit(f"simulate {' '.join(args)} failed ({code})")
    return time.perf_counter() - start


def measure(quick: bool) -> dict:
    games = {"random": 40, "greedy": 12, "ismcts": 1} if quick else {"random": 800, "greedy": 120, "ismcts": 4}
    out: dict = {"scenario": SCENARIO, "players": 4, "cpus": os.cpu_count(), "mixes": {}}
    for name, bots in MIXES.items():
        n = games[name]
        one = wall(["--games", str(n), "--bots", bots, "--jobs", "1"])
        two = wall(["--games", str(n), "--bots", bots, "--jobs", "2"])
        out["mixes"][name] = {"games": n, "bots": bots, "games_per_core_second": n / one,
                              "one_process_s": one, "two_processes_s": two, "speedup_2_processes": one / two}
    n = games["random"]
    try:
        import ray  # noqa: F401  (optional: the [ray] extra)
    except ImportError:
        out["ray"] = None
    else:
        ray_s = wall(["--games", str(n), "--bots", "random", "--backend", "ray", "--jobs", "2"])
        out["ray"] = {"games": n, "seconds": ray_s, "speedup_vs_1_process": out["mixes"]["random"]["one_process_s"] / ray_s}
    efficiency = out["mixes"]["random"]["speedup_2_processes"] / 2
    out["prediction_64_cores_games_per_hour"] = {
        name: round(m["games_per_core_second"] * 64 * min(1.0, m["speedup_2_processes"] / 2) * 3600)
        for name, m in out["mixes"].items()}
    out["parallel_efficiency_2_processes"] = efficiency
    return out


def report(r: dict) -> str:
    lines = [f"{r['scenario']}, {r['players']} players, {r['cpus']} CPUs"]
    for name, m in r["mixes"].items():
        lines.append(f"  {name:7} {m['games_per_core_second']:9.2f} games/core-s   1 process {m['one_process_s']:6.2f} s, "
                     f"2 processes {m['two_processes_s']:6.2f} s  (x{m['speedup_2_processes']:.2f})   [{m['games']} games]")
    if r["ray"]:
        lines.append(f"  ray     2 workers {r['ray']['seconds']:6.2f} s  (x{r['ray']['speedup_vs_1_process']:.2f} over 1 process)")
    lines.append("  predicted on 64 cores (games/hour): " + ", ".join(
        f"{k} {v:,}" for k, v in r["prediction_64_cores_games_per_hour"].items()))
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tiny budget: checks the script, not the speed")
    parser.add_argument("--json", action="store_true", help="print JSON only, on stdout")
    a = parser.parse_args()
    result = measure(a.quick)
    print(json.dumps(result, indent=2) if a.json else report(result))
    sys.exit(0)
