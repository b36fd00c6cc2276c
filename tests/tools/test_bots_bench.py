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
    for key in ("ismcts_iterations_per_second", "ismcts_decisions_per_second", "greedy_decisions_per_second",
                "floor_us_per_trick", "ismcts_iteration_floor_tricks", "greedy_decision_floor_tricks",
                "determinization_us"):
        assert isinstance(result[key], (int, float)) and result[key] > 0, key
    assert result["budget"]["iterations"] == 10
