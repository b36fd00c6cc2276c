#!/usr/bin/env python3
"""A small variant sweep with the optional per-game fields, in the sweep's JSON Lines format.

    python docs/balance/variants_sweep.py OUT.jsonl [--scenario ID] [--players N] [--games N] [--seed S] [--jobs N]
                                                    [--express] [--no-faction-change]

For the scenario as published, and for each of its Factions played with each
of its other power variants (one change at a time), plays --games campaign
games between random bots and writes one line per game:

    {"cell": {...}, "game", "seed", "rounds", "final_populations", "winners",
     "factions": [[Faction, variant], ...], "bots": [...], "first_leader": seat, "powers": {...}}

"first_leader" and "powers" come from happydayz.simulation.records.game_extras(game), so
`happydayz report OUT.jsonl` can draw every plot. Game i of a cell is seeded
game_seed(seed, i) as in `happydayz simulate`, so the cell of the unchanged
scenario plays the very games `simulate --seed S` plays. The same arguments
always write the same file.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from happydayz.data.environment import Environment
from happydayz.data.model import FactionChoice
from happydayz.kernel.game import Game
from happydayz.kernel.setup import build_setup, prepare
from happydayz.language.ast import VARIANTS
from happydayz.players.agents import play_game
from happydayz.players.registry import make_bots
from happydayz.simulation.records import game_extras
from happydayz.simulation.simulate import game_seed


def cells(scenario_id: str) -> list[dict[str, str]]:
    """{} (the scenario as published), then one {Faction: variant} change at a time."""
    _, scenario = prepare(Environment(), scenario_id)
    out: list[dict[str, str]] = [{}]
    for choice in scenario.factions:
        for variant in VARIANTS:
            if variant != choice.variant:
                out.append({choice.faction: variant})
    return out


def play_cell(args: tuple) -> list[str]:
    scenario_id, players, games, seed, change, express, faction_change = args
    env = Environment()
    base, scenario = prepare(env, scenario_id, players=players, express=express, faction_change=faction_change)
    if change:
        scenario = replace(scenario, factions=tuple(FactionChoice(c.faction, change.get(c.faction, c.variant))
                                                    for c in scenario.factions))
    setup = build_setup(scenario, env.library, base.options, env)
    factions = [[c.faction, c.variant] for c in scenario.factions]
    lines = []
    for index in range(games):
        seed_i = game_seed(seed, index)
        game = Game(setup, seed_i)
        bots = ["random"] * players
        result = play_game(game, make_bots(bots, seed_i))
        cell = {"scenario": scenario_id, "players": players, "variants": change}
        if express:
            cell["express"] = True
        if not faction_change:
            cell["faction_change"] = False
        record = {"cell": cell, "game": index,
                  **result, "factions": factions, "bots": bots, **game_extras(game)}
        lines.append(json.dumps(record, separators=(",", ":")))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--scenario", default="woodstock-fever/2")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300, help="games per cell (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--express", action="store_true", help="one round instead of the campaign")
    parser.add_argument("--no-faction-change", action="store_true",
                        help="no Faction change between rounds, so every game keeps the variants it started with")
    args = parser.parse_args()
    work = [(args.scenario, args.players, args.games, args.seed, change, args.express, not args.no_faction_change)
            for change in cells(args.scenario)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, open(args.out, "w", encoding="utf-8") as out:
        for lines in pool.map(play_cell, work):  # in cell order, whatever finishes first
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
