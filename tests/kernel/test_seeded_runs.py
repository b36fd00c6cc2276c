"""The rules' seeded games stay byte-identical: every run of bench/seeded_runs.py whose seats are all random
bots matches the digest recorded in tests/golden/seeded_runs.json before the kernel's hand became data (a change
that moves one names it). The runs with greedy or ISMCTS seats match tests/golden/seeded_bot_runs.json, which is
re-recorded only in a commit that changes a bot's decisions on purpose."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "tests" / "golden" / "seeded_runs.json").read_text(encoding="utf-8"))
BOT_RUNS = json.loads((ROOT / "tests" / "golden" / "seeded_bot_runs.json").read_text(encoding="utf-8"))


def _bench():
    spec = importlib.util.spec_from_file_location("seeded_runs", ROOT / "bench" / "seeded_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
RUNS = BENCH.runs()


def test_the_recorded_set_is_the_set_the_script_plays():
    assert sorted(run["name"] for run in RUNS if not BENCH.has_bots(run)) == sorted(RULES)
    assert sorted(run["name"] for run in RUNS if BENCH.has_bots(run)) == sorted(BOT_RUNS)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS, ids=[run["name"] for run in RUNS])
def test_a_seeded_run_is_byte_identical_to_its_recording(run):
    golden = BOT_RUNS if BENCH.has_bots(run) else RULES
    assert BENCH.digest(run) == golden[run["name"]]


def test_the_digest_moves_when_the_game_does():
    """Negative control: another seed gives another digest, so an equal digest means an equal game."""
    run = RUNS[0]
    assert BENCH.digest({**run, "seed": run["seed"] + 1}) != RULES[run["name"]]
