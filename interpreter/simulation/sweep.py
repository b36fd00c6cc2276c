"""Sweeps: a grid of simulations, one JSON Lines results file, resumable.

A sweep specification (YAML, validated against boxes/schema/sweep.schema.json)
names scenarios, player counts, power-variant overrides and bots; every
combination is a *cell*, and every cell plays the same number of games with the
same game seeds (game i is seeded from (seed, i), as `simulate --seed`), so
cells can be compared game by game.

Each finished game is one line of the results file:

    {"cell": {...}, "game": i, "seed": s, "rounds": r, "final_populations": [...],
     "winners": [...], "factions": [[Faction, variant], ...], "bots": [...],
     "first_leader": seat, "powers": {...}}

(first_leader and powers as report.game_extras gives them: what the balance
report's first-player and per-power sections read.)

With `resume`, the games already in the file are not played again (a cut last
line is dropped), so an interrupted sweep continues where it stopped and the
file ends with each (cell, game) exactly once. The results file is locked while
a sweep writes it: a second sweep on the same file is refused, and worker
processes never hold it open. A scenario file must lie in the specification's
folder (or below it): a specification from someone else reads nothing elsewhere.

Nothing here knows a Faction, a box or a bot by name: they all come from the
specification and the loaded boxes.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from jsonschema import Draft202012Validator

from happydayz.base.errors import DataProblem, Diagnostic, HappyError, Span, UsageError, suggest
from happydayz.base.files import FileLocked, append_lines, is_regular_file, load_json, lock_exclusive, read_bytes, within
from happydayz.base.resources import data_dir
from happydayz.base.safeyaml import Document, format_path, load_yaml
from happydayz.data.boxes import MAX_PLAYERS, scenario_hand
from happydayz.data.schemas import load_schema
from happydayz.data.boxes import _translate as _schema_diagnostics  # the box files' wording for schema errors
from happydayz.data.environment import Environment
from happydayz.kernel.setup import GameSetup, prepare
from happydayz.players.registry import BOTS
from happydayz.simulation import parallel
from happydayz.simulation.precision import parse_width, play_until
from happydayz.simulation.simulate import game_seed, job_for

# Diagnostic codes: the box files' own (docs/boxes.md), with the same meanings,
# so that a sweep adds no code of its own. The results file is a log the
# program wrote, so its problems take the codes of save files and logs.
D_UNKNOWN_SCENARIO = "D031"  # an unknown scenario id, a scenario file that does not exist
D_PLAYERS = "D032"  # a player count the box cannot deal for
D_UNKNOWN_FACTION = "D021"  # an override naming a Faction no scenario of the sweep has
D_NOT_ALLOWED = "D013"  # an unknown bot, an entry no cell uses, a cell that cannot be set up, too many cells
L_NOT_JSON = "L002"  # a results line that is not JSON
L_WRONG = "L004"  # a results line without the keys of a result, or with another seed

MAX_CELLS = 10_000
MAX_GAMES = 1_000_000  # games in one sweep (all cells): a results file of a few GB at most
L_LOCKED = "L006"  # the results file is being written by another sweep (it cannot be written)

ProgressCallback = Callable[[int, int], None]  # (games done, games to play)


@dataclass
class Cell:
    """One combination of the grid: its coordinates, and how to play its games."""

    number: int
    coords: dict  # {"scenario", "players", "variants", "bots", "options"}: written in every line
    job: parallel.GameJob
    factions: list[list[str]]  # the Factions in play at the start, with their variants
    setup: GameSetup | None = field(default=None, repr=False)  # built while checking the specification

    @property
    def key(self) -> str:
        return cell_key(self.coords)


@dataclass
class Sweep:
    source: str
    cells: list[Cell]
    games: int
    seed: int
    options: dict = field(default_factory=dict)
    env: Environment = field(default_factory=Environment, repr=False)  # where its scenarios and powers were found
    until_ci: float | None = None  # play each cell until its rates are within ±until_ci; `games` is then the cap

    @property
    def total(self) -> int:
        """The games of every cell (with until_ci: at most)."""
        return len(self.cells) * self.games


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep; `report` says how far it got (every finished game is in the file)."""

    def __init__(self, report: dict):
        super().__init__("interrupted")
        self.report = report


class SweepIncomplete(Exception):
    """A sweep that could not finish (see parallel.RunIncomplete); every finished game is in the file."""

    def __init__(self, report: dict, reason: str):
        super().__init__(reason)
        self.report = report
        self.reason = reason


def cell_key(coords: dict) -> str:
    """A cell's identity, the same whatever the order of its keys."""
    return json.dumps(coords, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------ the specification

def schema_path() -> Path:
    """The JSON Schema of sweep specifications."""
    return data_dir("boxes") / "schema" / "sweep.schema.json"


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(load_schema("sweep", MAX_PLAYERS))


def _schema_problems(doc: Document) -> list[Diagnostic]:
    found: dict[tuple, Diagnostic] = {}
    for error in _validator().iter_errors(doc.data):
        for key, diagnostic in _schema_diagnostics(doc, error):
            found.setdefault(key, diagnostic)
    return sorted(found.values(), key=lambda d: (d.span.line, d.span.column, d.message))


def _listed(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _hint(name: str, names: Iterable[str]) -> str:
    guess = suggest(name, [n for n in names if n != name])
    return f" (did you mean {guess!r}?)" if guess else ""


def load_sweep(path: str | os.PathLike, env: Environment | None = None) -> Sweep:
    """Read and check a sweep specification; DataProblem (with file:line:col) for every mistake."""
    doc = load_yaml(path)
    problems = _schema_problems(doc)
    if problems:
        raise DataProblem(problems)
    env = env if env is not None else Environment()
    library = env.library
    data = doc.data
    errors: list[Diagnostic] = []
    base = Path(path).resolve().parent

    games = data["games"]
    count, seed = (games, 0) if isinstance(games, int) else (games["count"], games.get("seed", 0))
    options = {"express": data.get("express", False), "promos": data.get("promos", False),
               "random_powers": data.get("random_powers", False), "faction_change": data.get("faction_change", True)}
    until_ci = None
    if "until_ci" in data:
        try:
            until_ci = parse_width(data["until_ci"])
        except ValueError as problem:
            errors.append(doc.diagnostic(("until_ci",), f"until_ci: {problem}", D_NOT_ALLOWED))

    # Scenarios: a bundled id, or a scenario file (relative to the specification's folder).
    ids = [s.id for s in library.scenarios()]
    scenarios = []  # (text as written, reference, Scenario, path in the spec)
    deals: dict[str, dict | None] = {}  # text as written -> the deal table its players are checked against
    where_scenarios = ("scenarios",) if isinstance(data["scenarios"], str) else None
    for index, text in enumerate(_listed(data["scenarios"])):
        here = where_scenarios or ("scenarios", index)
        if text in ids:
            reference = text
        else:
            file = Path(text) if Path(text).is_absolute() else base / text
            if not within(file, base):
                errors.append(doc.diagnostic(here, f"{format_path(here)}: the scenario file {text!r} is outside the "
                                                   f"specification's folder, so it is not read", D_UNKNOWN_SCENARIO,
                                             hint="keep the scenario files beside the specification, or below it"))
                continue
            if not file.is_file():
                if text.lower().endswith((".yaml", ".yml")):
                    errors.append(doc.diagnostic(here, f"{format_path(here)}: the scenario file {str(file)!r} "
                                                       f"does not exist", D_UNKNOWN_SCENARIO))
                else:
                    errors.append(doc.diagnostic(here, f"{format_path(here)}: unknown scenario {text!r}"
                                                       f"{_hint(text, ids)}", D_UNKNOWN_SCENARIO,
                                                 hint="a scenario id (see 'happydayz scenarios') or the path of "
                                                      "a scenario .yaml file"))
                continue
            reference = str(file)
        try:
            scenario, extended = env.resolve_scenario(reference)
        except HappyError as problem:  # a broken scenario file: its own positions
            errors.extend(problem.diagnostics)
            continue
        scenarios.append((text, reference, scenario, here))
        box = extended.boxes.get(scenario.box)
        # (a hand size of the scenario's, or the older hand_size house rule, deals for any count)
        deals[text] = None if box is None or scenario_hand(box.hand, scenario.house_rules, scenario.hand).hand_size \
            != "deal" else box.deal

    # Player counts.
    player_list = _listed(data["players"]) if "players" in data else None
    for text, _, scenario, _ in scenarios:
        deal = deals.get(text)
        for index, players in enumerate(player_list or ()):
            if deal is not None and players not in deal:
                here = ("players",) if isinstance(data["players"], int) else ("players", index)
                known = ", ".join(str(p) for p in sorted(deal))
                errors.append(doc.diagnostic(here, f"{format_path(here)}: the scenario {text} cannot be played "
                                                   f"by {players} players (its box deals for {known})", D_PLAYERS))

    # Bots: one name for every seat, or one per seat ("a,b,c" or a list).
    bot_entries = []  # (names, path in the spec)
    raw_bots = data.get("bots", "random")
    for index, entry in enumerate(_listed(raw_bots)):
        here = ("bots",) if isinstance(raw_bots, str) else ("bots", index)
        names = [n.strip() for n in entry.split(",")] if isinstance(entry, str) else list(entry)
        bad = False
        for seat, name in enumerate(names):
            if name not in BOTS:
                spot = here + (seat,) if isinstance(entry, list) else here
                errors.append(doc.diagnostic(spot, f"{format_path(spot)}: unknown bot {name!r}{_hint(name, BOTS)}",
                                             D_NOT_ALLOWED, hint="known bots: " + ", ".join(sorted(BOTS))))
                bad = True
        if not bad and (len(names) > MAX_PLAYERS or (len(names) < 2 and len(names) != 1)):
            errors.append(doc.diagnostic(here, f"{format_path(here)}: {len(names)} bots: give one name for every "
                                               f"seat, or one per seat (2 to {MAX_PLAYERS})", D_NOT_ALLOWED))
            bad = True
        bot_entries.append((None if bad else names, here))

    # Variant overrides: each Faction named must be in some scenario of the sweep.
    variant_entries = []  # (overrides, path in the spec)
    all_factions = sorted({c.faction for _, _, s, _ in scenarios for c in s.factions})
    for index, overrides in enumerate(data.get("variants", [{}])):
        here = ("variants", index)
        bad = False
        for faction in overrides:
            if scenarios and faction not in all_factions:
                errors.append(doc.diagnostic(here + (faction,), f"{format_path(here)}: no scenario of the sweep has "
                                                               f"the Faction {faction!r}{_hint(faction, all_factions)}",
                                             D_UNKNOWN_FACTION, key=True,
                                             hint="their Factions: " + ", ".join(all_factions)))
                bad = True
        variant_entries.append((None if bad else dict(overrides), here))

    if errors:
        raise DataProblem(sorted(errors, key=lambda d: (d.span.file != doc.file, d.span.line, d.span.column)))

    size = len(scenarios) * len(player_list or [None]) * len(variant_entries) * len(bot_entries)
    if size > MAX_CELLS:
        raise DataProblem(doc.diagnostic((), f"the grid has {size} cells; at most {MAX_CELLS} are allowed",
                                         D_NOT_ALLOWED))
    if size * count > MAX_GAMES:
        raise DataProblem(doc.diagnostic(("games",), f"the sweep has up to {size} cells of {count} games; at most "
                                                     f"{MAX_GAMES:,} games are allowed in one sweep", D_NOT_ALLOWED))

    # The grid, in the order scenarios x players x variants x bots.
    cells: list[Cell] = []
    used_variants: set[int] = set()
    used_bots: set[int] = set()
    seen: set[str] = set()
    for text, reference, scenario, here_scenario in scenarios:
        in_scenario = {c.faction for c in scenario.factions}
        for players in player_list or [scenario.players or 4]:
            for v_index, (overrides, here_variants) in enumerate(variant_entries):
                if not set(overrides) <= in_scenario:
                    continue
                try:
                    setup, prepared = prepare(env, reference, players, variants=overrides,
                                              **{k: options[k] for k in ("express", "promos", "random_powers",
                                                                         "faction_change")})
                except HappyError as problem:
                    spot = here_variants if overrides else here_scenario
                    for diagnostic in problem.diagnostics:
                        errors.append(doc.diagnostic(spot, f"{format_path(spot)}: {text}, {players} players: "
                                                           f"{diagnostic.message}", D_NOT_ALLOWED))
                    continue
                used_variants.add(v_index)
                for b_index, (names, _) in enumerate(bot_entries):
                    seats = names * players if len(names) == 1 else names
                    if len(seats) != players:
                        continue
                    used_bots.add(b_index)
                    coords = {"scenario": text, "players": players, "variants": overrides, "bots": seats,
                              "options": dict(options)}
                    if cell_key(coords) in seen:  # "random" and "[random, random, random]": one cell
                        continue
                    seen.add(cell_key(coords))
                    job = job_for(setup, prepared, seats, overrides, env)
                    cells.append(Cell(len(cells), coords, job, [[c.faction, c.variant] for c in prepared.factions],
                                      setup))
    for index, (_, here) in enumerate(variant_entries):
        if index not in used_variants and not any(d.span == doc.span(here) for d in errors):
            errors.append(doc.diagnostic(here, f"{format_path(here)}: no scenario of the sweep has all of these "
                                               f"Factions, so no game would use this entry", D_NOT_ALLOWED))
    for index, (names, here) in enumerate(bot_entries):
        if index not in used_bots and not errors:
            counts = sorted({c.coords["players"] for c in cells})
            errors.append(doc.diagnostic(here, f"{format_path(here)}: {len(names)} bots, but the sweep plays with "
                                               f"{', '.join(map(str, counts))} players, so no game would use this "
                                               f"entry", D_NOT_ALLOWED))
    if errors:
        unique = list(dict.fromkeys(errors))
        raise DataProblem(sorted(unique, key=lambda d: (d.span.line, d.span.column)))
    return Sweep(str(path), cells, count, seed, options, env, until_ci=until_ci)


# ------------------------------------------------------------------ the results file

def read_results(path: str | os.PathLike, sweep: Sweep, repair: bool = True) -> dict[tuple[str, int], dict]:
    """The games of the sweep already in a results file, by (cell key, game).

    A last line cut short (no newline, not JSON) is dropped from the file when
    `repair` (a line complete but for its newline gets one). A line that is not
    a result, or a game played with another seed, raises DataProblem.
    """
    name = str(path)
    if not os.path.lexists(path):
        return {}
    raw = read_bytes(path, "results", code="L001", error=DataProblem, what="results file")
    cells = {cell.key: cell for cell in sweep.cells}
    found: dict[tuple[str, int], dict] = {}
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    numbered = list(enumerate(lines, start=1))
    if tail:
        try:
            _record(tail, name, len(lines) + 1)
            complete = True
        except DataProblem:
            complete = False
        if repair:
            with open(path, "r+b") as handle:
                if complete:
                    handle.seek(0, os.SEEK_END)
                    handle.write(b"\n")
                else:
                    handle.truncate(len(raw) - len(tail))
        if complete:
            numbered.append((len(lines) + 1, tail))
    for number, line in numbered:
        if not line.strip():
            continue
        record = _record(line, name, number)
        key = (cell_key(record["cell"]), record["game"])
        if key[0] in cells and record["game"] < sweep.games and record["seed"] != game_seed(sweep.seed, key[1]):
            raise DataProblem(Diagnostic(
                Span(name, number, 1), f"game {record['game']} of this cell was played with the seed "
                                       f"{record['seed']}, but the sweep gives it {game_seed(sweep.seed, key[1])} "
                                       f"(another 'games: seed')", L_WRONG,
                hint="resume only with the specification that wrote the file, or write to another --out"))
        found.setdefault(key, record)
    return found


def _record(line: bytes, file: str, number: int) -> dict:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise DataProblem(Diagnostic(Span(file, number, 1), "not UTF-8 text", L_NOT_JSON)) from None
    record = load_json(text, file, code=L_NOT_JSON, error=DataProblem, what="results line", line_offset=number - 1)
    if not (isinstance(record, dict) and isinstance(record.get("cell"), dict) and type(record.get("game")) is int
            and type(record.get("seed")) is int and isinstance(record.get("winners"), list)
            and isinstance(record.get("final_populations"), list)):
        raise DataProblem(Diagnostic(Span(file, number, 1), "not a results line of a sweep (it needs 'cell', "
                                                           "'game', 'seed', 'winners' and 'final_populations')",
                                     L_WRONG))
    return record


def result_line(cell: Cell, record: dict) -> str:
    """One game's line of the results file."""
    line = {"cell": cell.coords, "game": record["game"], "seed": record["seed"], "rounds": record["rounds"],
            "final_populations": record["final_populations"], "winners": record["winners"],
            "factions": cell.factions, "bots": cell.coords["bots"]}
    for extra in ("first_leader", "powers", "teams", "team_score", "winning_teams"):  # what the balance report
        # reads, when the game recorded it (the teams: a game of a hand with teams)
        if extra in record:
            line[extra] = record[extra]
    return json.dumps(line) + "\n"


# ------------------------------------------------------------------ running

def run_sweep(spec: str | os.PathLike | Sweep, out: str | os.PathLike = "-", *, jobs: int = 1,
              backend: str = "local", address: str | None = None, resume: bool = False, overwrite: bool = False,
              progress: ProgressCallback | None = None, env: Environment | None = None,
              start_method: str | None = None) -> dict:
    """Play every game of the sweep not yet in `out` ("-": standard output) and write their lines.

    Lines are written in grid order (cell, then game) whatever `jobs` and
    `backend`; after Ctrl-C the games finished are written too, and
    SweepInterrupted is raised. Returns a report: cells, games, played, resumed.

    With the sweep's `until_ci`, each cell is played in rounds until its rates
    are known to ±until_ci, at most `games` games (see `precision`); the games
    already in the file count. The report then has "stopped": one record a cell.
    """
    if jobs < 1:
        raise UsageError(f"the number of jobs must be 1 or more, not {jobs}")
    parallel.check_backend(backend, address)
    stdout = str(out) == "-"
    if resume and stdout:
        raise UsageError("--resume continues a results file: give it with --out")
    if not stdout and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise UsageError(f"cannot write {out}: its folder does not exist")
    if not stdout and not resume and not overwrite and os.path.isfile(out) and os.path.getsize(out) > 0:
        raise UsageError(f"{out} already holds results: add --resume to continue it, or --force to start again")
    sweep = spec if isinstance(spec, Sweep) else load_sweep(spec, env)

    fd = None if stdout else _open_locked(out)
    try:
        done = read_results(out, sweep) if resume else {}
        if fd is not None and not resume:
            os.ftruncate(fd, 0)
        keys = {cell.key for cell in sweep.cells}
        resumed = sum(1 for key, game in done if key in keys and game < sweep.games)
        to_play = sweep.total - resumed
        report = {"out": str(out), "cells": len(sweep.cells), "games": sweep.total, "resumed": resumed, "played": 0,
                  "to_play": to_play}
        handle = sys.stdout if fd is None else os.fdopen(fd, "a", encoding="utf-8", closefd=False)

        def play(todo: Iterable[tuple[Cell, int]], count: int) -> None:
            _play(sweep, todo, count, done, report, handle, jobs, backend, address, progress, start_method,
                  () if fd is None else (fd,))

        try:
            if sweep.until_ci is None:
                play(((cell, index) for cell in sweep.cells for index in range(sweep.games)
                      if (cell.key, index) not in done), to_play)
            else:
                report["stopped"] = []
                for cell in sweep.cells:
                    report["stopped"].append({"cell": cell.coords, **_play_cell(cell, sweep, done, play)})
        finally:
            if fd is not None:
                handle.close()
    finally:
        if fd is not None:
            os.close(fd)  # and the lock with it
    return report


def _open_locked(out: str | os.PathLike) -> int:
    """The results file, opened for writing and locked; HappyError when another sweep holds it."""
    try:
        if os.path.lexists(out) and not is_regular_file(out):
            raise HappyError(Diagnostic(Span(str(out), 1, 1), "the results file must be a regular file (not a "
                                                              "folder, a device or a pipe)", L_LOCKED, quote=False))
        fd = os.open(out, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise HappyError(Diagnostic(Span(str(out), 1, 1), f"cannot write the results file: {exc.strerror or exc}",
                                    L_LOCKED, quote=False)) from None
    try:
        lock_exclusive(fd)
    except FileLocked:
        os.close(fd)
        raise HappyError(Diagnostic(Span(str(out), 1, 1), "another sweep is writing this results file; wait for it "
                                                          "to end, or write to another --out", L_LOCKED,
                                    quote=False)) from None
    return fd


def _play_cell(cell: Cell, sweep: Sweep, done: dict, play: Callable[[list, int], None]) -> dict:
    """Play a cell in rounds until its rates are within ±until_ci (or its cap); how it stopped."""
    def round_of(first: int, end: int) -> list[dict]:
        todo = [(cell, index) for index in range(first, end) if (cell.key, index) not in done]
        play(todo, len(todo))
        return [done[cell.key, index] for index in range(end) if (cell.key, index) in done]

    return play_until(sweep.until_ci, sweep.games, cell.coords["players"], round_of)


def _play(sweep: Sweep, todo: Iterable[tuple[Cell, int]], count: int, done: dict, report: dict, handle, jobs: int,
          backend: str, address: str | None, progress: ProgressCallback | None, start_method: str | None,
          private_fds: tuple[int, ...]) -> None:
    """Play the `count` games `todo` ((cell, game) in grid order), writing their lines to `handle` in that order.

    With until_ci, each game's record is added to `done`, where the stopping rule reads it.
    """
    to_play = report["to_play"]
    workers = jobs if backend == "local" else max(jobs, 2)
    size = parallel.batch_size(count, workers)

    position = {}  # (cell number, game) -> its place among the games to play; filled as batches are made

    def batches():
        for n, (cell, index) in enumerate(todo):
            position[(cell.number, index)] = n
            yield cell, index

    def cut():
        current: list = []
        current_cell = None
        for cell, index in batches():
            if current and (cell is not current_cell or len(current) >= size):
                yield parallel.Batch(current_cell.number, current_cell.job, tuple(current))
                current = []
            current_cell = cell
            current.append((index, game_seed(sweep.seed, index)))
        if current:
            yield parallel.Batch(current_cell.number, current_cell.job, tuple(current))

    pending: dict[int, str] = {}
    next_line = 0

    def write_ready(everything: bool = False) -> None:
        nonlocal next_line
        while next_line in pending:
            append_lines(handle, pending.pop(next_line))  # whole lines: a full disk leaves none cut
            next_line += 1
        if everything:
            for n in sorted(pending):
                append_lines(handle, pending.pop(n))
        handle.flush()

    def on_outcome(outcome: parallel.Outcome) -> None:
        number, index, record, _ = outcome
        with parallel.interrupts_held():  # a game counted is a game whose line is written
            pending[position.pop((number, index))] = result_line(sweep.cells[number], record)
            if sweep.until_ci is not None:  # (only then: a plain sweep keeps no record in memory)
                done[sweep.cells[number].key, index] = record
            report["played"] += 1
            write_ready()
        if progress is not None:
            progress(report["played"], to_play)

    try:
        worker = parallel.Worker(sweep.env, {cell.job: cell.setup for cell in sweep.cells if cell.setup})
        worker.close_fds = private_fds
        parallel.run(cut(), on_outcome, worker=worker, jobs=jobs, backend=backend, address=address,
                     start_method=start_method)
    except KeyboardInterrupt:
        write_ready(everything=True)
        raise SweepInterrupted({**report, "interrupted": True}) from None
    except parallel.RunIncomplete as stop:
        write_ready(everything=True)
        raise SweepIncomplete({**report, "incomplete": True}, stop.reason) from None


def cell_summaries(sweep: Sweep, results: dict[tuple[str, int], dict]) -> list[dict]:
    """Per cell: its coordinates, games, wins and win rate per seat, games nobody won, mean rounds."""
    out = []
    for cell in sweep.cells:
        games = [results[(cell.key, i)] for i in range(sweep.games) if (cell.key, i) in results]
        players = cell.coords["players"]
        count = len(games)
        teams = next((g["teams"] for g in games if "teams" in g), None)
        if teams is not None:  # a team wins together: its wins, never its Communities' own
            wins = [sum(team in g.get("winning_teams", ()) for g in games) for team in range(len(teams))]
        else:
            wins = [sum(seat in g["winners"] for g in games) for seat in range(players)]
        out.append({
            "cell": cell.coords,
            "factions": cell.factions,
            "games": count,
            "wins": wins,
            "win_rate": [round(w / count, 4) if count else None for w in wins],
            "no_winner": sum(not g["winners"] for g in games),
            "mean_rounds": round(sum(g.get("rounds", 0) for g in games) / count, 4) if count else None,
            **({"teams": teams} if teams is not None else {}),
        })
    return out


__all__ = [
    "Cell", "Sweep", "SweepInterrupted", "SweepIncomplete", "MAX_GAMES", "cell_key", "schema_path", "load_sweep", "read_results", "result_line",
    "run_sweep", "cell_summaries",
]
