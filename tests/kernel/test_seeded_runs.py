"""The rules' seeded games stay byte-identical: every run of bench/seeded_runs.py matches the digest recorded
in tests/golden/seeded_runs.json before the kernel's hand became data (a change that moves one names it)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "seeded_runs.json").read_text(encoding="utf-8"))


def _bench():
    spec = importlib.util.spec_from_file_location("seeded_runs", ROOT / "bench" / "seeded_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
RUNS = BENCH.runs()


def test_the_recorded_set_is_the_set_the_script_plays():
    assert sorted(run["name"] for run in RUNS) == sorted(GOLDEN)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS, ids=[run["name"] for run in RUNS])
def test_a_seeded_run_is_byte_identical_to_its_recording(run):
    assert BENCH.digest(run) == GOLDEN[run["name"]]


def test_the_digest_moves_when_the_game_does():
    """Negative control: another seed gives another digest, so an equal digest means an equal game."""
    run = RUNS[0]
    assert BENCH.digest({**run, "seed": run["seed"] + 1}) != GOLDEN[run["name"]]
