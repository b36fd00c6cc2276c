"""happydayz sweep: the grid, the JSON Lines file, resuming, and mistakes in the specification."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from happydayz.cli.app import main
from happydayz.simulation.simulate import game_seed, simulate
from happydayz.simulation.sweep import SweepInterrupted, load_sweep, run_sweep

from interrupting import ctrl_c_at_line

GRID = """\
title: a small grid
scenarios: [woodstock-fever/1, american-dream/2]
players: [3, 4]
variants:
  - {}
  - {Hippies: positive}
bots: [random]
games: {count: 3, seed: 7}
express: true
"""
LINE_KEYS = ["cell", "game", "seed", "rounds", "final_populations", "winners", "factions", "bots", "first_leader",
             "powers"]


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def grid(tmp_path) -> Path:
    spec = tmp_path / "grid.yaml"
    spec.write_text(GRID, encoding="utf-8")
    return spec


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_sweep_writes_one_line_per_game_of_every_cell(capsys, grid, tmp_path):
    out = tmp_path / "results.jsonl"
    code, text, _ = run(capsys, "sweep", grid, "--out", out)
    assert code == 0 and "6 cells, 18 games: 18 played" in text
    records = lines(out)
    # the Hippies override applies to the scenario that has them only: 2x2 + 2x1 cells
    cells = [(r["cell"]["scenario"], r["cell"]["players"], r["cell"]["variants"]) for r in records[::3]]
    assert cells == [("woodstock-fever/1", 3, {}), ("woodstock-fever/1", 3, {"Hippies": "positive"}),
                     ("woodstock-fever/1", 4, {}), ("woodstock-fever/1", 4, {"Hippies": "positive"}),
                     ("american-dream/2", 3, {}), ("american-dream/2", 4, {})]
    for number, record in enumerate(records):
        assert list(record) == LINE_KEYS
        assert record["game"] == number % 3 and record["seed"] == game_seed(7, number % 3)
        players = record["cell"]["players"]
        assert record["bots"] == record["cell"]["bots"] == ["random"] * players
        assert len(record["final_populations"]) == players and record["rounds"] == 1
        assert record["cell"]["options"]["express"] is True
    assert ["Hippies", "positive"] in records[3]["factions"] and ["Hippies", "basic"] in records[0]["factions"]


def test_a_cell_plays_the_games_of_simulate_with_the_same_seed(grid, tmp_path):
    out = tmp_path / "results.jsonl"
    run_sweep(grid, out)
    cell = [r for r in lines(out) if r["cell"]["scenario"] == "american-dream/2" and r["cell"]["players"] == 4]
    same = simulate("american-dream/2", players=4, games=3, seed=7, express=True)["games"]
    assert [(r["seed"], r["final_populations"], r["winners"], r["first_leader"], r["powers"]) for r in cell] == \
        [(g["seed"], g["final_populations"], g["winners"], g["first_leader"], g["powers"]) for g in same]


def test_jobs_2_writes_the_same_file(grid, tmp_path):
    run_sweep(grid, tmp_path / "one.jsonl")
    run_sweep(grid, tmp_path / "two.jsonl", jobs=2)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_resume_completes_a_cut_file_without_duplicates(capsys, grid, tmp_path):
    full = tmp_path / "full.jsonl"
    run_sweep(grid, full)
    expected = full.read_bytes()
    out = tmp_path / "results.jsonl"
    cut = expected[: expected.index(b"\n", len(expected) // 2) + 20]  # half a line at the end
    out.write_bytes(cut)
    code, text, _ = run(capsys, "sweep", grid, "--out", out, "--resume")
    assert code == 0 and "already in" in text
    assert out.read_bytes() == expected
    # games missing in the middle (as after Ctrl-C with several jobs) are played once each
    kept = expected.decode().splitlines(keepends=True)
    out.write_text("".join(kept[:2] + kept[5:9] + kept[12:]), encoding="utf-8")
    report = run_sweep(grid, out, resume=True)
    assert report["played"] == 6 and report["resumed"] == 12
    assert sorted(out.read_text().splitlines()) == sorted(expected.decode().splitlines())
    # nothing left to do
    assert run_sweep(grid, out, resume=True)["played"] == 0


def test_an_interrupted_sweep_keeps_its_games_and_resumes(grid, tmp_path):
    out = tmp_path / "results.jsonl"

    def progress(done, total):
        if done == 7:
            raise KeyboardInterrupt

    with pytest.raises(SweepInterrupted) as caught:
        run_sweep(grid, out, jobs=2, progress=progress)
    assert caught.value.report["interrupted"] and 7 <= len(lines(out)) < 18
    run_sweep(grid, out, resume=True)
    run_sweep(grid, tmp_path / "full.jsonl")
    assert sorted(out.read_text().splitlines()) == sorted((tmp_path / "full.jsonl").read_text().splitlines())


def test_a_ctrl_c_while_a_result_is_written_counts_exactly_the_lines_written(grid, tmp_path, monkeypatch):
    """Ctrl-C as the fourth result line is about to be written: the line is written, and the report counts the
    games the file holds (no game counted whose line was lost)."""
    from happydayz.simulation import sweep as sweep_module

    out = tmp_path / "results.jsonl"
    with ctrl_c_at_line(monkeypatch, sweep_module, 4), pytest.raises(SweepInterrupted) as caught:
        run_sweep(grid, out)
    assert caught.value.report["played"] == len(lines(out)) == 4


def test_an_existing_results_file_is_not_overwritten_by_mistake(capsys, grid, tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_text("{}\n", encoding="utf-8")
    code, _, err = run(capsys, "sweep", grid, "--out", out)
    assert code == 2 and "--resume" in err and "--force" in err
    code, _, _ = run(capsys, "sweep", grid, "--out", out, "--force", "--quiet")
    assert code == 0 and len(lines(out)) == 18
    code, _, err = run(capsys, "sweep", grid, "--out", "-", "--resume")
    assert code == 2


def test_the_default_results_file_is_beside_the_spec(capsys, grid):
    code, _, _ = run(capsys, "sweep", grid, "--quiet")
    assert code == 0 and len(lines(grid.with_name("grid.results.jsonl"))) == 18


def test_a_broken_results_line_is_reported_with_its_place(capsys, grid, tmp_path):
    out = tmp_path / "results.jsonl"
    run_sweep(grid, out)
    kept = out.read_text().splitlines(keepends=True)
    out.write_text(kept[0] + "{not json\n" + "".join(kept[1:]), encoding="utf-8")
    code, _, err = run(capsys, "sweep", grid, "--out", out, "--resume")
    assert code == 1 and re.search(r"results\.jsonl:2:\d+: error\[L002\]", err)


@pytest.mark.parametrize("text, where, message", [
    ("scenarios: [woodstock-fever/1]\nplayers: [4, 8]\ngames: 2\n", "2:14", "more than the maximum"),
    ("scenarios: [woodstock-fever/1]\ngames: 2\nbots: [[random, randm, random, random]]\n", "3:17",
     "did you mean 'random'"),
    ("scenarios: [woodstock-fever/1]\ngames: 2\nvariants: [{Hipies: positive}]\n", "3:13",
     "did you mean 'Hippies'"),
    ("scenarios: [woodstock-fever/1]\ngames: 2\nvariants: [{Hippies: postive}]\n", "3:22", "is not one of"),
    ("scenarios: [woodstok-fever/1]\ngames: 2\n", "1:13", "did you mean 'woodstock-fever/1'"),
    ("scenarios: [woodstock-fever/1]\ngames: {count: 2, seeds: 3}\n", "2:19", "'seeds' is not a known key"),
    ("scenarios: [woodstock-fever/1]\n", "1:1", "missing required key 'games'"),
    ("scenarios: [woodstock-fever/1]\ngames: 2\nbots: [[random, random, random]]\nplayers: 4\n", "3:8",
     "no game would use this entry"),
    ("scenarios: [woodstock-fever/1, nothing.yaml]\ngames: 2\n", "1:32", "does not exist"),
    ("scenarios: [woodstock-fever/1, american-dream/3]\ngames: 2\nvariants: [{Hippies: positive, Nurses: negative}]\n",
     "3:12",
     "no scenario of the sweep has all of these"),
])
def test_a_bad_spec_exits_1_with_its_place(capsys, tmp_path, text, where, message):
    spec = tmp_path / "bad.yaml"
    spec.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "sweep", spec, "--out", tmp_path / "r.jsonl")
    assert code == 1, (out, err)
    assert f"bad.yaml:{where}: error[" in err, err
    assert message in err
    assert not (tmp_path / "r.jsonl").exists()


def test_one_name_and_a_list_of_it_are_one_cell(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text("scenarios: woodstock-fever/1\nplayers: 3\nbots: [random, 'random,random,random', "
                    "[random, random, random]]\ngames: 1\n", encoding="utf-8")
    assert len(load_sweep(spec).cells) == 1
