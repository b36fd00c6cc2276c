"""Helpers of the hardening tests: run the command line in-process or as a program, and judge its output."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from happydayz.cli.app import main


#: The line of a failure: a diagnostic's first line, or the program's (or argparse's) one-line message.
ERROR_LINE = re.compile(r"^(\S.*:\d+:\d+: error\[[A-Z]\d{3}\]: .+|happydayz(?: [\w-]+)?: (?:internal )?error: .+)$")


def run_main(*argv: str, cwd: Path | None = None) -> tuple[int, str]:
    """Run `happydayz argv` in this process: (exit code, stdout and stderr together)."""
    out = io.StringIO()
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(out))
        code = main(list(argv))
    return code, out.getvalue()


def error_lines(output: str) -> list[str]:
    """The lines of the output that say what failed (a diagnostic's source line and caret are not)."""
    return [line for line in output.splitlines() if ERROR_LINE.match(line)]


def assert_one_error(code: int, output: str, expected_code: int = 1) -> str:
    """Exit `expected_code`, no traceback, and exactly one error; its line."""
    assert "Traceback" not in output, output[-2000:]
    assert code == expected_code, (code, output[:2000])
    found = error_lines(output)
    assert len(found) == 1, output[:2000]
    return found[0]


def run_program(*argv: str, timeout: float = 60, cwd: Path | None = None) -> tuple[int, str, float, int]:
    """Run `python -m happydayz argv`: (exit code, output, seconds, the most memory it held in KiB)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _MEASURED, *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, errors="replace")
    seconds = time.monotonic() - start
    output = done.stdout + done.stderr
    match = re.search(r"\nMAXRSS=(\d+)\n?$", output)
    assert match, output[-2000:]
    return done.returncode, output[: match.start()], seconds, int(match.group(1))


# The program, then its own peak memory as the last line of stderr: VmHWM of /proc/self/status (KiB), the
# high-water mark of this process image (ru_maxrss would count the test process it was forked from).
_MEASURED = """
import re, sys
from happydayz.cli.app import main
try:
    code = main(sys.argv[1:])
finally:
    sys.stdout.flush()
    with open("/proc/self/status", encoding="utf-8") as status:
        peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", status.read()).group(1))
    print("\\nMAXRSS=%d" % peak, file=sys.stderr)
sys.exit(code)
"""


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


__all__ = ["run_main", "run_program", "assert_one_error", "error_lines", "children_of", "alive"]
