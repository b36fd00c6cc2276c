"""Every reader of results bounds what it builds (report.results: MAX_POWERS, MAX_CELLS, MAX_FACTIONS, MAX_SEATS)
and says so when a file passes a bound. A crafted file of 5,000 power names took 47 s and 1.3 GB to report."""

from __future__ import annotations

import json

import pytest

from happydayz.data.boxes import MAX_PLAYERS
from happydayz.report.analysis import analyse
from happydayz.report.build import build_report
from happydayz.report.results import ResultsProblem, load_results

MAX_POWERS, MAX_CELLS, MAX_FACTIONS = 100, 200, 100  # report.results' bounds, as docs/reliability.md gives them


def game(i: int, **more) -> dict:
    return {"game": i, "seed": i, "rounds": 3, "final_populations": [10, 5, 0], "winners": [0], **more}


def test_a_file_of_thousands_of_powers_is_reported_with_the_first_hundred_and_a_note(tmp_path):
    powers = {f"P{k:04}/basic": {"triggers": [1, 0, 0], "score": [1, 0, 0]} for k in range(2000)}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"games": [game(i, powers=powers) for i in range(5)], "summary": {}}), encoding="utf-8")
    results = load_results(path)
    assert f"The file names 2000 powers: the report shows the first {MAX_POWERS} read, 1900 were left out." \
        in results.notes
    rows = analyse(results)["powers"]["rows"]
    assert [r["power"] for r in rows] == [f"P{k:04}/basic" for k in range(MAX_POWERS)]


def test_a_sweep_of_thousands_of_cells_keeps_the_first_ones_and_says_so(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(game(0, cell={"n": c})) + "\n" for c in range(MAX_CELLS + 50)),
                    encoding="utf-8")
    results = load_results(path)
    assert len(results.games) == MAX_CELLS
    assert (f"The file holds more than {MAX_CELLS} cells: the 50 games of the cells beyond the first {MAX_CELLS} "
            "were left out.") in results.notes
    assert len(analyse(results)["cells"]) == MAX_CELLS


def test_a_file_of_many_factions_leaves_the_variant_section_out(tmp_path):
    path = tmp_path / "r.json"
    games = [game(i, factions=[[f"F{i}-{k}", "basic"] for k in range(3)]) for i in range(MAX_FACTIONS)]
    path.write_text(json.dumps({"games": games, "summary": {}}), encoding="utf-8")
    results = load_results(path)
    assert any("per-variant section is left out" in note for note in results.notes)
    assert analyse(results)["variants"] is None


def test_a_game_of_more_communities_than_a_box_deals_for_is_refused(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"games": [game(0, final_populations=[1] * 7000)]}), encoding="utf-8")
    with pytest.raises(ResultsProblem) as refused:
        load_results(path)
    assert f"games[0]: 'final_populations' lists 7000 Communities; a game has at most {MAX_PLAYERS}" in str(refused.value)


def test_the_bounds_are_those_documented():
    from happydayz.report import results  # (here: the constants are what this test is about)

    assert (results.MAX_POWERS, results.MAX_CELLS, results.MAX_FACTIONS, results.MAX_SEATS) == \
        (MAX_POWERS, MAX_CELLS, MAX_FACTIONS, MAX_PLAYERS)


def test_a_file_of_thousands_of_game_lengths_shows_the_most_common_ones(tmp_path):
    path = tmp_path / "r.json"
    games = [game(i, rounds=i) for i in range(3000)] + [game(3000 + i, rounds=7) for i in range(10)]
    path.write_text(json.dumps({"games": games, "summary": {}}), encoding="utf-8")
    analysis = analyse(load_results(path))
    assert len(analysis["rounds"]) == 50 and 7 in analysis["rounds"]
    assert analysis["rounds_left_out"] == 2950
    build_report(path, tmp_path / "report")
    assert "(The 50 most common game lengths; 2950 rarer ones are left out.)" in \
        (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
