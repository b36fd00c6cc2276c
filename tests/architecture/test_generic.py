"""The kernel is generic: no Faction, power or box is named in the package's code.

Everything specific to Happy DayZ's cards lives in powers/ and boxes/. Only
no module may say "Zombies" either: it is the
name of the game's threat in messages, not a rule.
"""

import re

import pytest

from conftest import ROOT

INTERPRETER = ROOT / "interpreter"
NAMES = re.compile(r"hippie|soldier|\bdogs?\b|survivalist|cheerleader|biker|mini-?van|police|governor|nurse|"
                   r"preacher|scientist|bunker|horde|patient.?zero|woodstock|american.?dream", re.IGNORECASE)
MODULES = sorted(p.relative_to(INTERPRETER).as_posix() for p in INTERPRETER.rglob("*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_no_faction_power_or_box_is_named(name):
    text = (INTERPRETER / name).read_text(encoding="utf-8")
    for pattern in (NAMES, re.compile(r"\bChildren\b")):
        found = pattern.search(text)
        assert not found, f"interpreter/{name}:{text.count(chr(10), 0, found.start()) + 1}: {found.group()!r}"
    found = re.search("zombie", text, re.IGNORECASE)
    assert not found, f"interpreter/{name}:{text.count(chr(10), 0, found.start()) + 1}: {found.group()!r}"


def test_every_module_is_checked():
    assert len(MODULES) > 30 and "kernel/game.py" in MODULES and "kernel/tables.py" in MODULES
