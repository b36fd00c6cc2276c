"""The bots' benchmark script runs and reports its figures (their values are measured, not tested)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "bench" / "bots.py"


def test_quick_json_run_reports_every_figure():
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)  # JSON only on stdout
    assert set(result["scenarios"]) == {"woodstock-fever/1", "american-dream/1"}
    for figures in result["scenarios"].values():
        assert figures["ismcts_iterations_per_second"] > 0 and figures["greedy_decisions_per_second"] > 0
        assert len(figures["moves"]["ismcts"]) == len(figures["moves"]["greedy"]) == 12
        # the greedy bot and the one it replaced, measured in the same run, per box, in floor tricks
        assert len(figures["moves"]["greedy-reference"]) == 12
        for stem in ("greedy", "greedy_reference"):
            assert figures[f"{stem}_decision_floor_tricks"] > 0 and figures[f"{stem}_decisions_per_second"] > 0
    for key in ("ismcts_iterations_per_second", "ismcts_decisions_per_second", "greedy_decisions_per_second",
                "floor_us_per_trick", "ismcts_iteration_floor_tricks", "greedy_decision_floor_tricks",
                "greedy_reference_decision_floor_tricks", "greedy_reference_decisions_per_second",
                "determinization_us", "round_playout_floor_tricks"):
        assert isinstance(result[key], (int, float)) and result[key] > 0, key
    # playing the round out is part of what an iteration does, not all of it (the tree, the policy, the sampler)
    assert 0 < result["ismcts_kernel_share"] < 1
    assert result["round_playout_floor_tricks"] < result["ismcts_iteration_floor_tricks"]
    assert result["budget"]["iterations"] == 10


def test_round_playouts_play_copies_and_leave_the_games_alone():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bots
    finally:
        sys.path.remove(str(SCRIPT.parent))
    positions = bots.decisions("woodstock-fever/1", 2, seed=3)
    before = [(game.answers[:], game.decision) for game, _ in positions]
    seconds, playouts = bots.run_round_playouts(positions, 3, seed=3)
    assert playouts == 6 and seconds >= 0
    assert [(game.answers, game.decision) for game, _ in positions] == before  # copies were played, not the games
