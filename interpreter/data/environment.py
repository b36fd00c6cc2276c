"""The Environment: the settings and caches of one session, handed to whatever needs them.

In the manner of Jinja2's Environment, one object holds what would otherwise
travel in globals: the folders searched for power files (`--powers`), the box
files loaded beside the bundled ones, the loaded library, the compiled
powers, and whether they run as generated Python code (language.codegen, the
default) or as the compiler's closures (`codegen=False`, `--no-codegen`). The
command line makes one from its options; library code takes one as an argument;
nothing reads environment variables or module-level caches.

An Environment pickles as its settings only (a worker process rebuilds the
caches it needs), so it can be handed to worker processes and Ray tasks.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from happydayz.data.boxes import load_library, resolve_scenario
from happydayz.data.model import Library, Scenario
from happydayz.language.codegen import DEFAULT as CODEGEN
from happydayz.language.compiler import CompiledPower
from happydayz.language.loader import load_power


class Environment:
    def __init__(self, power_dirs: Iterable[str | os.PathLike] = (), box_files: Iterable[str | os.PathLike] = (),
                 codegen: bool = CODEGEN):
        self.power_dirs: tuple[Path, ...] = tuple(Path(d).resolve() for d in power_dirs)
        self.box_files: tuple[Path, ...] = tuple(Path(b).resolve() for b in box_files)
        self.codegen = codegen  # powers run as generated code (language.codegen), else as the compiler's closures
        self._library: Library | None = None
        # (file, known Factions, modification time) -> compiled power: a file edited since is compiled again
        self._powers: dict[tuple[str, frozenset | None, float], CompiledPower] = {}

    def __repr__(self) -> str:
        return (f"Environment(power_dirs={list(map(str, self.power_dirs))}, box_files={list(map(str, self.box_files))}"
                f"{'' if self.codegen == CODEGEN else f', codegen={self.codegen}'})")

    def __reduce__(self):
        return Environment, (self.power_dirs, self.box_files, self.codegen)

    @property
    def settings(self) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
        """What makes this Environment: equal settings load the same files."""
        return self.power_dirs, self.box_files

    @property
    def library(self) -> Library:
        """The bundled boxes and the extra box files, loaded once. Raises DataProblem for a bad box file."""
        if self._library is None:
            self._library = load_library(self.box_files, self.power_dirs)
        return self._library

    def resolve_scenario(self, id_or_path: str | os.PathLike) -> tuple[Scenario, Library]:
        """A scenario by id or file path, and the library extended with the scenario's own Factions."""
        return resolve_scenario(id_or_path, self.library, self.power_dirs)

    def load_power(self, path: str | os.PathLike, known_factions: Iterable[str] | None = None) -> CompiledPower:
        """The compiled power of a file, compiled once per session (again if the file changed)."""
        path = Path(path).resolve()
        known = frozenset(known_factions) if known_factions is not None else None
        try:
            stamp = path.stat().st_mtime
        except OSError:
            stamp = 0.0
        key = (str(path), known, stamp)
        power = self._powers.get(key)
        if power is None:
            power = self._powers[key] = load_power(path, known, self.codegen)
        return power


__all__ = ["Environment"]
