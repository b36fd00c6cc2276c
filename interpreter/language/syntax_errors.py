"""Syntax errors worded for a person who is not a programmer.

A text that does not parse gives one Diagnostic. `syntax_diagnostic` first
tries the table of common mistakes, SYNTAX_MISTAKES (a code, what it means,
broken example snippets that the tests and docs/diagnostics.md use, and a
detector); the first detector that recognises the error words it. Otherwise
the message is the generic "unexpected X; expected Y" (S001), or at the end of
the file an unclosed block (S002) or an early end (S003). Every diagnostic has
a position.

    syntax_diagnostic(exc, text, filename) -> Diagnostic   # exc: what Lark raised
    SYNTAX_MISTAKES                                        # the table of common mistakes
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from happydayz.base.errors import Diagnostic, Span, suggest
from happydayz.language.grammar import hooks, lark_parser, statement_words

# Terminal names → words a person understands (a keyword or a symbol is shown quoted).
_TOKEN_WORDS = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "EQUAL": "'='", "NAME": "a lowercase name", "CAPNAME": "a Faction name",
    "STRING": "a quoted text", "INT": "a number", "$END": "the end of the file", "<END-OF-FILE>": "the end of the file",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "LESSTHAN": "'<'", "MORETHAN": "'>'",
}

# The words a statement starts with and the hooks, read from the grammar: a hint never lists too few.
_STATEMENT_WORDS = statement_words()
_HOOKS = hooks()
_COMPARISON_WORDS = ("==", "!=", "<", "<=", ">", ">=", "is", "in")
_OPERATOR_WORDS = _COMPARISON_WORDS + ("and", "or", "not", "where", "except", "otherwise", "with", "+", "-", "*", "/")
_VALUE_WORDS = ("INT", "STRING", "CAPNAME", "NAME", "(", "[", "-", "not", "value", "survivors", "faction",
                "hand", "transfer", "held", "expedition", "left", "right", "sum", "min", "max")
# Groups of expected words said in one phrase when enough of them are expected.
_WORD_GROUPS = (("a statement", _STATEMENT_WORDS, 5), ("a value", _VALUE_WORDS, 5), ("an operator", _OPERATOR_WORDS, 5))
_HEADER_WORDS = ("power", "variant", "on", "at", "if", "else", "each", "choose", "ask", "repeat")
_LOOP_WORDS = ("foreach", "for_each", "forall", "while", "loop")
_SYMBOL_WORDS = {"&&": "and", "&": "and", "||": "or", "|": "or", "!": "not"}
_CLOSER = {"(": ")", "[": "]"}


@lru_cache(maxsize=None)
def _terminal_names() -> frozenset[str]:
    return frozenset(t.name for t in lark_parser().terminals)


@lru_cache(maxsize=None)
def _key(terminal: str) -> str:
    """A terminal's key: its literal text for a keyword or a symbol ('gain', '{'), else its name (NAME)."""
    if terminal in _terminal_names():
        pattern = lark_parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return pattern.value
    return terminal


# Keywords said with the words that always follow them: a hook's first word, as its hooks.
_PHRASES = {first: "/".join(f"'{h}'" for h in _HOOKS if h.split()[0] == first)
            for first in dict.fromkeys(h.split()[0] for h in _HOOKS)}


def _listed(words, last: str = "and") -> str:
    """'a', 'b' and 'c'."""
    quoted = [f"'{w}'" for w in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + f" {last} " + quoted[-1]


def _word(key: str) -> str:
    if key in _TOKEN_WORDS:
        return _TOKEN_WORDS[key]
    if key in _PHRASES:
        return _PHRASES[key]
    return f"'{key}'" if key not in _terminal_names() else key.lower()


def _expected_words(expected) -> str:
    """Expected terminals (names or keys) as words: "a statement, 'for' or '}'"."""
    keys = {_key(t) for t in expected}
    phrases: list[str] = []
    rest = set(keys)
    for phrase, members, threshold in _WORD_GROUPS:
        present = keys & set(members)
        if len(present) >= threshold:
            phrases.append(phrase)
            rest -= present
    words = phrases + sorted(_word(k) for k in rest)
    if not words:
        return "something else"
    if len(words) > 8:
        words = words[:8] + ["…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---- a light scan of the text: its words and symbols, and its blocks

_LEXEME = re.compile(r"""
    (?P<newline>\n) | (?P<space>[ \t\f\r]+) | (?P<comment>\#[^\n]*)
  | (?P<string>"[^"\n]*") | (?P<open_string>"[^"\n]*)
  | (?P<cap>[A-Z][A-Za-z0-9_'-]*) | (?P<word>[a-z_][a-z0-9_]*) | (?P<int>[0-9]+)
  | (?P<punct>==|!=|<=|>=|&&|\|\||[{}()\[\],=<>+*/-])
  | (?P<other>.)""", re.VERBOSE)


@dataclass(frozen=True)
class _Lexeme:
    kind: str  # word, cap, string, open_string, int, punct, other
    text: str
    start: int  # offset in the text
    line: int
    column: int
    first: bool  # the first lexeme of its line
    indent: int  # the indentation of its line

    @property
    def end_column(self) -> int:
        return self.column + len(self.text)


def _lexemes(text: str) -> list[_Lexeme]:
    """Every word, number, text and symbol of `text` (comments and spaces left out), with positions."""
    out: list[_Lexeme] = []
    line, line_start, indent, first = 1, 0, 0, True
    for m in _LEXEME.finditer(text):
        kind = m.lastgroup
        if kind == "newline":
            line, line_start, first = line + 1, m.end(), True
            continue
        if kind in ("space", "comment"):
            continue
        column = m.start() - line_start + 1
        if first:
            indent = column - 1
        out.append(_Lexeme(kind, m.group(), m.start(), line, column, first, indent))
        first = False
    return out


@dataclass(frozen=True)
class _Block:
    header: str  # "on win", "if", "power Goblins", "" when unknown
    line: int  # of its '{'
    column: int
    indent: int  # the indentation of the line its header starts on

    @property
    def name(self) -> str:
        return f"the '{self.header}' block" if self.header else "the block"


@dataclass
class _Braces:
    """The blocks of a text up to a point."""

    open: list[_Block] = field(default_factory=list)  # still open, outermost first
    closed_by: dict[int, _Block] = field(default_factory=dict)  # offset of a '}' -> the block it closed
    power_end: _Lexeme | None = None  # the last '}' that closed the outermost block
    # A '}' that closed an inner block while it stands at the indentation of an enclosing one:
    # (the block it closed, the block its indentation belongs to, the '}').
    suspects: list[tuple[_Block, _Block, _Lexeme]] = field(default_factory=list)
    parens: list[_Lexeme] = field(default_factory=list)  # '(' and '[' open since the last '{' or '}'


def _header(lexemes: list[_Lexeme], fallback: _Lexeme) -> tuple[str, int]:
    """The words that open a block ("on win", "if", "variant basic") and the indentation of their line."""
    for j in range(len(lexemes) - 1, -1, -1):
        lx = lexemes[j]
        if lx.kind == "word" and lx.text in _HEADER_WORDS:
            if lx.text in ("power", "variant", "on", "at"):
                words = " ".join(x.text for x in lexemes[j:j + 4])
            else:
                words = lx.text
            return words, lx.indent
    return "", fallback.indent


def _braces(lexemes: list[_Lexeme]) -> _Braces:
    b = _Braces()
    since = 0
    for i, lx in enumerate(lexemes):
        if lx.kind != "punct":
            continue
        if lx.text == "{":
            header, indent = _header(lexemes[since:i], lx)
            b.open.append(_Block(header, lx.line, lx.column, indent))
            since, b.parens = i + 1, []
        elif lx.text == "}":
            if b.open:
                block = b.open.pop()
                b.closed_by[lx.start] = block
                if not b.open:
                    b.power_end = lx
                elif lx.first and lx.indent != block.indent and lx.line != block.line:
                    outer = next((o for o in reversed(b.open) if o.indent == lx.indent), None)
                    if outer is not None:
                        b.suspects.append((block, outer, lx))
            since, b.parens = i + 1, []
        elif lx.text in "([":
            b.parens.append(lx)
        elif lx.text in ")]" and b.parens:
            b.parens.pop()
    return b


# ---- where the parse stopped

@dataclass
class _Site:
    text: str
    filename: str
    kind: str  # "token", "character" or "end"
    line: int
    column: int
    pos: int  # offset in the text
    found: str  # the token's text, or the character ("" at the end)
    found_type: str  # the token's terminal name ("" for a character or the end)
    expected: frozenset[str]  # keys of the terminals the parser would accept here
    before: list[_Lexeme]  # the lexemes before the error
    after: list[_Lexeme]  # the lexemes from the error on
    braces: _Braces

    @property
    def prev(self) -> _Lexeme | None:
        return self.before[-1] if self.before else None

    @property
    def next(self) -> _Lexeme | None:
        return self.after[1] if len(self.after) > 1 else None

    def expects(self, *keys: str) -> bool:
        return any(k in self.expected for k in keys)

    @property
    def at_statement(self) -> bool:
        """The parser waits for a statement here."""
        return sum(1 for w in _STATEMENT_WORDS if w in self.expected) >= 5

    @property
    def found_word(self) -> bool:
        return bool(re.fullmatch(r"[a-z_][a-z0-9_]*", self.found))

    def span(self, width: int | None = None) -> Span:
        """The place of the error, `width` characters wide (default: the word found)."""
        width = max(len(self.found), 1) if width is None else max(width, 1)
        return Span(self.filename, self.line, self.column, self.line, self.column + width)

    def after_prev(self) -> Span:
        """The place just after the lexeme before the error: where something is missing."""
        prev = self.prev
        if prev is None:
            return self.span()
        return Span(self.filename, prev.line, prev.end_column, prev.line, prev.end_column + 1)

    def source_line(self) -> str:
        """The line of the error (lines are counted by '\n', as the parser counts them)."""
        lines = self.text.split("\n")
        return lines[self.line - 1] if 1 <= self.line <= len(lines) else ""

    def fixed(self, replacement: str, width: int | None = None) -> str | None:
        """The error's line with the found text replaced: "write: if led is Goblins {"."""
        width = len(self.found) if width is None else width
        line = self.source_line()
        head, tail = line[: self.column - 1], line[self.column - 1 + width:]
        if replacement[:1].isalpha() and head[-1:].isalnum():
            replacement = " " + replacement
        if replacement[-1:].isalpha() and tail[:1].isalnum():
            replacement += " "
        if not replacement and head.endswith(" ") and tail.startswith(" "):
            tail = tail[1:]
        fixed = (head + replacement + tail).strip()
        return f"write: {fixed}" if 0 < len(fixed) <= 72 else None

    def diagnostic(self, code: str, message: str, hint: str | None = None, span: Span | None = None) -> Diagnostic:
        return Diagnostic(span or self.span(), message, code, hint=hint)


def _site(exc: UnexpectedInput, text: str, filename: str) -> _Site:
    lexemes = _lexemes(text)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        kind, pos, found, found_type = "end", len(text), "", ""
        lines = text.split("\n")
        if len(lines) > 1 and not lines[-1]:
            lines.pop()  # the newline that ends the last line
        line, column = len(lines), len(lines[-1]) + 1
        names = (getattr(exc, "accepts", None) if isinstance(exc, UnexpectedToken) else None) \
            or getattr(exc, "expected", None) or ()
    elif isinstance(exc, UnexpectedCharacters):
        kind, pos = "character", exc.pos_in_stream
        found, found_type = (text[pos] if pos < len(text) else ""), ""
        line, column = exc.line, exc.column
        names = exc.allowed or ()
    else:
        token = exc.token
        kind, found, found_type = "token", str(token), token.type
        pos = token.start_pos if token.start_pos is not None else len(text)
        line, column = token.line, token.column
        names = exc.accepts or exc.expected or ()
    if not isinstance(line, int) or line < 1:
        line, column = 1, 1
    if not isinstance(column, int) or column < 1:
        column = 1
    before = [x for x in lexemes if x.start < pos]
    after = [x for x in lexemes if x.start >= pos]
    return _Site(text, filename, kind, line, column, pos, found, found_type,
                 frozenset(_key(n) for n in names), before, after, _braces(before))


def syntax_diagnostic(exc: UnexpectedInput, text: str, filename: str) -> Diagnostic:
    site = _site(exc, text, filename)
    for mistake in SYNTAX_MISTAKES:
        diagnostic = mistake.detect(site)
        if diagnostic is not None:
            return diagnostic
    return _generic(site)


def _generic(site: _Site) -> Diagnostic:
    if site.kind == "end":
        return site.diagnostic("S003", f"the file ends too early; expected {_expected_words(site.expected)}",
                               span=Span(site.filename, site.line, site.column))
    if site.kind == "character":
        # The lexer's set of possible words here is loose (it merges several parser states): name it when short.
        words = _expected_words(site.expected)
        expected = f"; expected {words}" if words.count("'") <= 6 and "…" not in words else ""
        return site.diagnostic("S001", f"unexpected character {site.found!r}{expected}",
                               hint=_hint_for(site), span=site.span(width=1))
    return site.diagnostic("S001", f"unexpected {site.found!r}; expected {_expected_words(site.expected)}",
                           hint=_hint_for(site))


def _hint_for(site: _Site) -> str | None:
    """A hint for a generic error (S001)."""
    found, expected, prev = site.found, site.expected, site.prev
    if site.kind == "character":
        if found == ";":
            return "no ';' is needed: write one statement a line"
        if found == "'":
            return "a quoted text is written between double quotes: \"like this\""
        if found in "\u201c\u201d\u2018\u2019":
            return "use straight double quotes (\"), not typographic ones"
        if found == ".":
            return "there is no '.': write 'value of card', not 'card.value'"
        if found == ":":
            return "there is no ':' in the language"
        if found == "\ufeff":
            return "an invisible byte-order mark (U+FEFF) is here: save the file as UTF-8 without it"
        if found.isalpha():
            return "names use only the letters a to z, the digits and '_'"
        if not found.isprintable():
            return f"an invisible control character (U+{ord(found):04X}) is here: delete it"
        return None
    if found == "}" and "}" not in expected:
        return "a statement or an expression is unfinished before this '}'"
    if found == "/" and site.text[site.pos + 1: site.pos + 2] == "/":
        return "a comment starts with '#', not '//'"
    if prev is not None and prev.text in ("on", "at") and prev.kind == "word":
        return f"the hooks are {_listed(_HOOKS)}, each followed by {{ ... }}"
    if found == "=" and "=" not in expected:
        return site.fixed("")
    if site.found_type == "NAME" and "CAPNAME" in expected:
        return "Faction names start with a capital letter, or are written in quotes"
    if site.found_type == "CAPNAME" and prev is not None and prev.kind == "word" and prev.start + len(prev.text) == site.pos:
        joined = prev.text + found
        snake = re.sub(r"(?<!^)([A-Z])", r"_\1", joined).lower()
        return (f"'{joined}' is read as '{prev.text}' followed by '{found}': names are lowercase, "
                f"with '_' between words ('{snake}')")
    if site.found_type == "CAPNAME" and "NAME" in expected and "CAPNAME" not in expected:
        return "variables and keywords are lowercase; Faction names go where a Faction is expected"
    in_list = bool(site.braces.parens) and site.braces.parens[-1].text == "["
    if in_list and "," in expected and site.found_type in ("CAPNAME", "NAME", "INT", "STRING"):
        return "separate the items of a list with ','"
    if (site.found_word or site.found_type == "CAPNAME") and len(expected) <= 8:
        guess = suggest(found, [k for k in expected if re.fullmatch(r"[a-z]+", k)])
        if guess and guess != found:
            return f"did you mean '{guess}'?"
    return None


# ---- the table of common mistakes

@dataclass(frozen=True)
class SyntaxMistake:
    code: str
    title: str  # what the mistake is, in a few words (docs/diagnostics.md)
    detect: Callable[[_Site], Diagnostic | None]
    examples: tuple[str, ...]  # small broken power files that give this code (the tests parse each)


def _culprit(site: _Site) -> tuple[_Block, str | None]:
    """The block that most likely lacks its '}', and why (a '}' indented like an outer block)."""
    innermost = site.braces.open[-1]
    for inner, outer, brace in site.braces.suspects:
        if (inner.line, inner.column) > (innermost.line, innermost.column):
            return inner, (f"add the '}}' of {inner.name}: the '}}' on line {brace.line}, indented like the "
                           f"'{outer.header}' line, seems meant to close {outer.name}")
    return innermost, None


def _unclosed_block(site: _Site) -> Diagnostic | None:
    """S002: a block whose '}' is missing (at the end of the file, or before a new hook, rule or variant)."""
    if site.kind == "end":
        if not site.braces.open:
            return None
        block, why = _culprit(site)
        return Diagnostic(
            Span(site.filename, block.line, block.column, block.line, block.column + 1),
            f"{block.name} opened here is never closed: the file ends before its '}}'", "S002",
            hint=why or "add the missing '}' at the end of the block")
    starts = ("on", "at", "rule", "variant", "power")
    if site.kind != "token" or site.found not in starts or site.found in site.expected:
        return None
    deep = len(site.braces.open) >= (1 if site.found == "power" else 2)
    if not deep:
        return None
    block, why = _culprit(site)
    words = []
    for lx in site.after[: {"on": 2, "at": 4, "variant": 3, "rule": 3, "power": 2}[site.found]]:
        if lx.line != site.line or lx.text in ("{", "}"):
            break
        words.append(lx.text)
    return site.diagnostic(
        "S002", f"a '}}' is missing: {block.name} opened on line {block.line} is not closed before "
                f"'{' '.join(words)}'",
        hint=why or f"close {block.name} with '}}' before line {site.line}")


def _missing_binding(site: _Site) -> Diagnostic | None:
    """S026: no 'for faction NAME', 'for card' or 'added' line at the top of the power."""
    if site.kind != "token":
        return None
    name = next((x.text for x in site.before[1:2] if x.kind in ("cap", "string")), "NAME")
    if site.expected and site.expected <= {"for", "added"}:
        return site.diagnostic(
            "S026", "the power's first line must say what it belongs to: 'for faction NAME', 'for card' or 'added'",
            hint=f"for a Faction's power, write 'for faction {name}' on the line after 'power {name} {{'")
    if site.expected and site.expected <= {"faction", "card"} and site.prev is not None and site.prev.text == "for":
        return site.diagnostic(
            "S026", f"write 'for faction {_given_name(site, name)}' (a Faction's power) or 'for card' (a card's own power)")
    return None


def _given_name(site: _Site, default: str) -> str:
    return site.found if site.found_type in ("CAPNAME", "STRING") else default


def _lowercase_name(site: _Site) -> Diagnostic | None:
    """S025: a lowercase word where the name of a power or a Faction must be."""
    if site.found_type != "NAME" or "CAPNAME" not in site.expected or "NAME" in site.expected:
        return None
    capital = site.found[:1].upper() + site.found[1:]
    what = "a Faction name" if site.prev is not None and site.prev.text == "faction" else "the name of a power"
    return site.diagnostic("S025", f"{what} starts with a capital letter: write '{capital}', not '{site.found}'",
                           hint="Faction names start with a capital letter, or are written in quotes")


def _unquoted_name(site: _Site) -> Diagnostic | None:
    """S035: a name of several words (a Faction's, a power's) written without quotes: Goblin Kings."""
    prev = site.prev
    if site.kind != "token" or site.found_type != "CAPNAME" or prev is None or prev.kind != "cap" \
            or prev.line != site.line or prev.start + len(prev.text) == site.pos:
        return None
    on_line = [x for x in site.before if x.line == site.line]
    names = _leading(on_line[::-1], "cap")[::-1] + _leading([x for x in site.after if x.line == site.line], "cap")
    start, end = names[0], names[-1]
    name = site.text[start.start:end.start + len(end.text)]
    line = site.source_line()
    fixed = (line[:start.column - 1] + f'"{name}"' + line[end.end_column - 1:]).strip()
    hint = f"write: {fixed}" if len(fixed) <= 72 else f'write "{name}", in quotes'
    in_list = bool(site.braces.parens) and site.braces.parens[-1].text == "["
    if in_list:
        hint += "; or, if these are two items of the list, separate them with ','"
    return Diagnostic(Span(site.filename, start.line, start.column, end.line, end.end_column),
                      f'a name of several words is written in quotes: "{name}"', "S035", hint=hint)


def _leading(lexemes: list[_Lexeme], kind: str) -> list[_Lexeme]:
    """The lexemes of `kind` at the start of `lexemes`."""
    out = []
    for lx in lexemes:
        if lx.kind != kind:
            break
        out.append(lx)
    return out


def _capital_keyword(site: _Site) -> Diagnostic | None:
    """S033: a keyword written with a capital letter (If, Gain, Power)."""
    if site.kind != "token" or site.found_type != "CAPNAME" or site.found.lower() not in site.expected:
        return None
    return site.diagnostic("S033", f"the words of the language are lowercase: write '{site.found.lower()}', "
                                   f"not '{site.found}'")


def _after_the_end(site: _Site) -> Diagnostic | None:
    """S022: a '}' too many, or anything after the power's closing '}'."""
    if site.kind != "token":
        return None
    end = site.braces.power_end
    if site.expected == {"$END"} and end is not None:
        if site.found == "}":
            return site.diagnostic(
                "S022", f"this '}}' closes nothing: the power already ended with the '}}' on line {end.line}",
                hint="there is one '}' more than '{': remove one (perhaps an earlier one, where a block ends too soon)")
        if site.found == "power":
            return site.diagnostic(
                "S022", f"a file holds one power, and this file's power already ended on line {end.line}",
                hint="put this power in a file of its own")
        return site.diagnostic(
            "S022", f"'{site.found}' comes after the end of the power: its closing '}}' is on line {end.line}",
            hint="everything goes inside 'power NAME { ... }'; is there a '}' too many above?")
    if site.found == "}" and not site.braces.open and "power" in site.expected:
        return site.diagnostic("S022", "this '}' closes nothing: no block is open here",
                               hint="a power file starts with 'power NAME {'")
    return None


def _outside_hook(site: _Site) -> Diagnostic | None:
    """S027: a statement written directly in a power or a variant, outside every hook."""
    if site.kind != "token" or site.found not in _STATEMENT_WORDS or not site.expects("on", "at"):
        return None
    prev = site.prev
    closed = site.braces.closed_by.get(prev.start) if prev is not None and prev.text == "}" else None
    hint = f"put it inside a hook, such as {_HOOKS[0]} {{ ... }}; the hooks are {_listed(_HOOKS)}"
    if closed is not None and closed.header.startswith(("on", "at")):
        hint = (f"the '}}' on line {prev.line} closes {closed.name}: if '{site.found}' belongs in that hook, "
                f"move that '}}' below it")
    return site.diagnostic(
        "S027", f"'{site.found}' is a statement, and statements go inside a hook",
        hint=hint)


def _else_without_if(site: _Site) -> Diagnostic | None:
    """S023: 'else' that does not follow the block of an 'if' (or of 'choose' or 'ask')."""
    if site.kind != "token" or site.found != "else" or "else" in site.expected:
        return None
    prev = site.prev
    closed = site.braces.closed_by.get(prev.start) if prev is not None and prev.text == "}" else None
    if closed is not None and closed.header and closed.header.split()[0] not in ("if", "choose", "ask"):
        return site.diagnostic("S023", f"'else' cannot follow {closed.name}: only 'if', 'choose' and 'ask' "
                                       f"have an 'else'",
                               hint="if CONDITION { ... } else { ... }")
    return site.diagnostic("S023", "'else' without 'if': an 'else' comes right after the '}' of an 'if', "
                                   "'choose' or 'ask' block",
                           hint="if CONDITION { ... } else { ... }")


def _loop_word(site: _Site) -> Diagnostic | None:
    """S024: a loop written with 'for' (or 'while'...) instead of 'each'."""
    if site.kind != "token" or not site.at_statement:
        return None
    if site.found == "for":
        shaped = len(site.after) > 2 and site.after[1].kind == "word" and site.after[2].text == "in"
        return site.diagnostic("S024", "a loop is written with 'each', not 'for': each NAME in GROUP { ... }",
                               hint=site.fixed("each") if shaped else None)
    if site.found in _LOOP_WORDS:
        return site.diagnostic(
            "S024", f"there is no '{site.found}' loop: walk a group with 'each NAME in GROUP {{ ... }}', "
                    f"or repeat a fixed number of times with 'repeat N {{ ... }}'")
    return None


def _wrong_preposition(site: _Site) -> Diagnostic | None:
    """S028: 'choose x in GROUP' (the word is 'from') or 'each x from GROUP' (the word is 'in')."""
    if site.kind != "token":
        return None
    if site.expected == {"from"} and site.found in ("in", "of"):
        return site.diagnostic("S028", f"a choice is written 'choose NAME from GROUP': write 'from', not '{site.found}'",
                               hint=site.fixed("from"))
    if site.expected == {"in"} and site.found in ("from", "of"):
        return site.diagnostic("S028", f"a loop is written 'each NAME in GROUP': write 'in', not '{site.found}'",
                               hint=site.fixed("in"))
    return None


def _equals(site: _Site) -> Diagnostic | None:
    """S021: '=' where a comparison goes, or 'is'/'==' where 'let' and 'set' want '='."""
    if site.kind != "token":
        return None
    if site.found == "=" and site.text[site.pos + 1: site.pos + 2] in ("<", ">"):
        written = site.text[site.pos: site.pos + 2]
        right = written[1] + "="
        return site.diagnostic("S021", f"'{written}' is written '{right}'", hint=site.fixed(right, width=2),
                               span=site.span(width=2))
    # ('=' after a condition's last name is seen where its block's '{' is due, or where a comparison could go)
    if site.found == "=" and ("{" in site.expected or any(w in site.expected for w in _COMPARISON_WORDS)):
        return site.diagnostic("S021", "'=' gives a name its value (in 'let' and 'set'); to compare, write 'is' or '=='",
                               hint=site.fixed("is"))
    if site.found in ("is", "==") and site.expected == {"="}:
        return site.diagnostic("S021", f"'let' and 'set' give a name its value with '=', not '{site.found}'",
                               hint=site.fixed("="))
    return None


def _unclosed_bracket(site: _Site) -> Diagnostic | None:
    """S031: a '(' or '[' never closed before the line or the block ends."""
    if site.kind != "token" or not site.braces.parens:
        return None
    opened = site.braces.parens[-1]
    closer = _CLOSER[opened.text]
    if closer not in site.expected or site.found == closer:
        return None
    new_line = site.prev is not None and site.line > site.prev.line
    if not (new_line or site.found in ("{", "}") or site.found in _STATEMENT_WORDS):
        return None
    return Diagnostic(Span(site.filename, opened.line, opened.column, opened.line, opened.column + 1),
                      f"this '{opened.text}' is never closed: a '{closer}' is missing", "S031",
                      hint=f"close it with '{closer}' (before '{site.found}' on line {site.line})")


def _missing_brace(site: _Site) -> Diagnostic | None:
    """S020: a hook, a variant, 'if', 'each'... not followed by '{'."""
    if site.kind == "character":
        rest = site.text[site.pos + 1:].split("\n", 1)[0].split("#", 1)[0]
        if site.found != ":" or "{" not in site.expected or rest.strip() or site.braces.parens:
            return None
        since = max((i for i, x in enumerate(site.before) if x.text in ("{", "}")), default=-1) + 1
        header = _header(site.before[since:], site.before[-1])[0] if site.before[since:] else ""
        if not header:
            return None
        return site.diagnostic("S020", f"'{header}' must be followed by '{{' to open its block",
                               hint="blocks are written between '{' and '}', not after ':'", span=site.span(width=1))
    if site.kind != "token" or "{" not in site.expected or site.found == "{":
        return None
    prev = site.prev
    new_line = prev is not None and site.line > prev.line
    if not (site.expected == {"{"} or site.found in ("}", "then") or site.found in _STATEMENT_WORDS or new_line):
        return None
    since = max((i for i, x in enumerate(site.before) if x.text in ("{", "}")), default=-1) + 1
    start = next((i for i in range(len(site.before) - 1, since - 1, -1)
                  if site.before[i].kind == "word" and site.before[i].text in _HEADER_WORDS), None)
    header = " ".join(x.text for x in site.before[start:]) if start is not None else ""
    if len(header) > 40:
        header = header[:39] + "…"
    what = f"'{header}'" if header else "this"
    if site.found == "then":
        return site.diagnostic("S020", f"{what} must be followed by '{{' to open its block",
                               hint="there is no 'then': the block starts with '{'")
    return Diagnostic(site.after_prev(), f"{what} must be followed by '{{' to open its block", "S020",
                      hint=f"a block is written between '{{' and '}}': {header or '...'} {{ ... }}")


def _unknown_statement(site: _Site) -> Diagnostic | None:
    """S034: a word that is not a statement where a statement must start."""
    if site.kind != "token" or not site.at_statement or site.found_type not in ("NAME", "CAPNAME"):
        return None
    starts_line = bool(site.after) and site.after[0].first
    if not (starts_line or (site.prev is not None and site.prev.text in ("{", "}"))):
        return None  # a word too many after a complete statement: the generic message says what may follow
    word = site.found
    nxt = site.next
    if site.found_type == "NAME" and nxt is not None and nxt.text == "=":
        made = any(a.text == "let" and b.text == word for a, b in zip(site.before, site.before[1:]))
        if made:
            return site.diagnostic("S034", f"to change a variable, write 'set {word} = ...'", hint=site.fixed(f"set {word}"))
        return site.diagnostic("S034", f"to name a value, write 'let {word} = ...'", hint=site.fixed(f"let {word}"))
    if word in ("elif", "elsif", "elseif"):
        return site.diagnostic("S034", f"'{word}' is not a word of the language: write 'else if'",
                               hint=site.fixed("else if"))
    guess = suggest(word.lower(), _STATEMENT_WORDS)
    if guess:
        return site.diagnostic("S034", f"'{word}' is not a statement; did you mean '{guess}'?")
    return site.diagnostic("S034", f"a statement cannot start with '{word}'",
                           hint="a statement starts with " + _listed(_STATEMENT_WORDS, "or"))


def _unfinished(site: _Site) -> Diagnostic | None:
    """S032: a line that ends before its statement or expression is complete."""
    prev = site.prev
    if site.kind != "token" or prev is None or prev.text in ("{", "}") or site.found in site.expected:
        return None
    if "}" in site.expected or site.at_statement or not (site.found == "}" or site.line > prev.line):
        return None
    return Diagnostic(site.after_prev(),
                      f"something is missing after '{prev.text}': expected {_expected_words(site.expected)}", "S032")


def _open_string(site: _Site) -> Diagnostic | None:
    """S029: a quoted text without its closing '"' (a quoted text stays on one line)."""
    if site.kind != "character" or site.found != '"':
        return None
    rest = len(site.source_line().rstrip()) - site.column + 1
    return site.diagnostic("S029", "this quoted text is not closed: a '\"' is missing before the end of the line",
                           hint="a quoted text stays on one line", span=site.span(width=rest))


def _symbol_operator(site: _Site) -> Diagnostic | None:
    """S030: '&&', '||' or '!' where the language says 'and', 'or', 'not'."""
    if site.kind != "character" or site.found not in "&|!" or not site.found:
        return None
    symbol = site.text[site.pos: site.pos + 2] if site.text[site.pos: site.pos + 2] in _SYMBOL_WORDS else site.found
    word = _SYMBOL_WORDS[symbol]
    before, after = site.text[site.pos - 1: site.pos], site.text[site.pos + len(symbol): site.pos + len(symbol) + 1]
    replacement = ("" if before in ("", " ", "\t", "(") else " ") + word + ("" if after in ("", " ", "\t") else " ")
    return site.diagnostic("S030", f"write '{word}' instead of '{symbol}'",
                           hint=site.fixed(replacement, width=len(symbol)), span=site.span(width=len(symbol)))


def _empty_file(site: _Site) -> Diagnostic | None:
    """S003 for a file with nothing in it."""
    if site.kind != "end" or site.before:
        return None
    return site.diagnostic("S003", "the file has no power in it: a power file starts with 'power NAME {'",
                           span=Span(site.filename, 1, 1))


def _snippet(*lines: str) -> str:
    return "\n".join(lines) + "\n"


_HOOK = ("power Goblins {", "  for faction Goblins", "  on win {")
_END = ("  }", "}")

SYNTAX_MISTAKES: tuple[SyntaxMistake, ...] = (
    SyntaxMistake("S003", "the file is empty", _empty_file, ("", "# nothing yet\n")),
    SyntaxMistake("S035", "a name of several words without quotes", _unquoted_name, (
        _snippet(*_HOOK, "    gain count(expedition where faction is Goblin Kings)", *_END),
        _snippet("power Goblin Kings {", "  for faction Goblin Kings", "}"),
        _snippet(*_HOOK, "    if led in [Goblins, Goblin Kings] {", "      gain 1", "    }", *_END),
    )),
    SyntaxMistake("S002", "a block is never closed: its '}' is missing", _unclosed_block, (
        _snippet(*_HOOK, "    gain 1"),
        _snippet(*_HOOK, "    if round > 1 {", "      gain 1", "  }", "  at end of round {", "    lose 1", "  }", "}"),
    )),
    SyntaxMistake("S029", "a quoted text without its closing '\"'", _open_string, (
        _snippet(*_HOOK, '    ask "Take the card? {', "      gain 1", "    }", *_END),
    )),
    SyntaxMistake("S030", "'&&', '||' or '!' instead of 'and', 'or', 'not'", _symbol_operator, (
        _snippet(*_HOOK, "    if round > 1 && round < 4 {", "      gain 1", "    }", *_END),
        _snippet(*_HOOK, "    if round > 1 || void {", "      gain 1", "    }", *_END),
    )),
    SyntaxMistake("S033", "a keyword written with a capital letter", _capital_keyword, (
        _snippet(*_HOOK, "    Gain 1", *_END),
        _snippet("Power Goblins {", "  for faction Goblins", "}"),
    )),
    SyntaxMistake("S026", "the line saying what the power belongs to is missing or incomplete", _missing_binding, (
        _snippet("power Goblins {", "  on win {", "    gain 1", *_END),
        _snippet("power Goblins {", "  for Goblins", "}"),
    )),
    SyntaxMistake("S025", "a lowercase name where a power or Faction name goes", _lowercase_name, (
        _snippet("power Goblins {", "  for faction goblins", "}"),
        _snippet("power goblins {", "  for faction Goblins", "}"),
    )),
    SyntaxMistake("S022", "a '}' too many, or text after the end of the power", _after_the_end, (
        _snippet(*_HOOK, "    gain 1", "  }", "  }", "}"),
        _snippet("power Goblins {", "  for faction Goblins", "}", "power Trolls {", "  for faction Trolls", "}"),
    )),
    SyntaxMistake("S027", "a statement outside any hook", _outside_hook, (
        _snippet("power Goblins {", "  for faction Goblins", "  gain 1", "}"),
        _snippet(*_HOOK, "    gain 1", "  }", "    lose 1", "}"),
    )),
    SyntaxMistake("S023", "'else' without 'if'", _else_without_if, (
        _snippet(*_HOOK, "    gain 1", "    else {", "      lose 1", "    }", *_END),
        _snippet(*_HOOK, "    each c in others {", "      gain 1", "    } else {", "      lose 1", "    }", *_END),
    )),
    SyntaxMistake("S024", "a loop written with 'for' (or 'while') instead of 'each'", _loop_word, (
        _snippet(*_HOOK, "    for c in others {", "      gain 1 for c", "    }", *_END),
        _snippet(*_HOOK, "    while round < 3 {", "      gain 1", "    }", *_END),
    )),
    SyntaxMistake("S028", "'choose x in' instead of 'choose x from' (or 'each x from' instead of 'each x in')",
                  _wrong_preposition, (
        _snippet(*_HOOK, "    choose c in others {", "      gain 1 for c", "    }", *_END),
        _snippet(*_HOOK, "    each c from others {", "      gain 1 for c", "    }", *_END),
    )),
    SyntaxMistake("S021", "'=' instead of 'is' in a comparison (or 'is' instead of '=' in 'let')", _equals, (
        _snippet(*_HOOK, "    if led = Goblins {", "      gain 1", "    }", *_END),
        _snippet(*_HOOK, "    gain count(expedition where faction = Goblins)", *_END),
        _snippet(*_HOOK, "    let n is 3", "    gain n", *_END),
    )),
    SyntaxMistake("S031", "a '(' or '[' that is never closed", _unclosed_bracket, (
        _snippet(*_HOOK, "    gain count(expedition where faction is Goblins", "    lose 1", *_END),
    )),
    SyntaxMistake("S020", "a '{' missing after 'on win', 'if', 'each'...", _missing_brace, (
        _snippet("power Goblins {", "  for faction Goblins", "  on win", "    gain 1", *_END),
        _snippet(*_HOOK, "    if round > 1", "      gain 1", "    }", *_END),
        _snippet(*_HOOK, "    if round > 1 then {", "      gain 1", "    }", *_END),
        _snippet("power Goblins {", "  for faction Goblins", "  on win:", "    gain 1", "}"),
    )),
    SyntaxMistake("S034", "a word that cannot start a statement", _unknown_statement, (
        _snippet(*_HOOK, "    gian 1", *_END),
        _snippet(*_HOOK, "    n = 3", "    gain n", *_END),
    )),
    SyntaxMistake("S032", "a line that ends before its statement is complete", _unfinished, (
        _snippet(*_HOOK, "    gain", *_END),
        _snippet(*_HOOK, "    move trick to", *_END),
        _snippet(*_HOOK, "    gain 1 +", *_END),
    )),
)
