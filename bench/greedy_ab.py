#!/usr/bin/env python3
"""The greedy bot's lead and follow scoring, before and after a change, in one process: their ratio.

    python bench/greedy_ab.py --against HEAD            # the working tree against the last commit
    python bench/greedy_ab.py --before DIR --rounds 15  # against copies of lean_play.py and observation.py in DIR

On a shared machine two runs of bench/bots.py, one after the other, differ by a
quarter with the same code, so a change of a few percent cannot show there. This
script loads the two modules the `greedy` bot's leads and follows spend their
time in — players/lean_play.py (the scoring) and kernel/observation.py (the seat
view's makers) — as they were at --against (a git revision) or in --before (a
folder holding both files), beside the package's own, and answers
bench/bots.py's decisions (--decisions a box, --seed) with each in turn, for
--rounds rounds: whatever load the machine has falls on both alike. Each round
reads a fresh seat view and scores every option (lean_play.statics, then
lean_play.scores), CPU time; both must choose the same moves (the script
stops if they do not).

It prints, per box, the median of the rounds' after/before ratios with their
range, and the fastest round of each in microseconds a decision. A ratio below 1
is a saving. Only changes inside those two modules are compared: the rest of
the package is the working tree's for both.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import SCENARIOS, decisions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FILES = {"lean_play": "interpreter/players/lean_play.py", "observation": "interpreter/kernel/observation.py"}


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def before_modules(against: str | None, folder: str | None) -> tuple:
    """(lean_play, observation) as they were: from a git revision or from a folder of the two files."""
    if folder is not None:
        paths = {key: Path(folder) / Path(rel).name for key, rel in FILES.items()}
        missing = [str(p) for p in paths.values() if not p.is_file()]
        if missing:
            raise SystemExit(f"greedy_ab: --before {folder}: no {', '.join(missing)}")
    else:
        out = Path(tempfile.mkdtemp(prefix="greedy_ab-"))
        paths = {}
        for key, rel in FILES.items():
            shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{against}:{rel}"], capture_output=True, text=True)
            if shown.returncode:
                raise SystemExit(f"greedy_ab: git show {against}:{rel}: {shown.stderr.strip()}")
            paths[key] = out / Path(rel).name
            paths[key].write_text(shown.stdout)
    return _load("before_lean_play", paths["lean_play"]), _load("before_observation", paths["observation"])


def _view(observation, game, seat: int, made):
    """A seat view whose makers are those of `made` (an observation module), as players.agents.seat_view makes it:
    not `made.seat_view`, whose "not made alone" answer is its own sentinel, not the package's Observation's."""
    keys, ids = made.KEYS, made.CARD_IDS

    def part(key: str):
        maker = ids.get(key[:-4]) if key.endswith("#ids") else keys.get(key)
        return observation._WHOLE if maker is None else maker(game, seat)

    return observation.Observation(lambda: observation.observe(game, seat), part)


def answer_all(lean, made, positions: list, models: dict) -> tuple[float, list[int]]:
    """(CPU seconds, the moves): each decision scored by `lean` on a seat view of `made`'s makers."""
    from happydayz.kernel import observation
    from happydayz.players.fast_greedy import hook_table

    clock = time.process_time
    moves = []
    start = clock()
    for game, d in positions:
        view = _view(observation, game, d.actor, made)
        scores = lean.scores(lean.statics(models[id(game.setup)], view, d.actor, hook_table), view, d.options,
                             d.kind == "lead")
        moves.append(scores.index(max(scores)))
    return clock() - start, moves


def compare(before: tuple, count: int, rounds: int, seed: int) -> dict:
    from happydayz.kernel import observation
    from happydayz.players import lean_play
    from happydayz.players.greedy import power_model

    sides = {"before": before, "after": (lean_play, observation)}
    result = {}
    for sid in SCENARIOS:
        positions = decisions(sid, count, seed)
        models = {id(g.setup): power_model(g.setup) for g, _ in positions}
        for lean, made in sides.values():  # warm up: the per-process tables of each
            answer_all(lean, made, positions, models)
        ratios, best = [], {"before": float("inf"), "after": float("inf")}
        for _ in range(rounds):
            gc.disable()
            try:
                spent = {name: answer_all(*side, positions, models) for name, side in sides.items()}
            finally:
                gc.enable()
            if spent["before"][1] != spent["after"][1]:
                raise SystemExit(f"greedy_ab: {sid}: the two versions chose different moves")
            ratios.append(spent["after"][0] / spent["before"][0])
            for name in best:
                best[name] = min(best[name], spent[name][0] / len(positions))
        result[sid] = {"ratio_median": round(statistics.median(ratios), 3), "ratio_range": [round(min(ratios), 3),
                       round(max(ratios), 3)], "before_us": round(best["before"] * 1e6, 1),
                       "after_us": round(best["after"] * 1e6, 1), "decisions": len(positions), "rounds": rounds}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--against", help="a git revision: its lean_play.py and observation.py are 'before'")
    where.add_argument("--before", help="a folder holding lean_play.py and observation.py of 'before'")
    parser.add_argument("--decisions", type=int, default=300, help="decisions a box (300)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds, each version once a round (15)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.rounds < 1:
        parser.error("--decisions and --rounds must be at least 1")
    result = compare(before_modules(args.against, args.before), args.decisions, args.rounds, args.seed)
    for sid, r in result.items():
        print(f"{sid:20} after/before {r['ratio_median']:.3f} (rounds {r['ratio_range'][0]:.3f}-"
              f"{r['ratio_range'][1]:.3f}); fastest round: before {r['before_us']} us, after {r['after_us']} us a "
              f"decision ({r['decisions']} decisions, {r['rounds']} rounds, the same moves)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
