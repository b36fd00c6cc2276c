"""Regenerate the parts of docs/ that are made from the bundled data.

    python -m happydayz.authoring.docgen          # rewrite them
    python -m happydayz.authoring.docgen --check  # exit 1 if any is stale (used by the tests)
"""

from __future__ import annotations

import sys
from pathlib import Path

from happydayz.base.resources import data_dir
from happydayz.base.files import write_atomic

BEGIN, END = "<!-- BEGIN POWERS (generated) -->", "<!-- END POWERS -->"


def powers_appendix() -> str:
    parts = []
    for path in sorted(data_dir("powers").glob("*.power")):
        parts.append(f"### `{path.name}`\n\n```\n{path.read_text(encoding='utf-8').rstrip()}\n```\n")
    return "\n".join(parts)


def with_appendix(document: str) -> str:
    head, sep, rest = document.partition(BEGIN)
    if not sep:
        raise ValueError(f"the document lacks the marker {BEGIN}")
    _, sep, tail = rest.partition(END)
    if not sep:
        raise ValueError(f"the document lacks the marker {END}")
    return f"{head}{BEGIN}\n{powers_appendix()}{END}{tail}"


def language_doc() -> Path:
    return data_dir("powers").parent / "docs" / "language.md"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    path = language_doc()
    if not path.is_file():
        print(f"no {path}: run this from a source checkout", file=sys.stderr)
        return 2
    current = path.read_text(encoding="utf-8")
    fresh = with_appendix(current)
    if "--check" in argv:
        if fresh != current:
            print(f"{path} is stale: run python -m happydayz.authoring.docgen", file=sys.stderr)
            return 1
        return 0
    write_atomic(path, fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
