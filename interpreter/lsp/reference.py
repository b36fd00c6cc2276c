"""The language reference by keyword, for hovers: made from docs/language.md.

    python -m happydayz.lsp.reference docs/language.md > interpreter/lsp/reference.json

The docs are not in the wheel, so the entries are generated into
`reference.json` (package data); a test regenerates it and compares. A
keyword's entry is every row of the reference's tables whose first cell
writes the keyword in code, under the heading of its section; a keyword no
table names in its first column gets the rows and paragraphs that write it in code.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

from happydayz.authoring.documents import keywords
from happydayz.language.checker import BUILTINS, FUNCTIONS

_CODE = re.compile(r"`([^`]*)`")
_WORDS = re.compile(r"[a-z]+")
#: A name as written, underscores included (`turned_up`, `bid_of`): a built-in name is looked up whole.
_NAMES = re.compile(r"[a-z][a-z_]*[a-z]")
#: Built-in names and functions (not keywords of the grammar) that a hover explains too: every name the
#: checker gives a value to, the hand's auction and teams included.
NAMES = frozenset(BUILTINS) | frozenset(FUNCTIONS) | frozenset({"partner", "team", "entered", "mover",
                                                                         "from_trick", "from_hand", "from_transfer",
                                                                         "from_expedition", "from_reserve",
                                                                         "from_discard"})


def _words(code: str) -> set[str]:
    """The words of a piece of code: its keywords (split at `_`) and its underscored names whole."""
    return set(_WORDS.findall(code)) | {w for w in _NAMES.findall(code) if "_" in w}


def entries(markdown: str, words: frozenset[str] | None = None) -> dict[str, str]:
    """Keyword -> its reference text (Markdown), from the text of docs/language.md."""
    words = keywords() | NAMES if words is None else words
    section = ""
    rows: dict[str, list[str]] = {}
    prose: dict[str, list[str]] = {}
    in_fence = False
    stop = "## Every power of both boxes"  # the appendix: the bundled powers, not the reference
    for line in markdown.splitlines():
        if line.startswith(stop):
            break
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not cells or set(cells[0]) <= set("-: ") or len(cells) < 2:
                continue
            named = {w for code in _CODE.findall(cells[0]) for w in _words(code)} & words
            entry = f"**{section}** — `{'`, `'.join(_CODE.findall(cells[0]))}`: " + " — ".join(cells[1:])
            for word in named:
                rows.setdefault(word, []).append(entry)
            for word in {w for cell in cells[1:] for code in _CODE.findall(cell) for w in _words(code)} & words:
                prose.setdefault(word, []).append(entry)
        elif line.strip():
            named = {w for code in _CODE.findall(line) for w in _words(code)} & words
            for word in named:
                prose.setdefault(word, []).append(f"**{section}** — {line.strip().lstrip('-* ')}")
    out = {}
    for word in sorted(words):
        found = rows.get(word) or prose.get(word, [])[:3]
        if found:
            out[word] = "\n\n".join(dict.fromkeys(found))
    return out


@lru_cache(maxsize=1)
def reference() -> dict[str, str]:
    """The shipped entries (reference.json)."""
    text = resources.files("happydayz.lsp").joinpath("reference.json").read_text(encoding="utf-8")
    return json.loads(text)


def render(markdown: str) -> str:
    return json.dumps(entries(markdown), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m happydayz.lsp.reference docs/language.md > interpreter/lsp/reference.json",
              file=sys.stderr)
        return 2
    sys.stdout.write(render(Path(argv[0]).read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
