"""The power playground's work: check a file's text as it is typed, show its card text, simulate it.

Diagnostics are those of `happydayz check` (same codes, hints, lines and
columns), for the text in the editor rather than the file on disk; the card
text is that of `happydayz explain`; a simulation's results are turned into
the balance report (`happydayz report`), its tables and plots returned inline.
"""

from __future__ import annotations

import base64
import json
import re
import tempfile
import uuid
from pathlib import Path
from typing import Callable

from happydayz.authoring.checking import check_paths
from happydayz.authoring.powerfiles import checked_power
from happydayz.base.errors import HappyError
from happydayz.data.environment import Environment
from happydayz.language.cardtext import card_text
from happydayz.report.build import build_report
from happydayz.simulation.simulate import simulate, to_json
from happydayz.web.mods import ModsError, ModsFolder

MAX_GAMES = 2000


def _records(diagnostics, shown_as: str, written_as: str) -> list[dict]:
    records = []
    for diagnostic in diagnostics:
        record = diagnostic.record()
        if Path(record["file"]).name == Path(written_as).name or record["file"] == written_as:
            record["file"] = shown_as
        records.append(record)
    return records


def check_text(mods: ModsFolder, relative: str, text: str, env: Environment) -> dict:
    """The diagnostics of `text` as the file `relative` of the mods folder, and its card text when it checks.

    A power file is checked from a temporary folder; a box or scenario file
    beside the file it stands for (a hidden copy, removed at once), so that the
    files it names are found.
    """
    target = mods.resolve(relative, (".power", ".yaml", ".yml"))
    if not isinstance(text, str):
        raise ModsError(400, "the text to check must be a string")
    if target.suffix == ".power":
        with tempfile.TemporaryDirectory(prefix="happydayz-check-") as folder:
            copy = Path(folder) / target.name
            copy.write_text(text, encoding="utf-8")
            diagnostics = check_paths([copy], env)
            records = _records(diagnostics, relative, str(copy))
            card = None
            if not any(r["severity"] == "error" for r in records):
                try:
                    card = card_text(checked_power(copy, env))
                except (HappyError, ValueError) as exc:
                    card = f"(no card text: {exc})"
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        copy = target.with_name(f".happydayz-check-{uuid.uuid4().hex}{target.suffix}")  # short: any name fits
        try:
            copy.write_text(text, encoding="utf-8")
            records = _records(check_paths([copy], env), relative, str(copy))
        finally:
            copy.unlink(missing_ok=True)
        card = None
    errors = sum(1 for r in records if r["severity"] == "error")
    return {"path": relative, "diagnostics": records, "errors": errors, "warnings": len(records) - errors,
            "card_text": card}


_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+\.png)\)")


def simulate_report(scenario_ref: str, players: int | None, games: int, seed: int, express: bool,
                    bots: str | None, env: Environment, mods: ModsFolder,
                    progress: Callable[[int, int], None] | None = None) -> dict:
    """Play `games` games between bots and build the balance report: its Markdown, each plot as a data URI.

    Everything it writes stays in a temporary folder of the system's; a scenario file it reads back for the
    report lies in the mods folder. `progress(done, total)` is called after each game (and may raise to stop).
    """
    if not 1 <= games <= MAX_GAMES:
        raise ModsError(400, f"simulate 1 to {MAX_GAMES} games")
    result = simulate(scenario_ref, players=players, games=games, seed=seed, express=express, bots=bots, env=env,
                      progress=progress)
    with tempfile.TemporaryDirectory(prefix="happydayz-report-") as folder:
        results = Path(folder) / "results.json"
        results.write_text(to_json(result), encoding="utf-8")
        report = build_report(results, Path(folder) / "report", env, scenario_folder=mods.root)
        markdown = report.read_text(encoding="utf-8")
        images = {}
        for match in _IMAGE.finditer(markdown):
            png = (report.parent / match.group(2)).resolve()
            if png.is_file() and report.parent.resolve() in png.parents:
                images[match.group(2)] = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
    return {"markdown": markdown, "images": images, "summary": json.loads(to_json(result)).get("summary")}


__all__ = ["check_text", "simulate_report", "MAX_GAMES"]
