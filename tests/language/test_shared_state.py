"""Issue 27: state of every type shared by the powers of a game, game-wide trick rules, zones of a group.

The scripted games of the cookbook (trump-call, trump-call-comrades, whist-turned-trump, spades-called-trump,
mod-shifting-trumps, mod-team-spirit) prove what is played; these tests pin the checker's types, the set-up's
refusals, the layout `fmt` gives a typed mark, and the values the compiled code reads.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from happydayz.base.errors import DiagnosticSink, HappyError
from happydayz.language.checker import check
from happydayz.language.compiler import HOLDS_DEFAULT, SHARED_STATE, compile_power
from happydayz.language.formatter import format_source
from happydayz.language.parser import parse

from conftest import ROOT

COOKBOOK = ROOT / "docs" / "cookbook"


def codes(text: str) -> list[tuple[str, int]]:
    sink = DiagnosticSink()
    check(parse(text, "x.power"), None, sink)
    return [(d.code, d.span.line) for d in sink.items]


def power(body: str, binding: str = "added") -> str:
    return f"power X {{\n  {binding}\n{body}\n}}\n"


def test_a_mark_holds_each_type_and_is_set_and_read_with_it():
    text = power("""  mark f: Faction
  mark c: Card
  mark who: Community per community
  mark s: Side
  at start of round {
    set f = Hippies
    each top in first(reserve, 1) {
      set c = top
    }
    set who = left
    set s = minus
    if f is Hippies and count(c) > 0 and who == left and s == minus {
      gain 1
    }
  }""")
    assert codes(text) == []


@pytest.mark.parametrize("statement, line", [
    ("set f = 3", 7), ("set c = reserve", 7), ("set who = Hippies", 7), ("set s = true", 7),
    ("gain value of c", 7),  # a mark holding a card reads as Cards
    ("if f == self {\n      gain 1\n    }", 7),
])
def test_a_type_mismatch_is_an_error_at_its_line(statement, line):
    text = power(f"""  mark f: Faction
  mark c: Card
  mark who: Community
  at start of round {{
    {statement}
  }}
  mark s: Side""")
    found = codes(text)
    assert len(found) == 1 and found[0] in (("C010", line), ("C015", line)), found


def test_a_counter_with_a_type_or_a_mark_of_an_unknown_type_is_c071():
    assert codes(power("  counter n: Faction\n  at start of round {\n    gain n\n  }")) == [("C071", 3)]
    assert codes(power("  mark m: Colour\n  at start of round {\n    gain 1\n  }")) == [("C071", 3)]


def test_shared_state_is_declared_by_an_added_power_only():
    faction = "power X {\n  for faction Hippies\n  shared mark trump: Faction\n  rule trumps when trump is Hippies\n}\n"
    assert codes(faction) == [("C070", 3)]


def test_a_uses_line_types_the_name_in_its_own_file():
    reader = ("power X {\n  for faction Hippies\n  uses mark trump: Faction\n"
              "  rule trumps when void and trump == 3\n}\n")
    assert [c for c, _ in codes(reader)] == ["C015"]
    undeclared = "power X {\n  for faction Hippies\n  rule trumps when void and trump is Hippies\n}\n"
    assert [c for c, _ in codes(undeclared)] == ["C002"]


def test_a_shared_state_is_kept_under_the_games_key_and_a_mark_reads_its_default():
    tree = parse(power("  shared mark trump: Faction for round\n  mark lean: Side\n  mark who: Community\n"
                       "  mark top: Card\n  at start of round {\n    gain 1\n  }"), "x.power")
    compiled = compile_power(check(tree), Path("x.power"))
    assert compiled.state["trump"].key == SHARED_STATE + "trump" == "Shared:trump"
    assert compiled.state["trump"].shared == "declares" and compiled.state["lean"].key == "X:lean"
    assert {n: s.default for n, s in compiled.state.items()} == {"trump": None, "lean": "+", "who": 0, "top": None}
    assert HOLDS_DEFAULT == {"Faction": None, "Card": None, "Community": 0, "Side": "+"}


def test_fmt_glues_the_colon_of_a_typed_mark():
    messy = 'power X {\n  added\n  shared   mark trump :Faction for round\n  uses mark  who : Community\n' \
            '  at start of round {\n    gain 1\n  }\n}\n'
    assert format_source(messy, "x.power") == ('power X {\n  added\n\n  shared mark trump: Faction for round\n'
                                               '  uses mark who: Community\n\n  at start of round {\n    gain 1\n'
                                               '  }\n}\n')


def test_an_added_power_carries_rule_trumps_but_no_other_trick_rule():
    assert codes(power("  rule trumps when void and count(encounter where faction is led) > 0")) == []
    assert codes(power("  rule wins when void")) == [("C027", 3)]
    assert codes(power("  rule trumps when winner == self")) == [("C003", 3)]


def test_a_zone_of_a_group_of_communities_reads_but_a_move_goes_to_one():
    assert codes(power("  at end of round {\n    gain count(expedition of [self, left of left]) + "
                       "count(held of others)\n  }")) == []
    assert [c for c, _ in codes(power("  at end of round {\n    move reserve to hand of others\n  }"))] == ["C082"]


def test_a_game_whose_uses_line_names_nothing_declared_is_refused_at_set_up(tmp_path):
    from happydayz.authoring.testing import run_script
    from happydayz.data.environment import Environment

    for name in ("trump-call.power", "trump-call-comrades.power", "trump-call.scenario.yaml", "trump-call.yaml"):
        shutil.copy(COOKBOOK / name, tmp_path / name)
    reader = tmp_path / "trump-call-comrades.power"
    reader.write_text(reader.read_text(encoding="utf-8").replace("uses mark trump: Faction",
                                                                 "uses mark trump: Community")
                      .replace("trump is Comrades", "trump == self"), encoding="utf-8")
    result = run_script(tmp_path / "trump-call.yaml", Environment())
    assert not result.passed and result.error is not None and result.error.code == "G001"
    text = result.error.message
    assert "'uses mark trump: Community' does not match the declaration 'shared mark trump: Faction'" in text


COUNTS = "  shared mark trump: Faction for round\n  rule counts as trump ranked 19 when value of played == 11"


def test_an_added_power_carries_rule_counts_as_and_its_types_are_checked():
    assert codes(power(COUNTS)) == []
    assert codes(power(COUNTS + "\n  rule counts as trump ranked 20 when value of played == 12")) == []  # cases
    assert [c for c, _ in codes(power("  rule counts as 3 ranked 19 when void"))] != []  # not a Faction
    assert [c for c, _ in codes(power("  shared mark trump: Faction for round\n"
                                      "  rule counts as trump ranked trump when void"))] != []  # not a Number


def test_rule_counts_as_in_a_factions_power_is_c072():
    text = "power X {\n  for faction Nurses\n  rule counts as led ranked 19 when value of played == 11\n}\n"
    assert codes(text) == [("C072", 3)]


def test_fmt_keeps_a_rule_counts_as():
    messy = power(COUNTS).replace("counts as", "counts   as")
    assert "rule counts as trump ranked 19 when value of played == 11" in format_source(messy, "x.power")


def test_compile_keeps_each_rule_counts_as_in_order():
    text = power(COUNTS + "\n  rule counts as trump ranked 20 when value of played == 12")
    compiled = compile_power(check(parse(text, "x.power")), Path("x.power"))
    assert len(compiled.variant("fixed").counts_as) == 2


def _scenario_state(tmp_path, state: str, power_line: str = "uses mark trump: Faction"):
    mods = ROOT / "tests" / "games" / "mods"
    power = (mods / "callers.power").read_text(encoding="utf-8").replace("uses mark trump: Faction", power_line)
    (tmp_path / "callers.power").write_text(power, encoding="utf-8")
    scenario = (mods / "callers.scenario.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(scenario.replace('  - "mark trump: Faction for round"\n', state),
                                     encoding="utf-8")
    from happydayz.authoring.checking import check_paths
    return [(d.code, Path(d.span.file).name, d.span.line, d.message) for d in check_paths([tmp_path / "s.yaml"])]


def test_state_declared_in_the_scenario_is_checked_across_its_powers_at_their_lines(tmp_path):
    # issue 27: a scenario's `state:` declares shared state; check scenario.yaml checks each `uses` against it
    assert _scenario_state(tmp_path, '  - "mark trump: Faction for round"\n') == []
    assert _scenario_state(tmp_path, '  - "mark trump: Side"\n') == [
        ("D051", "callers.power", 5, "'uses mark trump: Faction' does not match the declaration 'shared mark trump: "
                                     "Side' in s.yaml (state:)")]
    assert _scenario_state(tmp_path, '  - "counter calls"\n') == [
        ("D050", "callers.power", 5, "no power of this game declares the shared mark 'trump'")]
    assert _scenario_state(tmp_path, '  - "mark trump: Colour"\n') == [
        ("D085", "s.yaml", 11, "state: a mark holds a Yes/No, or what ': TYPE' names: a Faction, a Card, a "
                               "Community or a Side, not 'Colour'")]
    assert [c for c, *_ in _scenario_state(tmp_path, '  - "mark trump: Faction"\n  - "counter trump"\n')] == ["D085"]
    assert [c for c, *_ in _scenario_state(tmp_path, '  - "mark trump: Faction"\n  - "counter a secret"\n')] == [
        "D085"]


def test_state_declared_in_the_scenario_and_by_a_power_is_refused(tmp_path):
    found = _scenario_state(tmp_path, '  - "mark trump: Faction for round"\n', "uses mark trump: Faction")
    assert found == []
    from happydayz.kernel.setup import prepare
    from happydayz.data.environment import Environment
    from happydayz.base.errors import HappyError
    # the negative control of the game: without the scenario's state, the game is refused at set-up
    scenario = (tmp_path / "s.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(scenario.replace('state:\n  - "mark trump: Faction for round"\n', ""),
                                     encoding="utf-8")
    with pytest.raises(HappyError) as caught:
        prepare(Environment(), tmp_path / "s.yaml", players=3)
    assert "names a shared mark that no power of the game declares" in str(caught.value.diagnostics[0].message)
