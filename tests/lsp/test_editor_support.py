"""The editor services without a server: the text-based checks agree with `check`, the generated files are current.

- authoring.documents on a file's text gives exactly `check_paths` on the file (every bundled power, box and scenario);
- interpreter/lsp/reference.json is what docs/language.md makes, and covers every keyword;
- editors/vscode/syntaxes/power.tmLanguage.json is what grammar/powers.lark makes, and names every keyword.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from happydayz.authoring import documents
from happydayz.authoring.checking import check_paths
from happydayz.data.environment import Environment
from happydayz.lsp import reference as reference_module
from happydayz.lsp import textmate

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "grammar" / "powers.lark"
TM_FILE = ROOT / "editors" / "vscode" / "syntaxes" / "power.tmLanguage.json"
FILES = sorted((ROOT / "powers").glob("*.power")) + sorted((ROOT / "boxes").glob("*.yaml")) + \
    sorted((ROOT / "tests" / "golden" / "diagnostics").glob("C0*.power"))[:12]


def grammar_keywords() -> set[str]:
    """The string literals of grammar/powers.lark made of letters, read from the file itself."""
    text = re.sub(r"//[^\n]*", "", GRAMMAR.read_text(encoding="utf-8"))
    text = re.sub(r"/(?:[^/\n\\]|\\.)+/", "", text)  # the terminals' regular expressions
    return set(re.findall(r'"([A-Za-z]+)"', text))


@pytest.fixture(scope="module")
def env() -> Environment:
    return Environment()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_documents_text_checks_like_the_file(path, env):
    text = path.read_text(encoding="utf-8")
    assert documents.diagnose(text, path, env) == check_paths([path], env)


def test_the_keywords_are_the_grammars():
    assert documents.keywords() == grammar_keywords()


def test_the_reference_is_current_and_covers_every_keyword():
    made = reference_module.render((ROOT / "docs" / "language.md").read_text(encoding="utf-8"))
    shipped = (ROOT / "interpreter" / "lsp" / "reference.json").read_text(encoding="utf-8")
    assert shipped == made, "regenerate: python -m happydayz.lsp.reference docs/language.md > interpreter/lsp/reference.json"
    missing = grammar_keywords() - set(json.loads(shipped))
    assert not missing, f"keywords without a reference entry (write them in docs/language.md): {sorted(missing)}"


def test_the_textmate_grammar_is_current():
    assert TM_FILE.read_text(encoding="utf-8") == textmate.render(), (
        "regenerate: python -m happydayz.lsp.textmate > editors/vscode/syntaxes/power.tmLanguage.json")


def test_the_textmate_grammar_highlights_every_keyword():
    grammar = json.loads(TM_FILE.read_text(encoding="utf-8"))
    highlighted = set()
    for pattern in grammar["patterns"]:
        match = re.fullmatch(r"\\b\(\?:(.*)\)\\b", pattern["match"])
        if match:
            highlighted.update(match.group(1).split("|"))
    missing = grammar_keywords() - highlighted
    assert not missing, f"keywords of grammar/powers.lark missing from the TextMate grammar: {sorted(missing)}"


def test_the_textmate_patterns_match_the_keywords_they_name():
    grammar = json.loads(TM_FILE.read_text(encoding="utf-8"))
    for word in sorted(grammar_keywords()):
        scopes = [p["name"] for p in grammar["patterns"] if re.fullmatch(p["match"], word)]
        assert scopes and not scopes[0].startswith("entity."), word


def test_the_vscode_extension_starts_happydayz_lsp():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    assert package["contributes"]["configuration"]["properties"]["happydayz.command"]["default"] == ["happydayz", "lsp"]
    assert package["contributes"]["grammars"][0]["path"] == "./syntaxes/power.tmLanguage.json"
    assert package["contributes"]["grammars"][0]["scopeName"] == textmate.SCOPE
    assert (ROOT / "editors" / "vscode" / package["main"]).is_file()


def test_lsp_is_a_command():
    out = subprocess.run([sys.executable, "-m", "happydayz", "lsp", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "Language Server Protocol" in out.stdout


def test_word_positions(env):
    text = 'power Goblins {\n  for faction "Police Officers"\n}\n'
    assert documents.word_at(text, 2, 16) == ('"Police Officers"', 15, 32)
    assert documents.word_at(text, 1, 3) == ("power", 1, 6)
    assert documents.word_at(text, 1, 6) is None or documents.word_at(text, 1, 6)[0] == "power"
    assert documents.word_at(text, 9, 1) is None


def test_the_outline_and_the_hover_know_the_new_constructs(env):
    path = ROOT / "tests" / "language" / "data" / "every_new_construct.power"
    text = path.read_text(encoding="utf-8")
    [power] = documents.symbols(text, path)
    state = [s.name for s in power.children if s.kind == "state"]
    assert state == ["counter points", "mark warned", "counter bells", "mark alarm"]
    basic = next(s for s in power.children if s.name == "variant basic")
    hooks = [s.name for s in basic.children if s.kind == "hook"]
    assert hooks == ["on play", "on lead", "on trick", "on win", "after trick", "at start of round", "at end of round",
                     "at end of game"]
    assert "rule must be played" in [s.name for s in basic.children]
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith("power"))
    hover = documents.hover_text(text, path, line, 8, env)  # the power's name: its card text
    assert hover is not None and "Each Community keeps a secret count of points" in hover
    for word in ("counter", "declare", "flip", "wild", "winner"):
        assert word in documents.keywords() | set(documents.GROUPS)


def test_the_outline_completion_and_hover_know_options_and_the_bidding_moment(env, tmp_path):
    text = ("power Tally {\n  added\n\n  option bonus = 1\n  counter bid per community\n\n"
            "  after transfer {\n    set bid = bonus\n  }\n}\n")
    path = tmp_path / "tally.power"
    [power] = documents.symbols(text, path)
    assert [(s.name, s.kind) for s in power.children] == [("option bonus", "state"), ("counter bid", "state"),
                                                          ("after transfer", "hook")]
    after = [c.label for c in documents.completions("power T {\n  added\n  after ", path, 3, 9, env)]
    assert "transfer" in after and "trick" in after
    items = [c.label for c in documents.completions("power T {\n  added\n  ", path, 3, 3, env)]
    assert "option" in items and "counter" in items
    assert "option" in documents.keywords()


def test_completion_offers_the_auctions_names_where_a_value_goes(env, tmp_path):
    path = tmp_path / "euchre.power"
    text = "power E {\n  added\n  rule bids only when offered_faction == faction of "
    items = [c.label for c in documents.completions(text, path, 3, len(text.splitlines()[-1]) + 1, env)]
    assert {"turned_up", "auction_stage", "winning_faction", "dealer"} <= set(items)


def _builtin_rows() -> dict[str, str]:
    """Every built-in name and function of docs/language.md's tables (first cell, in code) -> that row's meaning."""
    from happydayz.language.checker import BUILTINS, FUNCTIONS
    names = set(BUILTINS) | set(FUNCTIONS)
    rows: dict[str, str] = {}
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8").split("## Every power of both boxes")[0]
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) < 2:
            continue
        for code in re.findall(r"`([^`]*)`", cells[0]):
            name = re.match(r"[a-z_]+", code)
            if name and name.group(0) == code.split("(")[0] and name.group(0) in names:
                rows.setdefault(name.group(0), cells[-1])
    return rows


def test_every_builtin_name_of_the_reference_has_its_row_in_the_hover_reference():
    from happydayz.language.checker import BUILTINS, FUNCTIONS
    from happydayz.lsp.reference import reference
    rows = _builtin_rows()
    # every name the checker knows is a row of docs/language.md, underscored ones included
    assert set(BUILTINS) | set(FUNCTIONS) <= set(rows)
    for name in ("turned_up", "auction_stage", "auction_winner", "winning_bid", "bid_of", "offered_faction",
                 "bids_so_far", "winning_faction", "dealer"):
        assert name in rows
    missing = [name for name, meaning in rows.items() if meaning not in reference().get(name, "")]
    assert missing == []
