"""The package's layers: lower layers never import upper ones, and no module imports itself round a cycle.

Every module's imports are read from its source (those inside functions and
under `if TYPE_CHECKING` too). A module may import its own layer and the
layers below it (docs/architecture.md). An import inside a function is allowed
only for an optional dependency, with a comment on its line saying so.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = "happydayz"
SOURCE = ROOT / "interpreter"

#: Bottom to top, one tier each; layers of one tier may not import each other. The table (games
#: people play), the front ends and the research adapters sit on everything below; the command line on top.
TIERS = (("base",), ("language",), ("data",), ("kernel",), ("players",), ("simulation",), ("report",),
         ("authoring",), ("table",), ("web", "lsp", "openspiel", "pettingzoo"), ("cli",))
LAYERS = tuple(name for tier in TIERS for name in tier)
TIER = {name: i for i, tier in enumerate(TIERS) for name in tier}


def module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(SOURCE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for every import of the package's own modules."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f) if n is not f}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == PACKAGE and target != PACKAGE and target != me:
                found.append((target, node.lineno, id(node) in inner))
    return found


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else None


def test_every_module_is_in_a_layer():
    strays = sorted(m for m in MODULES if layer(m) not in LAYERS and m not in (PACKAGE, f"{PACKAGE}.__main__"))
    assert not strays, f"modules outside the layers {LAYERS}: {strays}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    mine = layer(module)
    if mine is None:  # the package's __init__ and __main__ may start the command line
        return
    for target, line, _ in imports(MODULES[module]):
        theirs = layer(target)
        assert theirs is not None and (theirs == mine or TIER[theirs] < TIER[mine]), (
            f"{MODULES[module].relative_to(ROOT)}:{line}: the {mine} layer imports {target}, "
            f"from the {theirs} layer, which is not below it")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_inside_functions_are_optional_dependencies_only(module):
    path = MODULES[module]
    lines = path.read_text(encoding="utf-8").splitlines()
    for target, line, inside in imports(path):
        assert not inside, f"{path.relative_to(ROOT)}:{line}: {target} imported inside a function"
    tree = ast.parse("\n".join(lines))
    for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and node is not function:
                assert "#" in lines[node.lineno - 1], (
                    f"{path.relative_to(ROOT)}:{node.lineno}: an import inside a function needs a comment on its "
                    "line saying which optional dependency it waits for")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph = {}
    for module, path in modules.items():
        targets = set()
        for target, _, _ in imports(path):
            while target not in modules and "." in target:  # `from package import name` names the package
                target = target.rpartition(".")[0]
            if target in modules and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def test_no_import_cycles():
    graph = _graph(MODULES)
    # A package's __init__ re-exporting its own modules is how Python packages work, not a cycle.
    graph = {m: {t for t in targets if not (MODULES[m].name == "__init__.py" and t.startswith(m + "."))}
             for m, targets in graph.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
