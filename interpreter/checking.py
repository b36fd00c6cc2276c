"""`happydayz check`: every problem of power, box and scenario files.

Power files are checked against the Factions the loaded boxes know, plus the
Factions that the checked files themselves define (a new Faction's power file
names its own Faction).
"""

from __future__ import annotations

import os
from pathlib import Path

from .boxes import check_data_file, load_library
from .checker import check
from .errors import Diagnostic, DiagnosticSink, HappyError, Span
from .model import Library
from .parser import parse_file

POWER_SUFFIXES = (".power",)
DATA_SUFFIXES = (".yaml", ".yml")


def expand(paths: list[str | os.PathLike]) -> tuple[list[Path], list[Diagnostic]]:
    """Files named, and the power/box/scenario files inside named folders."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in POWER_SUFFIXES + DATA_SUFFIXES
                           and "schema" not in p.parts[len(path.parts):])
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "no such file or folder", "F001"))
    return files, problems


def check_paths(paths: list[str | os.PathLike], library: Library | None = None) -> list[Diagnostic]:
    """Every diagnostic (errors and warnings) for the files under `paths`."""
    files, problems = expand(paths)
    try:
        library = library if library is not None else load_library()
        known = set(library.all_factions())
    except HappyError as exc:  # a broken bundled box: report it, check powers without Faction names
        problems.extend(exc.diagnostics)
        library, known = None, None
    trees = {}
    for path in files:
        if path.suffix in POWER_SUFFIXES:
            try:
                trees[path] = parse_file(path)
            except HappyError as exc:
                problems.extend(exc.diagnostics)
        elif path.suffix in DATA_SUFFIXES:
            problems.extend(check_data_file(path, library))
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "not a power file (.power) nor a box or scenario file (.yaml)", "F002"))
    defined = {path: t.binding.faction for path, t in trees.items() if t.binding.faction}
    for path, tree in trees.items():
        sink = DiagnosticSink()
        # A file's own new Faction is known to it; the others' too, so powers can name each other.
        others = {f for p, f in defined.items() if p != path}
        check(tree, None if known is None else known | others, sink)
        problems.extend(sink.items)
    return problems
