#!/usr/bin/env python3
"""What the on-win powers cost a playout: playout ÷ floor with them and with them switched off, in turn.

    python bench/win_hooks_share.py            # 9 turns of each, alternately (about 15 s)
    python bench/win_hooks_share.py --json

A diagnostic for docs/performance.md ("Where the time goes"), not a way to play:
without its on-win hooks a game is another game (no card moves after a trick).
The playouts and the floor are bench.py's; each turn times a batch of express
rounds of both first-game scenarios and a batch of floor rounds, and reports
their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from contextlib import contextmanager

sys.path.insert(0, __file__.rsplit("/", 1)[0])  # bench.py, beside this file

import bench  # noqa: E402

from happydayz.kernel.game import Game  # noqa: E402


def ratio(kernels, games: int, seed: int) -> float:
    seconds = tricks = 0
    for setup in kernels:
        s, t = bench.time_playouts(setup, games, seed)
        seconds += s
        tricks += t
    f_seconds, f_tricks = bench.time_floor(games * 2, seed)
    return (seconds / tricks) / (f_seconds / f_tricks)


@contextmanager
def without_win_hooks(kernels):
    """Inside, no on-win hook is found (nor remembered) for games of these set-ups; after, all is as before."""
    find_hook = Game._win_hook
    tables = [Game(setup, 0, record=False)._in_force.win_hooks for setup in kernels]
    saved = [dict(table) for table in tables]
    Game._win_hook = lambda self, led: None
    for table in tables:
        table.clear()
    try:
        yield
    finally:
        Game._win_hook = find_hook
        for table, kept in zip(tables, saved):
            table.clear()
            table.update(kept)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Playout ÷ floor with and without the on-win powers, in turn.")
    p.add_argument("--turns", type=int, default=9)
    p.add_argument("--games", type=int, default=600, help="express rounds per scenario and turn")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    kernels = [setup for setup, *_ in bench.setups().values()]
    for setup in kernels:  # warm up
        bench.time_playouts(setup, 5, 1)
    with_hooks, without = [], []
    for turn in range(args.turns):
        seed = 1000 * turn + 1
        with_hooks.append(ratio(kernels, args.games, seed))
        with without_win_hooks(kernels):
            without.append(ratio(kernels, args.games, seed))
    result = {"with_win_hooks": [round(r, 2) for r in with_hooks], "without_win_hooks": [round(r, 2) for r in without],
              "median_with": round(statistics.median(with_hooks), 2),
              "median_without": round(statistics.median(without), 2)}
    print(json.dumps(result, indent=2) if args.json else
          f"playout / floor: with the on-win powers {result['median_with']:.2f} ({result['with_win_hooks']}), "
          f"without {result['median_without']:.2f} ({result['without_win_hooks']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
