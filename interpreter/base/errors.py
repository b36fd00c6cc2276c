"""One error family with positions, printed one way everywhere.

Every problem in a user's file becomes a Diagnostic: file, line, column, an
end, a severity, a code and a message. They print as

    file:line:col: error[CODE]: message
        the source line
        ^^^^

and serialise as JSON records for tools.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path


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

    def render(self, source: str | None = None) -> str:
        head = f"{self.span}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        text = source if source is not None else _read(self.span.file)
        if text is not None:
            source_lines = _lines(text, self.span.file)
            if 1 <= self.span.line <= len(source_lines):
                line = source_lines[self.span.line - 1].expandtabs(1)
                start = max(self.span.column, 1)
                if self.span.end_line == self.span.line and self.span.end_column:
                    width = max(self.span.end_column - start, 1)
                else:
                    width = max(len(line.rstrip()) - start + 1, 1)
                lines.append(f"    {line}")
                lines.append("    " + " " * (start - 1) + "^" * width)
        if self.hint:
            lines.append(f"    hint: {self.hint}")
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


def _lines(text: str, file: str) -> list[str]:
    """Source lines as the parser that placed the diagnostic counts them: YAML breaks lines at
    \r, \x85 and U+2028/9 too; the power-file parser only at \n."""
    if file.lower().endswith((".yaml", ".yml")):
        return _YAML_BREAKS.split(text)
    return text.split("\n")


def _read(path: str) -> str | None:
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return _read_version(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _read_version(path: str, mtime_ns: int, size: int) -> str | None:
    """A file's text, read once per version: rendering many diagnostics of one file stays cheap."""
    del mtime_ns, size  # only the cache's key: a file changed since is read again
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


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
    "GameRuleError", "UsageError", "DiagnosticSink", "suggest", "to_json", "asdict",
]
