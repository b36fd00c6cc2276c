"""Save files and event logs.

A save file does not store the game state: it stores what rebuilds it. The
kernel is deterministic, so the scenario, the options, the seed and the list of
answers given so far replay the game exactly:

    {
      "format": "happydayz-save/1",
      "scenario": "<scenario id, or the absolute path of a scenario file>",
      "options": {"players": 4, "express": false, "promos": false, "random_powers": false},
      "seed": 7,
      "answers": [3, 0, 12, ...],
      "seat": 0
    }

"seat" (the seat a person plays) and "options.faction_change" are optional.
A save file that cannot be read, is not such a JSON object, or whose answers
do not replay raises HappyError with a diagnostic pointing into the file.

A save written by the program ends with "checksum": the SHA-256 of the rest
of its content (see `checksum`); a save whose checksum does not match was
edited, and is refused (L007). A save without one (written by hand, or before
checksums) is read as it is. A scenario file is named by its absolute path;
it must lie in the save's own folder (or below it): a save from someone else
cannot make the program read a file elsewhere.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from happydayz.base.errors import Diagnostic, GameRuleError, HappyError, Span
from happydayz.base.files import LIMITS, load_json, read_bytes, read_text, within, write_atomic, write_output
from happydayz.data.boxes import MAX_PLAYERS
from happydayz.data.environment import Environment
from happydayz.kernel.game import Decision, Game
from happydayz.kernel.setup import prepare

FORMAT = "happydayz-save/1"
MAX_SAVE_BYTES = LIMITS["save"]

# Diagnostic codes of save files (listed in docs/cli.md).
S_READ = "L001"  # cannot read the file
S_JSON = "L002"  # not JSON
S_FORMAT = "L003"  # not a save file of this format
S_FIELD = "L004"  # a key missing or of the wrong kind
S_REPLAY = "L005"  # the answers do not replay
S_WRITE = "L006"  # cannot write a save file or a log
S_EDITED = S_FIELD  # the checksum does not match: the file was edited
S_OUTSIDE = S_FIELD  # the scenario file named is outside the save's folder

OPTION_KEYS = ("players", "express", "promos", "random_powers")


class SaveProblem(HappyError):
    """A save file that cannot be read or does not replay."""


# --------------------------------------------------------------------- save

def save_record(game: Game, scenario_ref: str | os.PathLike, seat: int | None = None,
                env: Environment | None = None) -> dict:
    """The save-file data of `game` (see the module docstring).

    `env` tells a bundled scenario id from a file path: pass the session's, since a new Environment loads and
    checks every box file again (a third of a second).
    """
    env = env if env is not None else Environment()
    text = str(scenario_ref)
    if text not in {s.id for s in env.library.scenarios()}:
        text = str(Path(scenario_ref).resolve())
    record: dict[str, Any] = {
        "format": FORMAT,
        "scenario": text,
        "options": game.setup.options.record(),
        "seed": game.seed,
        "answers": list(game.answers),
    }
    if seat is not None:
        record["seat"] = seat
    record["checksum"] = checksum(record)
    return record


def checksum(record: dict) -> str:
    """"sha256:" and the SHA-256 of a save's content without its "checksum" key, as canonical JSON."""
    content = {k: v for k, v in record.items() if k != "checksum"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def dumps_record(record: dict) -> str:
    """One key a line, each value compact: readable, and errors point at the right line."""
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in record.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save_game(path: str | os.PathLike, game: Game, scenario_ref: str | os.PathLike, seat: int | None = None,
              env: Environment | None = None) -> dict:
    """Write a save file for `game` (atomically) and return its data.

    The file is written beside `path` and renamed over it; anything at `path`
    that is not a regular file (a folder, a device, a link) is never replaced.
    Raises SaveProblem when the file cannot be written. `env`: as for save_record.
    """
    record = save_record(game, scenario_ref, seat, env)
    write_atomic(path, dumps_record(record), code=S_WRITE, error=SaveProblem, what="save file")
    return record


# --------------------------------------------------------------------- load

def _key_span(file: str, text: str, key: str) -> Span:
    """Where `"key":` first appears in the text (line 1, column 1 if nowhere)."""
    needle = json.dumps(key)
    for number, line in enumerate(text.splitlines(), start=1):
        column = line.find(needle)
        if column >= 0:
            return Span(file, number, column + 1, number, column + 1 + len(needle))
    return Span(file, 1, 1)


def _file_key_span(file: str, key: str) -> Span:
    try:
        text = read_text(file, "save", code=S_READ, error=SaveProblem, what="save file")
    except SaveProblem:
        return Span(file, 1, 1)
    return _key_span(file, text, key)


def read_save(path: str | os.PathLike, scenario_folder: str | os.PathLike | None = None) -> dict:
    """The validated data of a save file. Raises SaveProblem.

    At most LIMITS["save"] bytes of a regular file are read; a scenario file named
    must be in the save's folder (or in `scenario_folder`, when given: the web
    table's mods folder, whose saves live in its subfolder `saves/`), and is
    returned as an absolute path.
    """
    file = str(path)
    raw = read_bytes(path, "save", code=S_READ, error=SaveProblem, what="save file", missing_short=True)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveProblem(Diagnostic(Span(file, 1, 1), "the save file is not UTF-8 text", S_READ)) from None
    data = load_json(text, file, code=S_JSON, error=SaveProblem, what="save file",
                     invalid="the save file is not valid JSON")

    def problem(key: str | None, message: str, code: str = S_FIELD) -> SaveProblem:
        span = _key_span(file, text, key) if key else Span(file, 1, 1)
        return SaveProblem(Diagnostic(span, message, code, hint=f"a save file is written by 'save PATH' "
                                                                 f"while playing; its format is {FORMAT}"))

    if not isinstance(data, dict):
        raise problem(None, "a save file holds a JSON object", S_FORMAT)
    if data.get("format") != FORMAT:
        where = "format" if "format" in data else None
        found = f"{data['format']!r}" if "format" in data else "no format"
        raise problem(where, f"not a save file of this version: {found}, expected {FORMAT!r}", S_FORMAT)
    for key in ("scenario", "options", "seed", "answers"):
        if key not in data:
            raise problem(None, f"missing key {key!r}")
    if not isinstance(data["scenario"], str) or not data["scenario"]:
        raise problem("scenario", "scenario: expected a scenario id or the path of a scenario file")
    if not _is_int(data["seed"]):
        raise problem("seed", "seed: expected a whole number")
    options = data["options"]
    if not isinstance(options, dict):
        raise problem("options", "options: expected an object")
    for key in options:
        if key not in OPTION_KEYS + ("faction_change",):
            raise problem(key, f"options: unknown option {key!r} (known: {', '.join(OPTION_KEYS)}, faction_change)")
    for key in OPTION_KEYS:
        if key not in options:
            raise problem("options", f"options: missing {key!r}")
    if not _is_int(options["players"]) or not 2 <= options["players"] <= MAX_PLAYERS:
        raise problem("players", f"options.players: expected a whole number from 2 to {MAX_PLAYERS}")
    for key in ("express", "promos", "random_powers", "faction_change"):
        if key in options and not isinstance(options[key], bool):
            raise problem(key, f"options.{key}: expected true or false")
    answers = data["answers"]
    if not isinstance(answers, list) or not all(_is_int(a) and a >= 0 for a in answers):
        raise problem("answers", "answers: expected a list of option indexes (whole numbers, 0 or more)")
    if "seat" in data and (not _is_int(data["seat"]) or not 0 <= data["seat"] < options["players"]):
        raise problem("seat", f"seat: expected a whole number from 0 to {options['players'] - 1}")
    if "checksum" in data and data["checksum"] != checksum(data):
        raise SaveProblem(Diagnostic(_key_span(file, text, "checksum"),
                                     "this save file was edited since it was written: its checksum does not match "
                                     "its content, so it is not resumed", S_EDITED,
                                     hint="resume the file as the program wrote it, or start a new game"))
    data["scenario"] = _contained_scenario(file, text, data["scenario"], scenario_folder)
    return data


def _contained_scenario(file: str, text: str, reference: str, scenario_folder: str | os.PathLike | None) -> str:
    """A bundled scenario id as it is; a scenario file only inside the save's folder, or `scenario_folder`
    when given (its absolute path)."""
    parts = reference.replace("\\", "/").split("/")
    if not (reference.lower().endswith((".yaml", ".yml")) or os.path.isabs(reference) or ".." in parts
            or os.path.lexists(reference)):
        return reference  # a scenario id (an unknown one is reported when the scenario is looked up)
    folder = Path(file).resolve().parent
    candidate = Path(reference) if os.path.isabs(reference) else folder / reference
    if not within(candidate, Path(scenario_folder).resolve() if scenario_folder is not None else folder):
        raise SaveProblem(Diagnostic(_key_span(file, text, "scenario"),
                                     "scenario: the scenario file named is outside the save file's folder, so it "
                                     "is not read", S_OUTSIDE,
                                     hint="keep a save in the folder of its scenario file (or a folder below it)"))
    return str(candidate.resolve())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def new_game(data: dict, env: Environment | None = None) -> Game:
    """A fresh game (no answer given) for validated save data."""
    options = data["options"]
    setup, _ = prepare(env if env is not None else Environment(), data["scenario"], options["players"],
                       options["express"], options["promos"], options["random_powers"],
                       options.get("faction_change", True))
    return Game(setup, data["seed"])


def replay_answers(game: Game, answers: list[int], file: str = "<save>",
                   before: Callable[[Game, Decision, int], None] | None = None) -> Game:
    """Apply `answers` in order; a SaveProblem names the first one that does not fit.

    `before(game, decision, answer)` is called before each answer is applied
    (a caller can let bots see the decisions they made, to bring their state
    back too).
    """
    for number, answer in enumerate(answers):
        decision = game.decision
        if decision is None:
            raise SaveProblem(Diagnostic(_file_key_span(file, "answers"), f"answers: the game is over after {number} answers, "
                                                           f"but the file has {len(answers)}", S_REPLAY))
        if before is not None and 0 <= answer < len(decision.options):
            before(game, decision, answer)
        try:
            game.apply(answer)
        except GameRuleError as exc:
            raise SaveProblem(Diagnostic(_file_key_span(file, "answers"), f"answers: answer #{number + 1} does not replay: "
                                                           f"{exc.diagnostics[0].message}", S_REPLAY)) from None
    return game


def load_game(path: str | os.PathLike, env: Environment | None = None) -> tuple[Game, dict]:
    """Rebuild the saved game: (the game with every saved answer applied, the save data)."""
    data = read_save(path)
    game = new_game(data, env)
    replay_answers(game, data["answers"], str(path))
    return game, data


# ---------------------------------------------------------------------- logs

def log_lines(game: Game, game_index: int | None = None) -> Iterator[str]:
    for event in game.log:
        record = {"game": game_index, **event} if game_index is not None else event
        yield json.dumps(record)


def write_log_jsonl(target: str | os.PathLike | TextIO, game: Game, game_index: int | None = None) -> None:
    """Every event of `game`, one JSON object a line (with a "game" index when given)."""
    text = "".join(line + "\n" for line in log_lines(game, game_index))
    if hasattr(target, "write"):
        target.write(text)
    else:
        write_output(target, text, what="event log")


__all__ = [
    "FORMAT", "SaveProblem", "save_record", "save_game", "read_save", "load_game", "new_game", "replay_answers",
    "write_log_jsonl", "log_lines",
]
