"""`replay` and `test` name a file of another kind in one line (F005), instead of its schema errors.

The golden files tests/golden/diagnostics/F005-*.replay.* show `replay` on each kind; here `test`, and the
marks each kind is told apart by.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from happydayz.cli.app import main
from happydayz.kernel.filekinds import kind_of_data, kind_of_text

from conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "diagnostics"
KINDS = {
    "power": "F005-power-file-given-to-replay.replay.power",
    "box": "F005-box-file-given-to-replay.replay.yaml",
    "scenario": "F005-scenario-file-given-to-replay.replay.yaml",
    "results": "F005-results-file-given-to-replay.replay.json",
    "save": "F005-save-file-given-to-replay.replay.json",
    "log": "F005-event-log-given-to-replay.replay.jsonl",
}
SAYS = {"power": "a power file", "box": "a box file", "scenario": "a scenario file", "results": "a simulation results file",
        "save": "a save file", "log": "an event log"}


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(args))
    return code, out.getvalue()


@pytest.mark.parametrize("kind", KINDS)
def test_test_names_the_kind_in_one_line(kind, tmp_path):
    path = tmp_path / KINDS[kind]
    shutil.copy(GOLDEN / KINDS[kind], path)
    code, output = run("test", str(path))
    assert code == 1
    fail, reason, summary = output.splitlines()
    assert fail == f"FAIL  {path}"
    assert reason.strip() == f"{path}:1:1: error[F005]: this is {SAYS[kind]}" + reason.split(SAYS[kind], 1)[1]
    assert ", not a scripted game: " in reason and summary.startswith("1 scripted game: 0 passed, 1 failed")


def test_a_power_file_is_known_by_its_text_whatever_its_name():
    text = "# Goblins\n\npower Goblins {\n  for faction Goblins\n}\n"
    assert kind_of_text(Path("goblins.txt"), text) == "power"
    assert kind_of_text(Path("game.yaml"), "factions: [Hippies]\nplayers: 3\n") is None


def test_a_save_file_is_not_taken_for_a_scripted_game_although_it_has_answers():
    save = json.loads((GOLDEN / KINDS["save"]).read_text(encoding="utf-8"))
    assert "answers" in save and kind_of_data(save, looks_scripted=True) == "save"


def test_a_scripted_game_is_left_to_its_schema():
    assert kind_of_data({"factions": ["Hippies"], "players": 3, "answers": []}, looks_scripted=True) is None
    assert kind_of_data({"players": 3}, looks_scripted=False) is None  # no kind's marks: the schema speaks
    code, output = run("replay", "--quiet", str(ROOT / "tests" / "games" / "wf_deal_two_players.yaml"))
    assert (code, output) == (0, "")
