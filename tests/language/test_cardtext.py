"""Card text: every power in English, generated from the syntax tree (happydayz.language.cardtext)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from happydayz.language import ast
from happydayz.language.cardtext import (
    GENERATE_COMMAND,
    GOLDEN_COMMAND,
    bundled_power_files,
    card_text,
    gallery_markdown,
    load,
    main,
)
from happydayz.language.checker import check
from happydayz.language.english import singular
from happydayz.language.parser import parse
from happydayz.language.render import describe_choice, expr

from conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "cardtext"
POWER_FILES = bundled_power_files()
IDS = [p.stem for p in POWER_FILES]


def sentences(text: str) -> list[str]:
    """The sentences of a rendering's body (the header line left out); a timing phrase ending in ':' counts."""
    body = text.split("\n", 1)[1] if "\n" in text else ""
    return [s for s in re.findall(r"[^.:\n]+[.:](?=\s|$)", body) if s.strip()]


def variables(power: ast.PowerFile) -> set[str]:
    names = set()
    stack: list[object] = [power]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
            continue
        if not isinstance(node, ast.Node):
            continue
        if isinstance(node, (ast.Let, ast.Choose, ast.Each)):
            names.add(node.name)
        if isinstance(node, ast.Comprehension):
            names.add(node.var)
        stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "span")
    return names


def assert_reads_as_english(text: str, power: ast.PowerFile) -> None:
    for bad in ("None", "NameRef", "Compare", "{", "}", "_", "  .", " ,", "..", "::"):
        assert bad not in text, f"{bad!r} leaks into the card text:\n{text}"
    for line in text.splitlines():
        body = line.lstrip(" -")
        if body:
            assert body[0].isupper() or body[0] in "“(", f"a line starts in lowercase: {line!r}\n{text}"
            assert not line.endswith(" "), f"trailing space: {line!r}"
    # variable names of the file never show: they are replaced by words ("it", "that card", ...)
    allowed = {"card", "cards", "chosen"}
    for name in variables(power) - allowed:
        assert not re.search(rf"\b{re.escape(name)}\b", text), f"the variable '{name}' leaks into:\n{text}"


# ---------------------------------------------------------------- bundled powers


def test_the_bundled_powers_are_found():
    assert len(POWER_FILES) >= 20


@pytest.mark.parametrize("path", POWER_FILES, ids=IDS)
def test_every_power_renders_to_sentences(path: Path):
    checked = load(path)
    text = card_text(checked)
    assert text.splitlines()[0].startswith(f"{checked.power.name} — ")
    assert len(sentences(text)) >= 2, text
    assert_reads_as_english(text, checked.power)


@pytest.mark.parametrize("path", POWER_FILES, ids=IDS)
def test_every_variant_renders_alone(path: Path):
    checked = load(path)
    if not checked.power.variants:
        assert card_text(checked, None) == card_text(checked.power)
        return
    full = card_text(checked)
    for variant in checked.power.variants:
        text = card_text(checked, variant.kind)
        word = variant.kind.capitalize()
        heading = f"{word} — {variant.title}" if variant.title else word
        assert heading in text.splitlines()
        assert len(sentences(text)) >= 2, text
        assert_reads_as_english(text, checked.power)
        body = text.split("\n\n", 1)[1]
        assert body in full  # the variant alone is the same text as within the whole power
        others = [v for v in checked.power.variants if v is not variant]
        for other in others:
            other_word = other.kind.capitalize()
            assert not any(line.startswith(other_word) for line in text.splitlines()[1:])


@pytest.mark.parametrize("path", POWER_FILES, ids=IDS)
def test_rendering_matches_the_reviewed_golden_file(path: Path):
    golden = GOLDEN / f"{path.stem}.txt"
    text = card_text(load(path)) + "\n"
    if not golden.is_file():
        pytest.fail(f"no golden file {golden}: generate it with `{GOLDEN_COMMAND}`, then read it and check that it makes sense")
    expected = golden.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            f"{golden.name} (golden)", f"{path.name} (rendered now)"))
        pytest.fail(f"the card text of {path.name} changed:\n{diff}\n"
                    f"If the new text is right, regenerate the golden files with `{GOLDEN_COMMAND}` "
                    "and read the changed ones; otherwise fix happydayz/cardtext.py.")


def test_no_golden_file_is_left_over():
    stems = {p.stem for p in POWER_FILES}
    extra = sorted(p.name for p in GOLDEN.glob("*.txt") if p.stem not in stems)
    assert not extra, f"golden files without a power file: {extra}; delete them or run `{GOLDEN_COMMAND}`"


def test_the_gallery_page_is_up_to_date():
    page = ROOT / "docs" / "powers.md"
    assert page.is_file(), f"docs/powers.md is missing: generate it with `{GENERATE_COMMAND}`"
    current = page.read_text(encoding="utf-8")
    fresh = gallery_markdown()
    if current != fresh:
        diff = "".join(difflib.unified_diff(current.splitlines(True), fresh.splitlines(True),
                                            "docs/powers.md", "gallery_markdown()"))
        pytest.fail(f"docs/powers.md is stale: regenerate it with `{GENERATE_COMMAND}`\n{diff}")


def test_the_gallery_holds_every_power_and_variant():
    page = gallery_markdown()
    assert GENERATE_COMMAND in page
    for path in POWER_FILES:
        power = load(path).power
        assert f"## `{path.name}`" in page
        assert f"**{power.name}**" in page
        for variant in power.variants:
            if variant.title:
                assert variant.title in page


# ---------------------------------------------------------- variants and headers

POWER = """
power Goblins {
  for faction Goblins

  variant basic {
    on win {
      choose target from others {
        move trick to expedition of target
      }
    }
  }

  variant positive "SHARING" {
    on win {
      draw 2
      gain 3
    }
  }

  variant negative "GREED" {
    at end of round {
      if count(expedition where faction is Goblins) > 2 {
        lose 1
      } else {
        gain 2
      }
    }
  }
}
"""


def test_a_new_faction_is_rendered_generically_from_its_file():
    text = card_text(check(parse(POWER)))
    assert text.splitlines()[0] == "Goblins — Faction power"
    assert "\nBasic\n" in text and "\nPositive — SHARING\n" in text and "\nNegative — GREED\n" in text
    assert "When you win a trick whose Faction led is Goblins" in text
    assert "choose another Community. Move the cards of this trick into its Expedition zone." in text
    assert "Draw the top 2 cards of the Reserve." in text
    assert "Gain 3 Survivors." in text
    assert "If you have more than 2 Goblins in your Expedition zone: lose 1 Survivor." in text
    assert "Otherwise: gain 2 Survivors." in text


def test_one_variant_by_kind_or_title():
    tree = parse(POWER)
    positive = card_text(tree, "positive")
    assert positive == card_text(tree, "SHARING") == card_text(tree, "sharing")
    assert "Positive — SHARING" in positive
    assert "Basic" not in positive and "GREED" not in positive
    with pytest.raises(ValueError, match="no variant 'shiny'"):
        card_text(tree, "shiny")


def test_a_parsed_tree_and_a_checked_power_give_the_same_text():
    tree = parse(POWER)
    assert card_text(tree) == card_text(check(tree))


def test_headers_say_what_the_power_is_bound_to():
    card = parse("power Relic {\n for card\n at end of round { gain 1 }\n}")
    added = parse("power Flood {\n added\n at end of round { lose 2 }\n}")
    other = parse("power Stampede {\n for faction Cows\n on win { draw 1 }\n}")
    assert card_text(card).startswith("Relic — Card power (for the card that carries it)\n")
    assert "if this card is in your Expedition zone" in card_text(card)
    assert card_text(added).startswith("Flood — Added power\n")
    assert card_text(other).startswith("Stampede — Faction power of Cows\n")
    with pytest.raises(ValueError, match="no variants"):
        card_text(added, "positive")


def test_rules_name_one_card_of_the_faction():
    tree = parse('power "Night Guards" {\n for faction "Night Guards"\n'
                 ' rule always playable\n rule trumps when void and led is not Ghosts\n rule blocks led power\n}')
    text = card_text(tree)
    assert "A Night Guard may be played in place of any card" in text
    assert "A Night Guard played by a Community that has no card of the Faction led wins the trick, unless the Faction led is Ghosts." in text
    assert "When a Night Guard wins a trick this way, the power of the Faction led is not triggered." in text


@pytest.mark.parametrize("name, one", [("Police Officers", "Police Officer"), ("Mini-van", "Mini-van"),
                                       ("Children", "Child"), ("Hippies", "Hippie"), ("Glass", "Glass")])
def test_singular(name, one):
    assert singular(name) == one


# ------------------------------------------------------------ every construct

KITCHEN_SINK = """
power "Kitchen Sink" {
  for faction Sinks

  variant basic {
    on win {
      let n = count(hand) + 1
      set n = n * 2
      ask "Keep the Encounter card?" {
        move encounter to hand
      } else {
        discard encounter
      }
      ask "Give?" by left {
        gain 1 for left
      }
      repeat 2 {
        draw 1 for right
      }
      each c in others {
        gain 1 for c
        choose card from hand of c by c {
          move card to transfer of c
        }
      }
      each card in trick where value > 3 {
        move card to top of reserve
      }
      choose 2 cards from last(reserve, 3) {
        move cards to hand
      } else {
        lose n
      }
      if population(self) > population(left) or not (led is Sinks) {
        next leader leader
      } else if count(reserve) == 0 {
        next lead led
      } else {
        lose -3
      }
      choose c from everyone with strictly fewest count(hand of it) {
        gain max(1, 10 / count(expedition of c), sum(value of x for x in held)) for c
      }
      deal hand to others by highest value then lowest survivors
      move highest(expedition where survivors < 0, 2) + lowest(held) to discard
      choose f from factions except [Sinks] {
        if count(expedition where faction is f) >= count(expedition of left where faction is f) {
          gain count(everyone where count(expedition of it where faction is not f) < 2)
        }
      }
      choose up to 3 xs from (hand where faction is led) otherwise transfer {
        each x in xs {
          discard x
        }
      }
    }
  }

  variant positive {
    rule trumps when value of played > 5 and side is plus
    rule never leads
    at end of round {
      lose max(0, 4 - count(hand))
      gain min(population(self), round)
      gain sum(count(expedition where faction is g) for g in factions)
      if self in others with most count(expedition of it) {
        gain players
      }
      if count(expedition where faction is Sinks) < count(expedition of right where faction is Sinks) {
        lose 1
      }
      let pick = random(held, 2)
      move pick to expedition of right
      each giver in everyone simultaneously {
        let nbr = left of giver
        choose card from held of giver by giver { move card to hand of nbr }
      }
    }
  }

  variant negative {
    rule blocks led power
    rule face up
    rule carried over
  }
}
"""


def test_every_statement_and_expression_renders():
    tree = parse(KITCHEN_SINK)
    text = card_text(tree)
    assert_reads_as_english(text, tree)
    for words in ("If you answer yes to “Keep the Encounter card?”: take the Encounter card into your hand.",
                  "Otherwise: discard the Encounter card.",
                  "Do this twice: your right neighbour draws the top card of the Reserve.",
                  "Each other Community in turn, starting with your left neighbour:",
                  "For each card of this trick with a value above 3: put it on top of the Reserve.",
                  "Take note of the number of cards in your hand plus 1.",
                  "That number now becomes twice that number.",
                  "If there is nothing to choose: lose Survivors equal to that number.",
                  "Otherwise: gain 3 Survivors.",
                  "Lose 4 Survivors minus 1 for each card in your hand (never fewer than 0).",
                  "If you have fewer Sinks in your Expedition zone than your right neighbour, lose 1 Survivor.",
                  "Pick 2 cards at random from your hand or Transfer zone.",
                  "Each Community, all at the same time, chooses a card from its hand or Transfer zone. "
                  "That card goes into its left neighbour's hand."):
        assert words in text, f"{words!r} not in:\n{text}"


# ------------------------------------------------------------------ the module


def test_the_renderer_names_no_faction_power_or_box():
    banned = ("hippie", "soldier", "dogs", "survivalist", "cheerleader", "biker", "mini-van", "police", "governor",
              "nurse", "preacher", "scientist", "bunker", "horde", "patient zero", "woodstock", "american dream",
              "children", "zombie")
    for name in ("language/cardtext.py", "language/render.py", "language/english.py"):
        source = (ROOT / "interpreter" / name).read_text(encoding="utf-8").lower()
        found = [word for word in banned if word in source]
        assert not found, f"interpreter/{name} names {found}: card text must come from the power files"


def test_decision_prompts_still_work():
    tree = parse(POWER)
    choose = tree.variants[0].hooks[0].body.statements[0]
    assert describe_choice(choose) == "choose one from the other Communities"
    assert expr(choose.source) == "the other Communities"


def test_main_writes_the_golden_files(tmp_path, capsys):
    assert main(["--write-golden", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.txt"))
    assert written == sorted(f"{p.stem}.txt" for p in POWER_FILES)
    assert main([str(POWER_FILES[0]), "--variant", "basic"]) == 0
    assert capsys.readouterr().out


# ------------------------------------------------------------------ issue 14

NEW_CONSTRUCTS = ROOT / "tests" / "language" / "data" / "every_new_construct.power"


def test_the_new_constructs_read_as_english():
    tree = parse(NEW_CONSTRUCTS.read_text(encoding="utf-8"))
    text = card_text(tree)
    assert_reads_as_english(text, tree)
    expected = NEW_CONSTRUCTS.with_suffix(".txt").read_text(encoding="utf-8")
    assert text + "\n" == expected, (f"the card text of {NEW_CONSTRUCTS.name} changed; if the new text reads right, "
                                     f"write it to {NEW_CONSTRUCTS.with_suffix('.txt').name}:\n{text}")
    for words in ("Each Community keeps a secret count of points, back to 0 each round.",
                  "The game keeps a mark “alarm”, not set at first and cleared each round.",
                  "When a card of this Faction is played:",
                  "When a card of this Faction leads a trick:",
                  "When a trick is won, for each card of this Faction you played to it:",
                  "After every trick, for the Community that won it: if the number of tricks the Community that won the trick has won this round is "
                  "at least 3",
                  "At the start of the round, after the deal: choose a number from 1 to 5. Add the number chosen to "
                  "your points.",
                  "At the end of the game, after the last count:",
                  "This Faction's cards cannot win a trick when there are fewer than 2 cards of this trick.",
                  "A Tinkerer must be played when its holder has no card of the Faction led:",
                  "If the card that would win a trick is a Biker or a Hippie, a Tinkerer played to it wins it instead.",
                  "Add 2 to the points of the Community that won the trick.",
                  "Subtract 1 from the points of the Community that played the winning card.",
                  "The trick is now played on the − side.",
                  "The trick ends now, and the Communities that have not played to it yet do not play to it.",
                  "the round ends after this trick, and the count follows.",
                  "The card played counts as a card of the Faction led for the rest of the trick.",
                  "Choose one: “Ring once”: add 1 to the game's bells; or “Ring twice”: add 2 to the game's bells.",
                  "Choose a side (+ or −). The trick is now played on the side chosen."):
        assert words in text, f"{words!r} not in:\n{text}"


NEGATIVE_AMOUNTS = """\
power Signs {
  for faction Signs
  counter debt
  on win {
    gain -3
    lose -2
    gain -sum(value of c for c in trick)
    gain 0 - count(hand)
    gain -2 * count(hand)
    gain count(hand) * -1
    lose -count(hand) + 1
    gain -count(hand) + 3
    gain 3 - -count(hand)
    gain -3 for left
    add -1 to debt
    set debt = debt - -2
    let loss = -count(hand)
    gain loss
  }
}
"""


def test_a_negative_amount_reads_the_way_a_player_reads_it():
    tree = parse(NEGATIVE_AMOUNTS)
    lines = card_text(tree).splitlines()[5:]
    assert lines == [
        "Lose 3 Survivors.",  # gain -3
        "Gain 2 Survivors.",  # lose -2
        "Lose Survivors equal to the total value of the cards of this trick.",  # gain -sum(...)
        "Lose 1 Survivor for each card in your hand.",  # gain 0 - count(hand)
        "Lose 2 Survivors for each card in your hand.",  # gain -2 * count(hand)
        "Lose 1 Survivor for each card in your hand.",  # gain count(hand) * -1
        "Lose 1 Survivor minus 1 for each card in your hand.",  # lose -count(hand) + 1: lose 1 - count(hand)
        "Gain 3 Survivors minus 1 for each card in your hand.",  # gain -count(hand) + 3: gain 3 - count(hand)
        "Gain 3 Survivors plus 1 for each card in your hand.",  # gain 3 - -count(hand)
        "Your left neighbour loses 3 Survivors.",  # gain -3 for left
        "Subtract 1 from the game's debt.",  # add -1 to debt
        "Add 2 to the game's debt.",  # set debt = debt - -2
        "Lose 1 Survivor for each card in your hand.",  # let loss = -count(hand); gain loss
    ]
    assert "minus the" not in card_text(tree) and "equal to minus" not in card_text(tree)
