"""Replay every scripted game of tests/games/ and check its hand-worked expectations.

Each file fixes a game completely (Factions, deal or position, every answer)
and states in its `expect:` block what must come out, worked out by hand from
the rules. See docs/scripted-games.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from happydayz.kernel.scripted import load_script, replay

from conftest import ROOT

GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))


def test_there_are_scripted_games():
    assert GAMES, "no scripted games found in tests/games/"


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_scripted_game(path: Path):
    expect = load_script(path).data.get("expect")
    assert isinstance(expect, dict) and expect, f"{path.name} has no (or an empty) expect block"
    result = replay(path)
    assert result.mismatches == [], "\n".join(result.mismatches)
