"""`happydayz fmt`: the canonical layout of power files (happydayz.language.formatter, docs/fmt.md).

Properties, on every bundled power file and on random programs built from the
grammar: formatting is idempotent, keeps the meaning (the same syntax tree,
spans aside), keeps every comment in order, and gives the documented layout.
Text that does not parse raises SyntaxProblem with a position, nothing else.
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Token

from conftest import library

from happydayz.language import ast
from happydayz.language.checker import check
from happydayz.language.compiler import compile_power
from happydayz.base.errors import SyntaxProblem
from happydayz.language.formatter import format_paths, format_source
from happydayz.language.grammar import grammar_text
from happydayz.language.parser import parse
from happydayz.language.loader import load_power
from happydayz.base.resources import data_dir

POWERS = sorted(data_dir("powers").glob("*.power"))
IDS = [p.stem for p in POWERS]


# ------------------------------------------------------------------ helpers


def shape(node):
    """A syntax tree without its spans nor its source text (independent of the formatter's own)."""
    if isinstance(node, ast.Node):
        return (type(node).__name__, tuple((f.name, shape(getattr(node, f.name)))
                                            for f in dataclasses.fields(node) if f.name not in ("span", "source")))
    if isinstance(node, tuple):
        return tuple(shape(n) for n in node)
    return node


@lru_cache(maxsize=None)
def _lexing_parser() -> tuple[Lark, list]:
    found: list = []
    parser = Lark(grammar_text(), parser="lalr", lexer="contextual", keep_all_tokens=True,
                  maybe_placeholders=False, propagate_positions=True, lexer_callbacks={"COMMENT": found.append})
    return parser, found


def lexed(text: str) -> tuple[list[Token], list[str]]:
    """The tokens of the program (comments aside) and its comments' texts (trailing blanks cut)."""
    parser, found = _lexing_parser()
    found.clear()
    tree = parser.parse(text)
    tokens = list(tree.scan_values(lambda v: isinstance(v, Token)))
    comments = [str(c).rstrip() for c in found]
    found.clear()
    return tokens, comments


def assert_canonical_layout(text: str, tokens: list[Token] | None = None) -> None:
    """The layout rules of docs/fmt.md that can be checked on any output (`tokens`: its tokens, if lexed already)."""
    assert text.endswith("\n") and not text.endswith("\n\n"), "exactly one final newline"
    assert "\r" not in text
    lines = text.split("\n")[:-1]
    assert lines[0].strip(), "no blank line at the start"
    for line in lines:
        assert line == line.rstrip(), f"trailing whitespace: {line!r}"
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, f"indentation is 2 spaces a level: {line!r}"
        assert not line.lstrip(" ").startswith("\t"), f"no tab in indentation: {line!r}"
    assert "\n\n\n" not in text, "at most one blank line in a row"
    if tokens is None:
        tokens, _ = lexed(text)
    depth = 0
    previous_line = 0
    for i, tok in enumerate(tokens):
        if tok.type == "RBRACE":
            depth -= 1
        if tok.line != previous_line:
            assert tok.column - 1 == 2 * depth, f"line {tok.line} is indented {tok.column - 1}, expected {2 * depth}"
            previous_line = tok.line
        if tok.type == "LBRACE":
            depth += 1
            nxt = tokens[i + 1]
            assert nxt.line > tok.line, f"'{{' ends its line (line {tok.line})"
        if tok.type == "RBRACE" and i:
            assert tokens[i - 1].line < tok.line, f"'}}' starts its line (line {tok.line})"
    # Comment lines are indented like the code after them (or one level deeper before a '}').
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("#"):
            indent = (len(line) - len(line.lstrip(" "))) // 2
            following = next((t for t in tokens if t.line > number), None)
            if following is None:
                assert indent == 0
            else:
                code_depth = (following.column - 1) // 2
                expected = code_depth + 1 if following.type == "RBRACE" else code_depth
                assert indent == expected, f"comment on line {number} is indented {indent} levels, expected {expected}"


def check_formatting(text: str) -> str:
    """Every property of one formatting, on one input text; returns the result."""
    before = parse(text)
    out = format_source(text)
    assert format_source(out) == out, "idempotent"
    assert shape(parse(out)) == shape(before), "the same syntax tree"
    old_tokens, old_comments = lexed(text)
    new_tokens, new_comments = lexed(out)
    assert [(t.type, str(t)) for t in new_tokens] == [(t.type, str(t)) for t in old_tokens], "the same tokens"
    assert new_comments == old_comments, "every comment kept, in order"
    assert_canonical_layout(out, new_tokens)
    return out


def known_factions() -> set[str]:
    return set(library().all_factions())


# ------------------------------------------------------------------ bundled files


@pytest.mark.parametrize("path", POWERS, ids=IDS)
def test_bundled_power_formatting_properties(path: Path):
    check_formatting(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", POWERS, ids=IDS)
def test_bundled_power_still_compiles_after_formatting(path: Path, tmp_path: Path):
    formatted = tmp_path / path.name
    formatted.write_text(format_source(path.read_text(encoding="utf-8"), str(path)), encoding="utf-8")
    known = known_factions()
    original = load_power(path, known)
    again = load_power(formatted, known)
    assert set(again.variants) == set(original.variants)
    assert again.fixed == original.fixed
    # The checked trees agree too (types and all), spans aside.
    assert shape(parse(formatted.read_text(encoding="utf-8"))) == shape(parse(path.read_text(encoding="utf-8")))
    compile_power(check(parse(formatted.read_text(encoding="utf-8"), str(formatted)), known), formatted)


@pytest.mark.parametrize("path", POWERS, ids=IDS)
def test_bundled_powers_are_formatted(path: Path):
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text, f"{path.name} is not in the canonical layout: run happydayz fmt"


# ------------------------------------------------------------------ the layout, by example

MESSY = '''# header comment


power   X{# on the power line
for card
  at end of round {   let x=- ( 1+2 )*f( )   # after let
    if not x is   not 3 { gain [1,2,Mini-van ,"Police Officers"] }
    # before else
    else if x {lose 1} else { lose sum( x for y in z ) }



    # lonely


    gain value of(x)
    # end of block
  }
  rule trumps when played
  rule face up

  rule never leads
  variant basic "T" { on win { } }
}
# eof'''

MESSY_FORMATTED = '''# header comment

power X {  # on the power line
  for card

  at end of round {
    let x = -(1 + 2) * f()  # after let
    if not x is not 3 {
      gain [1, 2, Mini-van, "Police Officers"]
      # before else
    } else if x {
      lose 1
    } else {
      lose sum(x for y in z)
    }

    # lonely

    gain value of (x)
    # end of block
  }

  rule trumps when played
  rule face up

  rule never leads

  variant basic "T" {
    on win {
    }
  }
}
# eof
'''


def test_a_messy_file_gets_the_canonical_layout():
    assert format_source(MESSY) == MESSY_FORMATTED
    check_formatting(MESSY)


def test_the_example_of_docs_fmt_md():
    doc = (data_dir("powers").parent / "docs" / "fmt.md").read_text(encoding="utf-8")
    example = doc.split("## Example", 1)[1].split("## The rules", 1)[0]
    before, after = re.findall(r"```\n(.*?)```", example, re.S)
    assert format_source(before) == after
    check_formatting(before)


def test_crlf_tabs_and_missing_final_newline():
    text = "power X {\r\n\tfor card\r\n\ton win {\r\n\t\tgain 1\t# one\t\r\n\t}\r\n}"
    assert format_source(text) == "power X {\n  for card\n\n  on win {\n    gain 1  # one\n  }\n}\n"


def test_comments_inside_an_expression_move_above_its_line():
    text = (
        "power X {\n  for card\n  on win {\n"
        "    gain 1 +  # first\n"
        "      # second\n"
        "      2  # third\n"
        "    gain (\n      3 # fourth\n    )\n"
        "  }\n}\n"
    )
    out = check_formatting(text)
    assert out == (
        "power X {\n  for card\n\n  on win {\n"
        "    # first\n"
        "    # second\n"
        "    gain 1 + 2  # third\n"
        "    gain (3)  # fourth\n"
        "  }\n}\n"
    )


def test_names_numbers_and_strings_print_as_written():
    text = 'power "Quoted" {\n  for faction "Bikers"\n  on win {\n    gain 007 + count(expedition where faction is "Mini-van")\n  }\n}\n'
    out = check_formatting(text)
    assert 'power "Quoted" {' in out and 'for faction "Bikers"' in out and "gain 007 +" in out and 'is "Mini-van")' in out


def test_variants_and_hooks_are_separated_by_one_blank_line():
    text = ("power X { for faction X variant basic { on win { gain 1 } at end of round { gain 2 } }"
            " variant positive { rule face up } on win { gain 3 } rule face up rule never leads }")
    assert format_source(text) == (
        "power X {\n"
        "  for faction X\n"
        "\n"
        "  variant basic {\n"
        "    on win {\n"
        "      gain 1\n"
        "    }\n"
        "    at end of round {\n"
        "      gain 2\n"
        "    }\n"
        "  }\n"
        "\n"
        "  variant positive {\n"
        "    rule face up\n"
        "  }\n"
        "\n"
        "  on win {\n"
        "    gain 3\n"
        "  }\n"
        "\n"
        "  rule face up\n"
        "  rule never leads\n"
        "}\n"
    )


def test_every_statement_form():
    text = """power X { added at end of round {
choose 2 xs from everyone by left { discard xs } else { draw 1 for self }
choose up to 3 xs from hand { move xs to top of reserve }
choose x from others { move x to bottom of reserve }
ask "Really?" by right of self { move hand to discard } else { move held to hand of left }
each c in everyone simultaneously { move transfer of c to expedition }
repeat 2 { set n = n+1 }
deal trick to everyone by lowest survivors then highest value
gain -n for left
lose --1
next leader leader
next lead Zombies
let s = hand where value>=2 except [ ] otherwise reserve with strictly fewest survivors of it
let b = not (a or b) and c in d and e not in f
} }"""
    out = check_formatting(text)
    assert "    choose 2 xs from everyone by left {\n      discard xs\n    } else {\n      draw 1 for self\n    }\n" in out
    assert "    repeat 2 {\n      set n = n + 1\n    }\n" in out
    assert "    lose --1\n" in out and "    gain -n for left\n" in out
    assert "hand where value >= 2 except [] otherwise reserve with strictly fewest survivors of it" in out
    assert "not (a or b) and c in d and e not in f" in out


NEW_CONSTRUCTS = Path(__file__).parent / "data" / "every_new_construct.power"


def test_the_new_constructs_round_trip():
    """Every construct of issue 14: formatting keeps the tree, is idempotent, and the file is in its layout."""
    text = NEW_CONSTRUCTS.read_text(encoding="utf-8")
    assert check_formatting(text) == text
    code = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))  # the header comment
    joined = check_formatting(" ".join(code.split()))  # the whole power on one line: the same, blank lines aside
    assert [line for line in joined.splitlines() if line] == [line for line in code.splitlines() if line]


def test_the_layout_of_the_new_constructs():
    text = """power X { for faction X counter points per community for round secret
mark seen


counter bells for game public
variant basic { rule wins when played is winning rule never wins rule wild rule beats [A, B]
rule leads only when points of self < 3 rule only leads rule must be played when void
on play { add -1 to points of player(played) set seen of left = true declare played as led set side = minus flip side end trick }
on lead { choose by left "Take" { set bells = bells+1 } or "Pass" {} or "Other" { end round } }
after trick { choose way from sides { set side = way } } at start of round { choose n from numbers(1,5) { add n to bells } }
on trick { end round } at end of game { gain points } } }"""
    out = check_formatting(text)
    assert out == """power X {
  for faction X

  counter points per community for round secret
  mark seen

  counter bells for game public

  variant basic {
    rule wins when played is winning
    rule never wins
    rule wild
    rule beats [A, B]
    rule leads only when points of self < 3
    rule only leads
    rule must be played when void
    on play {
      add -1 to points of player(played)
      set seen of left = true
      declare played as led
      set side = minus
      flip side
      end trick
    }
    on lead {
      choose by left "Take" {
        set bells = bells + 1
      } or "Pass" {
      } or "Other" {
        end round
      }
    }
    after trick {
      choose way from sides {
        set side = way
      }
    }
    at start of round {
      choose n from numbers(1, 5) {
        add n to bells
      }
    }
    on trick {
      end round
    }
    at end of game {
      gain points
    }
  }
}
"""


# ------------------------------------------------------------------ random programs

NAMES = ["x", "y", "kids", "self", "it", "total_2", "_t", "count"]
CAPNAMES = ["Bikers", "Mini-van", "Zombies", "X1", "O'Neil", "A_b-c"]
STRINGS = ['"Police Officers"', '"a # not a comment"', '""', '"{ }"']
COMP_OPS = [["=="], ["!="], ["<"], ["<="], [">"], [">="], ["is"], ["is", "not"], ["in"], ["not", "in"]]
ZONES = ["hand", "transfer", "held", "expedition"]
ATTRS = ["value", "survivors", "faction"]
EXTREMES = [["most"], ["fewest"], ["strictly", "most"], ["strictly", "fewest"]]
LEVELS = ["or", "and", "not", "cmp", "set", "sum", "prod", "unary", "atom"]
GLUE = set("(){}[],")


def _leaf(draw) -> list[str]:
    kind = draw(st.sampled_from(["int", "string", "cap", "name", "attr", "zone", "side"]))
    if kind == "int":
        return [str(draw(st.integers(0, 999)))]
    if kind == "string":
        return [draw(st.sampled_from(STRINGS))]
    if kind == "cap":
        return [draw(st.sampled_from(CAPNAMES))]
    if kind == "name":
        return [draw(st.sampled_from(NAMES))]
    if kind == "attr":
        return [draw(st.sampled_from(ATTRS))]
    if kind == "zone":
        return [draw(st.sampled_from(ZONES))]
    return [draw(st.sampled_from(["left", "right"]))]


def _args(draw, depth: int, at_least: int) -> list[str]:
    out: list[str] = []
    for i in range(draw(st.integers(at_least, 3))):
        if i:
            out.append(",")
        out += _expr(draw, "or", depth - 1)
    return out


def _atom(draw, depth: int) -> list[str]:
    if depth <= 0:
        return _leaf(draw)
    kind = draw(st.sampled_from(["leaf", "attr_of", "zone_of", "side_of", "call", "aggregate", "comprehension",
                                 "list", "parens", "parens", "state_of"]))
    if kind == "leaf":
        return _leaf(draw)
    if kind == "attr_of":
        return [draw(st.sampled_from(ATTRS)), "of"] + _atom(draw, depth - 1)
    if kind == "zone_of":
        return [draw(st.sampled_from(ZONES)), "of"] + _atom(draw, depth - 1)
    if kind == "side_of":
        return [draw(st.sampled_from(["left", "right"])), "of"] + _atom(draw, depth - 1)
    if kind == "state_of":
        return [draw(st.sampled_from(NAMES)), "of"] + _atom(draw, depth - 1)
    if kind == "call":
        return [draw(st.sampled_from(NAMES)), "("] + _args(draw, depth, 0) + [")"]
    if kind == "aggregate":
        return [draw(st.sampled_from(["sum", "min", "max"])), "("] + _args(draw, depth, 1) + [")"]
    if kind == "comprehension":
        return ([draw(st.sampled_from(["sum", "min", "max"])), "("] + _expr(draw, "or", depth - 1)
                + ["for", draw(st.sampled_from(NAMES)), "in"] + _expr(draw, "or", depth - 1) + [")"])
    if kind == "list":
        return ["["] + _args(draw, depth, 0) + ["]"]
    return ["("] + _expr(draw, "or", depth - 1) + [")"]


def _expr(draw, level: str, depth: int) -> list[str]:
    """Tokens of an expression that parses at grammar level `level` (or tighter)."""
    if depth <= 0:
        return _leaf(draw)
    at = draw(st.sampled_from(LEVELS[LEVELS.index(level):]))
    d = depth - 1
    if at == "or":
        return _expr(draw, "or", d) + ["or"] + _expr(draw, "and", d)
    if at == "and":
        return _expr(draw, "and", d) + ["and"] + _expr(draw, "not", d)
    if at == "not":
        return ["not"] + _expr(draw, "not", d)
    if at == "cmp":
        return _expr(draw, "set", d) + draw(st.sampled_from(COMP_OPS)) + _expr(draw, "set", d)
    if at == "set":
        form = draw(st.sampled_from(["where", "except", "otherwise", "with"]))
        left = _expr(draw, "set", d)
        if form == "where":
            return left + ["where"] + _expr(draw, "sum", d) + draw(st.sampled_from(COMP_OPS)) + _expr(draw, "sum", d)
        if form == "with":
            return left + ["with"] + draw(st.sampled_from(EXTREMES)) + _expr(draw, "sum", d)
        return left + [form] + _expr(draw, "sum", d)
    if at == "sum":
        return _expr(draw, "sum", d) + [draw(st.sampled_from(["+", "-"]))] + _expr(draw, "prod", d)
    if at == "prod":
        return _expr(draw, "prod", d) + [draw(st.sampled_from(["*", "/"]))] + _expr(draw, "unary", d)
    if at == "unary":
        return ["-"] + _expr(draw, "unary", d)
    return _atom(draw, depth)


def _block(draw, depth: int) -> list[str]:
    out = ["{"]
    for _ in range(draw(st.integers(0, 3 if depth > 0 else 2))):
        out += _stmt(draw, depth)
    return out + ["}"]


def _e(draw) -> list[str]:
    return _expr(draw, "or", draw(st.integers(0, 4)))


def _stmt(draw, depth: int) -> list[str]:
    simple = ["let", "set", "move", "discard", "draw", "deal", "gain", "lose", "next_leader", "next_lead",
              "add", "set_of", "declare", "set_side", "flip_side", "end"]
    nested = ["choose", "ask", "if", "each", "repeat", "choose_mode"] if depth > 0 else []
    kind = draw(st.sampled_from(simple + nested + nested))
    name = draw(st.sampled_from(NAMES))
    maybe = lambda: draw(st.booleans())  # noqa: E731
    if kind in ("let", "set"):
        return [kind, name, "="] + _e(draw)
    if kind == "move":
        dest = draw(st.sampled_from(["zone", "zone_of", "top", "bottom", "discard"]))
        tail = {"zone": [draw(st.sampled_from(ZONES))], "top": ["top", "of", "reserve"],
                "bottom": ["bottom", "of", "reserve"], "discard": ["discard"]}.get(dest)
        if tail is None:
            tail = [draw(st.sampled_from(ZONES)), "of"] + _e(draw)
        return ["move"] + _e(draw) + ["to"] + tail
    if kind == "discard":
        return ["discard"] + _e(draw)
    if kind in ("draw", "gain", "lose"):
        return [kind] + _e(draw) + (["for"] + _e(draw) if maybe() else [])
    if kind == "deal":
        out = ["deal"] + _e(draw) + ["to"] + _e(draw)
        if maybe():
            keys = [[draw(st.sampled_from(["highest", "lowest"])), draw(st.sampled_from(ATTRS))]
                    for _ in range(draw(st.integers(1, 3)))]
            out += ["by"] + keys[0]
            for key in keys[1:]:
                out += ["then"] + key
        return out
    if kind == "next_leader":
        return ["next", "leader"] + _e(draw)
    if kind == "next_lead":
        return ["next", "lead"] + _e(draw)
    if kind == "add":
        return ["add"] + _e(draw) + ["to", name] + (["of"] + _e(draw) if maybe() else [])
    if kind == "set_of":
        return ["set", name, "of"] + _e(draw) + ["="] + _e(draw)
    if kind == "declare":
        return ["declare"] + _e(draw) + ["as"] + _e(draw)
    if kind == "set_side":
        return ["set", "side", "="] + _e(draw)
    if kind == "flip_side":
        return ["flip", "side"]
    if kind == "end":
        return ["end", draw(st.sampled_from(["trick", "round"]))]
    d = depth - 1
    if kind == "choose_mode":
        out = ["choose"] + (["by"] + _e(draw) if maybe() else [])
        for i in range(draw(st.integers(2, 3))):
            out += (["or"] if i else []) + [draw(st.sampled_from(STRINGS))] + _block(draw, d)
        return out
    if kind == "choose":
        count = draw(st.sampled_from([[], [str(draw(st.integers(1, 50)))], ["up", "to", str(draw(st.integers(1, 50)))]]))
        out = ["choose"] + count + [name, "from"] + _e(draw)
        if maybe():
            out += ["by"] + _e(draw)
        out += _block(draw, d)
        return out + (["else"] + _block(draw, d) if maybe() else [])
    if kind == "ask":
        out = ["ask", draw(st.sampled_from(STRINGS))] + (["by"] + _e(draw) if maybe() else []) + _block(draw, d)
        return out + (["else"] + _block(draw, d) if maybe() else [])
    if kind == "if":
        out = ["if"] + _e(draw) + _block(draw, d)
        while draw(st.integers(0, 2)) == 0:
            out += ["else", "if"] + _e(draw) + _block(draw, d)
        return out + (["else"] + _block(draw, d) if maybe() else [])
    if kind == "each":
        return ["each", name, "in"] + _e(draw) + (["simultaneously"] if maybe() else []) + _block(draw, d)
    return ["repeat", str(draw(st.integers(0, 50)))] + _block(draw, d)


HOOKS = [["on", "win"], ["at", "end", "of", "round"], ["on", "play"], ["on", "lead"], ["on", "trick"], ["after", "trick"],
         ["at", "start", "of", "round"], ["at", "end", "of", "game"]]
RULES = [["always", "playable"], ["never", "leads"], ["trumps", "when", "E"], ["blocks", "led", "power"], ["face", "up"],
         ["carried", "over"], ["wins"], ["wins", "when", "E"], ["never", "wins"], ["never", "wins", "when", "E"], ["wild"],
         ["beats", "E"], ["leads", "only", "when", "E"], ["only", "leads"], ["must", "be", "played", "when", "E"]]


def _hook_or_rule(draw) -> list[str]:
    if draw(st.booleans()):
        return draw(st.sampled_from(HOOKS)) + _block(draw, 2)
    out = ["rule"]
    for word in draw(st.sampled_from(RULES)):
        out += _e(draw) if word == "E" else [word]
    return out


def _state_decl(draw) -> list[str]:
    out = [draw(st.sampled_from(["counter", "mark"])), draw(st.sampled_from(NAMES))]
    out += draw(st.sampled_from([[], ["per", "community"]]))
    out += draw(st.sampled_from([[], ["for", "round"], ["for", "game"]]))
    return out + draw(st.sampled_from([[], ["public"], ["secret"]]))


def _power_tokens(draw) -> list[str]:
    name = draw(st.sampled_from(CAPNAMES + STRINGS))
    binding = draw(st.sampled_from([["for", "faction", draw(st.sampled_from(CAPNAMES + STRINGS))], ["for", "card"], ["added"]]))
    out = ["power", name, "{"] + binding
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            out += ["variant", draw(st.sampled_from(["basic", "positive", "negative"]))]
            if draw(st.booleans()):
                out.append(draw(st.sampled_from(STRINGS)))
            out.append("{")
            for _ in range(draw(st.integers(0, 3))):
                out += _hook_or_rule(draw)
            out.append("}")
        elif draw(st.integers(0, 3)) == 0:
            out += _state_decl(draw)
        else:
            out += _hook_or_rule(draw)
    return out + ["}"]


COMMENT_TEXT = st.text(alphabet=st.sampled_from(list("abc XYZ#\"{}()\t-")), max_size=12)


@st.composite
def separators(draw, glue_ok: bool) -> str:
    kind = draw(st.sampled_from(["space", "space", "space", "newline", "blank", "blanks", "indent", "comment", "comments", "none"]))
    if kind == "none":
        return "" if glue_ok else " "
    if kind == "space":
        return draw(st.sampled_from([" ", "  ", "\t"]))
    if kind == "newline":
        return "\n" + draw(st.sampled_from(["", "  ", "\t", "      "]))
    if kind == "blank":
        return "\n\n" + draw(st.sampled_from(["", "    "]))
    if kind == "blanks":
        return "\n  \n\n\t\n"
    if kind == "indent":
        return " \n   "
    if kind == "comment":
        return draw(st.sampled_from(["", " ", "   "])) + "#" + draw(COMMENT_TEXT) + "\n"
    lines = draw(st.lists(COMMENT_TEXT, min_size=1, max_size=3))
    return "\n" + "".join(draw(st.sampled_from(["", "\n", "  "])) + "#" + c + "\n" for c in lines)


@st.composite
def power_files(draw) -> str:
    tokens = _power_tokens(draw)
    parts = [draw(st.sampled_from(["", "", "# top\n", "\n\n# top\n\n", "  "]))]
    for i, tok in enumerate(tokens):
        if i:
            glue_ok = tok in GLUE or tokens[i - 1] in GLUE
            parts.append(draw(separators(glue_ok)))
        parts.append(tok)
    parts.append(draw(st.sampled_from(["", "\n", "\n\n\n", "  # end", "\n# end\n\n# really\n", " \n"])))
    return "".join(parts)


SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SLOW
@given(power_files())
def test_random_programs_format_idempotently_and_keep_meaning_and_comments(text: str):
    check_formatting(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(power_files())
def test_random_programs_format_the_same_from_any_layout(text: str):
    """Two layouts of the same program with the same comments and blank lines format the same:
    here, every run of spaces and tabs (outside strings and comments) becomes one space."""
    out = format_source(text)
    assert format_source(_squeeze_spaces(text)) == out


def _squeeze_spaces(text: str) -> str:
    """The text with runs of spaces/tabs squeezed, on every line without a string or a comment."""
    out_lines = []
    for line in text.split("\n"):
        if '"' in line or "#" in line:
            out_lines.append(line)
            continue
        out_lines.append(re.sub(r"[ \t]+", " ", line))
    return "\n".join(out_lines)


# ------------------------------------------------------------------ garbage in


def _assert_syntax_problem(text: str) -> None:
    try:
        format_source(text, "bad.power")
    except SyntaxProblem as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.span.file == "bad.power" and d.span.line >= 1 and d.span.column >= 1
            assert d.code.startswith("S")
        return
    raise AssertionError("expected a SyntaxProblem")


@pytest.mark.parametrize("text", [
    "", "   \n", "# only a comment\n", "power", "power X {", "power X { for card", "}}}", "power X { for card } }",
    'power X { for card on win { ask "unclosed } }', "power x { for card }", "power X { for card on win { gain 1 + } }",
    "power X { for card on win { repeat 99 { } } }", "power X { for card on win { gain 1234567 } }",
    "power X { for card on win { choose 51 x from hand { } } }", "\ufeffpower X { for card }",
    "power X { for card }\x00", "power X { for card } # ok\n power Y { added }",
    "power X { for card }" + " " * (300 * 1024),
])
def test_text_that_does_not_parse_raises_syntax_problem(text: str):
    _assert_syntax_problem(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_formats_or_raises_syntax_problem(text: str):
    try:
        out = format_source(text)
    except SyntaxProblem as exc:
        assert all(d.span.line >= 1 and d.span.column >= 1 for d in exc.diagnostics)
    else:
        assert format_source(out) == out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(power_files(), st.data())
def test_damaged_programs_format_or_raise_syntax_problem(text: str, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 8)))
    insert = data.draw(st.sampled_from(["", "{", "}", "(", '"', "#", "power", "else", ",", "-", "X", "x", "\n"]))
    damaged = text[:start] + insert + text[end:]
    try:
        out = format_source(damaged)
    except SyntaxProblem as exc:
        assert all(d.span.line >= 1 and d.span.column >= 1 for d in exc.diagnostics)
    else:
        assert check_formatting(damaged) == out


# ------------------------------------------------------------------ format_paths


GOOD = "power X {\n  for card\n}\n"


def test_format_paths_checks_and_writes(tmp_path: Path):
    folder = tmp_path / "powers"
    (folder / "deeper").mkdir(parents=True)
    tidy = folder / "tidy.power"
    tidy.write_text(GOOD, encoding="utf-8")
    messy = folder / "deeper" / "messy.power"
    messy.write_text("power X{for card}", encoding="utf-8")
    broken = folder / "broken.power"
    broken.write_text("power X {", encoding="utf-8")
    other = folder / "notes.txt"
    other.write_text("power X{for card}", encoding="utf-8")
    not_utf8 = folder / "latin.power"
    not_utf8.write_bytes(b"# caf\xe9\npower X { for card }\n")

    changed, problems = format_paths([str(folder), str(tmp_path / "missing")], check=True)
    assert changed == [messy]
    assert messy.read_text(encoding="utf-8") == "power X{for card}"  # check writes nothing
    assert sorted((Path(d.span.file).name, d.code) for d in problems) == [
        ("broken.power", "S002"), ("latin.power", "S006"), ("missing", "F001")]

    changed, problems = format_paths([folder, messy], check=False)  # a file named twice is done once
    assert changed == [messy]
    assert messy.read_text(encoding="utf-8") == GOOD
    assert tidy.read_text(encoding="utf-8") == GOOD
    assert broken.read_text(encoding="utf-8") == "power X {"  # a bad file is left alone
    assert other.read_text(encoding="utf-8") == "power X{for card}"  # not a .power file: not touched
    assert len(problems) == 2

    assert format_paths([folder], check=True)[0] == []


def test_format_paths_on_a_named_file_that_is_not_a_power_file(tmp_path: Path):
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    changed, problems = format_paths([other], check=False)
    assert changed == [] and [d.code for d in problems] == ["F002"]
    assert other.read_text(encoding="utf-8") == "hello"


def test_format_paths_keeps_the_compiled_meaning_of_the_bundled_powers(tmp_path: Path):
    """What reformatting powers/ would do, on a copy: every file still loads, to the same tree."""
    copy = tmp_path / "powers"
    copy.mkdir()
    for path in POWERS:
        (copy / path.name).write_bytes(path.read_bytes())
    format_paths([copy], check=False)
    known = known_factions()
    for path in POWERS:
        formatted = copy / path.name
        load_power(formatted, known)
        assert shape(parse(formatted.read_text(encoding="utf-8"))) == shape(parse(path.read_text(encoding="utf-8")))
    assert format_paths([copy], check=True) == ([], [])
