"""Load a power file: parse → check → compile.

Nothing is cached here: the Environment (happydayz.data.environment) keeps the
compiled powers of a session.
"""

from __future__ import annotations

from pathlib import Path

from happydayz.language.checker import check
from happydayz.language.compiler import CompiledPower, compile_power
from happydayz.language.parser import parse_file


def load_power(path: str | Path, known_factions: set[str] | None = None) -> CompiledPower:
    """The compiled power of a file; raises SyntaxProblem or CheckProblem for a bad file."""
    path = Path(path).resolve()
    tree = parse_file(path)
    checked = check(tree, set(known_factions) if known_factions is not None else None)
    return compile_power(checked, path)
