"""State a scenario file declares (`state:`): each entry is a declaration as an added power's `shared` line
would write it, without the word `shared` ("mark trump: Faction for round"). It is read like one: the
language's own grammar and checker, on a power made of that line alone (docs/language.md, "State shared by
every power"; docs/boxes.md, "Scenario files")."""

from __future__ import annotations

from happydayz.base.errors import DiagnosticSink, HappyError
from happydayz.language import ast
from happydayz.language.checker import check
from happydayz.language.parser import parse

#: The power an entry is read in: the entry on its own line, as an added power's shared declaration.
_WRAP = "power Scenario {{\n  added\n  shared {entry}\n}}\n"


def read_state_entry(entry: str) -> tuple[ast.StateDecl | None, str | None]:
    """(the declaration, None) of one `state:` entry, or (None, what is wrong with it)."""
    entry = entry.strip()
    if "\n" in entry or "{" in entry or "}" in entry or "#" in entry:
        return None, "a declaration is one line: 'mark NAME: TYPE', 'counter NAME per community for round' ..."
    try:
        tree = parse(_WRAP.format(entry=entry.strip()), "<state>")
    except HappyError as problem:
        return None, f"this is not a counter or a mark: {problem.diagnostics[0].message}"
    if len(tree.state) != 1 or tree.rules or tree.hooks or tree.variants:
        return None, "a declaration is one counter or one mark"
    sink = DiagnosticSink()
    check(tree, None, sink)
    errors = [d for d in sink.items if d.severity == "error"]
    if errors:
        return None, errors[0].message
    return tree.state[0], None
