"""The hand's team words (`partner`, `team`, `partner of C`, `team of C`, `tricks(team of C)`) through every
tool that reads a power: explain (card text), fmt, compile --json and its schema, the language server's hover
and completion (docs/language.md, "Teams"). The kernel plays them in tests/kernel/test_scores_and_teams.py."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from happydayz.cli.app import main
from happydayz.language import ast
from happydayz.language.cardtext import card_text
from happydayz.language.checker import check
from happydayz.language.compiler import compile_power
from happydayz.language.formatter import format_source
from happydayz.language.ir import power_ir, schema
from happydayz.language.parser import parse, parse_file

from conftest import ROOT

PACT = ROOT / "tests" / "games" / "mods" / "pact.power"
DIGGERS = ROOT / "docs" / "cookbook" / "spades-partnership.power"


def test_explain_says_the_partner_and_the_team():
    text = card_text(check(parse_file(PACT)))
    assert "your partner" in text and "team" in text, text
    assert "None" not in text and "_" not in text


def test_fmt_keeps_the_team_words():
    source = PACT.read_text(encoding="utf-8")
    out = format_source(source, str(PACT))
    assert "tricks(partner)" in out and "tricks(team of self)" in out
    assert ast.strip_spans(parse(out)) == ast.strip_spans(parse_file(PACT))


def test_compile_json_exports_them_within_its_schema(capsys):
    for path in (PACT, DIGGERS):
        data = power_ir(compile_power(check(parse_file(path)), path.resolve()))
        Draft202012Validator(schema()).validate(data)
    assert main(["compile", "--json", str(PACT)]) == 0
    printed = json.loads(capsys.readouterr().out)
    text = json.dumps(printed)
    assert '"partner"' in text and '"team"' in text


def test_the_language_server_knows_the_team_words():
    reference = json.loads((ROOT / "interpreter" / "lsp" / "reference.json").read_text(encoding="utf-8"))
    flat = json.dumps(reference)
    assert "partner" in flat and "team of C" in flat
