"""`happydayz lsp` in a real session over stdio, driven by pytest-lsp's client (a pygls client).

Each test starts the server as a user's editor does (`python -m happydayz lsp`),
opens, edits and closes documents, and compares what the server says with
what the command line's services say for the same text: `check` (codes,
ranges, hints, warnings), `explain` (card text), `fmt`.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from happydayz.authoring.checking import check_paths
from happydayz.data.environment import Environment
from happydayz.language.cardtext import card_text
from happydayz.language.checker import check
from happydayz.language.formatter import format_source
from happydayz.language.parser import parse_file
from happydayz.lsp.reference import reference

ROOT = Path(__file__).resolve().parents[2]
HIPPIES = ROOT / "powers" / "hippies.power"
GOLDEN = ROOT / "tests" / "golden" / "diagnostics"

pytestmark = pytest.mark.slow  # each test starts a server


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "happydayz", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path, text: str, version: int = 1) -> list[types.Diagnostic]:
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=path.as_uri(), language_id="happydayz", version=version, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[path.as_uri()])


async def _change(client: LanguageClient, path: Path, text: str, version: int) -> list[types.Diagnostic]:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[path.as_uri()])


def _as_check(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    """(code, severity, start, end, message) of the server's diagnostics, positions 1-based as in a Span."""
    out = []
    for d in diagnostics:
        severity = "error" if d.severity == types.DiagnosticSeverity.Error else "warning"
        out.append((d.code, severity, (d.range.start.line + 1, d.range.start.character + 1),
                    (d.range.end.line + 1, d.range.end.character + 1), d.message))
    return out


def _expected(path: Path) -> list[tuple]:
    """What `happydayz check PATH` reports, in the same shape (hints appended to the message)."""
    return [(d.code, d.severity, (d.span.line, d.span.column), (d.span.end_line, d.span.end_column),
             d.message + (f"\nhint: {d.hint}" if d.hint else "")) for d in check_paths([path], Environment())]


def _position(text: str, needle: str, offset: int = 0) -> types.Position:
    """The position of `needle` (plus `offset` characters) in `text`."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


@pytest.mark.asyncio
async def test_diagnostics_as_you_type_are_those_of_check(client: LanguageClient, tmp_path):
    # a document with an error (with a hint) and two warnings: the same codes, ranges and hints as `check`
    source = (GOLDEN / "C020-hook-outside-variants.power").read_text(encoding="utf-8")
    path = tmp_path / "goblins.power"
    path.write_text(source, encoding="utf-8")
    found = await _open(client, path, source)
    assert _as_check(found) == _expected(path)
    assert {d.code for d in found} == {"C020", "W004"} and "hint:" in found[0].message

    # edited into a syntax error: the diagnostic moves to the broken line, unsaved
    broken = source.replace("    gain 1\n", "    gain 1 }}} nonsense(\n")
    found = await _change(client, path, broken, 2)
    path.write_text(broken, encoding="utf-8")
    assert _as_check(found) == _expected(path)
    assert found and found[0].range.start.line == 3

    # fixed: no error left
    fixed = (HIPPIES.read_text(encoding="utf-8"))
    found = await _change(client, path, fixed, 3)
    assert found == []

    # closed: its diagnostics are cleared
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri())))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[path.as_uri()]) == []


@pytest.mark.asyncio
async def test_scenario_files_are_checked_as_you_type(client: LanguageClient, tmp_path):
    scenario = ROOT / "tests" / "games" / "mods" / "twins.scenario.yaml"
    text = scenario.read_text(encoding="utf-8")
    copy = tmp_path / scenario.name
    (tmp_path / "twins.power").write_text((scenario.parent / "twins.power").read_text(encoding="utf-8"))
    assert await _open(client, copy, text) == []
    wrong = text.replace("factions: [Twins, Hippies", "factions: [Twins, Hipies")
    found = await _change(client, copy, wrong, 2)
    copy.write_text(wrong, encoding="utf-8")
    assert _as_check(found) == _expected(copy)
    assert found[0].code == "D021" and "Hippies" in found[0].message


@pytest.mark.asyncio
async def test_a_scenario_shows_the_problems_its_state_makes_in_the_powers_it_names(client: LanguageClient, tmp_path):
    """A power's `uses` line that the scenario's `state:` no longer declares is an error of the power file: the
    editor shows only the open file's problems, so the scenario shows it, at the line naming the power, with
    the power file's place in the message and as related information."""
    scenario = ROOT / "tests" / "games" / "mods" / "callers.scenario.yaml"
    text = scenario.read_text(encoding="utf-8")
    copy = tmp_path / scenario.name
    power = tmp_path / "callers.power"
    power.write_text((scenario.parent / "callers.power").read_text(encoding="utf-8"), encoding="utf-8")
    assert await _open(client, copy, text) == []
    found = await _change(client, copy, text.replace("mark trump: Faction for round", "mark trump for round"), 2)
    assert [d.code for d in found] == ["D051"], [(d.code, d.message) for d in found]
    (problem,) = found
    assert problem.message.startswith("callers.power:5:3: ") and problem.range.start.line == 8  # "power: callers.power"
    (related,) = problem.related_information
    assert related.location.uri == power.resolve().as_uri() and related.location.range.start.line == 4


@pytest.mark.asyncio
async def test_hover_shows_card_text_and_the_reference(client: LanguageClient):
    text = HIPPIES.read_text(encoding="utf-8")
    await _open(client, HIPPIES, text)
    checked = check(parse_file(HIPPIES), set(Environment().library.all_factions()))

    async def hover(needle: str, offset: int = 0) -> str | None:
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=HIPPIES.as_uri()), position=_position(text, needle, offset)))
        return None if result is None else result.contents.value

    assert card_text(checked) in await hover("faction Hippies", len("faction H"))  # a Faction name
    assert card_text(checked) in await hover("power Hippies", len("power H"))  # the power's own name
    assert card_text(checked, "positive") in await hover("variant positive", len("variant p"))  # a variant
    on_choose = await hover("choose target", 2)  # a keyword: its entry of the language reference
    assert reference()["choose"] in on_choose and "Statements" in on_choose
    assert await hover("target from", 2) is None  # a variable: nothing to say


@pytest.mark.asyncio
async def test_hover_in_a_scenario_file(client: LanguageClient, tmp_path):
    text = "title: mine\nbox: woodstock-fever\nfactions:\n  - {faction: Soldiers, variant: positive}\n  - Hippies\n"
    path = tmp_path / "mine.scenario.yaml"
    await _open(client, path, text)
    soldiers = check(parse_file(ROOT / "powers" / "soldiers.power"), set(Environment().library.all_factions()))

    async def hover(needle: str, offset: int) -> str | None:
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=_position(text, needle, offset)))
        return None if result is None else result.contents.value

    assert card_text(soldiers, "positive") in await hover("positive", 2)  # a variant: that variant's text
    assert card_text(soldiers) in await hover("Soldiers", 2)  # a Faction: its power's text


@pytest.mark.asyncio
async def test_completion_offers_what_the_grammar_accepts(client: LanguageClient, tmp_path):
    text = "power Goblins {\n  for faction Goblins\n  on win {\n    \n  }\n}\n"
    path = tmp_path / "goblins.power"
    await _open(client, path, text)

    async def labels(line: int, character: int, document: Path = path) -> set[str]:
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=document.as_uri()),
            position=types.Position(line=line, character=character)))
        items = result.items if isinstance(result, types.CompletionList) else result
        return {item.label for item in items}

    at_statement = await labels(3, 4)  # inside a hook: the statements
    assert {"move", "choose", "gain", "if", "each", "let"} <= at_statement
    assert not {"power", "variant", "hand", "Hippies"} & at_statement

    moving = text.replace("    \n", "    move trick to \n")
    await _change(client, path, moving, 2)
    assert {"hand", "transfer", "expedition", "top", "bottom", "discard"} <= await labels(3, len("    move trick to "))

    comparing = text.replace("    \n", "    gain count(expedition where faction is \n")
    await _change(client, path, comparing, 3)
    assert {"Hippies", "Zombies", '"Police Officers"'} <= await labels(3, len("    gain count(expedition where faction is "))

    group = text.replace("    \n", "    choose victim from \n")
    await _change(client, path, group, 4)
    assert {"others", "everyone", "hand", "expedition"} <= await labels(3, len("    choose victim from "))

    variant = "power Goblins {\n  for faction Goblins\n  variant \n}\n"
    await _change(client, path, variant, 5)
    assert {"basic", "positive", "negative"} <= await labels(2, len("  variant "))

    scenario = tmp_path / "mine.scenario.yaml"
    await _open(client, scenario, "box: woodstock-fever\nfactions: []\n")
    assert {"Hippies", "positive", "Bikers"} <= await labels(1, len("factions: ["), scenario)


@pytest.mark.asyncio
async def test_definition_goes_to_the_power_file_and_the_box_entry(client: LanguageClient, tmp_path):
    scenario = tmp_path / "mine.scenario.yaml"
    (tmp_path / "goblins.power").write_text(
        (GOLDEN / "C020-hook-outside-variants.power").read_text(encoding="utf-8"), encoding="utf-8")
    text = ("title: mine\nbox: woodstock-fever\nfactions: [Goblins, Hippies, Soldiers]\ncustom_factions:\n"
            "  - name: Goblins\n    power: goblins.power\n    cards: [{values: \"1-13\", survivors: 1}]\n")
    await _open(client, scenario, text)

    async def where(document: Path, source: str, needle: str, offset: int):
        result = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=document.as_uri()), position=_position(source, needle, offset)))
        return result[0] if isinstance(result, list) else result

    to_power = await where(scenario, text, "goblins.power", 3)
    assert to_power.uri == (tmp_path / "goblins.power").resolve().as_uri()

    to_box = await where(scenario, text, "Hippies", 2)
    box = ROOT / "boxes" / "woodstock_fever.yaml"
    assert to_box.uri == box.resolve().as_uri()
    assert box.read_text(encoding="utf-8").splitlines()[to_box.range.start.line].strip() == "- name: Hippies"

    power_text = HIPPIES.read_text(encoding="utf-8")
    await _open(client, HIPPIES, power_text)
    from_power = await where(HIPPIES, power_text, "faction Hippies", len("faction H"))
    assert from_power.uri == box.resolve().as_uri() and from_power.range.start.line == to_box.range.start.line


@pytest.mark.asyncio
async def test_formatting_is_fmt(client: LanguageClient, tmp_path):
    messy = "power   Goblins {\nfor faction Goblins\n    on win {   gain 1\n }\n}\n"
    path = tmp_path / "messy.power"
    await _open(client, path, messy)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert len(edits) == 1 and edits[0].range.start == types.Position(line=0, character=0)
    assert edits[0].new_text == format_source(messy, str(path))
    await _change(client, path, edits[0].new_text, 2)
    again = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert not again  # already laid out: no edit


@pytest.mark.asyncio
async def test_document_symbols_are_the_power_its_variants_and_hooks(client: LanguageClient):
    text = HIPPIES.read_text(encoding="utf-8")
    await _open(client, HIPPIES, text)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=HIPPIES.as_uri())))
    assert [s.name for s in symbols] == ["Hippies"] and symbols[0].kind == types.SymbolKind.Class
    variants = symbols[0].children
    assert [v.name for v in variants] == ['variant basic', 'variant positive "ALL EQUAL"', 'variant negative "BAD TRIP"']
    assert all([h.name for h in v.children] == ["on win"] for v in variants)
    lines = text.splitlines()
    assert lines[variants[1].range.start.line].strip().startswith("variant positive")


@pytest.mark.asyncio
async def test_thirty_quick_edits_are_analysed_once_as_the_latest_version(client: LanguageClient, tmp_path):
    published: list[int | None] = []

    features = client.protocol.fm.features
    keep = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:  # (the client's features are bound to it)
        published.append(params.version)
        keep(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record

    path = tmp_path / "hippies.power"
    text = HIPPIES.read_text(encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=path.as_uri(), language_id="happydayz", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    for version in range(2, 32):  # version 31 has an error: a brace too many at its end
        edited = text if version < 31 else text + "}\n"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited + "\n" * version)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    await asyncio.sleep(1.5)  # anything stale would have come by now
    assert published == [1, 31]
    assert [d.severity for d in client.diagnostics[path.as_uri()]] == [types.DiagnosticSeverity.Error]


@pytest.mark.asyncio
async def test_hover_on_every_builtin_name_shows_its_docs(client: LanguageClient, tmp_path):
    """The hover on each built-in name and function (`turned_up`, `auction_stage`, `bid_of`, ...) shows the text of
    its row of docs/language.md."""
    from test_editor_support import _builtin_rows
    rows = _builtin_rows()
    names = sorted(rows)
    assert {"turned_up", "auction_stage", "auction_winner", "winning_bid", "bid_of"} <= set(names)
    path = tmp_path / "names.power"
    text = "power T {\n  added\n  at end of round {\n" + "".join(f"    gain {n}\n" for n in names) + "  }\n}\n"
    await _open(client, path, text)
    wrong = []
    for i, name in enumerate(names):
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=3 + i, character=len("    gain ") + 1)))
        value = None if result is None else result.contents.value
        if value is None or f"**{name}**" not in value or rows[name] not in value:
            wrong.append((name, value and value[:80]))
    assert wrong == []
