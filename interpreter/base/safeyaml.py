"""Reading YAML that a user wrote, safely and with positions.

Only the plain data types of YAML are accepted (mappings, sequences, strings,
numbers, booleans, null): the same level as ``yaml.safe_load``. On top of
that this module refuses

* files larger than ``MAX_BYTES`` (1 MiB) and anything but a regular file
  (read through base.files, the one bounded reader),
* anchors and aliases (``&name`` / ``*name``), which allow exponential
  blow-ups ("billion laughs") and are never needed in a box or scenario file,
* explicit tags other than the plain ones, duplicate keys, keys that are not
  scalars, and nesting deeper than ``MAX_DEPTH``.

The result is a `Document`: the plain data (mapping keys always strings, like
JSON) plus the position of every value and every mapping key, so that a
problem found later at a JSON-style path such as ``items[3].parts[1]`` can be
reported as ``file:line:column`` (1-based).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from happydayz.base.errors import DataProblem, Diagnostic, Span
from happydayz.base.files import read_bytes

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64

# Diagnostic codes raised here (the full list is in docs/boxes.md).
CODE_UNREADABLE = "D001"
CODE_TOO_LARGE = "D002"
CODE_SYNTAX = "D003"
CODE_ALIAS = "D004"
CODE_TYPE = "D005"
CODE_DUPLICATE_KEY = "D006"
CODE_TOO_DEEP = "D007"

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
_AS_TEXT_TAGS = {_TAG + "timestamp"}  # a date is kept as the text written

PathKey = tuple  # a path: a tuple of str (mapping keys) and int (sequence indexes)


def format_path(path: Iterable[str | int]) -> str:
    """``("items", 3, "parts", 1)`` -> ``items[3].parts[1]`` (indexes are 0-based)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass
class Document:
    """Plain data read from one YAML file, with the positions of its nodes."""

    file: str
    data: Any
    text: str = ""
    values: dict[PathKey, tuple[Any, Any]] = field(default_factory=dict)  # path -> (start, end) marks
    keys: dict[PathKey, tuple[Any, Any]] = field(default_factory=dict)  # path of a value -> its key's marks

    def span(self, path: Iterable[str | int] = (), *, key: bool = False) -> Span:
        """The position of the value at `path` (or of its key, with key=True).

        A path that does not exist falls back to its nearest existing parent.
        """
        path = tuple(path)
        while True:
            marks = (self.keys.get(path) if key else None) or self.values.get(path)
            if marks is not None:
                return _span(self.file, *marks)
            if not path:
                return Span(self.file, 1, 1)
            path = path[:-1]
            key = False

    def diagnostic(self, path, message: str, code: str, *, key: bool = False,
                   hint: str | None = None, severity: str = "error") -> Diagnostic:
        return Diagnostic(self.span(path, key=key), message, code, severity, hint)


def _span(file: str, start, end) -> Span:
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


class _Refused(Exception):
    def __init__(self, mark, message: str, code: str):
        super().__init__(message)
        self.mark = mark
        self.message = message
        self.code = code


class _Loader(yaml.SafeLoader):
    """A safe loader whose composer refuses anchors, aliases and deep nesting."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            raise _Refused(event.start_mark,
                           f"YAML aliases (*{event.anchor}) are not allowed in this file; write the value out",
                           CODE_ALIAS)
        if getattr(event, "anchor", None) is not None:
            raise _Refused(event.start_mark,
                           f"YAML anchors (&{event.anchor}) are not allowed in this file; write the value out",
                           CODE_ALIAS)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Refused(event.start_mark,
                               f"the data is nested more than {MAX_DEPTH} levels deep", CODE_TOO_DEEP)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def read_text(path: str | os.PathLike, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of a user's file, refusing big, undecodable or irregular files (DataProblem)."""
    name = str(path)
    raw = _read_bounded(path, max_bytes)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DataProblem(Diagnostic(Span(name, line, column),
                                     "the file is not valid UTF-8 text", CODE_UNREADABLE)) from None


def _read_bounded(path: str | os.PathLike, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most max_bytes (the one bounded reader, base.files)."""
    try:
        return read_bytes(path, "yaml", code=CODE_UNREADABLE, error=DataProblem, limit=max_bytes,
                          large_code=CODE_TOO_LARGE)
    except DataProblem as problem:
        if problem.diagnostics[0].code == CODE_TOO_LARGE:  # as before, in bytes
            raise DataProblem(Diagnostic(
                Span(str(path), 1, 1),
                f"the file is larger than {max_bytes} bytes ({max_bytes // 1024} KiB); refusing to read it",
                CODE_TOO_LARGE, quote=False)) from None
        if problem.diagnostics[0].message.startswith("this is a folder"):  # as before: the system's words
            raise DataProblem(Diagnostic(Span(str(path), 1, 1), "cannot read the file: Is a directory",
                                         CODE_UNREADABLE, quote=False)) from None
        raise


def load_yaml(path: str | os.PathLike, *, max_bytes: int = MAX_BYTES) -> Document:
    """Read and parse one YAML file; every problem raises DataProblem with a position."""
    return load_yaml_text(read_text(path, max_bytes=max_bytes), str(path), max_bytes=max_bytes)


def load_yaml_text(text: str, file: str = "<string>", *, max_bytes: int = MAX_BYTES) -> Document:
    """Parse YAML text (see `load_yaml`)."""
    if len(text.encode("utf-8")) > max_bytes:
        raise DataProblem(Diagnostic(Span(file, 1, 1), f"the text is larger than {max_bytes} bytes",
                                     CODE_TOO_LARGE))
    try:
        loader = _Loader(text)  # the reader already refuses some characters here
    except yaml.YAMLError as exc:
        raise DataProblem(_syntax_diagnostic(file, exc, text) if isinstance(exc, yaml.MarkedYAMLError) else
                          Diagnostic(_reader_span(file, exc, text), _reader_message(exc), CODE_SYNTAX)) from None
    try:
        try:
            node = loader.get_single_node()
        except _Refused as exc:
            raise DataProblem(Diagnostic(_point(file, exc.mark), exc.message, exc.code)) from None
        except yaml.MarkedYAMLError as exc:
            raise DataProblem(_syntax_diagnostic(file, exc, text)) from None
        except yaml.YAMLError as exc:
            raise DataProblem(Diagnostic(_reader_span(file, exc, text), _reader_message(exc), CODE_SYNTAX)) from None
        doc = Document(file, None, text)
        if node is None:
            return doc
        problems: list[Diagnostic] = []
        doc.data = _convert(loader, node, (), doc, problems)
        if problems:
            raise DataProblem(problems)
        return doc
    finally:
        loader.dispose()


def _point(file: str, mark) -> Span:
    if mark is None:
        return Span(file, 1, 1)
    return Span(file, mark.line + 1, mark.column + 1)


def _syntax_diagnostic(file: str, exc: yaml.MarkedYAMLError, text: str = "") -> Diagnostic:
    """A YAML syntax error in plain words, with the fix, for the common mistakes; PyYAML's words otherwise."""
    explained = _explain(file, exc, _LINE_BREAK.split(text))
    if explained is not None:
        span, words, hint = explained
        return Diagnostic(span, f"YAML syntax error: {words}", CODE_SYNTAX, hint=hint)
    mark = exc.problem_mark or exc.context_mark
    parts = [p for p in (exc.context, exc.problem) if p]
    message = "YAML syntax error: " + (", ".join(parts) if parts else "invalid YAML")
    if exc.context and exc.context_mark is not None and exc.problem_mark is not None \
            and exc.context_mark.line != exc.problem_mark.line:
        message += f" (the construct began on line {exc.context_mark.line + 1})"
    return Diagnostic(_point(file, mark), message, CODE_SYNTAX)


_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # YAML's line breaks (str.splitlines knows more)
_INDENTED = ("line it up with the other lines of its level (the other keys of the same mapping, or the other "
             "'- ' items of the same list), using spaces")
_CLOSERS = {"flow sequence": ("[", "]", "list"), "flow mapping": ("{", "}", "mapping")}


def _explain(file: str, exc: yaml.MarkedYAMLError, lines: list[str]) -> tuple[Span, str, str] | None:
    """(where, what is wrong, how to fix it) for a mistake people make in YAML by hand, or None."""
    problem, context = exc.problem or "", exc.context or ""
    mark, opened = exc.problem_mark, exc.context_mark
    if mark is None:
        return None
    line = lines[mark.line] if mark.line < len(lines) else ""
    here = Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
    found = re.match(r"found character '(.+)' that cannot start any token", problem)
    if found and found.group(1) == "\\t":
        if line[:mark.column].strip():
            return here, "a tab character is not allowed here: YAML forbids tabs outside quotes", \
                "use spaces instead of the tab, or put the value in quotes"
        return here, "this line is indented with a tab: YAML forbids tabs", \
            "indent with spaces only (set your editor to insert spaces for the Tab key)"
    if found:
        return here, f"a value cannot start with {found.group(1)!r}: YAML keeps that character for itself", \
            "put the value in quotes: \"...\""
    if "quoted scalar" in context and opened is not None:
        start = lines[opened.line] if opened.line < len(lines) else ""
        quote = start[opened.column:opened.column + 1] or '"'
        where = Span(file, opened.line + 1, opened.column + 1, opened.line + 1, len(start.rstrip()) + 1)
        if "end of stream" in problem:
            inside = "write \\\" for a \" inside it" if quote == '"' else "write '' for a ' inside it"
            return where, f"this quoted text is never closed: its closing {quote} is missing", \
                f"end the text with {quote} on the same line ({inside})"
        escape = re.match(r"found unknown escape character '(.+)'", problem)
        if escape:
            return here, f"'\\{escape.group(1)}' is not an escape YAML knows: in double quotes a backslash starts " \
                         "an escape", "write the backslash twice (\\\\), or put the text in single quotes"
        return None
    for kind, (opener, closer, noun) in _CLOSERS.items():
        if context == f"while parsing a {kind}" and problem.startswith(f"expected ',' or '{closer}'") \
                and opened is not None:
            if mark.line > opened.line or "<stream end>" in problem:
                where = Span(file, opened.line + 1, opened.column + 1, opened.line + 1, opened.column + 2)
                ending = "the file ends" if "<stream end>" in problem else f"line {mark.line + 1} starts"
                return where, f"this '{opener}' is never closed: a '{closer}' is missing", \
                    f"end the {noun} with '{closer}' after its last item, before {ending}"
            return here, f"a ',' is missing between two items of this {noun}", \
                f"separate the items of a '{opener}...{closer}' {noun} with ','"
    if problem == "mapping values are not allowed here":
        before = line[:mark.column]
        if ": " in before:  # "title: a: b"
            key, _, value = line.partition(": ")
            return here, "a ': ' inside a value starts a new key, and a key cannot start there", \
                f"put the value in quotes: {key.strip()}: \"{value.strip()}\""
        return _misindented(file, mark.line, lines)
    if problem.startswith("expected <block end>, but found"):
        token = problem.split(" found ", 1)[1].strip("'")
        if token in ("<block mapping start>", "<block sequence start>"):
            return _misindented(file, mark.line, lines)
        if token in ("?", "-"):
            span, _, _ = _misindented(file, mark.line, lines)
            return span, f"line {mark.line + 1} does not fit the lines around it: a list ('- item') and keys " \
                         "('key: value') cannot share one level", \
                "indent the '- ' items of a list under the key they belong to, or line this line up with the " \
                "others of its kind, using spaces"
        if token in ("]", "}"):
            return here, f"this '{token}' closes nothing", f"remove it, or add the '{'[' if token == ']' else '{'}' " \
                                                            "that opens it"
        if token == "<scalar>" and line[:mark.column].rstrip()[-1:] in ("'", '"'):
            return here, "text goes on after a closing quote", \
                "write '' for a ' inside single quotes (it''s), or put the whole text in double quotes"
        return None
    if problem == "could not find expected ':'" and "simple key" in context and opened is not None:
        start = lines[opened.line] if opened.line < len(lines) else ""
        words = start.strip()
        key, _, value = words.partition(" ")
        fix = f"{key}: {value}" if value else f"{key}: ..."
        return Span(file, opened.line + 1, opened.column + 1, opened.line + 1, len(start.rstrip()) + 1), \
            "this line has no ':': a line of a mapping is 'key: value'", f"write: {fix}"
    return None


def _misindented(file: str, index: int, lines: list[str]) -> tuple[Span, str, str]:
    """A line indented differently from the lines around it: the caret under its start."""
    line = lines[index] if index < len(lines) else ""
    start = len(line) - len(line.lstrip(" "))
    word = re.match(r"[^:\s]+", line[start:])
    end = start + (len(word.group()) if word else 1)
    return Span(file, index + 1, start + 1, index + 1, end + 1), \
        f"line {index + 1} is indented differently from the lines around it", _INDENTED


def _convert(loader: _Loader, node, path: PathKey, doc: Document, problems: list[Diagnostic]) -> Any:
    doc.values[path] = (node.start_mark, node.end_mark)
    if isinstance(node, ScalarNode):
        return _scalar(loader, node, doc.file, problems)
    if isinstance(node, SequenceNode):
        if node.tag != _TAG + "seq":
            problems.append(Diagnostic(_span(doc.file, node.start_mark, node.end_mark),
                                       f"the YAML tag {_tag_text(node.tag)} is not allowed here", CODE_TYPE))
        return [_convert(loader, item, path + (i,), doc, problems) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        if node.tag != _TAG + "map":
            problems.append(Diagnostic(_span(doc.file, node.start_mark, node.end_mark),
                                       f"the YAML tag {_tag_text(node.tag)} is not allowed here", CODE_TYPE))
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_span = _span(doc.file, key_node.start_mark, key_node.end_mark)
            if not isinstance(key_node, ScalarNode):
                problems.append(Diagnostic(key_span, "a key must be a plain name, not a list or a mapping",
                                           CODE_TYPE))
                continue
            key = _key_text(_scalar(loader, key_node, doc.file, problems))
            if key in result:
                first = doc.keys.get(path + (key,))
                where = f" (first given on line {first[0].line + 1})" if first else ""
                problems.append(Diagnostic(key_span, f"{_where(path)}duplicate key {key!r}{where}",
                                           CODE_DUPLICATE_KEY))
                continue
            doc.keys[path + (key,)] = (key_node.start_mark, key_node.end_mark)
            result[key] = _convert(loader, value_node, path + (key,), doc, problems)
        return result
    problems.append(Diagnostic(_point(doc.file, node.start_mark), "unsupported YAML node", CODE_TYPE))
    return None


def _where(path: PathKey) -> str:
    return f"{format_path(path)}: " if path else ""


def _scalar(loader: _Loader, node: ScalarNode, file: str, problems: list[Diagnostic]) -> Any:
    unsafe = _UNSAFE.search(node.value)
    if unsafe is not None:  # written as an escape ("\e", "\u202e", "\ud800"): a raw one is refused unread (D003)
        found = unsafe.group()
        what = (f"a lone surrogate (U+{ord(found):04X}), which is not a character" if _SURROGATE.match(found) else
                f"the control character U+{ord(found):04X}, which a terminal would act on")
        problems.append(Diagnostic(_span(file, node.start_mark, node.end_mark), f"this text holds {what}", CODE_TYPE,
                                   hint="write the text without it"))
        return _UNSAFE.sub("\ufffd", node.value)
    if node.tag in _AS_TEXT_TAGS:
        return node.value
    if node.tag not in _PLAIN_TAGS:
        problems.append(Diagnostic(_span(file, node.start_mark, node.end_mark),
                                   f"the YAML tag {_tag_text(node.tag)} is not allowed here", CODE_TYPE))
        return node.value
    if node.tag == _TAG + "int" and len(node.value) > MAX_NUMBER_TEXT:
        problems.append(Diagnostic(_span(file, node.start_mark, node.end_mark),
                                   f"a number of {len(node.value)} characters is too long (at most {MAX_NUMBER_TEXT})",
                                   CODE_TYPE))
        return 0
    try:
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        problems.append(Diagnostic(_span(file, node.start_mark, node.end_mark),
                                   f"cannot read the value {node.value!r}: {exc}", CODE_TYPE))
        return node.value


_SURROGATE = re.compile("[\ud800-\udfff]")
# What no text of these files may hold: surrogates, control characters (but tab and line breaks), bidi controls.
_UNSAFE = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069]")
MAX_NUMBER_TEXT = 30  # no number in these files needs more digits; a huge one cannot even be printed


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) < 300 else text[:300] + "…"


def _reader_span(file: str, exc: Exception, text: str = "") -> Span:
    """The position of a reader error (a forbidden character), which has no mark of its own."""
    position = getattr(exc, "position", None)
    if not isinstance(position, int) or not text:
        return Span(file, 1, 1)
    lines = _LINE_BREAK.split(text[:position])
    return Span(file, len(lines), len(lines[-1]) + 1)


def _reader_message(exc: Exception) -> str:
    character = getattr(exc, "character", None)
    if isinstance(character, str) and character:
        character = ord(character[0])
    if isinstance(character, int):
        return f"the control character U+{character:04X} is not allowed in a YAML file"
    return f"YAML error: {_short(exc)}"


def _tag_text(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _key_text(key: Any) -> str:
    """Mapping keys become strings, as in JSON: 2 -> "2", true -> "true", null -> "null"."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


__all__ = ["MAX_BYTES", "MAX_DEPTH", "Document", "format_path", "load_yaml", "load_yaml_text", "read_text"]
