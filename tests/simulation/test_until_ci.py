"""simulate --until-ci W and a sweep's until_ci: play in rounds until every reported rate is known to ±W."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from happydayz.base.stats import half_width
from happydayz.cli.app import main
from happydayz.simulation.precision import next_round, parse_width, rate_counts, widest_interval
from happydayz.simulation.simulate import simulate
from happydayz.simulation.sweep import run_sweep

# Express games of the first scenario with 3 players: W = 0.1 takes two rounds (200 games).
GAME = dict(players=3, seed=3, express=True)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_wide_w_stops_after_the_first_round():
    result = simulate("woodstock-fever/1", games=5000, until_ci=0.2, **GAME)
    stopped = result["summary"]["stopped"]
    assert stopped["reason"] == "ci" and stopped["games"] == 100 and stopped["until_ci"] == 0.2
    assert len(result["games"]) == result["summary"]["games"] == 100
    assert 0 < stopped["widest_half_width"] < 0.2
    # The figure is the widest of the intervals of the rates reported, and names its rate.
    widest, which = widest_interval(result["games"], 3)
    assert stopped["widest_half_width"] == round(widest, 4) and stopped["widest"] == which


def test_a_tiny_w_plays_to_the_cap_in_growing_rounds():
    goals = []
    result = simulate("woodstock-fever/1", games=350, until_ci=0.001, progress=lambda done, goal: goals.append(goal),
                      **GAME)
    stopped = result["summary"]["stopped"]
    assert stopped["reason"] == "cap" and stopped["games"] == 350 and len(result["games"]) == 350
    assert stopped["widest_half_width"] > 0.001
    # rounds of 100, then at most doubling the games played, never past the cap
    assert sorted(set(goals)) == [100, 200, 350]


def test_the_games_are_those_of_a_plain_run_of_as_many():
    until = simulate("woodstock-fever/1", games=5000, until_ci=0.1, **GAME)
    stopped = until["summary"].pop("stopped")
    assert stopped["reason"] == "ci" and stopped["games"] == 200  # two rounds
    plain = simulate("woodstock-fever/1", games=200, **GAME)
    assert "stopped" not in plain["summary"]
    assert until == plain


def test_jobs_1_and_2_stop_at_the_same_game_with_the_same_json(capsys, tmp_path):
    files = {}
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}.json"
        code, _, err = run(capsys, "simulate", "--scenario", "woodstock-fever/1", "--players", 3, "--seed", 3,
                           "--express", "--until-ci", "10%", "--games", 5000, "--jobs", jobs, "--json", out)
        assert code == 0 and err == ""
        files[jobs] = out.read_bytes()
    assert files[1] == files[2]
    summary = json.loads(files[1])["summary"]
    assert summary["games"] == 200
    assert summary["stopped"] == {"reason": "ci", "games": 200, "widest_half_width": summary["stopped"][
        "widest_half_width"], "widest": summary["stopped"]["widest"], "until_ci": 0.1}


def test_the_table_says_how_many_games_it_took(capsys):
    code, out, _ = run(capsys, "simulate", "--scenario", "woodstock-fever/1", "--players", 3, "--seed", 3,
                       "--express", "--until-ci", "0.2")
    assert code == 0
    text = " ".join(out.split())  # the console wraps long lines
    assert "3 players, 100 games, seed 3, express" in text
    assert "Stopped after 100 games: every 95% interval is within ±20.0% (the widest: ±" in text
    code, out, _ = run(capsys, "simulate", "--scenario", "woodstock-fever/1", "--players", 3, "--seed", 3,
                       "--express", "--until-ci", "0.5%", "--games", 30)
    assert code == 0
    assert "Stopped at the cap of 30 games: the widest 95% interval is still ±" in " ".join(out.split())


@pytest.mark.parametrize("value, message", [
    ("0", "expected a half-width more than 0 and at most 1 (100%), got 0"),
    ("-0.05", "expected a half-width more than 0 and at most 1 (100%), got -0.05"),
    ("1.5", "expected a half-width more than 0 and at most 1 (100%), got 1.5"),
    ("150%", "expected a half-width more than 0 and at most 1 (100%), got 150%"),
    ("abc", "expected a half-width such as 0.02 or 2%, got 'abc'"),
    ("nan", "expected a half-width more than 0 and at most 1 (100%), got nan"),
])
def test_bad_widths_are_usage_errors(capsys, value, message):
    code, out, err = run(capsys, "simulate", f"--until-ci={value}")
    assert code == 2 and out == ""
    assert err.rstrip().endswith(f"happydayz simulate: error: argument --until-ci: {message}")


def test_widths_as_fractions_and_percentages():
    assert parse_width("0.02") == parse_width("2%") == parse_width(" 2 % ") == 0.02
    assert parse_width(0.5) == 0.5 and parse_width("100%") == 1.0
    with pytest.raises(ValueError, match="got True"):
        parse_width(True)


def test_the_rates_counted_are_those_reported():
    records = [
        {"winners": [0], "powers": {"A/basic": {"triggers": [1, 0], "score": [0, 0], "moved": [0, 0]}}},
        {"winners": [], "powers": {"A/basic": {"triggers": [2, 3], "score": [0, 0], "moved": [0, 0]}}},
        {"winners": [0, 1]},  # a record without powers: seats and no-winner only
    ]
    assert rate_counts(records, 2) == [
        ("Community 0's win rate", 2, 3), ("Community 1's win rate", 1, 3), ("the rate of games nobody won", 1, 3),
        ("A/basic's win rate when it ran", 1, 3), ("A/basic's win rate otherwise", 0, 1)]
    assert widest_interval(records, 2) == (half_width(0, 1), "A/basic's win rate otherwise")


@pytest.mark.parametrize("played, widest, target, cap, games", [
    (0, 1.0, 0.02, 10_000, 100),     # the first round
    (0, 1.0, 0.02, 40, 40),          # ... within the cap
    (100, 0.05, 0.04, 10_000, 100),  # 157 needed in all: 57 more, rounded up to 100
    (400, 0.05, 0.04, 10_000, 300),  # 625 needed: 225 more, rounded up to 300
    (100, 0.5, 0.01, 10_000, 100),   # far off: at most doubling
    (800, 0.5, 0.01, 1000, 200),     # ... and never beyond the cap
])
def test_round_sizes(played, widest, target, cap, games):
    assert next_round(played, widest, target, cap) == games


SPEC = """\
scenarios: [woodstock-fever/1]
players: [3, 4]
games: {count: 300, seed: 3}
express: true
"""


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_sweep_stops_each_cell_by_its_own_intervals(capsys, tmp_path):
    plain_spec, until_spec = tmp_path / "plain.yaml", tmp_path / "until.yaml"
    plain_spec.write_text(SPEC, encoding="utf-8")
    until_spec.write_text(SPEC + "until_ci: 10%\n", encoding="utf-8")
    plain_out, until_out = tmp_path / "plain.jsonl", tmp_path / "until.jsonl"
    code, out, _ = run(capsys, "sweep", until_spec, "--out", until_out)
    assert code == 0
    text = " ".join(out.split())
    assert "2 cells, at most 600 games: 300 played" in text
    assert "Until every 95% interval is within ±10.0%: 2 of 2 cells stopped by their intervals." in text
    report = run_sweep(plain_spec, plain_out)
    assert "stopped" not in report
    # each cell holds the first games of the plain sweep's cell: 200 with 3 players, 100 with 4
    plain, until = _lines(plain_out), _lines(until_out)
    assert until == plain[:200] + plain[300:400]
    # --jobs 2 and a resumed file come to the same games
    report = run_sweep(until_spec, tmp_path / "j2.jsonl", jobs=2)
    assert [(s["cell"]["players"], s["reason"], s["games"]) for s in report["stopped"]] == [(3, "ci", 200),
                                                                                         (4, "ci", 100)]
    assert (tmp_path / "j2.jsonl").read_bytes() == until_out.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(json.dumps(line) + "\n" for line in until[:150]), encoding="utf-8")
    report = run_sweep(until_spec, cut, resume=True)
    assert report["resumed"] == 150 and report["played"] == 150
    assert sorted(map(json.dumps, _lines(cut))) == sorted(map(json.dumps, until))


@pytest.mark.parametrize("value, message", [
    ("0", "until_ci: expected a half-width more than 0 and at most 1 (100%), got 0"),
    ("'150%'", "until_ci: expected a half-width more than 0 and at most 1 (100%), got 150%"),
    ("abc", "until_ci: expected a half-width such as 0.02 or 2%, got 'abc'"),
])
def test_a_bad_until_ci_in_a_sweep_is_reported_with_its_place(capsys, tmp_path, value, message):
    spec = tmp_path / "bad.yaml"
    spec.write_text(SPEC + f"until_ci: {value}\n", encoding="utf-8")
    code, _, err = run(capsys, "sweep", spec, "--out", tmp_path / "out.jsonl")
    assert code == 1
    assert f"bad.yaml:5:11: error[D013]: {message}" in err
