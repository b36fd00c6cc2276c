"""The prompts of decisions: every choice of every bundled power, in plain English, naming its power.

`tests/golden/prompts.txt` lists the prompt of every `choose` and `ask` of every
variant of every bundled power, as `happydayz play` and the browser table show
it. After a deliberate change of wording, rewrite it with

    HAPPYDAYZ_REWRITE_GOLDEN=1 pytest tests/language/test_prompts.py

and read the changes: the file is reviewed text.
"""

from __future__ import annotations

import difflib
import os
import re

import pytest

from conftest import ROOT
from happydayz.language.cardtext import bundled_power_files
from happydayz.language.checker import check
from happydayz.language.compiler import ASK, CHOOSE, compile_power
from happydayz.language.english import variant_label
from happydayz.language.loader import load_power
from happydayz.language.parser import parse

GOLDEN = ROOT / "tests" / "golden" / "prompts.txt"
REWRITE = "HAPPYDAYZ_REWRITE_GOLDEN"
HEADER = (f"# The prompt of every choice of every bundled power variant (tests/language/test_prompts.py).\n"
          f"# Rewrite with: {REWRITE}=1 pytest tests/language/test_prompts.py\n")


def prompts(power) -> list[tuple[str, str]]:
    """(variant kind, prompt) of every choice of a compiled power, in the order of its hooks."""
    found = []
    for kind, variant in power.variants.items():
        programs = getattr(variant, "hooks", {}).values() or (variant.on_win, variant.end_of_round)  # every hook
        for program in programs:
            for ins in program.instructions if program is not None else ():
                if ins[0] == CHOOSE:
                    found.append((kind, ins[1].prompt))
                elif ins[0] == ASK:
                    found.append((kind, ins[1]))
    return found


def bundled_prompts() -> list[tuple[str, str, str, str]]:
    """(file name, the power as a player names it, variant kind, prompt) of every choice of every bundled power."""
    out = []
    for path in bundled_power_files():
        power = load_power(path)
        out += [(path.name, variant_label(power.name, kind, power.variants[kind].title), kind, prompt)
                for kind, prompt in prompts(power)]
    return out


def golden_text() -> str:
    lines = [HEADER]
    for file, _, kind, prompt in bundled_prompts():
        lines.append(f"{file} {kind}: {prompt}\n")
    return "".join(lines)


def test_the_prompts_are_the_reviewed_golden_file():
    text = golden_text()
    if os.environ.get(REWRITE):
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8") if GOLDEN.is_file() else ""
    diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "prompts.txt (golden)",
                                        "the prompts now"))
    assert text == expected, f"the prompts changed; if they are right, run `{REWRITE}=1 pytest {__file__}`:\n{diff}"


def problems(label: str, prompt: str) -> list[str]:
    """What is wrong with a prompt of the power `label`: its name missing or doubled, a word said twice, "it's"."""
    if not prompt.startswith(f"{label}: "):
        return [f"{prompt!r} does not start with the power's name, {label!r}"]
    text, found = prompt[len(label) + 2:], []
    doubled = re.search(r"\b(\w+) \1\b", text, re.IGNORECASE)
    if doubled:
        found.append(f"{prompt!r} says {doubled.group(1)!r} twice")
    if re.search(r"\bit's\b", text, re.IGNORECASE):
        found.append(f"{prompt!r} says \"it's\" (the possessive is 'its')")
    if text.startswith(label) or ": " in text:
        found.append(f"{prompt!r} names the power twice")
    if "  " in text or text != text.strip() or text.endswith((".", ",")):
        found.append(f"{prompt!r} has stray spaces or punctuation")
    return found


@pytest.mark.parametrize("file, label, kind, prompt", bundled_prompts())
def test_every_prompt_is_plain_english_and_names_its_power(file, label, kind, prompt):
    assert problems(label, prompt) == []


@pytest.mark.parametrize("prompt", [
    "Choose one (victim) from the other Communities where the number of it's Expedition zone is more than 0",
    "Cheerleaders: choose one (card) from the the Faction led in giver's hand",
    "Dogs: choose one (victim) from the other Communities where the number of it's Expedition zone is more than 0",
    "Cheerleaders: Cheerleaders: choose a card",
])
def test_the_checks_catch_the_old_garbled_prompts(prompt):
    label = prompt.split(":")[0] if ":" in prompt else "Dogs"
    assert problems(label, prompt)


def test_every_bundled_variant_with_a_choice_has_its_prompts_listed():
    listed = {(file, kind) for file, _, kind, _ in bundled_prompts()}
    # the Factions whose powers ask something, each in all three variants but the one that chooses nothing
    assert len(listed) >= 20
    assert ("hippies.power", "positive") in listed and ("hippies.power", "negative") not in listed


GOBLINS = """
power Goblins {
  for faction Goblins

  variant basic {
    on win {
      each giver in everyone {
        choose card from hand of giver by giver {
          move card to hand of self
        }
      }
    }
  }

  variant positive {
    on win {
      choose up to 2 cards from expedition of left {
        each card in cards {
          move card to hand of self
        }
      }
    }
  }

  variant negative "GRUDGE" {
    on win {
      ask "Give away the trick?" by left {
        choose target from others where count(hand of it) > 2 {
          gain 2 for target
        }
      }
    }
  }
}
"""


def test_a_prompt_speaks_to_its_chooser_and_names_the_variant():
    power = compile_power(check(parse(GOBLINS, "goblins.power")), ROOT / "goblins.power")
    assert prompts(power) == [
        ("basic", "Goblins: choose a card from your hand to give to the winner"),
        ("positive", "Goblins (+): choose up to 2 cards from your left neighbour's Expedition zone to take into "
                     "your hand"),
        ("negative", "Goblins (GRUDGE): Give away the trick?"),
        ("negative", "Goblins (GRUDGE): choose another Community that has more than 2 cards in its hand to gain "
                     "2 Survivors"),
    ]
