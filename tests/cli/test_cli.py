"""The command line: exit codes, simulate, scenarios, check and play (driven by piped input)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from happydayz import __version__
from happydayz.cli.app import main
from happydayz.base.resources import data_dir
from happydayz.data.boxes import default_scenario
from happydayz.simulation.simulate import game_seed, simulate

from conftest import ENV

POWERS = data_dir("powers")
BOXES = data_dir("boxes")


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --- general -------------------------------------------------------------------

def test_version_and_help(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"happydayz {__version__}"
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("simulate", "play", "scenarios", "check"):
        assert command in out


def test_no_command_is_a_usage_error(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "usage:" in err


@pytest.mark.parametrize("argv, expected", [
    (["simulate", "--players", "8"], "2 to 7 players"),
    (["simulate", "--games", "0"], "expected 1 or more"),
    (["simulate", "--seed", "abc"], "expected a whole number"),
    (["simulate", "--no-such-option"], "unrecognized arguments"),
    (["simulat"], "did you mean 'simulate'"),
    (["check"], "the following arguments are required"),
    (["simulate", "--bots", "randm"], "did you mean 'random'"),
    (["simulate", "--bots", "random,random"], "2 bots for 4 players"),
    (["simulate", "--json", "-", "--log", "-"], "cannot both"),
    (["play", "--seat", "4"], "not a seat"),
])
def test_usage_errors_exit_2(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert expected in err


def test_unknown_scenario_exits_1_with_did_you_mean(capsys):
    code, _, err = run(capsys, "simulate", "--scenario", "woodstok-fever/1")
    assert code == 1
    assert "did you mean 'woodstock-fever/1'" in err


def test_bad_scenario_file_exits_1(capsys, tmp_path):
    bad = tmp_path / "mine.yaml"
    bad.write_text("title: no box\nfactions: [Hippies, Nobody]\n", encoding="utf-8")
    code, _, err = run(capsys, "simulate", "--scenario", str(bad))
    assert code == 1
    assert re.search(r"mine\.yaml:\d+:\d+: error\[", err)


def test_the_default_scenario_is_scenario_1_of_the_last_box():
    assert default_scenario(ENV.library) == "woodstock-fever/1"


# --- simulate --------------------------------------------------------------------

def test_simulate_prints_a_summary(capsys):
    code, out, _ = run(capsys, "simulate", "--games", "3", "--express")
    assert code == 0
    assert "woodstock-fever/1" in out and "Win rate" in out and "Nobody wins" in out


def test_simulate_same_seed_same_bytes_different_seed_different_games(capsys, tmp_path):
    paths = [tmp_path / f"{name}.json" for name in ("a", "b", "c")]
    for path, seed in zip(paths, ("1", "1", "2")):
        code, _, _ = run(capsys, "simulate", "--games", "6", "--seed", seed, "--json", str(path))
        assert code == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()
    a, c = (json.loads(p.read_text()) for p in (paths[0], paths[2]))
    assert [g["final_populations"] for g in a["games"]] != [g["final_populations"] for g in c["games"]]
    assert [g["seed"] for g in a["games"]] == [game_seed(1, i) for i in range(6)]


def test_simulate_json_shape_and_summary(capsys):
    code, out, _ = run(capsys, "simulate", "--scenario", "american-dream/2", "--players", "3", "--games", "12",
                       "--seed", "4", "--json", "-")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"games", "summary"}
    games = data["games"]
    assert len(games) == 12 and len({g["seed"] for g in games}) == 12
    for index, game in enumerate(games):
        assert set(game) == {"game", "seed", "rounds", "final_populations", "winners", "first_leader", "powers"}
        assert 0 <= game["first_leader"] < 3
        assert all(len(record["triggers"]) == 3 for record in game["powers"].values())
        assert game["game"] == index and 1 <= game["rounds"] <= 4
        pops = game["final_populations"]
        assert len(pops) == 3 and all(isinstance(p, int) and p >= 0 for p in pops)
        best = max(pops)
        expected = [s for s, p in enumerate(pops) if p == best] if best > 0 else []
        assert game["winners"] == expected
    summary = data["summary"]
    assert summary["games"] == 12 and summary["players"] == 3 and summary["scenario"] == "american-dream/2"
    wins = [sum(s in g["winners"] for g in games) for s in range(3)]
    assert summary["wins"] == wins
    assert summary["win_rate"] == [round(w / 12, 4) for w in wins]
    assert summary["no_winner"] == sum(not g["winners"] for g in games)
    assert summary["mean_final_population"] == [round(sum(g["final_populations"][s] for g in games) / 12, 4)
                                                for s in range(3)]
    assert summary["mean_rounds"] == round(sum(g["rounds"] for g in games) / 12, 4)


def test_simulate_api_matches_and_is_deterministic():
    a = simulate(None, players=2, games=3, seed=9, express=True, promos=True, random_powers=True)
    b = simulate("woodstock-fever/1", players=2, games=3, seed=9, express=True, promos=True, random_powers=True)
    assert json.dumps(a) == json.dumps(b)
    assert a["summary"]["options"] == {"players": 2, "express": True, "promos": True, "random_powers": True,
                                       "faction_change": True}
    assert all(g["rounds"] == 1 for g in a["games"])


def test_the_promo_switch_has_the_promo_cards_name(capsys, tmp_path):
    out = {}
    for flag in ("--promos", "--patient-zero"):
        code, _, _ = run(capsys, "simulate", flag, "--games", "2", "--log", str(tmp_path / "log.jsonl"))
        assert code == 0
        text = (tmp_path / "log.jsonl").read_text()
        assert "(Patient Zero)" in text  # a promo card was dealt
        out[flag] = text
    assert out["--promos"] == out["--patient-zero"]


def test_simulate_progress_and_log(tmp_path, capsys):
    seen = []
    log = tmp_path / "events.jsonl"
    result = simulate("woodstock-fever/3", players=4, games=3, seed=1, progress=lambda d, t: seen.append((d, t)),
                      log=log)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert {e["game"] for e in events} == {0, 1, 2}
    ends = [e for e in events if e["event"] == "game_over"]
    assert [e["populations"] for e in ends] == [g["final_populations"] for g in result["games"]]
    code, _, _ = run(capsys, "simulate", "--scenario", "woodstock-fever/3", "--games", "3", "--seed", "1",
                     "--log", str(tmp_path / "cli.jsonl"))
    assert code == 0 and (tmp_path / "cli.jsonl").read_text() == log.read_text()


def test_simulate_into_a_missing_folder_is_refused_before_playing(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "--json", str(tmp_path / "no" / "such.json"))
    assert code == 2 and "does not exist" in err


# --- scenarios -------------------------------------------------------------------

def test_scenarios_lists_all_18(capsys):
    code, out, _ = run(capsys, "scenarios")
    assert code == 0
    for box in ("woodstock-fever", "american-dream"):
        for n in range(1, 10):
            assert f"{box}/{n}" in out
    assert "Soldiers (+)" in out and "Bunker" in out
    code, out, _ = run(capsys, "scenarios", "--json")
    records = json.loads(out)
    assert len(records) == 18 + 3 + 6 + 2 + 3 + 2  # and the classic boxes' own: Hearts' 3, Oh Hell's 6, Spades' 2, Euchre's 3, Bridge's 2
    assert [r["id"] for r in records if r["id"].startswith("hearts/")] == ["hearts/1", "hearts/2", "hearts/3"]
    assert [r["id"] for r in records if r["id"].startswith("oh-hell/")] == [f"oh-hell/{n}" for n in (1, 3, 4, 5, 6, 7)]
    assert [r["id"] for r in records if r["id"].startswith("spades/")] == ["spades/1", "spades/2"]
    assert [r["id"] for r in records if r["id"].startswith("euchre/")] == ["euchre/1", "euchre/2", "euchre/3"]
    assert [r["id"] for r in records if r["id"].startswith("bridge/")] == ["bridge/1", "bridge/2"]
    wf2 = next(r for r in records if r["id"] == "woodstock-fever/2")
    assert {"faction": "Soldiers", "variant": "positive"} in wf2["factions"]


# --- check -----------------------------------------------------------------------

def test_check_broken_power_file(capsys, tmp_path):
    bad = tmp_path / "bad.power"
    bad.write_text("this is { not a power\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 1
    assert re.search(r"bad\.power:\d+:\d+: error\[\w+\]: ", out)
    assert re.search(r"^\s*\^+\s*$", out, re.MULTILINE)
    assert out.strip().splitlines()[-1] == "1 error, 0 warnings in 1 file"
    code, out, _ = run(capsys, "check", "--json", str(bad))
    records = json.loads(out)
    assert code == 1 and records[0]["line"] >= 1 and records[0]["code"] and "column" in records[0]


def test_check_bundled_files_are_clean(capsys):
    code, out, _ = run(capsys, "check", str(POWERS), str(BOXES))
    assert code == 0
    assert re.fullmatch(r"0 errors, \d+ warnings? in \d+ files\n", out.splitlines()[-1] + "\n")


def test_check_missing_file(capsys, tmp_path):
    code, out, _ = run(capsys, "check", str(tmp_path / "nothing.power"))
    assert code == 1 and "nothing.power:1:1: error[" in out


# --- play ------------------------------------------------------------------------

def final_part(out: str) -> str:
    assert "Game over" in out, out[-2000:]
    return out[out.index("Game over"):]


def test_play_a_whole_express_game_from_piped_input(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "--express", "--seed", "3", "--players", "3",
                       stdin="nonsense\n0\n99\n\nhelp\n" + "1\n" * 400, monkeypatch=monkeypatch)
    assert code == 0
    assert "'nonsense' is not an option" in out
    assert "There is no option 0" in out and "There is no option 99" in out
    assert "save PATH" in out  # the help
    # the first decision was asked five more times after the bad answers
    first_prompt = out.index("Choose a card to pass")
    assert out[first_prompt:].count("Your choice") > 5
    for heading in ("Round 1 of 1", "Factions in play:", "Encounter card:", "Your hand:", "Transfer zone",
                    "Expedition", "Trick won by"):
        assert heading in out
    ending = final_part(out)
    assert re.search(r"Community \d( \(you\))? wins\.|share the win\.|Nobody wins", ending)


def test_play_shows_the_trick_so_far(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "--express", "--seed", "1", "--seat", "2", stdin="1\n" * 400,
                       monkeypatch=monkeypatch)
    assert code == 0
    assert re.search(r"Trick: .* led on the [+-] side, .* - Community \d: ", out)


def test_play_end_of_input_and_quit(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "--express", stdin="1\n2\n", monkeypatch=monkeypatch)
    assert code == 0 and "Input ended" in out and "nothing was saved" in out
    code, out, _ = run(capsys, "play", "--express", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and "You left the game" in out


def test_play_save_and_resume_is_the_same_game(capsys, monkeypatch, tmp_path):
    argv = ["play", "--seed", "11", "--players", "4", "--seat", "1", "--express"]
    code, straight, _ = run(capsys, *argv, stdin="1\n" * 400, monkeypatch=monkeypatch)
    assert code == 0
    save = tmp_path / "game.json"
    code, out, _ = run(capsys, *argv, stdin="1\n" * 9 + f"save {save}\n", monkeypatch=monkeypatch)
    assert code == 0 and f"Saved to {save}" in out and "Input ended" in out
    data = json.loads(save.read_text())
    assert data["format"] == "happydayz-save/1" and data["seat"] == 1 and data["seed"] == 11
    code, resumed, _ = run(capsys, "play", "--resume", str(save), stdin="1\n" * 400, monkeypatch=monkeypatch)
    assert code == 0
    assert final_part(resumed) == final_part(straight)


def test_play_random_setup_draws_the_factions_from_the_seed_and_resumes_the_same_game(capsys, monkeypatch, tmp_path):
    assert main(["simulate", "--random-setup", "--games", "1", "--seed", "4", "--json", "-"]) == 0
    drawn = json.loads(capsys.readouterr().out)["summary"]["random_setup"]
    factions = ", ".join(f for f, _ in drawn["factions"]) + " (drawn at random" \
        + "".join(f", with {a}" for a in drawn["added"]) + ")"
    argv = ["play", "--random-setup", "--seed", "4", "--players", "3", "--express", "--bots", "greedy"]
    code, straight, _ = run(capsys, *argv, stdin="1\n" * 400, monkeypatch=monkeypatch)  # bots at the other seats
    assert code == 0 and f"Factions: {factions}." in straight
    save = tmp_path / "drawn.json"
    code, out, _ = run(capsys, *argv, stdin="1\n" * 5 + f"save {save}\n", monkeypatch=monkeypatch)
    assert code == 0 and f"Saved to {save}" in out
    assert json.loads(save.read_text())["random_setup"] is True
    code, resumed, _ = run(capsys, "play", "--resume", str(save), stdin="1\n" * 400, monkeypatch=monkeypatch)
    assert code == 0 and final_part(resumed) == final_part(straight)
    code, plain, _ = run(capsys, "play", *argv[2:], stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and "(drawn at random" not in plain


def test_play_resume_a_save_whose_random_setup_is_not_true_or_false(capsys, tmp_path):
    save = tmp_path / "odd.json"
    save.write_text('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 3, '
                    '"express": true, "promos": false, "random_powers": false}, "seed": 4, "answers": [],\n'
                    '"random_setup": "yes"}\n', encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", str(save))
    assert code == 1
    assert err.splitlines()[0] == f"{save}:2:1: error[L004]: random_setup: expected true or false"


def test_play_resume_a_corrupt_save_exits_1(capsys, tmp_path):
    save = tmp_path / "broken.json"
    save.write_text('{"format": "happydayz-save/1", "seed": ', encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", str(save))
    assert code == 1 and "broken.json:1:" in err and "not valid JSON" in err


# --- as a program ------------------------------------------------------------------

def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "happydayz", "simulate", "--games", "2", "--express", "--seed", "5",
                           "--json", "-"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["games"]) == 2
    bad = tmp_path / "bad.power"
    bad.write_text("this is { not a power\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "happydayz", "check", str(bad)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert re.search(r"bad\.power:\d+:\d+", done.stdout)


def test_interrupt_exits_130(capsys, monkeypatch):
    import happydayz.cli.lab

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(happydayz.cli.lab, "simulate", interrupted)
    code, _, err = run(capsys, "simulate")
    assert code == 130 and "interrupted" in err


def test_powers_option_finds_power_files_in_another_folder(tmp_path, capsys):
    """A scenario naming a power file that is not beside it: found with --powers DIR, by worker processes too."""
    library = tmp_path / "library"
    library.mkdir()
    (library / "lanterns.power").write_text(
        "power Lanterns {\n  for faction Lanterns\n\n  at end of round {\n    gain 1\n  }\n}\n", encoding="utf-8")
    scenario = tmp_path / "night.yaml"
    scenario.write_text("title: Night\nbox: woodstock-fever\nfactions: [Lanterns, Hippies, Dogs]\n"
                        "custom_factions:\n  - name: Lanterns\n    power: lanterns.power\n", encoding="utf-8")
    assert main(["check", str(scenario)]) == 1
    assert "power file 'lanterns.power' of 'Lanterns' not found" in capsys.readouterr().out
    assert main(["--powers", str(library), "simulate", "--scenario", str(scenario), "--games", "2",
                 "--quiet", "--json", str(tmp_path / "r.json")]) == 0
    assert len(json.loads((tmp_path / "r.json").read_text())["games"]) == 2
    assert main(["--powers", str(library), "simulate", "--scenario", str(scenario), "--games", "40", "--jobs", "2",
                 "--quiet", "--json", str(tmp_path / "p.json")]) == 0
    assert len(json.loads((tmp_path / "p.json").read_text())["games"]) == 40


def test_play_lists_the_cards_seen_going_into_each_expedition(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "--express", "--seed", "1", "--players", "3", stdin="1\n" * 400,
                       monkeypatch=monkeypatch)
    assert code == 0
    # the table after the first trick shows its cards in the "Known in it" column (before, every cell is "-")
    won = re.search(r"Trick won by Community \d[^:]*: .* - (.*)$", out, re.M)
    assert won
    table = out[won.end():out.index("Encounter card:", won.end())]
    header = next(line for line in table.splitlines() if "Known in it" in line)
    column = [cell.strip() for cell in header.split("┃")].index("Known in it")
    cells = [line.split("│")[column] for line in table.splitlines() if "│" in line]
    known = " ".join(" ".join(cells).split())
    for label in won.group(1).split(", "):
        assert label in known, (label, known)
