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


# The classic card games are data too (boxes/hearts.yaml and its powers): no module, script, page or
# style sheet of the package names a classic game, a suit, a card of the French deck or a suit's symbol.
CLASSIC_NAMES = re.compile(
    r"\b(hearts?|spades?|clubs?|diamonds?|euchre|skat|oh.?hell|whist|bridge|belote|pinochle|tichu|"
    r"doppelkopf|schnapsen|barbu|bourr[eé]|sheepshead|cribbage|canasta|rummy|poker|"
    r"queen|king|jack|knave|ace|joker|black.?maria|shoot(s|ing)?.the.moon|two.of.clubs)\b"
    r"|[\u2660-\u2667]", re.IGNORECASE)
TEXT_FILES = sorted(p.relative_to(INTERPRETER).as_posix() for p in INTERPRETER.rglob("*")
                    if p.suffix in (".py", ".js", ".html", ".css", ".json", ".lark"))


@pytest.mark.parametrize("name", TEXT_FILES)
def test_no_classic_game_suit_or_card_is_named(name):
    text = (INTERPRETER / name).read_text(encoding="utf-8")
    found = CLASSIC_NAMES.search(text)
    assert not found, f"interpreter/{name}:{text.count(chr(10), 0, found.start()) + 1}: {found.group()!r}"


def test_the_classic_names_are_caught():
    """The pattern is not one that cannot fail: each kind of name is found, and ordinary words are not."""
    for text in ("power Hearts {", "the queen of spades", "OH_HELL", "Euchre's bowers", "\u2660", "Two of Clubs"):
        assert CLASSIC_NAMES.search(text), text
    for text in ("the trick's leader", "kingdom", "surface", "backspace", "jacket", "hearth"):
        assert not CLASSIC_NAMES.search(text), text


def test_every_module_is_checked():
    assert len(MODULES) > 30 and "kernel/game.py" in MODULES and "kernel/tables.py" in MODULES
    assert "web/static/common.js" in TEXT_FILES and "lsp/reference.json" in TEXT_FILES
