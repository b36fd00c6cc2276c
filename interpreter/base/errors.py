"""One error family with positions, printed one way everywhere.

Every problem in a user's file becomes a Diagnostic: file, line, column, an
end, a severity, a code and a message. They print as

    file:line:col: error[CODE]: message
        the source line
        ^^^^

and serialise as JSON records for tools.
"""

from __future__ import annotations

import codecs
import difflib
import functools
import json
import os
import re
import stat
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Span:
    file: str
    line: int  # 1-based
    column: int  # 1-based
    end_line: int | None = None
    end_column: int | None = None  # exclusive

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    span: Span
    message: str
    code: str = "E000"
    severity: str = "error"  # "error" or "warning"
    hint: str | None = None
    quote: bool = True  # False for a problem of the whole file (its size, its kind): no source line is shown

    def render(self, source: str | None = None) -> str:
        message = self.message if len(self.message) <= MAX_MESSAGE else self.message[:MAX_MESSAGE] + "…"
        head = escaped(f"{self.span}: {self.severity}[{self.code}]: {message}")
        lines = [head]
        if not self.quote:
            line, offset, more = None, 0, False
        elif source is not None:
            source_lines = _lines(source, self.span.file)
            full = source_lines[self.span.line - 1] if 1 <= self.span.line <= len(source_lines) else None
            line, offset, more = full, 0, False
        else:  # only the part of the line around the column is read
            offset = max(0, self.span.column - 1 - MAX_SHOWN)
            line, more = _read_line(self.span.file, self.span.line, offset, offset + 2 * MAX_SHOWN + 2)
        if line is not None:
            line = _CONTROL.sub("\ufffd", line.expandtabs(1))
            start = max(self.span.column - offset, 1)
            if self.span.end_line == self.span.line and self.span.end_column:
                width = max(self.span.end_column - self.span.column, 1)
            else:
                width = max(len(line.rstrip()) - start + 1, 1)
            line, start, width = _window(line, start, width, offset > 0, more)
            lines.append(f"    {line}")
            lines.append("    " + " " * (start - 1) + "^" * width)
        if self.hint:
            lines.append(escaped(f"    hint: {self.hint}"))
        return "\n".join(lines)

    def record(self) -> dict:
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end": {"line": self.span.end_line, "column": self.span.end_column},
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


_YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_NEWLINE = re.compile("\n")
# Shown as U+FFFD in a source line: a terminal never gets them. The bidi controls (U+202A-E, U+2066-9,
# the marks U+200E/F, U+061C) would reorder what the terminal shows ("Trojan Source").
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[\x00-\x08\x0e-\x1f\x7f{_BIDI}]")
# Escaped (\x1b, \u202e) in a message: every control character but the line break and the tab.
_ESCAPED = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")


def _lines(text: str, file: str) -> list[str]:
    """Source lines as the parser that placed the diagnostic counts them: YAML breaks lines at
    \r, \x85 and U+2028/9 too; the power-file parser only at \n."""
    if file.lower().endswith((".yaml", ".yml")):
        return _YAML_BREAKS.split(text)
    return text.split("\n")


#: A source line is shown up to this many characters, around the column of the problem.
MAX_SHOWN = 500
#: A value a message quotes is shown up to this many characters of its first line (`quote`).
MAX_QUOTED = 500
#: A message is shown up to this many characters, whatever values it holds that were not quoted so.
MAX_MESSAGE = 2000


def quote(value) -> str:
    """A value as a message quotes it: its first line, at most MAX_QUOTED characters (cut with …), in quotes,
    its escape sequences and bidi controls escaped (repr() escapes every character that is not printable)."""
    text = value if isinstance(value, str) else str(value)
    first, newline, _ = text.partition("\n")
    shown = repr(first[:MAX_QUOTED])
    return shown[:-1] + "…" + shown[-1] if newline or len(first) > MAX_QUOTED else shown


def escaped(text: str) -> str:
    """`text` with its control characters (but line breaks and tabs) and bidi controls escaped: safe to print."""
    return _ESCAPED.sub(lambda m: repr(m.group())[1:-1], text)
#: Rendering a diagnostic reads its file no further than this, and keeps no longer a line.
MAX_SCAN_BYTES = 256 * 1024 * 1024
MAX_LINE_CHARS = 4096
_CHUNK = 64 * 1024


def _window(line: str, start: int, width: int, before: bool = False, after: bool = False) -> tuple[str, int, int]:
    """A long source line cut to MAX_SHOWN characters around the caret: (text, start, width).

    `before` and `after` say that `line` is already a part of a longer line (an ellipsis marks each cut).
    """
    if len(line) <= MAX_SHOWN and not before and not after:
        return line, start, width
    offset = max(0, min(start - 1 - MAX_SHOWN // 3, len(line) - MAX_SHOWN))
    shown = line[offset:offset + MAX_SHOWN]
    start -= offset
    prefix = "…" if offset or before else ""
    suffix = "…" if offset + MAX_SHOWN < len(line) or after else ""
    width = max(1, min(width, len(shown) - start + 1))
    return prefix + shown + suffix, start + len(prefix), width


def _read_line(path: str, number: int, start: int = 0, stop: int = MAX_LINE_CHARS) -> tuple[str | None, bool]:
    """Characters start..stop of line `number` of a regular file, and whether the line goes on after them.

    (None, False) when there is no such line or the file is not a regular UTF-8 file. The file is
    read only up to that part of that line (and never beyond MAX_SCAN_BYTES).
    """
    if number < 1:
        return None, False
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None, False
    if not stat.S_ISREG(info.st_mode):
        return None, False
    return _line_of_version(path, info.st_mtime_ns, info.st_size, number, start, min(stop, start + MAX_LINE_CHARS))


@functools.lru_cache(maxsize=64)
def _line_of_version(path: str, mtime_ns: int, size: int, number: int, start: int,
                     stop: int) -> tuple[str | None, bool]:
    """One part of one line of one version of a file: rendering many diagnostics of a file stays cheap."""
    del mtime_ns, size  # only the cache's key: a file changed since is read again
    yaml = path.lower().endswith((".yaml", ".yml"))
    breaks = _YAML_BREAKS if yaml else _NEWLINE
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    pieces: list[str] = []
    seen = 0  # characters of the line passed so far
    scanned = 0
    skip_lf = False
    broken = False  # a byte that is not UTF-8 was met: nothing after it is shown

    def keep(text: str) -> None:
        nonlocal seen
        low, high = max(start - seen, 0), max(stop - seen, 0)
        if high > low:
            pieces.append(text[low:high])
        seen += len(text)

    try:
        with open(path, "rb") as handle:
            while True:
                chunk = handle.read(_CHUNK) if scanned < MAX_SCAN_BYTES else b""
                scanned += len(chunk)
                final = not chunk
                try:
                    text = decoder.decode(chunk, final)
                except UnicodeDecodeError as exc:  # the text up to the bad byte still counts
                    text = exc.object[: exc.start].decode("utf-8")
                    final = broken = True
                if skip_lf and text.startswith("\n"):
                    text = text[1:]
                skip_lf = False
                if not yaml and line < number:
                    count = text.count("\n")
                    if line + count < number:
                        line += count
                        if final:
                            return None, False
                        continue
                position = 0
                for match in breaks.finditer(text):
                    if line == number:
                        keep(text[position:match.start()])
                        return "".join(pieces), seen > stop
                    line += 1
                    position = match.end()
                skip_lf = yaml and text.endswith("\r")
                if line == number:
                    keep(text[position:])
                    if seen > stop:  # enough to show: the rest of the line is not read
                        return "".join(pieces), True
                if final:
                    return ("".join(pieces), False) if line == number and not broken else (None, False)
    except (OSError, UnicodeDecodeError):
        return None, False


class HappyError(Exception):
    """Base of every error the project raises on purpose (a user's input)."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(Span("<input>", 1, 1), diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)

    def records(self) -> list[dict]:
        return [d.record() for d in self.diagnostics]


class SyntaxProblem(HappyError):
    """A power file that does not parse."""


class CheckProblem(HappyError):
    """A power, box or scenario file that parses but is wrong."""


class DataProblem(HappyError):
    """A box or scenario file that is not valid YAML or breaks its schema."""


class GameRuleError(HappyError):
    """An illegal answer to a decision, or a game that cannot be set up."""


class UsageError(Exception):
    """A command-line mistake: exit code 2."""


@dataclass
class DiagnosticSink:
    """Collects diagnostics up to a cap, so one bad file cannot flood the output."""

    cap: int = 200
    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        if len(self.items) < self.cap:
            self.items.append(diagnostic)

    def error(self, span: Span, message: str, code: str, hint: str | None = None) -> None:
        self.add(Diagnostic(span, message, code, "error", hint))

    def warning(self, span: Span, message: str, code: str, hint: str | None = None) -> None:
        self.add(Diagnostic(span, message, code, "warning", hint))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]


def suggest(name: str, candidates) -> str | None:
    """The nearest candidate to a misspelt name, for a did-you-mean hint."""
    pool = list(candidates)
    folded = {c.lower(): c for c in pool}
    if name.lower() in folded:
        return folded[name.lower()]
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        close_folded = difflib.get_close_matches(name.lower(), list(folded), n=1, cutoff=0.6)
        close = [folded[c] for c in close_folded]
    return close[0] if close else None


def to_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.record() for d in diagnostics], indent=2)


__all__ = [
    "Span", "Diagnostic", "HappyError", "SyntaxProblem", "CheckProblem", "DataProblem",
    "GameRuleError", "UsageError", "DiagnosticSink", "suggest", "to_json", "asdict", "quote", "escaped", "MAX_QUOTED",
]
