"""Files: the one bounded reader of a user's files, JSON read safely, and the files a command writes.

Every file the program reads on a user's behalf goes through `read_bytes`
(or `read_text`): only a regular file is read (never a device, a FIFO or a
folder), and never more than the limit of its kind, LIMITS (listed in
docs/reliability.md). A file over the limit is refused without being read.

JSON from a file goes through `load_json`, which turns what `json` raises on
hostile input — nesting deep enough to exhaust the stack (RecursionError), an
integer of more digits than Python converts (ValueError) — into a Diagnostic.

A whole file (a save, `--json`, a report and its plots, `fmt`, a new power or
scenario) is written with `write_atomic`: a temporary file beside the target,
flushed to the disk, then renamed over it; it never replaces anything that is
not a regular file. An append-only stream (`--log`, a sweep's results) is opened
with `open_text_output` and grows by `append_lines`: whole lines, or nothing.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator, TextIO

from happydayz.base.errors import Diagnostic, HappyError, Span

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: files are not locked
    fcntl = None  # type: ignore[assignment]

WRITE_ERROR = "L006"  # a file cannot be written (listed in docs/cli.md)

KiB = 1024
MiB = 1024 * KiB

#: The most bytes read of each kind of file (docs/reliability.md lists them).
LIMITS: dict[str, int] = {
    "power": 256 * KiB,  # a power file (.power): a page of text
    "yaml": 1 * MiB,  # a box, scenario, sweep or scripted-game file
    "save": 16 * MiB,  # a save file (play --resume)
    "log": 64 * MiB,  # an event log (replay-log, simulate --log)
    "results": 256 * MiB,  # simulate --json results, a sweep's results file (report, sweep --resume)
}

#: How deep JSON may nest. The program's own files nest 5 levels at most.
MAX_JSON_DEPTH = 100

#: How many digits a number in a JSON file may have (Python refuses to convert more than 4,300).
MAX_JSON_DIGITS = 100

_CHUNK = 1 * MiB


def _kind_limit(kind: str) -> int:
    if kind not in LIMITS:
        raise ValueError(f"unknown kind of file {kind!r}; expected one of {', '.join(LIMITS)}")
    return LIMITS[kind]


def size_text(limit: int) -> str:
    """1048576 -> "1 MiB", 262144 -> "256 KiB"."""
    if limit % MiB == 0:
        return f"{limit // MiB} MiB"
    if limit % KiB == 0:
        return f"{limit // KiB} KiB"
    return f"{limit} bytes"


def _problem(error: type[HappyError], file: str, message: str, code: str, line: int = 1,
             column: int = 1, quote: bool = True) -> HappyError:
    return error(Diagnostic(Span(file, line, column), message, code, quote=quote))


def read_bytes(path: str | os.PathLike, kind: str, *, code: str, error: type[HappyError] = HappyError,
               what: str = "file", limit: int | None = None, missing_short: bool = False,
               large_code: str | None = None) -> bytes:
    """The bytes of a regular file, at most the limit of `kind`; `error` (with `code`) otherwise.

    `large_code` is the code of a file over the limit (by default `code`); `limit` replaces the kind's;
    `missing_short` words a missing file "no such <what>" (a save's wording) rather than the system's.

    The file is opened without blocking (a FIFO does not hang), checked to be a
    regular file before anything is read, and read no further than the limit.
    """
    limit = _kind_limit(kind) if limit is None else limit
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise _problem(error, name, f"no such {what}" if what != "file" and missing_short else
                       f"cannot read the {what}: No such file or directory", code, quote=False) from None
    except IsADirectoryError:
        raise _problem(error, name, f"this is a folder, not a {what}", code, quote=False) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the name
        reason = getattr(exc, "strerror", None) or str(exc)
        raise _problem(error, name, f"cannot read the {what}: {reason}", code, quote=False) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _problem(error, name, f"this is a folder, not a {what}", code, quote=False)
        if not stat.S_ISREG(info.st_mode):
            raise _problem(error, name, f"this is not a regular file (a device, a pipe or a socket); "
                                        f"a {what} must be a regular file", code, quote=False)
        if info.st_size > limit:
            raise _problem(error, name, f"the {what} is larger than {size_text(limit)} ({info.st_size} bytes); "
                                        f"refusing to read it", large_code or code, quote=False)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise _problem(error, name, f"the {what} is larger than {size_text(limit)}; refusing to read it",
                           large_code or code, quote=False)
        return b"".join(chunks)
    except OSError as exc:
        raise _problem(error, name, f"cannot read the {what}: {exc.strerror or exc}", code, quote=False) from None
    finally:
        os.close(fd)


def decode(raw: bytes, file: str, *, code: str, error: type[HappyError] = HappyError, what: str = "file",
           encoding: str = "utf-8") -> str:
    """UTF-8 text, or `error` at the line and column of the first bad byte."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _problem(error, file, f"the {what} is not UTF-8 text", code, line, column) from None


def read_text(path: str | os.PathLike, kind: str, *, code: str, error: type[HappyError] = HappyError,
              what: str = "file", limit: int | None = None, missing_short: bool = False,
              large_code: str | None = None) -> str:
    """`read_bytes`, decoded as UTF-8 (see `decode`)."""
    raw = read_bytes(path, kind, code=code, error=error, what=what, limit=limit, missing_short=missing_short,
                     large_code=large_code)
    return decode(raw, str(path), code=code, error=error, what=what)


def is_regular_file(path: str | os.PathLike) -> bool:
    """True for a regular file (following links); False for anything else or nothing."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


# ------------------------------------------------------------------ JSON

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]|-?\d{%d,}' % (MAX_JSON_DIGITS + 1))


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _first_excess(text: str) -> tuple[str, int, int] | None:
    """What in JSON text is too much, first: ("depth", offset, -) or ("number", offset, digits); strings skipped."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        first = token[0]
        if first == '"':
            continue
        if first in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return "depth", match.start(), depth
        elif first in "]}":
            depth -= 1
        else:
            return "number", match.start(), len(token)
    return None


def load_json(text: str, file: str, *, code: str, error: type[HappyError] = HappyError, what: str = "file",
              line_offset: int = 0, invalid: str = "not valid JSON", refuse_surrogates: bool = False) -> Any:
    """Parse JSON text; every problem raises `error` with a position (never RecursionError or ValueError).

    `line_offset` is added to the line of a problem (for one line of a JSON Lines file). JSON that
    nests deeper than MAX_JSON_DEPTH or holds a number longer than MAX_JSON_DIGITS is refused. A lone
    surrogate escaped in a string ("\\ud800") is read as U+FFFD, or refused with `refuse_surrogates`
    (text that is to be written to a file or played, such as a web request's).
    """
    try:
        data = json.loads(text)
        if (escape := _SURROGATE_ESCAPE.search(text)) is not None:  # rare: no character, no output could write it
            cleaned = _without_surrogates(data)
            if refuse_surrogates and cleaned != data:
                line, column = _position(text, escape.start())
                raise _problem(error, file, f"the {what} holds a lone surrogate (such as \\ud800), which is not "
                                            f"text", code, line + line_offset, column)
            data = cleaned
    except json.JSONDecodeError as exc:
        raise _problem(error, file, f"{invalid}: {exc.msg}", code, exc.lineno + line_offset,
                       exc.colno) from None
    except (RecursionError, ValueError, MemoryError):
        data = None
        excess = _first_excess(text)
        if excess is None:  # pragma: no cover - whatever json refused, it is one of the two
            raise _problem(error, file, f"the {what} cannot be read as JSON", code, 1 + line_offset) from None
    else:
        if _shallow(data):
            return data
        excess = _first_excess(text)
        if excess is None:
            return data
    kind, offset, size = excess
    line, column = _position(text, offset)
    if kind == "depth":
        message = f"the {what} is nested too deeply (more than {MAX_JSON_DEPTH} levels)"
    else:
        message = f"a number of {size} characters is too long (at most {MAX_JSON_DIGITS} digits)"
    raise _problem(error, file, message, code, line + line_offset, column) from None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(data: Any) -> Any:
    """`data` with each lone surrogate of its strings (keys too) as U+FFFD: text any output can write."""
    if isinstance(data, str):
        return _SURROGATE.sub("\ufffd", data)
    if isinstance(data, list):
        return [_without_surrogates(x) for x in data]
    if isinstance(data, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in data.items()}
    return data


def _shallow(data: Any) -> bool:
    """A cheap proof that parsed JSON is within the limits: no list or object holds another deep one.

    The program's own files are shallow and hold small numbers, so this returns True for them without
    scanning the text; anything else is scanned by _first_excess.
    """
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            if isinstance(value, int) and not -10 ** MAX_JSON_DIGITS < value < 10 ** MAX_JSON_DIGITS:
                return False
            continue
        if depth > MAX_JSON_DEPTH:
            return False
        stack.extend((item, depth + 1) for item in value)
    return True


# ------------------------------------------------------------------ writing

@contextlib.contextmanager
def open_text_output(target: str | os.PathLike | TextIO | None) -> Iterator[TextIO | None]:
    """A writable text file for a path, "-" (stdout) or an open file; None stays None."""
    if target is None:
        yield None
    elif hasattr(target, "write"):
        yield target  # type: ignore[misc]
    elif str(target) == "-":
        yield sys.stdout
    else:
        try:
            handle = open(target, "w", encoding="utf-8")
        except OSError as exc:
            raise HappyError(Diagnostic(Span(str(target), 1, 1), f"cannot write: {exc.strerror or exc}",
                                        WRITE_ERROR)) from None
        with handle:
            yield handle


def append_lines(handle: TextIO, text: str) -> None:
    """Append whole lines to an append-only stream (an event log, a sweep's results).

    On a file, they go to its descriptor at once; a write that fails (a full disk)
    cuts the file back to where it was, so it never ends in part of a line, and
    raises. Anything else (stdout to a pipe, an open StringIO) is written to plainly.
    """
    try:
        fd = handle.fileno()
        handle.flush()
        start = os.lseek(fd, 0, os.SEEK_END)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        handle.write(text)
        return
    data = memoryview(text.encode("utf-8"))
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
            os.lseek(fd, start, os.SEEK_SET)
        raise


def write_output(target: str | os.PathLike, text: str, *, what: str = "file") -> None:
    """`text` to "-" (stdout) or, whole, to a file (write_atomic)."""
    if str(target) == "-":
        sys.stdout.write(text)
    else:
        write_atomic(target, text, what=what)


def write_atomic(path: str | os.PathLike, text: str | bytes, *, code: str = WRITE_ERROR,
                 error: type[HappyError] = HappyError, what: str = "file") -> None:
    """Write `text` (or bytes) to a temporary file beside `path`, flushed to the disk, then rename it over `path`.

    A full disk, a kill or a crash at any moment leaves the old file whole (or the new one):
    never part of one. (The text is written as it is: no newline translation.)

    Refuses (with `error`) when `path` exists and is not a regular file: a
    device, a folder or a pipe is never replaced. A link is not followed: the
    link itself would be replaced, so it is refused too.
    """
    target = Path(path)
    name = str(path)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _problem(error, name, f"cannot write the {what}: {exc.strerror or exc}", code,
                       quote=False) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else ("a link" if stat.S_ISLNK(info.st_mode) else
                                                             "not a regular file")
        raise _problem(error, name, f"cannot write the {what}: {name} is {kind}, which is never replaced", code,
                       quote=False)
    folder = target.parent if str(target.parent) else Path(".")
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})) \
                as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None:
            with contextlib.suppress(OSError):
                os.chmod(temporary, stat.S_IMODE(info.st_mode))
        else:
            with contextlib.suppress(OSError):
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
        temporary = None
        _sync_folder(folder)
    except OSError as exc:
        raise _problem(error, name, f"cannot write the {what}: {exc.strerror or exc}", code,
                       quote=False) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _sync_folder(folder: Path) -> None:
    """The rename itself on the disk (a folder's fsync); where a system cannot, the rename stands as it is."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ------------------------------------------------------------------ locks

class FileLocked(Exception):
    """Another process holds the lock of a file."""


def lock_exclusive(fd: int) -> None:
    """Take an exclusive lock on an open file without waiting; FileLocked if another process has it.

    The lock goes with the open file: it is released when the file is closed
    (or the process ends, however it ends). Without fcntl (Windows) nothing is locked.
    """
    if fcntl is None:  # pragma: no cover - Windows
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise FileLocked() from None
        raise


def within(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether `path`, links resolved, is `folder` or inside it (links resolved too)."""
    try:
        resolved = Path(path).resolve()
        root = Path(folder).resolve()
    except (OSError, ValueError, RuntimeError):
        return False
    return resolved == root or root in resolved.parents


def plain_relative(reference: str) -> bool:
    """A reference that names a place below a folder: relative, and without a '..' part."""
    if not reference or "\x00" in reference:
        return False
    path = Path(reference)
    if path.is_absolute() or reference.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", reference):
        return False
    return ".." not in re.split(r"[\\/]", reference)


__all__ = [
    "open_text_output", "append_lines", "write_output", "write_atomic", "WRITE_ERROR", "LIMITS", "MAX_JSON_DEPTH", "MAX_JSON_DIGITS", "size_text",
    "read_bytes", "read_text", "decode", "load_json", "is_regular_file", "FileLocked", "lock_exclusive", "within",
    "plain_relative",
]
