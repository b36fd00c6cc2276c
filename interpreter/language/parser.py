"""Text → syntax tree: `parse` and `parse_file`, and the transformer of Lark's tree into ast nodes.

Lark's trees stay behind this border: the checker, the compiler and the
renderers see only ast nodes. The grammar is loaded in grammar.py; a text
that does not parse is worded by syntax_errors.py.
"""

from __future__ import annotations

import re
from pathlib import Path

from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

from happydayz.language import ast
from happydayz.language.ast import too_deep
from happydayz.base.files import read_bytes
from happydayz.base.errors import Diagnostic, Span, SyntaxProblem
from happydayz.language.grammar import lark_parser
from happydayz.language.syntax_errors import syntax_diagnostic

MAX_SOURCE_BYTES = 256 * 1024  # a power file is a page of text, not a novel
# Control characters (but tab and the line breaks) and bidi controls: escape sequences and reordered text.
_HIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def parse(text: str, filename: str = "<input>") -> ast.PowerFile:
    if len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise SyntaxProblem(Diagnostic(Span(filename, 1, 1), f"the file is larger than {MAX_SOURCE_BYTES // 1024} KiB; a power file should be a page of text", "S004"))
    hidden = _HIDDEN.search(text)
    if hidden is not None:  # (inside a quoted text too: a title would reach the terminal as it is)
        line = text.count("\n", 0, hidden.start()) + 1
        column = hidden.start() - (text.rfind("\n", 0, hidden.start()) + 1) + 1
        raise SyntaxProblem(Diagnostic(Span(filename, line, column, line, column + 1),
                                       f"an invisible control character (U+{ord(hidden.group()):04X}) is here: "
                                       "delete it", "S001"))
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as exc:
        raise SyntaxProblem(syntax_diagnostic(exc, text, filename)) from None
    try:
        with ast.room_to_recurse():
            return _shallow(_ToAst(filename, text).transform(tree))
    except VisitError as exc:  # Lark wraps what a transformer method raises
        if isinstance(exc.orig_exc, _AstError):
            raise SyntaxProblem(exc.orig_exc.diagnostic) from None
        if isinstance(exc.orig_exc, RecursionError):
            raise SyntaxProblem(too_deep(filename)) from None
        raise
    except RecursionError:
        raise SyntaxProblem(too_deep(filename)) from None


def _shallow(power: ast.PowerFile) -> ast.PowerFile:
    """The tree, unless it nests more than ast.MAX_NESTING levels (S013 at the first node below that)."""
    stack = [(power, 1)]
    while stack:  # (no recursion: the tree may be deep)
        node, depth = stack.pop()
        if depth > ast.MAX_NESTING:
            raise SyntaxProblem(Diagnostic(node.span, f"this is nested more than {ast.MAX_NESTING} levels deep", "S013",
                                           hint="split it into simpler statements: a 'let' for a part of an "
                                                "expression, or a smaller 'if'"))
        stack.extend((child, depth + 1) for child in ast.children(node))
    return power


def parse_file(path: str | Path) -> ast.PowerFile:
    path = Path(path)
    # A regular file of at most 256 KiB, read no further (base.files); a device or a huge file is refused unread.
    raw = read_bytes(path, "power", code="S005", error=SyntaxProblem, large_code="S004")
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark, as some editors write: accepted, as in YAML
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SyntaxProblem(Diagnostic(Span(str(path), line, column), "the file is not UTF-8 text", "S006",
                                       hint="save it as UTF-8 in your editor")) from None
    return parse(text, str(path))


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
        state = tuple(i for i in items if isinstance(i, ast.StateDecl))
        return ast.PowerFile(self._span(meta), name, binding, variants, hooks, rules, self.text, state)

    def state_kind(self, meta, children):
        return str(children[0])

    def per_community(self, meta, children):
        return ("per", True)

    def lifetime(self, meta, children):
        return ("for", str(children[1]))

    def visibility(self, meta, children):
        return ("seen", str(children[0]))

    def state_decl(self, meta, children):
        shared = ""
        if children and children[0] == ("shared", True):
            shared, children = "declares", children[1:]
        kind, name, *rest = children
        options = dict(rest)
        return ast.StateDecl(self._span(meta), kind, str(name), options.get("per", False),
                             options.get("for", "game"), options.get("seen", "public"),
                             holds=options.get("holds"), shared=shared)

    def uses_decl(self, meta, children):
        kind, name, *rest = children
        options = dict(rest)
        return ast.StateDecl(self._span(meta), kind, str(name), options.get("per", False), "game", "public",
                             holds=options.get("holds"), shared="uses")

    def shared(self, meta, children):
        return ("shared", True)

    def state_type(self, meta, children):
        return ("holds", str(children[0]))

    def option_int(self, meta, children):
        return int(children[0])

    def option_negative(self, meta, children):
        return -int(children[0])

    def option_word(self, meta, children):
        word = str(children[0])
        if word not in ("true", "false"):
            return word  # not a default an option may have: the checker says so (C068)
        return word == "true"

    def option_decl(self, meta, children):
        name, default = children
        kind = "mark" if type(default) is bool else "counter"
        return ast.StateDecl(self._span(meta), kind, str(name), False, "game", "public", default)

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

    def on_play(self, meta, children):
        return ast.Hook(self._span(meta), "play", children[0])

    def on_lead(self, meta, children):
        return ast.Hook(self._span(meta), "lead", children[0])

    def on_trick(self, meta, children):
        return ast.Hook(self._span(meta), "trick", children[0])

    def after_trick(self, meta, children):
        return ast.Hook(self._span(meta), "after_trick", children[0])

    def on_enter_expedition(self, meta, children):
        return ast.Hook(self._span(meta), "enter_expedition", children[0])

    def on_enter_hand(self, meta, children):
        return ast.Hook(self._span(meta), "enter_hand", children[0])

    def after_transfer(self, meta, children):
        return ast.Hook(self._span(meta), "after_transfer", children[0])

    def at_start_of_round(self, meta, children):
        return ast.Hook(self._span(meta), "start_of_round", children[0])

    def at_end_of_game(self, meta, children):
        return ast.Hook(self._span(meta), "end_of_game", children[0])

    def rule_always_playable(self, meta, children):
        return ast.Rule(self._span(meta), "always_playable", children[0] if children else None)

    def rule_never_leads(self, meta, children):
        return ast.Rule(self._span(meta), "never_leads", children[0] if children else None)

    def rule_trumps(self, meta, children):
        return ast.Rule(self._span(meta), "trumps", children[0])

    def rule_counts_as(self, meta, children):
        return ast.Rule(self._span(meta), "counts_as", children[2], children[0], children[1])

    def rule_blocks_led_power(self, meta, children):
        return ast.Rule(self._span(meta), "blocks_led_power")

    def rule_face_up(self, meta, children):
        return ast.Rule(self._span(meta), "face_up")

    def rule_carried_over(self, meta, children):
        return ast.Rule(self._span(meta), "carried_over")

    def rule_wins(self, meta, children):
        return ast.Rule(self._span(meta), "wins", children[0] if children else None)

    def rule_never_wins(self, meta, children):
        return ast.Rule(self._span(meta), "never_wins", children[0] if children else None)

    def rule_wild(self, meta, children):
        return ast.Rule(self._span(meta), "wild")

    def rule_beats(self, meta, children):
        return ast.Rule(self._span(meta), "beats", children[0])

    def rule_bids_only_when(self, meta, children):
        return ast.Rule(self._span(meta), "bids_only_when", children[0])

    def rule_leads_only_when(self, meta, children):
        return ast.Rule(self._span(meta), "leads_only_when", children[0])

    def rule_only_leads(self, meta, children):
        return ast.Rule(self._span(meta), "only_leads", children[0] if children else None)

    def rule_must_beat(self, meta, children):
        return ast.Rule(self._span(meta), "must_beat")

    def rule_must_trump(self, meta, children):
        return ast.Rule(self._span(meta), "must_trump")

    def rule_must_be_played(self, meta, children):
        return ast.Rule(self._span(meta), "must_be_played", children[0])

    # ---- statements
    def block(self, meta, children):
        return ast.Block(self._span(meta), tuple(children))

    def let_stmt(self, meta, children):
        return ast.Let(self._span(meta), str(children[0]), children[1])

    def set_stmt(self, meta, children):
        return ast.SetVar(self._span(meta), str(children[0]), children[1])

    def set_state_of(self, meta, children):
        return ast.SetState(self._span(meta), str(children[0]), children[1], children[2])

    def add_stmt(self, meta, children):
        return ast.AddState(self._span(meta), children[0], str(children[1]), children[2] if len(children) > 2 else None)

    def mode_option(self, meta, children):
        return ast.ModeOption(self._span(meta), _unquote(children[0]), children[1])

    def choose_mode(self, meta, children):
        chooser = children[0][1] if isinstance(children[0], tuple) else None
        options = tuple(c for c in children if isinstance(c, ast.ModeOption))
        if len(options) > 20:
            raise _AstError(Diagnostic(self._span(meta), f"a choice of {len(options)} courses is too many (at most 20)", "S010"))
        return ast.ChooseMode(self._span(meta), chooser, options)

    def declare_stmt(self, meta, children):
        return ast.Declare(self._span(meta), children[0], children[1])

    def set_side(self, meta, children):
        return ast.SetSide(self._span(meta), children[0])

    def flip_side(self, meta, children):
        return ast.SetSide(self._span(meta), None)

    def end_trick(self, meta, children):
        return ast.End(self._span(meta), "trick")

    def end_round(self, meta, children):
        return ast.End(self._span(meta), "round")

    def end_game(self, meta, children):
        return ast.End(self._span(meta), "game")

    def _count(self, token: Token) -> int:
        text = str(token)
        if len(text) > 6:
            raise _AstError(Diagnostic(self._tok_span(token), f"the number {text[:12]}… is too large (at most 999999)", "S012"))
        return int(text)

    def exactly(self, meta, children):
        return ("exactly", self._count(children[0]))

    def up_to(self, meta, children):
        return ("up_to", self._count(children[0]))

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
        count = self._count(children[0])
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

    def next_side_stmt(self, meta, children):
        return ast.NextSide(self._span(meta), children[0])

    def nobody_takes_stmt(self, meta, children):
        return ast.NobodyTakes(self._span(meta), children[0] if children else None)

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

    def state_of(self, meta, children):
        return ast.StateOf(self._span(meta), str(children[0]), children[1])

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
