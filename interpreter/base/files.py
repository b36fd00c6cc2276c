"""Files a command writes: one way to open a path, standard output or an open file."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator, TextIO

from happydayz.base.errors import Diagnostic, HappyError, Span

WRITE_ERROR = "L006"  # a file cannot be written (listed in docs/cli.md)


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



__all__ = ["open_text_output", "WRITE_ERROR"]
