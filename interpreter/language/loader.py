"""Load a power file: parse → check → compile (→ generated code, language.codegen).

Nothing is cached here: the Environment (happydayz.data.environment) keeps the
compiled powers of a session.
"""

from __future__ import annotations

from pathlib import Path

from happydayz.language.codegen import DEFAULT as CODEGEN, install
from happydayz.language.checker import check
from happydayz.language.compiler import CompiledPower, compile_power
from happydayz.language.parser import parse_file


def load_power(path: str | Path, known_factions: set[str] | None = None, codegen: bool = CODEGEN) -> CompiledPower:
    """The compiled power of a file; raises SyntaxProblem or CheckProblem for a bad file.

    With `codegen` its closures are replaced by generated Python functions (language.codegen).
    """
    path = Path(path).resolve()
    tree = parse_file(path)
    checked = check(tree, set(known_factions) if known_factions is not None else None)
    compiled = compile_power(checked, path)
    return install(checked, compiled) if codegen else compiled
