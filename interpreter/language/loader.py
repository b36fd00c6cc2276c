"""Load a power file: parse → check → compile, once per file."""

from __future__ import annotations

from pathlib import Path

from happydayz.language.checker import check
from happydayz.language.compiler import CompiledPower, compile_power
from happydayz.language.parser import parse_file

_CACHE: dict[tuple[str, frozenset | None, float], CompiledPower] = {}


def load_power(path: str | Path, known_factions: set[str] | None = None) -> CompiledPower:
    """The compiled power of a file; raises SyntaxProblem or CheckProblem for a bad file."""
    path = Path(path).resolve()
    known = frozenset(known_factions) if known_factions is not None else None
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = 0.0
    key = (str(path), known, stamp)
    if key not in _CACHE:
        tree = parse_file(path)
        checked = check(tree, set(known) if known is not None else None)
        _CACHE[key] = compile_power(checked, path)
    return _CACHE[key]
