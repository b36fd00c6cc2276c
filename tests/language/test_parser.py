"""The power language: the grammar, every bundled power file, and error texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import library

from happydayz.authoring.checking import check_paths
from happydayz.base.errors import CheckProblem, SyntaxProblem
from happydayz.language.grammar import lark_parser
from happydayz.language.parser import _ToAst, parse
from happydayz.language.loader import load_power
from happydayz.base.resources import data_dir

POWERS = sorted(data_dir("powers").glob("*.power"))
FACTION_POWERS = {"hippies", "soldiers", "dogs", "preachers", "scientists", "children", "bikers",
                  "cheerleaders", "governors", "nurses", "police_officers", "survivalists"}


def known_factions() -> set[str]:
    return set(library().all_factions())


def test_grammar_builds_in_strict_mode():
    parser = lark_parser(strict=True)  # strict: no shift/reduce nor terminal collisions
    assert parser.options.parser == "lalr"


def test_every_grammar_alias_has_a_tree_builder():
    aliases = {rule.alias for rule in lark_parser(strict=True).rules if rule.alias}
    assert aliases
    assert sorted(a for a in aliases if not hasattr(_ToAst, a)) == []


def test_the_bundled_power_files_are_all_there():
    names = {p.stem for p in POWERS}
    for expected in ("hippies", "soldiers", "dogs", "preachers", "scientists", "children", "bunker",
                     "minivan", "zombies", "patient_zero_soldiers", "patient_zero_scientists",
                     "patient_zero_children"):
        assert expected in names


@pytest.mark.parametrize("path", POWERS, ids=[p.stem for p in POWERS])
def test_every_power_file_parses_checks_and_compiles(path: Path):
    tree = parse(path.read_text(encoding="utf-8"), str(path))
    assert tree is not None
    power = load_power(path, known_factions())
    assert power.file == path.resolve()
    if path.stem in FACTION_POWERS:
        assert set(power.variants) == {"basic", "positive", "negative"}
        assert not power.fixed
    else:
        assert power.fixed


def test_check_paths_on_the_bundled_powers_is_clean():
    assert check_paths([data_dir("powers")]) == []


def test_minivan_rules():
    rules = load_power(data_dir("powers") / "minivan.power", known_factions()).variant("basic")
    assert rules.always_playable and rules.never_leads and rules.face_up and rules.carried_over
    assert rules.on_win is None and rules.end_of_round is None


def test_end_of_round_and_on_win_hooks():
    known = known_factions()
    pw = data_dir("powers")
    for name in ("scientists", "children"):
        power = load_power(pw / f"{name}.power", known)
        for kind in ("basic", "positive", "negative"):
            assert power.variant(kind).end_of_round is not None and power.variant(kind).on_win is None
    for name in ("hippies", "soldiers", "dogs", "preachers"):
        power = load_power(pw / f"{name}.power", known)
        for kind in ("basic", "positive", "negative"):
            assert power.variant(kind).on_win is not None and power.variant(kind).end_of_round is None
    assert load_power(pw / "zombies.power", known).variant("basic").on_win is not None
    assert load_power(pw / "bunker.power", known).variant("basic").end_of_round is not None


# ------------------------------------------------------------------ errors

def _problems(tmp_path, text, name="bad.power"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, check_paths([path])


def test_syntax_error_not_a_power(tmp_path):
    path, problems = _problems(tmp_path, "this is { not a power\n")
    assert len(problems) == 1
    d = problems[0]
    assert (d.code, d.severity, d.message) == ("S001", "error", "unexpected 'this'; expected 'power'")
    assert (d.span.line, d.span.column) == (1, 1)
    assert d.render().splitlines() == [
        f"{path}:1:1: error[S001]: unexpected 'this'; expected 'power'",
        "    this is { not a power",
        "    ^^^^",
    ]
    with pytest.raises(SyntaxProblem):
        load_power(path)


def test_unknown_faction_did_you_mean(tmp_path):
    path, problems = _problems(tmp_path, (
        "power Foo {\n"
        "  for faction Hippies\n"
        "  on win {\n"
        "    gain count(expedition where faction is Zombis)\n"
        "  }\n"
        "}\n"))
    assert len(problems) == 1
    d = problems[0]
    assert (d.code, d.message, d.hint) == ("C001", "unknown Faction 'Zombis'", "did you mean 'Zombies'?")
    assert (d.span.line, d.span.column) == (4, 44)
    assert "hint: did you mean 'Zombies'?" in d.render()
    with pytest.raises(CheckProblem):
        load_power(path, known_factions())


def test_unclosed_block(tmp_path):
    _, problems = _problems(tmp_path, "power Foo {\n  for faction Hippies\n  on win {\n    gain 1\n")
    [d] = problems
    assert d.code == "S002"
    assert d.message == "the 'on win' block opened here is never closed: the file ends before its '}'"
    assert (d.span.line, d.span.column) == (3, 10)


def test_lowercase_power_name(tmp_path):
    _, problems = _problems(tmp_path, "power foo {\n  for faction Hippies\n}\n")
    [d] = problems
    assert (d.code, d.message) == ("S025", "the name of a power starts with a capital letter: write 'Foo', not 'foo'")
    assert d.hint == "Faction names start with a capital letter, or are written in quotes"


@pytest.mark.parametrize("line, column, hint", [
    ("    gain count(expedition where faction is Police Officers)", 44,
     'write: gain count(expedition where faction is "Police Officers")'),
    ("    next lead Police Officers", 15, 'write: next lead "Police Officers"'),
    ("    if led in [Hippies, Police Officers] {", 25,
     'write: if led in [Hippies, "Police Officers"] {; or, if these are two items of the list, separate them '
     "with ','"),
])
def test_a_faction_name_of_two_words_without_quotes(tmp_path, line, column, hint):
    body = "\n      gain 1\n    }" if line.endswith("{") else ""
    _, problems = _problems(tmp_path, f"power Foo {{\n  for faction Hippies\n  on win {{\n{line}{body}\n  }}\n}}\n")
    [d] = problems
    assert (d.code, d.message, d.hint) == ("S035", 'a name of several words is written in quotes: "Police Officers"',
                                           hint)
    assert (d.span.line, d.span.column, d.span.end_column) == (4, column, column + len("Police Officers"))


def test_a_power_name_of_two_words_without_quotes(tmp_path):
    _, problems = _problems(tmp_path, "power Police Officers {\n  for faction Police Officers\n}\n")
    [d] = problems
    assert (d.code, d.span.line, d.span.column) == ("S035", 1, 7)
    assert d.message == 'a name of several words is written in quotes: "Police Officers"'
    assert d.hint == 'write: power "Police Officers" {'


def test_unknown_variant_kind(tmp_path):
    _, problems = _problems(tmp_path, "power Foo {\n  for faction Hippies\n  variant bogus {\n  }\n}\n")
    [d] = problems
    assert d.message == "unexpected 'bogus'; expected 'basic', 'negative' or 'positive'"


def test_unknown_name_and_function(tmp_path):
    _, problems = _problems(tmp_path, "power Foo {\n  for faction Hippies\n  on win {\n    gain zz\n  }\n}\n")
    assert [(d.code, d.message) for d in problems] == [("C002", "unknown name 'zz'")]
    _, problems = _problems(tmp_path, (
        "power Foo {\n  for faction Hippies\n  on win {\n    gain cont(expedition)\n  }\n}\n"))
    assert [(d.code, d.message, d.hint) for d in problems] == [
        ("C006", "unknown function 'cont'", "did you mean 'count'?")]


def test_type_errors(tmp_path):
    _, problems = _problems(tmp_path, (
        "power Foo {\n  for faction Hippies\n  on win {\n    move 3 to expedition of left\n  }\n}\n"))
    assert [d.message for d in problems] == ["what 'move' moves must be Cards, but this is a Number"]
    _, problems = _problems(tmp_path, "power Foo {\n  for faction Hippies\n  on win {\n    gain Hippies\n  }\n}\n")
    assert [d.message for d in problems] == ["the number of Survivors must be a Number, but this is a Faction"]


def test_variants_written_twice_and_missing(tmp_path):
    _, problems = _problems(tmp_path, (
        "power Foo {\n  for faction Hippies\n  variant basic { }\n  variant basic { }\n}\n"))
    assert [(d.code, d.message) for d in problems] == [
        ("C021", "the variant 'basic' is written twice"),
        ("C022", "the power 'Foo' lacks the variants 'positive', 'negative'"),
    ]
