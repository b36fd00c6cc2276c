"""Reading simulation results: the JSON of `happydayz simulate --json` or the JSON Lines of `happydayz sweep`.

The format is detected from the content. Optional per-game fields, used when
present and skipped (with a note in the report) when not:

    "first_leader": the seat that led the first trick (decided by the Transfer)
    "powers": {"<power name>/<variant>": {"triggers": [per seat], "score": [per seat],
                                          "moved": [per seat]}}

"moved" (the Survivors on the cards a power moved into or out of each
Expedition) may be missing: results written before it was recorded have none,
and the report then counts gain/lose effects only. happydayz.simulation.records
computes these fields for each game a simulation plays.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from happydayz.base.errors import Diagnostic, HappyError, Span
from happydayz.base.files import load_json, read_text, within
from happydayz.data.boxes import MAX_PLAYERS
from happydayz.data.environment import Environment

# What a reader of results builds is bounded by these, whatever the file holds (a report of a crafted file
# with 20,000 power names took minutes and gigabytes); a file beyond them is read with a note saying so.
MAX_SEATS = MAX_PLAYERS  # Communities of a game: a game with more is not a game the program plays (refused)
MAX_POWERS = 100  # distinct powers (keys of "powers"): those beyond the first 100 read are left out
MAX_CELLS = 200  # distinct cells of a sweep: the games of the cells beyond are left out
MAX_FACTIONS = 100  # distinct Factions in the games' set-ups: beyond it, the per-variant section is left out

# Diagnostic codes of this module.
A_READ = "A001"  # the results file cannot be read
A_JSON = "A002"  # not JSON / JSON Lines
A_SHAPE = "A003"  # JSON, but not simulation results
A_WRITE = "A004"  # the report cannot be written


class ResultsProblem(HappyError):
    """A results file that is missing, unreadable or not simulation results (exit 1)."""


def _problem(path: str | Path, message: str, code: str, line: int = 1, column: int = 1,
             hint: str | None = None) -> ResultsProblem:
    return ResultsProblem(Diagnostic(Span(str(path), line, column), message, code, hint=hint))


@dataclass
class GameRecord:
    index: int
    players: int
    rounds: int
    final_populations: list[int]
    winners: list[int]
    cell: str
    factions: tuple[tuple[str, str], ...] | None = None
    cell_data: Any = None  # the sweep's "cell" as read
    first_leader: int | None = None
    powers: dict | None = None
    bots: tuple[str, ...] | None = None
    teams: tuple[tuple[int, ...], ...] | None = None  # the hand's teams (a team wins together), if it had any
    pooled: bool = False  # a team keeps one score (each Community shows it), not each its own
    floor: int | None = 0  # the hand's floor, which elimination reaches (None: no floor, nobody eliminated)


@dataclass
class Results:
    path: Path
    kind: str  # "simulate" or "sweep"
    games: list[GameRecord]
    summary: dict | None = None
    notes: list[str] = field(default_factory=list)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _record(data: Any, index: int, cell: str, where: tuple[str, int], path: Path,
            factions: tuple | None = None, bots: tuple | None = None) -> GameRecord:
    """One game from a JSON object; ResultsProblem naming the place if it is not one."""
    label, line = where

    def bad(message: str) -> ResultsProblem:
        return _problem(path, f"{label}: {message}", A_SHAPE, line=line)

    if not isinstance(data, dict):
        raise bad("a game result must be a JSON object")
    populations = data.get("final_populations")
    if not isinstance(populations, list) or not populations or not all(_is_int(p) for p in populations):
        raise bad("'final_populations' must be a non-empty list of whole numbers")
    players = len(populations)
    if players > MAX_SEATS:
        raise bad(f"'final_populations' lists {players} Communities; a game has at most {MAX_SEATS}")
    winners = data.get("winners")
    if not isinstance(winners, list) or not all(_is_int(w) and 0 <= w < players for w in winners):
        raise bad(f"'winners' must be a list of seats from 0 to {players - 1}")
    rounds = data.get("rounds")
    if not _is_int(rounds) or rounds < 0:
        raise bad("'rounds' must be a whole number, 0 or more")
    raw_factions = data.get("factions", factions)
    parsed_factions = None
    if raw_factions is not None:
        try:
            parsed_factions = tuple((str(f), str(v)) for f, v in raw_factions)
        except (TypeError, ValueError):
            raise bad("'factions' must be a list of [Faction, variant] pairs") from None
    leader = data.get("first_leader")
    if leader is not None and not (_is_int(leader) and 0 <= leader < players):
        raise bad(f"'first_leader' must be a seat from 0 to {players - 1}")
    powers = data.get("powers")
    if powers is not None:
        def per_seat(value: Any) -> bool:
            return isinstance(value, list) and len(value) == players and all(_is_int(x) for x in value)

        if not isinstance(powers, dict) or not all(
                isinstance(v, dict) and per_seat(v.get("triggers")) and per_seat(v.get("score"))
                for v in powers.values()):
            raise bad("'powers' must map each power to {'triggers': [per seat], 'score': [per seat]}")
        for key, v in powers.items():
            if "moved" in v and not per_seat(v["moved"]):
                raise bad(f"'powers' {key!r}: 'moved' must be a list of {players} whole numbers, one per seat "
                          "(or left out)")
    teams = data.get("teams")
    if teams is not None:
        seats = [s for team in teams for s in team] if isinstance(teams, list) and all(
            isinstance(team, list) and team for team in teams) else None
        if seats is None or sorted(seats) != list(range(players)) or not all(_is_int(s) for s in seats):
            raise bad(f"'teams' must list each seat from 0 to {players - 1} in one team")
        teams = tuple(tuple(team) for team in teams)
    floor = data.get("floor", 0)
    if floor == "none":
        floor = None
    elif not _is_int(floor):
        raise bad("'floor' must be a whole number or \"none\" (left out: 0)")
    raw_bots = data.get("bots", bots)
    return GameRecord(index=data.get("game", index) if _is_int(data.get("game")) else index, players=players,
                      rounds=rounds, final_populations=list(populations), winners=sorted(set(winners)), cell=cell,
                      factions=parsed_factions, first_leader=leader, powers=powers,
                      bots=tuple(str(b) for b in raw_bots) if isinstance(raw_bots, (list, tuple)) else None,
                      teams=teams, pooled=data.get("team_score") == "pooled", floor=floor)


def _cell_label(cell: Any) -> str:
    if isinstance(cell, dict):
        parts = []
        for key in sorted(cell):
            value = cell[key]
            text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
            parts.append(f"{key}={text}")
        return ", ".join(parts) or "all"
    if cell is None:
        return "all"
    return str(cell) if isinstance(cell, str) else json.dumps(cell, sort_keys=True)


def _scenario_factions(reference: Any, env: Environment, folder: Path | None = None) -> tuple[tuple[str, str], ...] | None:
    """The Factions (and variants) a scenario starts with, or None if it cannot be found.

    A scenario file is read only when it lies in the results file's `folder`: a results file
    from someone else cannot make the report read a file elsewhere.
    """
    if not isinstance(reference, str) or not reference:
        return None
    parts = reference.replace("\\", "/").split("/")
    if reference.lower().endswith((".yaml", ".yml")) or os.path.isabs(reference) or ".." in parts \
            or os.path.lexists(reference):
        if folder is None:
            return None
        candidate = Path(reference) if os.path.isabs(reference) else folder / reference
        if not within(candidate, folder):
            return None
        reference = str(candidate.resolve())
    try:
        scenario, _ = env.resolve_scenario(reference)
        return tuple((c.faction, c.variant) for c in scenario.factions)
    except Exception:  # a scenario file moved or changed: the report goes on without it
        return None


def load_results(path: str | Path, env: Environment | None = None, scenario_folder: Path | None = None) -> Results:
    """Read simulate JSON or sweep JSON Lines. Raises ResultsProblem for a bad file.

    `env` finds the scenario a simulate file names, for the Factions it started with; a scenario file
    is read only inside `scenario_folder` (by default the results file's folder).
    """
    path = Path(path)
    text = read_text(path, "results", code=A_READ, error=ResultsProblem, what="results file")
    if not text.strip():
        raise _problem(path, "the results file is empty", A_SHAPE)

    try:
        document = load_json(text, str(path), code=A_JSON, error=ResultsProblem, what="results file")
    except ResultsProblem as whole_error:
        document = None
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            first_ok = isinstance(load_json(first, str(path), code=A_JSON, error=ResultsProblem), dict)
        except ResultsProblem:
            first_ok = False
        if not first_ok:
            raise whole_error from None
        return _bounded(_load_lines(path, text))
    if isinstance(document, dict) and "games" in document:
        return _bounded(_load_simulate(path, document, env if env is not None else Environment(), scenario_folder))
    if isinstance(document, dict) and "final_populations" in document:
        return _bounded(_load_lines(path, text))
    if isinstance(document, dict) and "event" in document:
        raise _event_log(path)
    raise _problem(path, "this JSON is not simulation results: expected an object with \"games\" (simulate --json) "
                   "or one game per line (sweep)", A_SHAPE)


def _bounded(results: Results) -> Results:
    """The results within MAX_POWERS, MAX_CELLS and MAX_FACTIONS, with a note for each bound the file passed."""
    cells: dict[str, None] = {}
    kept = []
    for g in results.games:
        if g.cell in cells or len(cells) < MAX_CELLS:
            cells.setdefault(g.cell, None)
            kept.append(g)
    if len(kept) < len(results.games):
        results.notes.append(f"The file holds more than {MAX_CELLS} cells: the {len(results.games) - len(kept)} "
                             f"games of the cells beyond the first {MAX_CELLS} were left out.")
        results.games = kept
    powers: dict[str, None] = {}
    dropped: set[str] = set()
    for g in results.games:
        if g.powers is None:
            continue
        for key in list(g.powers):
            if key not in powers and len(powers) >= MAX_POWERS:
                dropped.add(key)
                del g.powers[key]
            else:
                powers.setdefault(key, None)
    if dropped:
        results.notes.append(f"The file names {len(powers) + len(dropped)} powers: the report shows the first "
                             f"{MAX_POWERS} read, {len(dropped)} were left out.")
    factions = {f for g in results.games if g.factions for f, _ in g.factions}
    if len(factions) > MAX_FACTIONS:
        results.notes.append(f"The games' set-ups name {len(factions)} Factions, more than {MAX_FACTIONS}: the "
                             "per-variant section is left out.")
        for g in results.games:
            g.factions = None
    return results


def _event_log(path: Path) -> ResultsProblem:
    return _problem(path, "this is an event log (simulate --log), not results", A_SHAPE,
                    hint="give the file written by 'happydayz simulate --json PATH' or 'happydayz sweep'")


def _load_simulate(path: Path, document: dict, env: Environment, scenario_folder: Path | None = None) -> Results:
    games = document.get("games")
    summary = document.get("summary")
    if not isinstance(games, list):
        raise _problem(path, "\"games\" must be a list of game results", A_SHAPE)
    if summary is not None and not isinstance(summary, dict):
        raise _problem(path, "\"summary\" must be an object", A_SHAPE)
    summary = summary or {}
    scenario = summary.get("scenario")
    bots = summary.get("bots")
    notes = []
    factions = None
    if not all(isinstance(g, dict) and "factions" in g for g in games):
        factions = _scenario_factions(scenario, env, scenario_folder or path.resolve().parent)
        if factions is None and scenario is not None:
            notes.append(f"The Factions of scenario {scenario!r} could not be found, so the per-variant "
                         "section is left out.")
    players = summary.get("players")
    cell = _cell_label({"scenario": scenario, "players": players}) if scenario is not None else "all"
    records = [_record(g, i, cell, (f"games[{i}]", 1), path, factions, tuple(bots) if isinstance(bots, list) else None)
               for i, g in enumerate(games)]
    if not records:
        raise _problem(path, "the results hold no games", A_SHAPE, hint="simulate with --games 1 or more")
    return Results(path, "simulate", records, summary, notes)


def _load_lines(path: Path, text: str) -> Results:
    records: list[GameRecord] = []
    skipped = 0
    events = 0
    duplicates = 0
    seen: set[tuple[str, int]] = set()
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        data = load_json(line, str(path), code=A_JSON, error=ResultsProblem, what="results line",
                         line_offset=number - 1, invalid=f"line {number} is not valid JSON")
        if isinstance(data, dict) and "final_populations" in data:
            record = _record(data, len(records), _cell_label(data.get("cell")), (f"line {number}", number), path)
            record.cell_data = data.get("cell")
            if _is_int(data.get("game")):  # a game of a cell counts once, however often it was written
                key = (json.dumps(data.get("cell"), sort_keys=True), data["game"])
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
            records.append(record)
        elif isinstance(data, dict) and "event" in data:
            events += 1
        else:
            skipped += 1
    if not records:
        if events:
            raise _event_log(path)
        raise _problem(path, "no game results found: expected one JSON object a line with \"final_populations\"",
                       A_SHAPE)
    notes = [f"{skipped} line(s) that are not game results were ignored."] if skipped else []
    if duplicates:
        notes.append(f"{duplicates} line(s) repeating a game already read (the same cell and game) were ignored.")
    return Results(path, "sweep", records, None, notes)


__all__ = ["load_results", "Results", "GameRecord", "ResultsProblem", "A_READ", "A_JSON", "A_SHAPE", "A_WRITE",
           "MAX_SEATS", "MAX_POWERS", "MAX_CELLS", "MAX_FACTIONS"]
