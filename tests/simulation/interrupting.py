"""Interrupting a run at the worst moment (the simulation tests' helper)."""

from __future__ import annotations

import contextlib
import os
import signal


@contextlib.contextmanager
def ctrl_c_at_line(monkeypatch, module, line: int):
    """Meanwhile, Ctrl-C comes as `module`'s append_lines is about to write its `line`-th batch of lines (the
    worst moment for an interrupted run's files), and Ctrl-C raises KeyboardInterrupt even where the test run
    started with it ignored."""
    real_append, calls = module.append_lines, []

    def append_then_ctrl_c(handle, text):
        calls.append(text)
        if len(calls) == line:
            os.kill(os.getpid(), signal.SIGINT)  # delivered at once unless held
        real_append(handle, text)

    monkeypatch.setattr(module, "append_lines", append_then_ctrl_c)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
