"""The cookbook (docs/cookbook/): every design checks clean, has a scripted game that replays, and
docs/cookbook.md shows each design's prose with its generated English.

docs/cookbook.md is built from the entries; after changing one, rebuild it with

    python tests/authoring/test_cookbook.py --regenerate
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script (--regenerate): the tests' helpers are one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest

from conftest import ENV, ROOT
from happydayz.authoring.powerfiles import checked_power
from happydayz.authoring.testing import find_scripts, run_script
from happydayz.base.errors import DiagnosticSink
from happydayz.language.cardtext import card_text
from happydayz.language.checker import check
from happydayz.language.parser import parse_file

FOLDER = ROOT / "docs" / "cookbook"
BOOK = ROOT / "docs" / "cookbook.md"
REGENERATE = "python tests/authoring/test_cookbook.py --regenerate"
INTRO = """\
# The cookbook

Designs written in the power language, each a working Faction (or added power)
with a scenario that brings it into a game and a scripted game, worked out by
hand, that proves it plays as its text says. Most adapt a special card or rule
of a published trick-taking game to Happy DayZ's Factions; the rest are
modders' ideas. Every file is in [cookbook/](cookbook/): copy one next to your
own scenario and change it.

    happydayz test docs/cookbook              # replay every scripted game of the cookbook
    happydayz explain docs/cookbook/FILE.power

The English under each design is what `happydayz explain` prints for it: this
page is generated from the files (`{regenerate}`).

"""


def entries() -> list[str]:
    """The designs' names (slugs), adaptations first, each group in alphabetical order."""
    slugs = sorted(p.stem for p in FOLDER.glob("*.power"))
    return sorted(slugs, key=lambda s: (s.startswith("mod-"), s))


def prose(slug: str) -> str:
    path = FOLDER / f"{slug}.md"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def build() -> str:
    parts = [INTRO.format(regenerate=REGENERATE)]
    adaptations = [s for s in entries() if not s.startswith("mod-")]
    mods = [s for s in entries() if s.startswith("mod-")]
    parts.append("## Contents\n\n")
    for title, group in (("Adapted from published games", adaptations), ("Modders' ideas", mods)):
        parts.append(f"{title}:\n\n")
        for slug in group:
            heading = prose(slug).splitlines()[0].lstrip("# ").strip() if prose(slug) else slug
            anchor = re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")
            parts.append(f"- [{heading}](#{anchor})\n")
        parts.append("\n")
    for slug in entries():
        english = card_text(checked_power(FOLDER / f"{slug}.power", ENV, known_factions_only=False))
        files = ", ".join(f"[{p.name}](cookbook/{p.name})" for p in sorted(FOLDER.glob(f"{slug}.*"))
                          if p.suffix in (".power", ".yaml"))
        parts.append(f"{prose(slug)}\n\nFiles: {files}.\n\nWhat `happydayz explain` says:\n\n```\n{english.rstrip()}\n```\n\n")
    return "".join(parts).rstrip() + "\n"


def scripted_games() -> list[Path]:
    files, _ = find_scripts([FOLDER])
    return [f for f in files if re.search(r"^expect:", f.read_text(encoding="utf-8"), re.M)]


def test_the_cookbook_has_thirty_designs_twenty_of_them_adapted_from_published_games():
    slugs = entries()
    assert len(slugs) >= 30, f"{len(slugs)} designs"
    adapted = [s for s in slugs if not s.startswith("mod-")]
    assert len(adapted) >= 20, f"{len(adapted)} adaptations"
    for slug in slugs:
        heading = prose(slug).splitlines()[0] if prose(slug) else ""
        assert heading.startswith("## "), f"{slug}.md must start with a '## Title (Game: card)' heading"
        assert "(" in heading and heading.endswith(")"), f"{slug}.md's heading names no game or idea: {heading}"


@pytest.mark.parametrize("slug", entries())
def test_each_design_checks_clean_and_has_a_scripted_game_that_uses_it(slug):
    sink = DiagnosticSink()
    check(parse_file(FOLDER / f"{slug}.power"), None, sink)
    assert not sink.items, [str(d) for d in sink.items]
    using = [g for g in scripted_games() if slug in g.read_text(encoding="utf-8")
             or any(slug in s.read_text(encoding="utf-8") for s in FOLDER.glob("*.scenario.yaml")
                    if s.name in g.read_text(encoding="utf-8"))]
    assert using, f"no scripted game with expect: plays {slug}.power"


@pytest.mark.parametrize("game", scripted_games(), ids=lambda p: p.name)
def test_each_scripted_game_of_the_cookbook_replays(game):
    result = run_script(game, ENV)
    assert result.passed, (result.problems, result.error and str(result.error))


def test_the_cookbook_page_is_built_from_the_files():
    assert BOOK.read_text(encoding="utf-8") == build(), f"docs/cookbook.md is stale: run `{REGENERATE}`"


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: {REGENERATE}")
    BOOK.write_text(build(), encoding="utf-8")
    print(f"wrote {BOOK.relative_to(ROOT)} ({len(entries())} designs)")
