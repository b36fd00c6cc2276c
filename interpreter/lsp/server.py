"""`happydayz lsp`: a language server for power files and box/scenario YAML, built on pygls.

Every feature is a thin translation between the protocol and
`happydayz.authoring.documents` (which works on a document's text):

- diagnostics when a document is opened, changed or saved: those of `happydayz check`, warnings included,
  with their codes (the diagnostic's code) and hints (in the message);
- hover: the card text of a power, Faction or variant name (as `explain`), the reference entry of a keyword;
- completion: the keywords the grammar accepts at the cursor, Faction, variant, zone and group names;
- go to definition: a scenario's power file reference, a Faction's box entry;
- formatting (as `fmt`) and document symbols (the power, its variants, hooks and rules).

Edits are debounced: a document is analysed DEBOUNCE seconds after its last
change, off the event loop (hovers and completions are answered meanwhile), one
analysis at a time; an analysis that a newer version of the document has made
stale is not started, and its result is not published. Messages are read by
`framing` (bad frames resynchronise, a message has at most framing.MAX_MESSAGE bytes).

Positions: the protocol counts lines and characters from 0, a Span from 1
(characters are taken as code points: the files are mostly ASCII).

pygls and lsprotocol are the optional `lsp` extra, so they are imported when a
server is made, not when the command line loads this module.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path

from happydayz import __version__
from happydayz.authoring import documents
from happydayz.base.errors import Diagnostic, Span
from happydayz.data.environment import Environment
from happydayz.lsp import framing
from happydayz.lsp.reference import reference

NAME = "happydayz"
DEBOUNCE = 0.3  # seconds after a document's last change before it is analysed


def make_server(env: Environment | None = None):
    """A new pygls LanguageServer with every feature registered; `server.env` is the Environment it uses."""
    from lsprotocol import types  # optional dependency: lsprotocol, the lsp extra (happydayz[lsp])
    from pygls.lsp.server import LanguageServer  # optional dependency: pygls, the lsp extra (happydayz[lsp])
    from pygls.uris import to_fs_path  # optional dependency: pygls, the lsp extra (happydayz[lsp])

    symbol_kinds = {"power": types.SymbolKind.Class, "variant": types.SymbolKind.Namespace,
                    "hook": types.SymbolKind.Event, "rule": types.SymbolKind.Property,
                    "state": types.SymbolKind.Variable}
    completion_kinds = {"keyword": types.CompletionItemKind.Keyword, "faction": types.CompletionItemKind.Class,
                        "variant": types.CompletionItemKind.EnumMember, "zone": types.CompletionItemKind.Field,
                        "group": types.CompletionItemKind.Variable, "power": types.CompletionItemKind.File}

    def span_range(span: Span, text: str | None = None) -> types.Range:
        start = types.Position(line=max(span.line - 1, 0), character=max(span.column - 1, 0))
        if span.end_line is not None and span.end_column is not None:
            end = types.Position(line=max(span.end_line - 1, 0), character=max(span.end_column - 1, 0))
        else:  # no end: to the end of the line
            lines = (text or "").splitlines()
            width = len(lines[span.line - 1]) if 1 <= span.line <= len(lines) else span.column
            end = types.Position(line=start.line, character=max(width, start.character + 1))
        return types.Range(start=start, end=end)

    def lsp_diagnostic(d: Diagnostic, text: str) -> types.Diagnostic:
        severity = types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Warning
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        return types.Diagnostic(range=span_range(d.span, text), message=message, severity=severity, code=d.code,
                                source=NAME)

    def fs_path(uri: str) -> str:
        return to_fs_path(uri) or uri

    server = LanguageServer(NAME, __version__)
    server.env = env if env is not None else Environment()  # settings and caches of every request

    latest: dict[str, object] = {}  # uri -> the version of its latest change
    one_at_a_time = asyncio.Lock()

    def elsewhere(d: Diagnostic, text: str) -> types.Diagnostic:
        """A problem a scenario's check found in a power file it names (a `uses` line its `state:` does not
        declare, say): shown on the scenario, at the line naming that file (else its `state:` key, else line
        1), with the power file's place in the message and as related information."""
        other = Path(d.span.file)
        lines = text.splitlines()
        line = next((i for i, t in enumerate(lines) if other.name in t), None)
        if line is None:
            line = next((i for i, t in enumerate(lines) if t.startswith("state:")), 0)
        found = lsp_diagnostic(d, text)
        found.message = f"{other.name}:{d.span.line}:{d.span.column}: {found.message}"
        found.range = types.Range(start=types.Position(line=line, character=0),
                                  end=types.Position(line=line, character=len(lines[line]) if lines else 0))
        found.related_information = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=other.resolve().as_uri(), range=span_range(d.span)), message=d.message)]
        return found

    def analyse(text: str, path: str) -> list[types.Diagnostic]:
        here = Path(path).resolve()
        # (a scenario's check also reports problems of the power files it names: the editor shows only the open
        # file's, so they are shown on the scenario, pointing at the power file)
        return [lsp_diagnostic(d, text) if Path(d.span.file).resolve() == here else elsewhere(d, text)
                for d in documents.diagnose(text, path, server.env)]

    async def publish(uri: str) -> None:
        document = server.workspace.get_text_document(uri)
        path = fs_path(uri)
        if documents.kind_of(path) is None:
            return
        version = latest[uri] = document.version
        async with one_at_a_time:
            if latest.get(uri) != version:
                return  # a newer version came meanwhile: its own analysis follows
            text = document.source
            found = await asyncio.get_running_loop().run_in_executor(None, analyse, text, path)
        if latest.get(uri) != version:
            return  # stale: not published over what the newer version says
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=found))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
        await publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        latest[uri] = version
        await asyncio.sleep(DEBOUNCE)
        if latest.get(uri) == version:  # else a later change is waiting its own turn
            await publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls, params: types.DidSaveTextDocumentParams) -> None:
        await publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
        latest.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: types.HoverParams) -> types.Hover | None:
        document = server.workspace.get_text_document(params.text_document.uri)
        text, path = document.source, fs_path(params.text_document.uri)
        line, column = params.position.line + 1, params.position.character + 1
        found = documents.word_at(text, line, column)
        if found is None:
            return None
        word, start, end = found
        value = documents.hover_text(text, path, line, column, server.env)
        if value is not None:
            value = f"```text\n{value}\n```"
        elif documents.kind_of(path) == "power" and word in reference():
            value = f"**{word}** (keyword)\n\n{reference()[word]}"
        if value is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
                           range=types.Range(start=types.Position(line=line - 1, character=start - 1),
                                             end=types.Position(line=line - 1, character=end - 1)))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[" ", '"']))
    def completion(ls, params: types.CompletionParams) -> types.CompletionList:
        document = server.workspace.get_text_document(params.text_document.uri)
        found = documents.completions(document.source, fs_path(params.text_document.uri),
                                      params.position.line + 1, params.position.character + 1, server.env)
        items = [types.CompletionItem(label=c.label, kind=completion_kinds.get(c.kind), detail=c.detail,
                                      documentation=reference().get(c.label) if c.kind == "keyword" else None)
                 for c in found]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params: types.DefinitionParams) -> types.Location | None:
        document = server.workspace.get_text_document(params.text_document.uri)
        where = documents.definition(document.source, fs_path(params.text_document.uri),
                                     params.position.line + 1, params.position.character + 1, server.env)
        if where is None:
            return None
        at = types.Position(line=where.line - 1, character=where.column - 1)
        return types.Location(uri=where.path.resolve().as_uri(), range=types.Range(start=at, end=at))

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        document = server.workspace.get_text_document(params.text_document.uri)
        text = document.source
        formatted = documents.format_document(text, fs_path(params.text_document.uri))
        if formatted is None or formatted == text:
            return [] if formatted is not None else None
        lines = text.splitlines()
        end = types.Position(line=len(lines), character=0)
        return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                               new_text=formatted)]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        document = server.workspace.get_text_document(params.text_document.uri)

        def convert(symbol: documents.Symbol) -> types.DocumentSymbol:
            r = span_range(symbol.span, document.source)
            head = types.Range(start=r.start, end=r.start)
            return types.DocumentSymbol(name=symbol.name, kind=symbol_kinds[symbol.kind], range=r,
                                        selection_range=head, children=[convert(c) for c in symbol.children])

        return [convert(s) for s in documents.symbols(document.source, fs_path(params.text_document.uri))]

    return server


def serve(env: Environment | None = None, stdin=None, stdout=None) -> None:
    """Run the server over stdin and stdout until the client says exit (or the stream ends).

    As pygls's start_io, but with framing's reader of the messages.
    """
    from pygls.io_ import StdoutWriter  # optional dependency: pygls, the lsp extra (happydayz[lsp])

    server = make_server(env)
    server._stop_event = threading.Event()  # (pygls's shutdown sets it: then no message more is read)
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

    def handle(body: bytes) -> None:
        try:
            message = json.loads(body, object_hook=server.protocol.structure_message)
        except (ValueError, TypeError) as exc:
            framing.log(f"a message that is not JSON-RPC was ignored ({type(exc).__name__}: {str(exc)[:120]})")
            return
        server.protocol.handle_message(message)

    try:
        asyncio.run(framing.read_messages(stdin or sys.stdin.buffer, handle, server._stop_event.is_set))
    except BrokenPipeError:
        framing.log("the connection to the editor is lost: closing")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


__all__ = ["make_server", "serve"]
