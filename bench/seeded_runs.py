"""A fixed set of seeded simulations, each reduced to a SHA-256 of its `simulate --json` output and event log.

The rules promise that the same seed gives the same game, byte for byte. Before a
change to the kernel, record the set; after it, compare: a run whose digest moved
names its settings, so a change that was meant to keep the games shows where it did not.

    python bench/seeded_runs.py --out before.json          # record
    python bench/seeded_runs.py --compare before.json      # exit 1 and list the runs that changed
    python bench/seeded_runs.py --compare tests/golden/seeded_runs.json tests/golden/seeded_bot_runs.json
    python bench/seeded_runs.py --bots-only --out tests/golden/seeded_bot_runs.json   # re-record the bots' runs

The set covers every scenario of the Happy DayZ boxes at 2 to 5 players, express and campaign,
promos, random powers and a random set-up, with random, greedy and ISMCTS seats.
`tests/golden/seeded_runs.json` holds the rules' runs (every seat a random bot), recorded for
the kernel at the start of the "hand as data" work: they never change. The runs with greedy or
ISMCTS seats are in `tests/golden/seeded_bot_runs.json`: a bot may be changed on purpose to decide
better (issue 34), and then those runs are re-recorded with `--bots-only --out` in the same commit.
`tests/kernel/test_seeded_runs.py` compares against both.
The classic games' boxes (Hearts...) are not in it: they were not there when it was
recorded, and OpenSpiel checks them move by move (tests/conformance).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path


#: The boxes the set was recorded for (a box added since would shift every later scenario's seed).
SEEDED_BOXES = ("american-dream", "woodstock-fever")


def runs() -> list[dict]:
    """The settings of every run, in a fixed order (each with a unique name)."""
    from happydayz.data.environment import Environment

    found: list[dict] = []
    recorded = [s for s in Environment().library.scenarios() if s.box in SEEDED_BOXES]
    for index, scenario in enumerate(recorded):
        players = 2 + index % 4                      # 2, 3, 4, 5 in turn across the scenarios
        base = {"scenario": scenario.id, "players": players, "seed": 100 + index}
        found.append({**base, "games": 3, "express": True})
        found.append({**base, "games": 1, "express": False})
        found.append({**base, "games": 2, "express": True, "promos": True, "random_powers": True})
        if index % 3 == 0:
            found.append({**base, "games": 1, "express": True, "random_setup": True})
        if index % 6 == 0:
            found.append({**base, "games": 1, "express": True, "bots": "greedy"})
        if index % 9 == 0:
            found.append({**base, "games": 1, "express": True, "players": 3, "bots": "ismcts,random,greedy"})
    for run in found:
        run["name"] = ",".join(f"{k}={v}" for k, v in run.items())
    return found


def digest(run: dict) -> str:
    """The SHA-256 of a run's results JSON followed by its event log."""
    from happydayz.simulation.simulate import simulate, to_json

    settings = {k: v for k, v in run.items() if k not in ("scenario", "name")}
    log = io.StringIO()
    result = simulate(run["scenario"], log=log, **settings)
    return hashlib.sha256((to_json(result) + "\n" + log.getvalue()).encode("utf-8")).hexdigest()


def has_bots(run: dict) -> bool:
    """A run with a greedy or ISMCTS seat: its digest follows the bots' decisions, not only the rules."""
    return "bots" in run


def record(bots_only: bool = False) -> dict[str, str]:
    return {run["name"]: digest(run) for run in runs() if has_bots(run) or not bots_only}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", metavar="PATH", help="write the digests of every run as JSON")
    group.add_argument("--compare", metavar="PATH", nargs="+", help="compare the runs with the digests in these files")
    parser.add_argument("--bots-only", action="store_true", help="only the runs with a greedy or ISMCTS seat")
    args = parser.parse_args(argv)
    now = record(args.bots_only)
    if args.out:
        Path(args.out).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{len(now)} seeded runs recorded in {args.out}")
        return 0
    before: dict[str, str] = {}
    for path in args.compare:
        before.update(json.loads(Path(path).read_text(encoding="utf-8")))
    changed = sorted(name for name in before.keys() | now.keys() if before.get(name) != now.get(name))
    for name in changed:
        print(f"changed: {name}")
    print(f"{len(now)} seeded runs, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
