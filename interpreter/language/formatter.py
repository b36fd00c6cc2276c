"""`happydayz fmt`: print a power file in its one canonical layout.

    format_source(text, filename) -> text     the canonical layout of one file
    format_paths(paths, check) -> (changed, problems)

The layout is described in docs/fmt.md. In short: 2-space indentation, one
statement, hook, rule or variant per line, `{` at the end of the opening line,
`}` on its own line (`} else {`), single spaces between words and around
operators, none inside brackets nor before commas, a blank line between the
items of a power, the author's blank lines elsewhere kept (a run collapsed to
one), every comment kept.

How: the text is parsed twice. First by the project's parser (`parse`), so a
file that does not parse raises the same SyntaxProblem as everywhere else.
Then by a second Lark parser built from the same grammar with
`keep_all_tokens=True`: its tree keeps every token, keywords and brackets
included, and the author's parentheses with them. The printer walks that tree
and decides only where lines break and where spaces go; the tokens themselves
are printed exactly as written, in the same order. Lark drops comments (they
are `%ignore`d), so a lexer callback collects them, and each comment is tied
to a token: a comment alone on its line to the token after it, a comment at
the end of a line to the token before it. A comment is printed next to its
token's line.

Safety net: the result is parsed again and must give the same tokens and the
same syntax tree (spans aside); if it does not, that is a bug in the
formatter and it raises FormatterBug rather than write a changed program.
"""

from __future__ import annotations

import os
import threading
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import VisitError

from happydayz.language import ast
from happydayz.base.errors import Diagnostic, HappyError, Span, SyntaxProblem
from happydayz.base.files import read_bytes, write_atomic
from happydayz.language.grammar import grammar_text
from happydayz.language.parser import MAX_SOURCE_BYTES, parse as _project_parse

__all__ = ["format_source", "format_paths", "FormatterBug", "INDENT"]

INDENT = "  "
TRAILING_COMMENT_GAP = "  "  # between the code and a comment at the end of its line
POWER_SUFFIX = ".power"


class FormatterBug(RuntimeError):
    """The formatted text would not mean the same program: a bug here, never the user's."""


# ------------------------------------------------------------------- parsing

_sink = threading.local()


def _collect_comment(token: Token) -> Token:
    _sink.comments.append(token)
    return token


@lru_cache(maxsize=None)
def _full_parser() -> Lark:
    """The project's grammar, keeping every token and reporting every comment."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        keep_all_tokens=True,
        lexer_callbacks={"COMMENT": _collect_comment},
    )


def _full_parse(text: str) -> tuple[Tree, list[Token]]:
    _sink.comments = []
    try:
        tree = _full_parser().parse(text)
        return tree, list(_sink.comments)
    finally:
        _sink.comments = []


def parse(text: str, filename: str = "<input>") -> ast.PowerFile:
    """`happydayz.language.parser.parse`, with one repair: the limits it checks while building
    the tree (a choice or a `repeat` over 50, a number over 999999) raise inside a
    Lark Transformer, which wraps them in VisitError; here they become the
    SyntaxProblem they were meant to be."""
    try:
        return _project_parse(text, filename)
    except VisitError as exc:
        diagnostic = getattr(exc.orig_exc, "diagnostic", None)
        if isinstance(diagnostic, Diagnostic):
            raise SyntaxProblem(diagnostic) from None
        raise


# ------------------------------------------------------------------ printing


@dataclass
class _Line:
    indent: int
    pieces: list[tuple[Token, bool]] = field(default_factory=list)  # (token, glued to the one before)
    item_start: bool = False  # an item of the power: a blank line before it, always

    def text(self) -> str:
        out = []
        for i, (tok, glued) in enumerate(self.pieces):
            if i and not glued:
                out.append(" ")
            out.append(str(tok))
        return "".join(out)

    @property
    def opens(self) -> bool:
        return bool(self.pieces) and self.pieces[-1][0].type == "LBRACE"

    @property
    def closes(self) -> bool:
        return bool(self.pieces) and self.pieces[0][0].type == "RBRACE"


_NO_SPACE_BEFORE = {"RPAR", "RSQB", "COMMA", "COLON"}  # `mark trump: Faction`
_NO_SPACE_AFTER = {"LPAR", "LSQB"}
_CALLS = {"call", "call_aggregate", "comprehension"}


class _Printer:
    """Walks the full tree and cuts its tokens into lines."""

    def __init__(self) -> None:
        self.lines: list[_Line] = []
        self.indent = 0
        self.current = _Line(0)
        self.glue_next = False

    def newline(self, item_start: bool = False) -> None:
        if self.current.pieces:
            self.lines.append(self.current)
        self.current = _Line(self.indent, item_start=item_start)
        self.glue_next = False

    def emit(self, tok: Token, glued: bool = False) -> None:
        glued = glued or self.glue_next or tok.type in _NO_SPACE_BEFORE
        self.current.pieces.append((tok, glued))
        self.glue_next = tok.type in _NO_SPACE_AFTER

    def finish(self) -> list[_Line]:
        self.newline()
        return self.lines

    # ---- structure
    def visit(self, node: Tree | Token) -> None:
        if isinstance(node, Token):
            self.emit(node)
            return
        handler = getattr(self, "_" + node.data, None)
        if handler is not None:
            handler(node)
        elif node.data in _CALLS:
            self._call(node)
        else:
            for child in node.children:
                self.visit(child)

    def _body(self, children: list, item_start: bool = False) -> None:
        """`{ item item ... }`: children run from the '{' token to the '}' token."""
        assert isinstance(children[0], Token) and children[0].type == "LBRACE"
        assert isinstance(children[-1], Token) and children[-1].type == "RBRACE"
        self.emit(children[0])
        self.indent += 1
        for child in children[1:-1]:
            self.newline(item_start=item_start)
            self.visit(child)
        self.indent -= 1
        self.newline()
        self.emit(children[-1])

    def _power(self, node: Tree) -> None:
        # "power" name "{" binding power_item* "}"
        kids = node.children
        brace = _index_of(kids, "LBRACE")
        for child in kids[:brace]:
            self.visit(child)
        self.emit(kids[brace])
        self.indent += 1
        self.newline()
        self.visit(kids[brace + 1])  # the binding
        previous = None
        for item in kids[brace + 2:-1]:
            # A blank line before every item, except between two one-line rules or two
            # declarations of state (there the author's blank lines are kept, as between statements).
            alike = previous is not None and _one_liner(item) is not None and _one_liner(item) == _one_liner(previous)
            self.newline(item_start=not alike)
            self.visit(item)
            previous = item
        self.indent -= 1
        self.newline()
        self.emit(kids[-1])
        self.newline()

    def _variant(self, node: Tree) -> None:
        kids = node.children
        brace = _index_of(kids, "LBRACE")
        for child in kids[:brace]:
            self.visit(child)
        self._body(kids[brace:])

    def _block(self, node: Tree) -> None:
        self._body(node.children)

    def _call(self, node: Tree) -> None:
        # NAME "(" ... ")" or aggregate "(" ... ")": no space before the '('
        for child in node.children:
            if isinstance(child, Token) and child.type == "LPAR":
                self.emit(child, glued=True)
            else:
                self.visit(child)

    def _neg(self, node: Tree) -> None:
        minus, operand = node.children
        self.emit(minus)
        self.glue_next = True
        self.visit(operand)


def _one_liner(node: Tree) -> str | None:
    """The kind of a one-line item of a power: "rule", or "state" (a counter or a mark); None for the others."""
    if node.data.startswith("rule_"):
        return "rule"
    if node.data in ("state_decl", "option_decl", "uses_decl"):
        return "state"
    return None


def _index_of(children: list, token_type: str) -> int:
    for i, child in enumerate(children):
        if isinstance(child, Token) and child.type == token_type:
            return i
    raise AssertionError(f"no {token_type} among {children!r}")


# ------------------------------------------------------------------ layout


@dataclass
class _Comment:
    token: Token
    trailing: bool  # code before it on its line

    @property
    def text(self) -> str:
        return str(self.token).rstrip()


def _layout(text: str, tree: Tree, comments: list[Token]) -> str:
    lines = _Printer()
    lines.visit(tree)
    code_lines = lines.finish()

    tokens = list(tree.scan_values(lambda v: isinstance(v, Token)))
    positions = [(t.line, t.column) for t in tokens]
    index = {pos: i for i, pos in enumerate(positions)}
    lines_with_code = {t.line for t in tokens}
    first_on_line: set[int] = set()
    seen_lines: set[int] = set()
    for i, t in enumerate(tokens):
        if t.line not in seen_lines:
            seen_lines.add(t.line)
            first_on_line.add(i)

    # Tie each comment to a token: index -> comments, in source order.
    attached: dict[int, list[_Comment]] = {}
    at_end: list[_Comment] = []  # comments after the last token
    for tok in comments:
        comment = _Comment(tok, tok.line in lines_with_code)
        where = bisect_left(positions, (tok.line, tok.column))
        if comment.trailing:
            attached.setdefault(where - 1, []).append(comment)
        elif where < len(tokens):
            attached.setdefault(where, []).append(comment)
        else:
            at_end.append(comment)

    source_lines = text.split("\n")

    def blank_before(line_no: int) -> bool:
        return line_no >= 2 and source_lines[line_no - 2].strip() == ""

    out: list[str] = []
    previous_opens = True  # the start of the file behaves like the inside of a '{'

    def put(indent: int, body: str, wants_blank: bool, forced: bool = False, suppressed: bool = False) -> None:
        """One line out, after a blank line if the rules want one (never two in a row)."""
        if out and out[-1] != "" and (forced or (wants_blank and not suppressed and not previous_opens)):
            out.append("")
        out.append(INDENT * indent + body)

    for line in code_lines:
        ids = [index[(tok.line, tok.column)] for tok, _ in line.pieces]
        mine = sorted((c for i in ids for c in attached.get(i, ())), key=lambda c: (c.token.line, c.token.column))
        # The last comment stays at the end of the line if it was at the end of a line;
        # the others go above the line, in their order.
        trailing = mine.pop() if mine and mine[-1].trailing else None
        comment_indent = line.indent + 1 if line.closes else line.indent
        forced = line.item_start
        for comment in mine:
            put(comment_indent, comment.text, not comment.trailing and blank_before(comment.token.line), forced=forced)
            previous_opens = forced = False
        body = line.text()
        if trailing is not None:
            body += TRAILING_COMMENT_GAP + trailing.text
        first = ids[0]
        put(line.indent, body, first in first_on_line and blank_before(tokens[first].line), forced=forced,
            suppressed=line.closes)
        previous_opens = line.opens
    for comment in at_end:
        put(0, comment.text, blank_before(comment.token.line))
        previous_opens = False
    return "\n".join(out).rstrip("\n") + "\n"


# ------------------------------------------------------------------ the API


def format_source(text: str, filename: str = "<input>") -> str:
    """The canonical layout of a power file's text.

    Raises SyntaxProblem (with the file, line and column) for text that does
    not parse, exactly as `happydayz.language.parser.parse` does.
    """
    before = parse(text, filename)  # the project's own errors for a bad file
    tree, comments = _full_parse(text)
    result = _layout(text, tree, comments)
    size = len(result.encode("utf-8"))
    if size > MAX_SOURCE_BYTES:  # (indenting a file near the limit can take it past: it would not be read again)
        raise SyntaxProblem(Diagnostic(Span(filename, 1, 1), f"formatted, this file would be {size} bytes, larger than "
                                       f"the {MAX_SOURCE_BYTES // 1024} KiB of a power file; it is left as it is",
                                       "S004", hint="split the power in two files, or shorten it", quote=False))
    _verify(text, result, before, tree, comments, filename)
    return result


def _significant(tree: Tree) -> list[tuple[str, str]]:
    return [(t.type, str(t)) for t in tree.scan_values(lambda v: isinstance(v, Token))]


def _verify(text: str, result: str, before: ast.PowerFile, tree: Tree, comments: list[Token], filename: str) -> None:
    try:
        after = parse(result, filename)
        new_tree, new_comments = _full_parse(result)
    except HappyError as exc:
        raise FormatterBug(f"{filename}: the formatted text does not parse: {exc}") from None
    if _significant(new_tree) != _significant(tree):
        raise FormatterBug(f"{filename}: formatting changed the tokens of the program")
    if ast.strip_spans(after) != ast.strip_spans(before):
        raise FormatterBug(f"{filename}: formatting changed the syntax tree")
    if [str(c).rstrip() for c in new_comments] != [str(c).rstrip() for c in comments]:
        raise FormatterBug(f"{filename}: formatting lost or reordered a comment")


def _expand(paths: list[str | os.PathLike]) -> tuple[list[Path], list[Diagnostic]]:
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob(f"*{POWER_SUFFIX}") if p.is_file()))
        elif path.is_file():
            if path.suffix == POWER_SUFFIX:
                files.append(path)
            else:
                problems.append(Diagnostic(Span(str(path), 1, 1), f"not a power file ({POWER_SUFFIX})", "F002"))
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "no such file or folder", "F001"))
    unique: list[Path] = []
    seen: set[Path] = set()
    for path in files:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique, problems


def _read(path: Path) -> str:
    # A regular file of at most 256 KiB, read no further (base.files): a device or a huge file is refused unread.
    raw = read_bytes(path, "power", code="S005", error=SyntaxProblem, large_code="S004")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise HappyError(Diagnostic(Span(str(path), line, 1), "the file is not UTF-8 text", "S006")) from None


def format_paths(paths: list[str | os.PathLike], check: bool = False) -> tuple[list[Path], list[Diagnostic]]:
    """Format every named power file, and every *.power file below named folders.

    Returns the files whose layout changed (with check=True: would change;
    nothing is written) and the problems met (a missing path, a file that is
    not a power file, cannot be read or does not parse). A file with a problem
    is left as it is.
    """
    files, problems = _expand(paths)
    changed: list[Path] = []
    for path in files:
        try:
            text = _read(path)
            result = format_source(text, str(path))
        except HappyError as exc:
            problems.extend(exc.diagnostics)
            continue
        if result == text:
            continue
        changed.append(path)
        if not check:
            try:  # a temporary file renamed over it: a full disk leaves the file as it was
                write_atomic(Path(path).resolve(), result, code="F003")  # (a link: its target is rewritten)
            except HappyError as exc:
                changed.remove(path)
                problems.extend(exc.diagnostics)
    return changed, problems
