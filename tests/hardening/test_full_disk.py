"""A full disk loses nothing: whole files are replaced whole or not at all, append-only streams keep whole lines.

The full disk is injected: every write into one folder (through open(), os.fdopen()
or os.write()) writes half its bytes, then fails with ENOSPC, as a disk that fills
up mid-write does. /dev/full, a device that is always full, is tried as well.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import json
import os
from pathlib import Path

import pytest

from hardening.support import run_main

ROOT = Path(__file__).resolve().parents[2]
UNFORMATTED = "power Goblins {\n      for faction Goblins\n  on win {\n gain 1\n }\n}\n"


def _in(folder: Path, file) -> bool:
    try:
        name = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.path.abspath(file)
    except (OSError, TypeError):
        return False
    return name.startswith(str(folder) + os.sep)


class _FillsUp:
    """A file object whose writes put half their bytes down, then fail as a full disk does."""

    def __init__(self, handle):
        self._handle = handle

    def write(self, data):
        self._handle.write(data[: len(data) // 2])
        self._handle.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        with contextlib.suppress(OSError):
            self._handle.close()

    def __getattr__(self, name):
        return getattr(self._handle, name)


@contextlib.contextmanager
def disk_full(monkeypatch, folder: Path):
    real_open, real_write = io.open, os.write

    def fake_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return _FillsUp(handle) if any(c in mode for c in "wax+") and _in(folder, file) else handle

    def fake_write(fd, data):
        if _in(folder, fd):
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_open)
    monkeypatch.setattr(os, "write", fake_write)
    yield
    monkeypatch.undo()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_fmt_on_a_full_disk_keeps_the_file_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "goblins.power"
    path.write_text(UNFORMATTED, encoding="utf-8")
    with disk_full(monkeypatch, tmp_path):
        code, output = run_main("fmt", str(path))
    assert path.read_text(encoding="utf-8") == UNFORMATTED
    assert code == 1 and "error[F003]: cannot write the file: No space left on device" in output, output
    assert "reformatted" not in output and leftovers(tmp_path) == []


def test_simulate_json_on_a_full_disk_keeps_the_old_results(tmp_path, monkeypatch):
    path = tmp_path / "results.json"
    assert run_main("simulate", "--games", "2", "--express", "--json", str(path))[0] == 0
    before = path.read_bytes()
    with disk_full(monkeypatch, tmp_path):
        code, output = run_main("simulate", "--games", "3", "--express", "--json", str(path))
    assert code == 1 and "cannot write the results: No space left on device" in output, output
    assert path.read_bytes() == before and leftovers(tmp_path) == []
    json.loads(before)


def test_a_report_on_a_full_disk_keeps_the_old_one(tmp_path, monkeypatch):
    results, out = tmp_path / "r.json", tmp_path / "report"
    assert run_main("simulate", "--games", "2", "--express", "--json", str(results))[0] == 0
    assert run_main("report", str(results), "--out", str(out))[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with disk_full(monkeypatch, out):
        code, output = run_main("report", str(results), "--out", str(out))
    assert code == 1 and "No space left on device" in output and "Traceback" not in output, output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_new_scenario_on_a_full_disk_leaves_no_half_file(tmp_path, monkeypatch):
    with disk_full(monkeypatch, tmp_path):
        code, output = run_main("new", "scenario", "Goblins", "--dir", str(tmp_path))
    assert code == 1 and "No space left on device" in output, output
    assert list(tmp_path.iterdir()) == []


def test_the_event_log_on_a_full_disk_keeps_whole_lines(tmp_path, monkeypatch):
    path = tmp_path / "log.jsonl"
    with disk_full(monkeypatch, tmp_path):
        code, output = run_main("simulate", "--games", "2", "--express", "--log", str(path))
    assert code == 1 and "No space left on device" in output and "Traceback" not in output, output
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n")
    for line in text.splitlines():
        json.loads(line)


def test_sweep_results_on_a_full_disk_keep_whole_lines_and_resume(tmp_path, monkeypatch):
    spec = tmp_path / "sweep.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: [3]\ngames: {count: 4, seed: 4}\nexpress: true\n",
                    encoding="utf-8")
    results = tmp_path / "out" / "results.jsonl"
    results.parent.mkdir()
    with disk_full(monkeypatch, results.parent):
        code, output = run_main("sweep", str(spec), "--out", str(results))
    assert code == 1 and "No space left on device" in output and "Traceback" not in output, output
    text = results.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n")
    code, output = run_main("sweep", str(spec), "--out", str(results), "--resume")
    assert code == 0, output
    assert len(results.read_text(encoding="utf-8").splitlines()) == 4


@pytest.mark.parametrize("option", ["--json", "--log"])
def test_dev_full_is_one_error(option):
    code, output = run_main("simulate", "--games", "1", "--express", option, "/dev/full")
    assert code == 1 and "Traceback" not in output
    assert len([line for line in output.splitlines() if "error" in line]) == 1, output
