"""Simulating many games with bots: per-game results and a summary.

Everything is derived from one seed: game i is seeded from (seed, i), and the
bot at each seat from (game seed, seat), so the same arguments always give the
same output, byte for byte.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, TextIO

from .agents import make_bots, parse_bots, play_game
from .boxes import load_library, resolve_scenario
from .errors import UsageError
from .game import Game
from .model import Library, Scenario
from .savegame import open_text_output, write_log_jsonl
from .setup import GameOptions, GameSetup, build_setup

ProgressCallback = Callable[[int, int], None]  # (games done, games in all)


def default_scenario(library: Library | None = None) -> str:
    """The scenario used when none is named: scenario 1 of the last box by id.

    It is computed from the bundled box files rather than written here, so the
    code names no box.
    """
    library = library if library is not None else load_library()
    if not library.boxes:  # pragma: no cover - the bundled boxes always load
        raise UsageError("no box is loaded, so there is no default scenario: give --scenario")
    box = library.boxes[max(library.boxes)]
    ids = [s.id for s in box.scenarios]
    wanted = f"{box.id}/1"
    return wanted if wanted in ids else ids[0]


def scenario_reference(scenario: Scenario, library: Library | None = None) -> str:
    """How to name a scenario in a save file: its id if bundled, else the absolute path of its file."""
    library = library if library is not None else load_library()
    if scenario.id in {s.id for s in library.scenarios()}:
        return scenario.id
    if scenario.source is not None:
        return str(Path(scenario.source).resolve())
    return scenario.id


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation seeded `seed`."""
    return random.Random(f"{seed}/{index}").getrandbits(32)


def game_options(players: int, express: bool = False, promos: bool = False, random_powers: bool = False,
                 faction_change: bool = True) -> GameOptions:
    """GameOptions from the switches this module and the command line use."""
    return GameOptions(players=players, express=express, promos=promos, random_powers=random_powers,
                       faction_change=faction_change)


def options_record(options: GameOptions) -> dict:
    """The options as written in JSON output and save files."""
    return asdict(options)


def prepare(scenario_ref: str | os.PathLike | None, players: int | None = None, express: bool = False,
            promos: bool = False, random_powers: bool = False, faction_change: bool = True,
            library: Library | None = None) -> tuple[GameSetup, Scenario]:
    """The static setup of a game for a scenario id or scenario file path.

    `players` None means the scenario's own player count, or 4. `promos`: the
    promo cards replace the cards they stand in for. Raises HappyError (an
    unknown scenario, a bad file, a player count the box cannot deal for).
    """
    library = library if library is not None else load_library()
    if scenario_ref is None:
        scenario_ref = default_scenario(library)
    scenario, extended = resolve_scenario(scenario_ref, library)
    if players is None:
        players = scenario.players or 4
    # A scenario file may ask for the promo cards itself.
    options = game_options(players, express, promos or scenario.promos, random_powers, faction_change)
    return build_setup(scenario, extended, options), scenario


def simulate(scenario_ref: str | os.PathLike | None = None, players: int | None = 4, games: int = 1, seed: int = 0,
             express: bool = False, promos: bool = False, random_powers: bool = False,
             bots: str | list[str] | None = None, progress: ProgressCallback | None = None,
             log: str | os.PathLike | TextIO | None = None, library: Library | None = None) -> dict:
    """Play `games` games between bots; their results and a summary.

    `log` (a path, "-" for stdout, or an open text file) receives every event
    of every game as JSON Lines, each event with a "game" index.
    """
    if games < 0:
        raise UsageError(f"the number of games must be 0 or more, not {games}")
    library = library if library is not None else load_library()
    setup, scenario = prepare(scenario_ref, players, express, promos, random_powers, library=library)
    n = setup.n
    names = parse_bots(bots, n)

    records: list[dict[str, Any]] = []
    with open_text_output(log) as log_file:
        for index in range(games):
            seed_i = game_seed(seed, index)
            game = Game(setup, seed_i)
            result = play_game(game, make_bots(names, seed_i))
            records.append({"game": index, **result})
            if log_file is not None:
                write_log_jsonl(log_file, game, game_index=index)
            if progress is not None:
                progress(index + 1, games)
    return {"games": records, "summary": summarize(records, n, scenario, setup, seed, names)}


def summarize(records: list[dict], players: int, scenario: Scenario, setup: GameSetup, seed: int,
              bots: list[str]) -> dict:
    count = len(records)
    wins = [0] * players
    population_sum = [0] * players
    no_winner = 0
    shared = 0
    rounds = 0
    for record in records:
        for seat in record["winners"]:
            wins[seat] += 1
        if not record["winners"]:
            no_winner += 1
        elif len(record["winners"]) > 1:
            shared += 1
        for seat, population in enumerate(record["final_populations"]):
            population_sum[seat] += population
        rounds += record["rounds"]

    def rate(value: int) -> float | None:
        return round(value / count, 4) if count else None

    return {
        "scenario": scenario.id,
        "title": scenario.title,
        "players": players,
        "games": count,
        "seed": seed,
        "options": options_record(setup.options),
        "bots": list(bots),
        "wins": wins,
        "win_rate": [rate(w) for w in wins],
        "shared_wins": shared,
        "no_winner": no_winner,  # games where every Community ended at 0
        "no_winner_rate": rate(no_winner),
        "mean_final_population": [rate(p) for p in population_sum],
        "mean_rounds": rate(rounds),
    }


def to_json(result: dict) -> str:
    """The stable JSON text of a simulation (same result, same bytes)."""
    return json.dumps(result, indent=2, sort_keys=False) + "\n"


__all__ = ["default_scenario", "scenario_reference", "game_seed", "game_options", "prepare", "options_record", "simulate",
           "summarize", "to_json"]
