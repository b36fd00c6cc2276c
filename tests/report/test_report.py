"""Balance reports: the statistics helpers, the per-game extras, reading results, the report itself."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from conftest import ENV, prepare, answer, last_count, make_game, position
from happydayz.cli import app as cli
from happydayz.players.agents import play_game
from happydayz.players.registry import make_bots
from happydayz.base.errors import HappyError
from happydayz.kernel.game import Game
from happydayz.report.analysis import analyse
from happydayz.report.build import PLOT_NAMES, build_report
from happydayz.report.results import ResultsProblem, load_results
from happydayz.simulation.records import first_leader, game_extras, power_stats
from happydayz.simulation.simulate import game_seed, simulate, to_json
from happydayz.report.stats import mean_interval, proportion_z_test, rate, wilson_interval, z_value


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
            assert [len(record[k]) for k in ("triggers", "score", "moved")] == [game.n] * 3
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


@pytest.mark.parametrize("scenario, options", [
    ("woodstock-fever/1", {}),
    ("woodstock-fever/2", {}),
    ("american-dream/3", {"random_powers": True, "promos": True}),
])
def test_power_stats_moved_accounts_for_every_expedition_card_the_tricks_did_not_put_there(scenario, options):
    # Only trick wins (the played cards and the Encounter card) and powers put cards into an Expedition or take
    # them out before the count, so for each seat, over the game: the counted Expeditions (count deltas minus
    # gain/lose scores) = the Survivors of the cards it won + what the powers moved in or out.
    moved_any = False
    for seed in range(3):
        game = _played(scenario, seed, **options)
        stats = power_stats(game)
        survivors = {}
        for card in game.setup.cards:
            survivors.setdefault(card.label, set()).add(card.survivors or 0)
        assert all(len(values) == 1 for values in survivors.values())  # a label tells the Survivors
        counted, won, encounter = [0] * game.n, [0] * game.n, None
        for event in game.log:
            if event["event"] == "count":
                counted = [c + d for c, d in zip(counted, event["deltas"])]
            elif event["event"] == "score":
                counted[event["seat"]] -= event["amount"]
            elif event["event"] == "encounter":
                encounter = event["card"]
            elif event["event"] == "win":
                for label in event["cards"] + ([encounter] if encounter is not None else []):
                    won[event["seat"]] += next(iter(survivors[label]))
        moved = [sum(r["moved"][s] for r in stats.values()) for s in range(game.n)]
        assert counted == [w + m for w, m in zip(won, moved)]
        moved_any = moved_any or any(any(r["moved"]) for r in stats.values())
    assert moved_any


@pytest.mark.parametrize("variant, side, chosen, winner, receiver, survivors", [
    # The 9 wins on +, seat 0 gives the trick (Hippies 9, 5, 2: 1 + 1 + 1 = 3 Survivors) to seat 2;
    # the Encounter card stays with seat 0.
    ("basic", "+", ["Community 2@0"], 0, 2, 3),
    # The 2 wins on -, seat 2 gives the trick and the Encounter card (Zombies 18: -9) to its left, seat 0.
    ("negative", "-", [], 2, 0, 3 - 9),
])
def test_power_stats_moved_from_a_set_position(variant, side, chosen, winner, receiver, survivors):
    game = make_game([("Hippies", variant), "Soldiers", "Dogs"])
    position(game, hands={0: ["Hippies 9"], 1: ["Hippies 5"], 2: ["Hippies 2"]}, reserve=["Zombies 18"], active=0)
    answer(game, f"Hippies 9 on {side}@0", "Hippies 5@1", "Hippies 2@2", *chosen)
    assert game.over
    stats = power_stats(game)
    moved = [0, 0, 0]
    moved[winner], moved[receiver] = -survivors, survivors
    triggers = [0, 0, 0]
    triggers[winner] = 1
    assert stats[f"Hippies/{variant}"] == {"triggers": triggers, "score": [0, 0, 0], "moved": moved}
    assert all(not any(r["moved"]) for key, r in stats.items() if not key.startswith("Hippies/"))
    # What the count saw: the winner kept the Encounter card (basic) or nothing (negative).
    assert last_count(game)["deltas"] == ([-9, 0, 3] if variant == "basic" else [-6, 0, 0])


def test_every_effect_event_names_its_power_its_community_and_the_zones_a_card_left_and_entered():
    game = make_game(["Hippies", "Soldiers", "Dogs"])
    position(game, hands={0: ["Hippies 9"], 1: ["Hippies 5"], 2: ["Hippies 2"]}, reserve=["Zombies 18"], active=0)
    answer(game, "Hippies 9 on +@0", "Hippies 5@1", "Hippies 2@2", "Community 2@0")
    [move] = [e for e in game.log if e["event"] == "move"]
    assert move == {"event": "move", "round": 1, "power": "Hippies", "variant": "basic", "hook": "win", "by": 0,
                    "cards": ["Hippies 9", "Hippies 5", "Hippies 2"],
                    "from": ["expedition:0", "expedition:0", "expedition:0"], "to": "expedition:2", "position": "end"}


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

                from happydayz.data.model import FactionChoice
                from happydayz.kernel.setup import build_setup

                scenario = replace(scenario, factions=tuple(FactionChoice(c.faction, variants.get(c.faction, c.variant))
                                                            for c in scenario.factions))
                setup = build_setup(scenario, ENV.library, setup.options, ENV)
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


@pytest.fixture(scope="module")
def bare_results(simulate_results, tmp_path_factory) -> Path:
    """The simulate results without the optional per-game fields, as older results files are."""
    data = json.loads(simulate_results.read_text(encoding="utf-8"))
    for game in data["games"]:
        game.pop("first_leader", None)
        game.pop("powers", None)
    path = tmp_path_factory.mktemp("bare") / "results.json"
    path.write_text(json.dumps(data), encoding="utf-8")
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
    # simulate records who led first and what each power did, moved cards included.
    assert "Skipped" not in text and "powers.png" in text and "first_leader_win_rate.png" in text
    assert "its gain/lose and moved Survivors together" in text
    assert "Traceback" not in text


def test_report_without_the_optional_fields_skips_their_sections(bare_results, tmp_path):
    text = build_report(bare_results, tmp_path).read_text(encoding="utf-8")
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


def test_a_second_report_removes_plots_it_has_no_data_for(sweep_results, bare_results, tmp_path):
    build_report(sweep_results, tmp_path)
    assert (tmp_path / "powers.png").exists()
    build_report(bare_results, tmp_path)
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


def _power_results(path: Path, moved: bool) -> Path:
    """Two 2-player games where one power ran once for seat 0: +2 by gain/lose, 3 Survivors moved to seat 1."""
    record = {"triggers": [1, 0], "score": [2, 0], **({"moved": [-3, 3]} if moved else {})}
    games = [{"game": i, "rounds": 1, "final_populations": [5, 9], "winners": [1], "powers": {"P/basic": record}}
             for i in range(2)]
    path.write_text(json.dumps({"games": games, "summary": {}}), encoding="utf-8")
    return path


@pytest.mark.parametrize("moved, row, says", [
    (True, "| P/basic | 2 | 1.00 [1.00, 1.00] | 2.00 [2.00, 2.00] | 0.00 [0.00, 0.00] | -1.00 [-1.00, -1.00] |",
     "its gain/lose and moved Survivors together"),
    (False, "| P/basic | 2 | 1.00 [1.00, 1.00] | 2.00 [2.00, 2.00] | – | 2.00 [2.00, 2.00] |",
     "its gain/lose Survivors only"),
])
def test_the_power_table_with_and_without_moved(tmp_path, moved, row, says):
    md = build_report(_power_results(tmp_path / "results.json", moved), tmp_path / "out")
    text = md.read_text(encoding="utf-8")
    assert "| power | games | triggers per game | gain/lose Survivors per game | Survivors moved per game | " \
           "per Community when it ran |" in text
    assert row in text and says in text
    assert "not included" not in text
    assert (tmp_path / "out" / "powers.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    analysis = analyse(load_results(tmp_path / "results.json"))
    assert analysis["powers"]["moved"] is moved


@pytest.mark.parametrize("moved", [[1], [1, "2"], "12", None, {"0": 1}])
def test_a_malformed_moved_record_is_reported_clearly(tmp_path, moved):
    path = _power_results(tmp_path / "results.json", True)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"][1]["powers"]["P/basic"]["moved"] = moved
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ResultsProblem) as info:
        load_results(path)
    assert "games[1]: 'powers' 'P/basic': 'moved' must be a list of 2 whole numbers, one per seat" in str(info.value)


def _main_with_report(monkeypatch, argv) -> int:
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
