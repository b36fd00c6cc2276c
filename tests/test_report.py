"""Balance reports: the statistics helpers, the per-game extras, reading results, the report itself."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from happydayz import cli
from happydayz.agents import make_bots, play_game
from happydayz.errors import HappyError
from happydayz.game import Game
from happydayz.report import (PLOT_NAMES, ResultsProblem, add_report, analyse, build_report, first_leader,
                              game_extras, load_results, power_stats)
from happydayz.simulate import game_seed, prepare, simulate, to_json
from happydayz.stats import mean_interval, proportion_z_test, rate, wilson_interval, z_value

INTERPRETER = Path(__file__).resolve().parent.parent / "interpreter"


# --------------------------------------------------------------------- stats

@pytest.mark.parametrize("successes, trials, low, high", [
    (5, 10, 0.2366, 0.7634),   # symmetric
    (1, 10, 0.0179, 0.4042),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    with pytest.raises(ValueError):
        wilson_interval(-1, 2)
    # A higher confidence gives a wider interval.
    narrow, wide = wilson_interval(30, 100, 0.90), wilson_interval(30, 100, 0.99)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]
    assert z_value() == pytest.approx(1.959964, abs=1e-6)


def test_rate_and_mean_intervals():
    r = rate(3, 4)
    assert r.value == 0.75 and r.low < 0.75 < r.high
    assert rate(0, 0).value is None
    m = mean_interval([2, 4, 6, 8])
    assert m.mean == 5.0
    assert m.stdev == pytest.approx(math.sqrt(20 / 3))
    assert m.high - m.mean == pytest.approx(1.959964 * math.sqrt(20 / 3) / 2, abs=1e-5)
    assert mean_interval([]).mean is None and mean_interval([7]).low == 7.0
    assert proportion_z_test(50, 100, 0.5) == pytest.approx(1.0)
    assert proportion_z_test(70, 100, 0.5) < 0.001
    assert proportion_z_test(1, 0, 0.5) is None


# --------------------------------------------------------------- game extras

def _played(scenario: str, seed: int, players: int = 4, **options) -> Game:
    setup, _ = prepare(scenario, players=players, **options)
    game = Game(setup, seed)
    play_game(game, make_bots(["random"] * players, seed))
    return game


@pytest.mark.parametrize("scenario, options", [
    ("woodstock-fever/2", {}),                                     # end-of-round Faction powers
    ("american-dream/3", {"random_powers": True, "promos": True}),  # Faction changes, promo cards
])
def test_power_stats_accounts_for_every_score_and_trigger(scenario, options):
    for seed in range(3):
        game = _played(scenario, seed, **options)
        stats = power_stats(game)
        assert stats and all(re.fullmatch(r".+/(basic|positive|negative|fixed)", key) for key in stats)
        for record in stats.values():
            assert len(record["triggers"]) == game.n and len(record["score"]) == game.n
        # Every score of the log is given to exactly one power.
        scores = [0] * game.n
        for event in game.log:
            if event["event"] == "score":
                scores[event["seat"]] += event["amount"]
        assert [sum(r["score"][s] for r in stats.values()) for s in range(game.n)] == scores
        # Every on-win power event is a trigger.
        ran = sum(1 for e in game.log if e["event"] == "power")
        assert sum(sum(r["triggers"]) for r in stats.values()) >= ran
        json.dumps(stats)  # JSON-ready


def test_power_stats_lists_powers_in_play_that_never_ran():
    game = _played("woodstock-fever/1", 1, express=True)
    stats = power_stats(game)
    start = next(e for e in game.log if e["event"] == "game_start")
    for faction, variant in start["factions"]:
        if faction in game.setup.faction_power:
            power = game.setup.faction_power[faction]
            program = power.variant(variant)
            if program.on_win is not None or program.end_of_round is not None:
                assert f"{power.name}/{'fixed' if power.fixed else variant}" in stats


def test_first_leader_is_the_leader_of_the_first_trick():
    game = _played("woodstock-fever/1", 4, express=True)
    encounter = next(e for e in game.log if e["event"] == "encounter")
    assert first_leader(game) == encounter["leader"]
    extras = game_extras(game)
    assert extras["first_leader"] == encounter["leader"] and isinstance(extras["powers"], dict)


# ------------------------------------------------------------------- reports

@pytest.fixture(scope="module")
def simulate_results(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "results.json"
    path.write_text(to_json(simulate("woodstock-fever/2", players=4, games=12, seed=3)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sweep_results(tmp_path_factory) -> Path:
    """Sweep-format JSON Lines with variants compared, first leaders and power records."""
    path = tmp_path_factory.mktemp("sweep") / "sweep.jsonl"
    lines = []
    for variants in ({}, {"Soldiers": "negative"}):
        for players in (3, 4):
            setup, scenario = prepare("woodstock-fever/2", players=players, express=True)
            if variants:
                from dataclasses import replace

                from happydayz.boxes import load_library
                from happydayz.model import FactionChoice
                from happydayz.setup import build_setup

                scenario = replace(scenario, factions=tuple(FactionChoice(c.faction, variants.get(c.faction, c.variant))
                                                            for c in scenario.factions))
                setup = build_setup(scenario, load_library(), setup.options)
            for index in range(5):
                seed = game_seed(9, index)
                game = Game(setup, seed)
                result = play_game(game, make_bots(["random"] * players, seed))
                lines.append(json.dumps({
                    "cell": {"scenario": scenario.id, "players": players, "variants": variants},
                    "game": index, **result, "factions": [[c.faction, c.variant] for c in scenario.factions],
                    "bots": ["random"] * players, **game_extras(game)}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_report_from_a_simulate_run(simulate_results, tmp_path):
    out = tmp_path / "report"
    md = build_report(simulate_results, out)
    assert md == out / "report.md" and md.is_file()
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) >= 3
    text = md.read_text(encoding="utf-8")
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png.name})" in text  # every plot is embedded
    assert "12 games" in text and "woodstock-fever/2" in text
    assert re.search(r"\d+\.\d% \[\d+\.\d%, \d+\.\d%\]", text)  # rates with intervals
    # What the results cannot give is skipped with a note.
    assert "Skipped: the results do not record who led first" in text
    assert "Skipped: the results have no per-game `powers` record" in text
    assert "Traceback" not in text


def test_report_from_sweep_lines_draws_every_plot(sweep_results, tmp_path):
    md = build_report(sweep_results, tmp_path)
    assert {p.name for p in tmp_path.glob("*.png")} == set(PLOT_NAMES)
    text = md.read_text(encoding="utf-8")
    assert "3 players" in text and "4 players" in text and "## Cells" in text
    assert "first leader" in text and "Per-power effect" in text and "Skipped" not in text
    results = load_results(sweep_results)
    assert results.kind == "sweep" and len(results.games) == 20
    analysis = analyse(results)
    assert analysis["variants"]["compared"]
    assert {row["variant"] for row in analysis["variants"]["rows"] if row["faction"] == "Soldiers"} == \
        {"positive", "negative"}


def test_a_second_report_removes_plots_it_has_no_data_for(sweep_results, simulate_results, tmp_path):
    build_report(sweep_results, tmp_path)
    assert (tmp_path / "powers.png").exists()
    build_report(simulate_results, tmp_path)
    assert not (tmp_path / "powers.png").exists()
    assert not (tmp_path / "first_leader_win_rate.png").exists()


@pytest.mark.parametrize("content, message", [
    (None, "cannot read the results file"),
    (b"", "the results file is empty"),
    (b'{"games": [{"game": 0, "rounds": 4, "final_', "not valid JSON"),
    (b'{"games": [], "summary": {}}', "the results hold no games"),
    (b'{"games": [{"rounds": 4, "final_populations": [1, 2], "winners": [5]}]}', "'winners' must be"),
    (b'[1, 2, 3]', "not simulation results"),
    (b'\xff\xfe\x00', "not UTF-8"),
    (b'{"cell": {}, "rounds": 1, "final_populations": [3, 0], "winners": [0]}\n{"cell": {}, "rou',
     "line 2 is not valid JSON"),
    (b'{"game": 0, "event": "deal", "round": 1}\n{"game": 0, "event": "win", "round": 1}\n',
     "this is an event log"),
])
def test_bad_results_files_are_reported_clearly(tmp_path, content, message):
    path = tmp_path / "results.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ResultsProblem) as info:
        build_report(path, tmp_path / "out")
    assert message in str(info.value)
    assert isinstance(info.value, HappyError)
    assert not (tmp_path / "out" / "report.md").exists()


def _main_with_report(monkeypatch, argv) -> int:
    if add_report not in cli.COMMANDS:  # until the command is wired into the CLI
        monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, add_report])
    return cli.main(argv)


def test_the_command_exits_1_with_a_message_for_a_corrupt_file(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": [', encoding="utf-8")
    assert _main_with_report(monkeypatch, ["report", str(bad), "--out", str(tmp_path / "r")]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "bad.json" in err and "error[A002]" in err and "not valid JSON" in err
    assert _main_with_report(monkeypatch, ["report", str(tmp_path / "missing.json")]) == 1
    out, err = capsys.readouterr()
    assert "cannot read the results file" in err and "Traceback" not in out + err


def test_the_command_writes_the_report_into_report_by_default(simulate_results, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _main_with_report(monkeypatch, ["report", str(simulate_results)]) == 0
    out, _ = capsys.readouterr()
    assert str(Path("report") / "report.md") in out and (tmp_path / "report" / "report.md").is_file()


def test_the_report_modules_name_no_faction_or_box():
    names = re.compile(r"hippie|soldier|\bdogs?\b|survivalist|cheerleader|biker|mini-?van|police|governor|nurse|"
                       r"preacher|scientist|bunker|horde|patient.?zero|woodstock|american.?dream|\bChildren\b|zombie",
                       re.IGNORECASE)
    for name in ("report.py", "stats.py"):
        text = (INTERPRETER / name).read_text(encoding="utf-8")
        assert not names.search(text), f"{name}: {names.search(text).group()}"
