"""Services for an editor: the same checks as `happydayz check`, on a document's text.

An editor holds documents that are not saved yet. Everything here takes the
text and the path the document will have, never reads the document from disk:
diagnostics (`diagnose`), the card text or the box entry behind a name
(`hover_text`, `definition`), what may be typed at a position (`completions`),
the layout of `fmt` (`format_document`) and the outline (`symbols`).
Positions are 1-based lines and columns, as in a Span. The language server
(happydayz.lsp) turns them into the protocol's.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from lark.exceptions import LarkError, UnexpectedInput

from happydayz.authoring.checking import DATA_SUFFIXES, POWER_SUFFIXES, check_paths
from happydayz.authoring.powerfiles import bundled_powers
from happydayz.base.errors import Diagnostic, DiagnosticSink, HappyError, Span
from happydayz.base.safeyaml import load_yaml_text
from happydayz.data.environment import Environment
from happydayz.language import ast
from happydayz.language.cardtext import card_text
from happydayz.language.checker import CheckedPower, check
from happydayz.language.formatter import format_source
from happydayz.language.grammar import lark_parser
from happydayz.language.parser import parse, parse_file

VARIANTS = ("basic", "positive", "negative")
#: Names the language gives values to (docs/language.md, "Built-in names"): offered where a name may stand.
GROUPS = ("self", "others", "everyone", "factions", "reserve", "trick", "encounter", "led", "leader", "this",
          "round", "players", "true", "false", "winner", "winning", "before", "sides", "partner", "team",
          # the hand's (docs/language.md, "The auction")
          "offered", "offered_faction", "passing", "bids_so_far", "auction_winner", "winning_bid", "winning_faction",
          "dealer", "dummy", "auction_stage", "turned_up", "entered", "mover",
          # where a card that entered a zone came from (`on enter expedition`, `on enter hand`)
          "from_trick", "from_hand", "from_transfer", "from_expedition", "from_reserve", "from_discard")
ZONES = ("hand", "transfer", "held", "expedition", "reserve", "discard")
#: A hook as it is written, by its timing in the syntax tree.
HOOK_WORDS = {"win": "on win", "play": "on play", "lead": "on lead", "trick": "on trick", "after_trick": "after trick",
              "start_of_round": "at start of round", "after_transfer": "after transfer", "end_of_round": "at end of round", "end_of_game": "at end of game",
              "enter_expedition": "on enter expedition", "enter_hand": "on enter hand"}
WORD = re.compile(r'"[^"\n]*"|[A-Za-z0-9_][A-Za-z0-9_\'-]*')


@dataclass(frozen=True)
class Location:
    """A place in a file: a path and a 1-based line and column."""

    path: Path
    line: int
    column: int


@dataclass(frozen=True)
class Symbol:
    """An entry of a document's outline: a power, a counter or mark, a variant, a hook or a rule."""

    name: str
    kind: str  # power, state (a counter or mark), variant, hook, rule
    span: Span
    children: tuple["Symbol", ...] = ()


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # keyword, faction, variant, zone, group, power
    detail: str = ""


def kind_of(path: str | os.PathLike) -> str | None:
    """"power" for a power file, "data" for a box or scenario file, else None."""
    suffix = Path(path).suffix.lower()
    return "power" if suffix in POWER_SUFFIXES else ("data" if suffix in DATA_SUFFIXES else None)


# ---------------------------------------------------------------- checks
def diagnose(text: str, path: str | os.PathLike, env: Environment) -> list[Diagnostic]:
    """Every diagnostic `happydayz check PATH` would give if PATH held `text` (errors and warnings)."""
    kind = kind_of(path)
    if kind == "power":
        return _diagnose_power(text, str(path), env)
    if kind == "data":
        return _diagnose_data(text, Path(path), env)
    return []


def _known_factions(env: Environment) -> set[str] | None:
    try:
        return set(env.library.all_factions())
    except HappyError:  # a broken box file: check without Faction names, as `check` does
        return None


def _diagnose_power(text: str, filename: str, env: Environment) -> list[Diagnostic]:
    try:
        tree = parse(text, filename)
    except HappyError as exc:
        return list(exc.diagnostics)
    sink = DiagnosticSink()
    check(tree, _known_factions(env), sink)
    return list(sink.items)


def _diagnose_data(text: str, path: Path, env: Environment) -> list[Diagnostic]:
    """A box or scenario file's text, checked by `check` itself.

    The data layer reads these files from disk, so the text is checked as a
    copy in a scratch folder, with the document's own folder searched for the
    power files it names; the copy's name is then put back in the diagnostics.
    """
    try:
        load_yaml_text(text, str(path))  # YAML syntax first: precise, and no copy needed
    except HappyError as exc:
        return list(exc.diagnostics)
    scratch = Path(tempfile.mkdtemp(prefix="happydayz-lsp-"))
    try:
        copy = scratch / path.name
        copy.write_text(text, encoding="utf-8")
        folder = path.parent.resolve()
        inner = Environment(power_dirs=[folder, *env.power_dirs], box_files=env.box_files, codegen=env.codegen)
        found = check_paths([copy], inner)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    names = {str(copy), str(copy.resolve())}
    out = []
    for d in found:
        message = d.message
        for name in names:
            message = message.replace(name, str(path))
        span = replace(d.span, file=str(path)) if d.span.file in names else d.span
        out.append(replace(d, span=span, message=message))
    return out


# ----------------------------------------------------------------- words
def word_at(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The word (a name, a keyword or a quoted name) under a 1-based position: (word, start, end) columns."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    source = lines[line - 1]
    for m in WORD.finditer(source):  # the cursor on a word
        if m.start() + 1 <= column <= m.end():
            return m.group(0), m.start() + 1, m.end() + 1
    for m in WORD.finditer(source):  # just after a word (the cursor at its end)
        if column == m.end() + 1:
            return m.group(0), m.start() + 1, m.end() + 1
    return None


def _unquote(word: str) -> str:
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] == '"' else word


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every keyword of the grammar (its string literals made of letters)."""
    return frozenset(t.pattern.value for t in lark_parser().terminals
                     if t.pattern.type == "str" and t.pattern.value.isalpha())


# ----------------------------------------------------------------- hover
def faction_power(name: str, env: Environment) -> Path | None:
    """The power file of a Faction or added power the loaded boxes know, or of a bundled power by name."""
    try:
        library = env.library
        found = library.all_factions().get(name) or library.all_added_powers().get(name)
    except HappyError:
        found = None
    if found is not None:
        return Path(found.power_file)
    key = name.lower().replace(" ", "_").replace("-", "")
    for stem, path in bundled_powers().items():
        if stem.replace("_", "") == key.replace("_", ""):
            return path
    return None


def _checked_text(text: str, filename: str, env: Environment) -> CheckedPower | None:
    try:
        tree = parse(text, filename)
    except HappyError:
        return None
    return check(tree, _known_factions(env), DiagnosticSink())


def _checked_file(path: Path, env: Environment) -> CheckedPower | None:
    try:
        return check(parse_file(path), _known_factions(env), DiagnosticSink())
    except (HappyError, OSError):
        return None


def _card_text(checked: CheckedPower | None, variant: str | None = None) -> str | None:
    if checked is None:
        return None
    if variant is not None and not checked.power.variants:
        variant = None
    try:
        return card_text(checked, variant)
    except Exception:  # a power that checks with errors may not render: no hover rather than a crash
        return None


def hover_text(text: str, path: str | os.PathLike, line: int, column: int, env: Environment) -> str | None:
    """The card text (as `explain` prints it) behind the name under the position, if it names a power.

    A Faction's or added power's name: its power's card text; the power's own
    name in a power file: this document's card text; a variant's kind: that
    variant's card text (of this document, or in a scenario file of the Faction on that line).
    """
    found = word_at(text, line, column)
    if found is None:
        return None
    word = _unquote(found[0])
    source = text.splitlines()[line - 1]
    kind = kind_of(path)
    if kind == "power":
        if word in VARIANTS and re.match(r"\s*variant\s", source):
            return _card_text(_checked_text(text, str(path), env), word)
        if re.match(r"\s*power\s", source) and (word[:1].isupper() or found[0].startswith('"')):
            return _card_text(_checked_text(text, str(path), env))
    if kind == "data" and word in VARIANTS:
        m = re.search(r"faction:\s*(\"[^\"]+\"|'[^']+'|[^,}\s][^,}]*)", source)
        if m:
            power = faction_power(m.group(1).strip().strip("'\""), env)
            return _card_text(_checked_file(power, env), word) if power else None
    if word[:1].isupper() or found[0].startswith('"'):
        power = faction_power(word, env)
        if power is not None:
            return _card_text(_checked_file(power, env))
    return None


# ------------------------------------------------------------ definition
def box_entry(name: str, env: Environment) -> Location | None:
    """Where a Faction or added power is declared: its entry in its box file."""
    try:
        library = env.library
        found = library.all_factions().get(name) or library.all_added_powers().get(name)
    except HappyError:
        return None
    if found is None:
        return None
    box = library.boxes.get(found.box)
    source = box.source if box is not None else None
    if source is None:
        return Location(Path(found.power_file), 1, 1)
    lines = Path(source).read_text(encoding="utf-8").splitlines()
    pattern = re.compile(r"^\s*-?\s*name:\s*[\"']?" + re.escape(name) + r"[\"']?\s*$")
    for number, text in enumerate(lines, 1):
        if pattern.match(text):
            return Location(Path(source), number, text.index("name") + 1)
    return Location(Path(source), 1, 1)


def definition(text: str, path: str | os.PathLike, line: int, column: int, env: Environment) -> Location | None:
    """Where the name under the position is defined.

    In a scenario or box file, a power file name (`power: x.power`) goes to the
    file; a Faction's name goes to its box entry, in any file.
    """
    found = word_at(text, line, column)
    if found is None:
        return None
    source = text.splitlines()[line - 1]
    if kind_of(path) == "data":
        m = re.search(r"([\w./\\-]+\.power)\b", source)
        if m and m.start() + 1 <= column <= m.end() + 1:
            target = resolve_power_reference(m.group(1), Path(path), env)
            return Location(target, 1, 1) if target is not None else None
    word = _unquote(found[0])
    if word[:1].isupper() or found[0].startswith('"'):
        return box_entry(word, env)
    return None


def resolve_power_reference(reference: str, document: Path, env: Environment) -> Path | None:
    """A power file a box or scenario file names: next to the file, in the --powers folders, or bundled."""
    for folder in (document.parent, *env.power_dirs):
        candidate = Path(folder) / reference
        if candidate.is_file():
            return candidate.resolve()
    return bundled_powers().get(Path(reference).stem)


# ------------------------------------------------------------ completion
@lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    """Terminal name -> the keyword or symbol it stands for."""
    return {t.name: t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"}


def _offset(text: str, line: int, column: int) -> int:
    lines = text.splitlines(keepends=True)
    return sum(len(x) for x in lines[:line - 1]) + column - 1


def completions(text: str, path: str | os.PathLike, line: int, column: int, env: Environment) -> list[Completion]:
    """What may be typed at the position: the keywords the grammar accepts there, and the names that fit."""
    try:
        library = env.library
        factions = sorted(library.all_factions())
        added = sorted(library.all_added_powers())
    except HappyError:
        factions, added = [], []
    if kind_of(path) == "data":
        items = [Completion(f, "faction", "Faction") for f in factions]
        items += [Completion(a, "power", "added power") for a in added]
        items += [Completion(v, "variant", "power variant") for v in VARIANTS]
        items += [Completion(p.name, "power", "bundled power file") for p in bundled_powers().values()]
        return items
    prefix = text[:_offset(text, line, column)]
    prefix = re.sub(r"[A-Za-z0-9_'-]*$", "", prefix)  # the word being typed
    accepted = _accepted(prefix)
    literals = _literals()
    if accepted is None:  # the text before the cursor does not parse: offer every keyword
        words = set(keywords())
        names = {"CAPNAME", "NAME", "STRING"}
    else:
        words = {literals[t] for t in accepted if t in literals and literals[t].isalpha()}
        names = accepted & {"CAPNAME", "NAME", "STRING"}
    items = [Completion(w, "zone" if w in ZONES else "keyword", "zone" if w in ZONES else "keyword")
             for w in sorted(words)]
    if "CAPNAME" in names or "STRING" in names:
        items += [Completion(f if re.fullmatch(r"[A-Z][A-Za-z0-9_'-]*", f) else f'"{f}"', "faction", "Faction")
                  for f in factions]
    if "NAME" in names:
        items += [Completion(g, "zone" if g in ZONES else "group", "built-in name") for g in GROUPS
                  if g not in words]
    return items


def _accepted(prefix: str) -> set[str] | None:
    try:
        interactive = lark_parser().parse_interactive(prefix)
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except (UnexpectedInput, LarkError):
        return None


# ---------------------------------------------------------------- layout
def format_document(text: str, path: str | os.PathLike) -> str | None:
    """The document as `fmt` lays it out; None when it does not parse (nothing to do)."""
    if kind_of(path) != "power":
        return None
    try:
        return format_source(text, str(path))
    except HappyError:
        return None


def symbols(text: str, path: str | os.PathLike) -> list[Symbol]:
    """The outline of a power file: the power, its counters and marks, its variants, their hooks and rules."""
    if kind_of(path) != "power":
        return []
    try:
        tree = parse(text, str(path))
    except HappyError:
        return []

    def parts(hooks: tuple[ast.Hook, ...], rules: tuple[ast.Rule, ...]) -> tuple[Symbol, ...]:
        found = [Symbol(HOOK_WORDS[h.timing], "hook", h.span) for h in hooks]
        found += [Symbol("rule " + r.kind.replace("_", " "), "rule", r.span) for r in rules]
        return tuple(sorted(found, key=lambda s: (s.span.line, s.span.column)))

    children = [Symbol(f"{'option' if d.option is not None else d.kind} {d.name}", "state", d.span)
                for d in tree.state]
    children += [Symbol(f"variant {v.kind}" + (f' "{v.title}"' if v.title else ""), "variant", v.span,
                        parts(v.hooks, v.rules)) for v in tree.variants]
    children += list(parts(tree.hooks, tree.rules))
    return [Symbol(tree.name, "power", tree.span, tuple(children))]


__all__ = ["Location", "Symbol", "Completion", "kind_of", "diagnose", "word_at", "keywords", "hover_text",
           "definition", "box_entry", "resolve_power_reference", "completions", "format_document", "symbols",
           "faction_power"]
