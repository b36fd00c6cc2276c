"""What a file given as a scripted game (`replay`, `test`) is instead, said in one line.

A power file, a box or scenario file, simulation results, a save file or an event log handed to
`replay` would otherwise fail the scripted-game schema with errors about keys it never meant to have.
The kinds are told apart by the marks each format has (a power's `power NAME {`, a save's "format", a
results file's "games", an event's "event", a box's keys): a file with none of them is left to the schema.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from happydayz.base.errors import DataProblem, Diagnostic, HappyError, Span
from happydayz.base.safeyaml import read_text
from happydayz.data.boxes import detect_kind
from happydayz.kernel.savegame import FORMAT as SAVE_FORMAT

F_WRONG_KIND = "F005"
_POWER_START = re.compile(r"\A(?:\s*#[^\n]*\n|\s*\n)*\s*power\s+\S[^\n]*\{", re.MULTILINE)
_SCENARIO_MARKS = {"box", "box_file", "factions", "custom_factions", "house_rules", "added"}

#: kind -> (what it is, what to do with it instead)
KINDS = {
    "power": ("a power file", "check it with 'happydayz check FILE'"),
    "box": ("a box file", "check it with 'happydayz check FILE'"),
    "scenario": ("a scenario file (it has no answers, position, rounds or expect)",
                 "play it with 'happydayz play --scenario FILE', or name it in a scripted game's 'scenario:'"),
    "results": ("a simulation results file", "read it with 'happydayz report FILE'"),
    "save": ("a save file", "resume it with 'happydayz play --resume FILE'"),
    "log": ("an event log (simulate --log)", "replay it with 'happydayz replay-log FILE'"),
}


def kind_of_file(path: Path) -> str | None:
    """The kind of a file that is not YAML (a power file, an event log), or None."""
    try:
        return kind_of_text(path, read_text(path))
    except HappyError:  # unreadable: the YAML error already says why
        return None


def kind_of_text(path: Path, text: str) -> str | None:
    """The kind of a file read from its name and text alone (before it is parsed as YAML), or None."""
    if path.suffix == ".power" or _POWER_START.match(text):
        return "power"
    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first.lstrip().startswith("{"):  # the first line of an event log is an object
        return None
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return None
    return _kind_of_json(head) if isinstance(head, dict) else None


def kind_of_data(data, looks_scripted: bool) -> str | None:
    """The kind of a parsed file that is not a scripted game, or None when it has no other kind's marks.

    A save file has answers too, so its "format" is looked at before the keys of a scripted game.
    """
    if not isinstance(data, dict):
        return None
    found = _kind_of_json(data)
    if found is not None or looks_scripted:
        return found
    if detect_kind(data) == "box":
        return "box"
    return "scenario" if _SCENARIO_MARKS & set(data) else None


def _kind_of_json(data: dict) -> str | None:
    if isinstance(data.get("format"), str) and data["format"].split("/")[0] == SAVE_FORMAT.split("/")[0]:
        return "save"
    if "games" in data or "final_populations" in data:
        return "results"
    if "event" in data:
        return "log"
    return None


def wrong_kind(path, kind: str) -> DataProblem:
    """The one-line error for a file of `kind` given as a scripted game."""
    what, instead = KINDS[kind]
    return DataProblem(Diagnostic(Span(str(path), 1, 1), f"this is {what}, not a scripted game: {instead}",
                                  F_WRONG_KIND, quote=False))
