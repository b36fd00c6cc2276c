"""The English of `explain` and of the prompts, over every bundled and cookbook power and over powers with
names that trip English up (tests/language/data/names/): a name that starts with an article ("The Excuse"),
plural names ("Cats", "Night Owls"), names that are English words ("Bomb", "Glass"), and variables.

`tests/golden/english.txt` holds the card text and the prompts of the cookbook's and these powers (the
bundled ones have their own golden files, tests/golden/cardtext/ and tests/golden/prompts.txt). After a
deliberate change of wording, rewrite it with

    HAPPYDAYZ_REWRITE_GOLDEN=1 pytest tests/language/test_english.py

and read the changes: the file is reviewed text.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

import pytest

from happydayz.language import ast
from happydayz.language.cardtext import bundled_power_files, card_text
from happydayz.language.checker import check
from happydayz.language.parser import parse_file
from happydayz.language.render import Prompts

from conftest import ROOT

NAMES = sorted((ROOT / "tests" / "language" / "data" / "names").glob("*.power"))
COOKBOOK = sorted((ROOT / "docs" / "cookbook").glob("*.power"))
EVERY = bundled_power_files() + COOKBOOK + NAMES
GOLDEN = ROOT / "tests" / "golden" / "english.txt"

#: What a sentence must never hold, and why.
NOT_ENGLISH = {
    r"\b[Aa]n? (?:The|A|An) [A-Z]": "an article before a name that has its own ('A The Excuse')",
    r"\bit's\b": "a possessive after a clause ('the Community that played it's Expedition zone')",
    r"\b(?:played|led|won|chose|holds?) [a-z_]+'s\b": "a possessive after a clause",
    r"\b[Cc]hooses? (?:them|those \w+|they)\b": "a choice of a group without 'one of'",
    r"[a-z]sss\b": "a plural made of a name that ends in s ('Glasss')",
}
#: What a prompt, read out of context, must never hold.
NOT_A_PROMPT = {r"\b(?:those|that) (?:Factions?|Communities|numbers?|cards?|sides?)\b": "a reference to a sentence "
                "the prompt does not show: a choice is described from its expression"}


def variables(power: ast.PowerFile) -> set[str]:
    """The names a power file gives its values (`let`, `choose`, `each`, `for`)."""
    names = set()
    for node in ast.walk(power):
        if isinstance(node, (ast.Let, ast.Choose, ast.Each)):
            names.add(node.name)
        if isinstance(node, ast.Comprehension):
            names.add(node.var)
    return names


def prompts(checked) -> list[str]:
    words = Prompts(checked)
    found = []
    for node in ast.walk(checked.power):
        if isinstance(node, ast.Choose):
            found.append(words.choice(node))
        elif isinstance(node, ast.Ask):
            found.append(words.ask(node))
        elif isinstance(node, ast.ChooseMode):
            found.append(words.mode(node))
    return found


def english(path: Path) -> tuple[str, list[str], set[str]]:
    checked = check(parse_file(path), known_factions=None)
    return card_text(checked), prompts(checked), variables(checked.power)


def _problems(text: str, rules: dict[str, str], names: set[str]) -> list[str]:
    found = [f"{why}: {m.group(0)!r}" for pattern, why in rules.items() for m in re.finditer(pattern, text)]
    for name in names:  # a variable's name never shows: quoted, or (a name no English word is) bare
        bare = rf"|\b{re.escape(name)}\b" if re.search(r"[_0-9]", name) else ""
        if re.search(rf"“{re.escape(name)}”{bare}", text):
            found.append(f"the variable '{name}' shows")
    return found


@pytest.mark.parametrize("path", EVERY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_card_text_and_the_prompts_read_as_english(path):
    text, asked, names = english(path)
    problems = _problems(text, NOT_ENGLISH, names)
    for prompt in asked:
        problems += [f"prompt {prompt!r}: {p}" for p in _problems(prompt, NOT_ENGLISH | NOT_A_PROMPT, names)]
    assert not problems, "\n".join(problems) + "\n\n" + text


def golden_text() -> str:
    parts = ["# The card text and the prompts of the cookbook's powers and of tests/language/data/names/"
             " (tests/language/test_english.py).\n# Rewrite with: HAPPYDAYZ_REWRITE_GOLDEN=1 pytest "
             "tests/language/test_english.py\n"]
    for path in COOKBOOK + NAMES:
        text, asked, _ = english(path)
        parts.append(f"\n## {path.relative_to(ROOT).as_posix()}\n\n{text}\n")
        parts += [f"prompt: {prompt}\n" for prompt in asked]
    return "".join(parts)


def test_the_english_matches_the_reviewed_golden_file():
    text = golden_text()
    if os.environ.get("HAPPYDAYZ_REWRITE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8") if GOLDEN.is_file() else ""
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now"))
        pytest.fail(f"the English changed:\n{diff}\nIf it is right: HAPPYDAYZ_REWRITE_GOLDEN=1 pytest {__file__}")


@pytest.mark.parametrize("sentence", [
    "A card of The Excuse may be played in place of any card",
    "choose a card of The Excuse from this trick, if any. Move it into the Expedition zone of the Community that "
    "played it.",
    "Take note of the Factions in play other than Scientists.\nChoose one of those Factions.",
    "If there are more than 2 cards among them: choose one of them. Discard it.",
    "Choose 2 Glasses from your Expedition zone",
    "Gain Survivors equal to that number.",
    "Set its watch to the first number noted minus the second number noted.",
])
def test_the_names_read_as_english(sentence):
    assert sentence in "\n".join(english(path)[0] for path in NAMES)


def test_a_choice_is_described_by_what_is_chosen_and_from_where():
    asked = [prompt for path in NAMES for prompt in english(path)[1]]
    assert "Cats: choose a Faction in play other than Scientists" in asked
    assert ("The Excuse: choose a card of The Excuse from this trick to move into the Expedition zone of the "
            "Community that played it") in asked
    assert "Owls: choose an Owl from your hand or Transfer zone to discard" in asked


@pytest.mark.parametrize("name, one, many", [
    ("The Excuse", "card of The Excuse", "cards of The Excuse"), ("Night Owls", "Night Owl", "Night Owls"),
    ("Glass", "Glass", "Glasses"), ("Bomb", "Bomb", "Bombs"), ("Octopus", "Octopus", "Octopuses"),
    ("Children", "Child", "Children"), ("Theater", "Theater", "Theaters"),
])
def test_one_card_and_several_of_a_faction(name, one, many):
    from happydayz.language.english import article, plural, singular
    assert (singular(name), plural(name)) == (one, many)
    assert article(singular(name)) == ("an" if one[0] in "AEIOU" else "a")
