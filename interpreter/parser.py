"""Text → syntax tree. Lark stays behind this module's border."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .errors import Diagnostic, Span, SyntaxProblem
from .resources import data_dir

MAX_SOURCE_BYTES = 256 * 1024  # a power file is a page of text, not a novel


@lru_cache(maxsize=None)
def grammar_text() -> str:
    return (data_dir("grammar") / "powers.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def lark_parser(strict: bool = False) -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
    )


def parse(text: str, filename: str = "<input>") -> ast.PowerFile:
    if len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise SyntaxProblem(Diagnostic(Span(filename, 1, 1), f"the file is larger than {MAX_SOURCE_BYTES // 1024} KiB; a power file should be a page of text", "S004"))
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as exc:
        raise SyntaxProblem(syntax_diagnostic(exc, text, filename)) from None
    try:
        return _ToAst(filename, text).transform(tree)
    except _AstError as exc:
        raise SyntaxProblem(exc.diagnostic) from None


def parse_file(path: str | Path) -> ast.PowerFile:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SyntaxProblem(Diagnostic(Span(str(path), 1, 1), f"cannot read the file: {exc.strerror}", "S005")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SyntaxProblem(Diagnostic(Span(str(path), line, 1), "the file is not UTF-8 text", "S006")) from None
    return parse(text, str(path))


# ---------------------------------------------------------------- syntax errors

# Terminal names → words a person understands.
_TOKEN_WORDS = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "EQUAL": "'='", "NAME": "a lowercase name", "CAPNAME": "a Faction name",
    "STRING": "a quoted text", "INT": "a number", "$END": "the end of the file",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "LESSTHAN": "'<'", "MORETHAN": "'>'",
}


def _word(terminal: str) -> str:
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    pattern = lark_parser().get_terminal(terminal).pattern if terminal in _terminal_names() else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


@lru_cache(maxsize=None)
def _terminal_names() -> frozenset[str]:
    return frozenset(t.name for t in lark_parser().terminals)


def _expected_words(expected) -> str:
    words = sorted({_word(t) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _open_blocks(text: str, upto: int) -> list[tuple[int, int]]:
    """Positions (line, col) of '{' still open before offset `upto`, ignoring comments and strings."""
    stack: list[tuple[int, int]] = []
    line, col, i = 1, 1, 0
    in_comment = in_string = False
    while i < min(upto, len(text)):
        ch = text[i]
        if ch == "\n":
            line, col, in_comment, in_string = line + 1, 1, False, False
            i += 1
            continue
        if not in_comment and not in_string:
            if ch == "#":
                in_comment = True
            elif ch == '"':
                in_string = True
            elif ch == "{":
                stack.append((line, col))
            elif ch == "}" and stack:
                stack.pop()
        elif in_string and ch == '"':
            in_string = False
        col += 1
        i += 1
    return stack


def syntax_diagnostic(exc: UnexpectedInput, text: str, filename: str) -> Diagnostic:
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    if line < 1:
        line, column = max(text.count("\n"), 0) + 1, 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        opened = _open_blocks(text, len(text))
        if opened:
            o_line, o_col = opened[-1]
            return Diagnostic(
                Span(filename, o_line, o_col, o_line, o_col + 1),
                f"the block opened here with '{{' is never closed: the file ends before its '}}'",
                "S002",
                hint="add the missing '}' at the end of the block",
            )
        expected = getattr(exc, "expected", None) or ()
        return Diagnostic(Span(filename, line, column), f"the file ends too early; expected {_expected_words(expected)}", "S003")
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        hint = None
        if ch.isupper() or ch.islower():
            hint = "a name here may be misspelt, or a keyword may be missing before it"
        return Diagnostic(
            Span(filename, line, column, line, column + 1),
            f"unexpected character {ch!r}; expected {_expected_words(exc.allowed or ())}",
            "S001",
            hint=hint,
        )
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    shown = str(token)
    end = column + max(len(shown), 1)
    message = f"unexpected {shown!r}; expected {_expected_words(exc.accepts or exc.expected)}"
    hint = _hint_for(token, exc.accepts or exc.expected)
    return Diagnostic(Span(filename, line, column, line, end), message, "S001", hint=hint)


def _hint_for(token: Token, expected) -> str | None:
    if token.type == "RBRACE" and "RBRACE" not in expected:
        return "a statement or an expression is unfinished before this '}'"
    if token.type == "NAME" and "CAPNAME" in expected:
        return "Faction names start with a capital letter, or are written in quotes"
    if token.type == "CAPNAME" and "NAME" in expected and "CAPNAME" not in expected:
        return "variables and keywords are lowercase; Faction names go where a Faction is expected"
    if token.type in ("EQUAL",) and "__ANON" not in str(expected):
        return "to compare, write 'is' or '=='"
    return None


# ---------------------------------------------------------------- tree → AST


class _AstError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _unquote(token: str) -> str:
    return token[1:-1] if token.startswith('"') else str(token)


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, filename: str, text: str):
        super().__init__()
        self.filename = filename
        self.text = text

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.filename, 1, 1)
        return Span(self.filename, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.filename, tok.line, tok.column, tok.end_line, tok.end_column)

    # ---- file structure
    def start(self, meta, children):
        return children[0]

    def name(self, meta, children):
        return _unquote(children[0])

    def power(self, meta, children):
        name, binding, *items = children
        variants = tuple(i for i in items if isinstance(i, ast.Variant))
        hooks = tuple(i for i in items if isinstance(i, ast.Hook))
        rules = tuple(i for i in items if isinstance(i, ast.Rule))
        return ast.PowerFile(self._span(meta), name, binding, variants, hooks, rules, self.text)

    def bind_faction(self, meta, children):
        return ast.Binding(self._span(meta), "faction", children[0])

    def bind_card(self, meta, children):
        return ast.Binding(self._span(meta), "card", None)

    def bind_added(self, meta, children):
        return ast.Binding(self._span(meta), "added", None)

    def variant_kind(self, meta, children):
        return str(children[0])

    def variant(self, meta, children):
        kind = children[0]
        rest = children[1:]
        title = None
        if rest and isinstance(rest[0], Token):
            title = _unquote(rest[0])
            rest = rest[1:]
        hooks = tuple(i for i in rest if isinstance(i, ast.Hook))
        rules = tuple(i for i in rest if isinstance(i, ast.Rule))
        return ast.Variant(self._span(meta), kind, title, hooks, rules)

    def on_win(self, meta, children):
        return ast.Hook(self._span(meta), "win", children[0])

    def at_end_of_round(self, meta, children):
        return ast.Hook(self._span(meta), "end_of_round", children[0])

    def rule_always_playable(self, meta, children):
        return ast.Rule(self._span(meta), "always_playable")

    def rule_never_leads(self, meta, children):
        return ast.Rule(self._span(meta), "never_leads")

    def rule_trumps(self, meta, children):
        return ast.Rule(self._span(meta), "trumps", children[0])

    def rule_blocks_led_power(self, meta, children):
        return ast.Rule(self._span(meta), "blocks_led_power")

    def rule_face_up(self, meta, children):
        return ast.Rule(self._span(meta), "face_up")

    def rule_carried_over(self, meta, children):
        return ast.Rule(self._span(meta), "carried_over")

    # ---- statements
    def block(self, meta, children):
        return ast.Block(self._span(meta), tuple(children))

    def let_stmt(self, meta, children):
        return ast.Let(self._span(meta), str(children[0]), children[1])

    def set_stmt(self, meta, children):
        return ast.SetVar(self._span(meta), str(children[0]), children[1])

    def exactly(self, meta, children):
        return ("exactly", int(children[0]))

    def up_to(self, meta, children):
        return ("up_to", int(children[0]))

    def chooser(self, meta, children):
        return ("by", children[0])

    def else_block(self, meta, children):
        return ("else", children[0])

    def choose_stmt(self, meta, children):
        mode, count = "one", 1
        chooser = otherwise = None
        rest = list(children)
        if isinstance(rest[0], tuple):
            mode, count = rest.pop(0)
        name = str(rest.pop(0))
        source = rest.pop(0)
        for item in rest:
            if isinstance(item, tuple) and item[0] == "by":
                chooser = item[1]
            elif isinstance(item, tuple) and item[0] == "else":
                otherwise = item[1]
            elif isinstance(item, ast.Block):
                body = item
        if count > 50:
            raise _AstError(Diagnostic(self._span(meta), f"a choice of {count} items is too many (at most 50)", "S010"))
        return ast.Choose(self._span(meta), mode, count, name, source, chooser, body, otherwise)

    def ask_stmt(self, meta, children):
        prompt = _unquote(children[0])
        chooser = no = None
        yes = None
        for item in children[1:]:
            if isinstance(item, tuple) and item[0] == "by":
                chooser = item[1]
            elif isinstance(item, tuple) and item[0] == "else":
                no = item[1]
            else:
                yes = item
        return ast.Ask(self._span(meta), prompt, chooser, yes, no)

    def if_stmt(self, meta, children):
        condition, then, *rest = children
        otherwise = None
        if rest:
            other = rest[0]
            otherwise = other if isinstance(other, ast.Block) else ast.Block(other.span, (other,))
        return ast.If(self._span(meta), condition, then, otherwise)

    def simultaneously(self, meta, children):
        return "simultaneously"

    def each_stmt(self, meta, children):
        name, source, *rest = children
        simultaneous = "simultaneously" in [r for r in rest if isinstance(r, str)]
        body = rest[-1]
        return ast.Each(self._span(meta), str(name), source, simultaneous, body)

    def repeat_stmt(self, meta, children):
        count = int(children[0])
        if count > 50:
            raise _AstError(Diagnostic(self._span(meta), f"repeat {count} is too many (at most 50)", "S011"))
        return ast.Repeat(self._span(meta), count, children[1])

    def move_stmt(self, meta, children):
        return ast.Move(self._span(meta), children[0], children[1])

    def discard_stmt(self, meta, children):
        return ast.Move(self._span(meta), children[0], ast.Dest(self._span(meta), "discard", None))

    def for_whom(self, meta, children):
        return ("for", children[0])

    def draw_stmt(self, meta, children):
        whom = children[1][1] if len(children) > 1 else None
        return ast.Draw(self._span(meta), children[0], whom)

    def sort_direction(self, meta, children):
        return str(children[0])

    def attr(self, meta, children):
        return str(children[0])

    def sort_key(self, meta, children):
        return ast.SortKey(self._span(meta), children[0], children[1])

    def deal_order(self, meta, children):
        return tuple(children)

    def deal_stmt(self, meta, children):
        order = children[2] if len(children) > 2 else ()
        return ast.Deal(self._span(meta), children[0], children[1], order)

    def gain_stmt(self, meta, children):
        whom = children[1][1] if len(children) > 1 else None
        return ast.Score(self._span(meta), 1, children[0], whom)

    def lose_stmt(self, meta, children):
        whom = children[1][1] if len(children) > 1 else None
        return ast.Score(self._span(meta), -1, children[0], whom)

    def next_leader_stmt(self, meta, children):
        return ast.NextLeader(self._span(meta), children[0])

    def next_lead_stmt(self, meta, children):
        return ast.NextLead(self._span(meta), children[0])

    def zone(self, meta, children):
        return str(children[0])

    def dest_zone(self, meta, children):
        return ast.Dest(self._span(meta), children[0], children[1] if len(children) > 1 else None)

    def dest_reserve_top(self, meta, children):
        return ast.Dest(self._span(meta), "reserve_top", None)

    def dest_reserve_bottom(self, meta, children):
        return ast.Dest(self._span(meta), "reserve_bottom", None)

    def dest_discard(self, meta, children):
        return ast.Dest(self._span(meta), "discard", None)

    # ---- expressions
    def or_op(self, meta, children):
        return ast.Logic(self._span(meta), "or", children[0], children[1])

    def and_op(self, meta, children):
        return ast.Logic(self._span(meta), "and", children[0], children[1])

    def not_op(self, meta, children):
        return ast.Not(self._span(meta), children[0])

    def comp_op(self, meta, children):
        words = " ".join(str(c) for c in children)
        return {"is": "==", "is not": "!=", "not in": "not in"}.get(words, words)

    def compare(self, meta, children):
        return ast.Compare(self._span(meta), children[1], children[0], children[2])

    def condition(self, meta, children):
        return ast.Compare(self._span(meta), children[1], children[0], children[2])

    def where(self, meta, children):
        return ast.Where(self._span(meta), children[0], children[1])

    def except_op(self, meta, children):
        return ast.Except(self._span(meta), children[0], children[1])

    def otherwise(self, meta, children):
        return ast.Otherwise(self._span(meta), children[0], children[1])

    def extreme(self, meta, children):
        return " ".join(str(c) for c in children)

    def with_extreme(self, meta, children):
        return ast.WithExtreme(self._span(meta), children[0], children[1], children[2])

    def add(self, meta, children):
        return ast.Arith(self._span(meta), "+", children[0], children[1])

    def sub(self, meta, children):
        return ast.Arith(self._span(meta), "-", children[0], children[1])

    def mul(self, meta, children):
        return ast.Arith(self._span(meta), "*", children[0], children[1])

    def div(self, meta, children):
        return ast.Arith(self._span(meta), "/", children[0], children[1])

    def neg(self, meta, children):
        return ast.Neg(self._span(meta), children[0])

    def int_lit(self, meta, children):
        text = str(children[0])
        if len(text) > 6:
            raise _AstError(Diagnostic(self._tok_span(children[0]), f"the number {text[:12]} is too large (at most 999999)", "S012"))
        return ast.IntLit(self._tok_span(children[0]), int(text))

    def faction_lit(self, meta, children):
        return ast.FactionLit(self._tok_span(children[0]), _unquote(children[0]))

    def name_ref(self, meta, children):
        return ast.NameRef(self._tok_span(children[0]), str(children[0]))

    def bare_attr(self, meta, children):
        return ast.BareAttr(self._span(meta), children[0])

    def attr_of(self, meta, children):
        return ast.AttrOf(self._span(meta), children[0], children[1])

    def zone_ref(self, meta, children):
        return ast.ZoneRef(self._span(meta), children[0], children[1] if len(children) > 1 else None)

    def side_word(self, meta, children):
        return str(children[0])

    def neighbour(self, meta, children):
        return ast.Neighbour(self._span(meta), children[0], children[1] if len(children) > 1 else None)

    def call(self, meta, children):
        return ast.Call(self._span(meta), str(children[0]), tuple(children[1:]))

    def aggregate(self, meta, children):
        return str(children[0])

    def call_aggregate(self, meta, children):
        return ast.Call(self._span(meta), children[0], tuple(children[1:]))

    def comprehension(self, meta, children):
        function, body, var, source = children
        return ast.Comprehension(self._span(meta), function, body, str(var), source)

    def list_lit(self, meta, children):
        return ast.ListLit(self._span(meta), tuple(children))
