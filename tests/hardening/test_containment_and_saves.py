"""Files from other people stay inside their folder; saves are written atomically and carry a checksum.

Each reference out of a folder (absolute, '..', a link) points at a file holding SECRET: the test asserts
the refusal, its one error line, and that no output holds SECRET, so nothing of the target was read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hardening.support import assert_one_error, run_main

from happydayz.base.errors import Diagnostic, Span
from happydayz.base.files import write_atomic
from happydayz.data.environment import Environment
from happydayz.kernel.savegame import SaveProblem, checksum, load_game, read_save, save_game
from happydayz.report.results import load_results
from happydayz.simulation.simulate import simulate
from happydayz.kernel.game import Game
from conftest import prepare


def new_game(scenario="woodstock-fever/1", players=4, seed=0, **options) -> Game:
    setup, _ = prepare(scenario, players, **options)
    return Game(setup, seed)


SECRET = "SECRET-CONTENT-7731"


@pytest.fixture
def place(tmp_path):
    """tmp/mod (the user's folder, with a scenario) and tmp/other (someone else's, with secrets)."""
    mod, other = tmp_path / "mod", tmp_path / "other"
    mod.mkdir()
    other.mkdir()
    (other / "secret.power").write_text(f"{SECRET} power Outsiders {{ for faction Outsiders }}\n", encoding="utf-8")
    (other / "s.yaml").write_text(f"title: {SECRET}\nbox: woodstock-fever\nfactions: [Hippies, Dogs, Bikers]\n"
                                  f"{SECRET}: [\n", encoding="utf-8")
    return mod, other


def scenario_naming(mod: Path, power: str) -> Path:
    path = mod / "s.yaml"
    path.write_text("title: reaching out\nbox: woodstock-fever\nfactions: [Hippies, Soldiers, Outsiders]\n"
                    f"custom_factions:\n  - {{name: Outsiders, power: {json.dumps(power)}}}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["absolute", "dot-dot", "link", "link to a folder", "--powers link"])
def test_a_scenario_power_file_outside_its_folder_is_refused_and_not_read(place, how):
    mod, other = place
    secret = other / "secret.power"
    extra: list[str] = []
    if how == "absolute":
        reference = str(secret)
    elif how == "dot-dot":
        reference = "../other/secret.power"
    elif how == "link":
        (mod / "x.power").symlink_to(secret)
        reference = "x.power"
    elif how == "link to a folder":
        (mod / "sub").symlink_to(other)
        reference = "sub/secret.power"
    else:
        powers = mod.parent / "powers"
        powers.mkdir()
        (powers / "x.power").symlink_to(secret)
        extra, reference = ["--powers", str(powers)], "x.power"
    path = scenario_naming(mod, reference)
    for argv in (["simulate", "--scenario", str(path), "--games", "1"], ["check", str(path)]):
        code, output = run_main(*extra, *argv)
        line = assert_one_error(code, output)
        assert "error[D025]" in line and SECRET not in output, output
        assert ("outside" in line or "no absolute path, no '..'" in line), line


def test_a_power_file_below_the_scenario_folder_is_found(place):
    mod, _ = place
    (mod / "powers").mkdir()
    bundled = Path(__file__).resolve().parents[2] / "powers"
    source = next(p for p in sorted(bundled.glob("*.power")) if "for faction" in p.read_text(encoding="utf-8"))
    text = source.read_text(encoding="utf-8")
    faction = text.split("for faction", 1)[1].split()[0]
    (mod / "powers" / "mine.power").write_text(text.replace(f"for faction {faction}", "for faction Outsiders")
                                               .replace(f"{faction}", "Outsiders"), encoding="utf-8")
    path = scenario_naming(mod, "powers/mine.power")
    code, output = run_main("check", str(path))
    assert "error[D025]" not in output, output


def test_a_save_naming_a_scenario_outside_its_folder_is_refused(place):
    mod, other = place
    for reference in (str(other / "s.yaml"), "../other/s.yaml"):
        save = mod / "game.json"
        save.write_text(json.dumps({"format": "happydayz-save/1", "scenario": reference,
                                    "options": {"players": 3, "express": True, "promos": False,
                                                "random_powers": False}, "seed": 1, "answers": []}), encoding="utf-8")
        code, output = run_main("play", "--resume", str(save))
        line = assert_one_error(code, output)
        assert "error[L004]: scenario: the scenario file named is outside the save file's folder" in line
        assert SECRET not in output


def test_a_save_beside_its_scenario_resumes(tmp_path):
    scenario = tmp_path / "mine.yaml"
    scenario.write_text("title: Mine\nbox: woodstock-fever\nfactions: [Hippies, Dogs, Bikers]\n", encoding="utf-8")
    game = new_game(str(scenario), 3, seed=4, express=True)
    game.apply(0)
    save_game(tmp_path / "sub.json", game, str(scenario))
    resumed, data = load_game(tmp_path / "sub.json")
    assert resumed.answers == game.answers and data["scenario"] == str(scenario.resolve())


def test_a_sweep_naming_a_scenario_outside_its_folder_is_refused(place):
    mod, other = place
    spec = mod / "spec.yaml"
    for reference in (str(other / "s.yaml"), "../other/s.yaml"):
        spec.write_text(f"scenarios: [{json.dumps(reference)}]\ngames: 1\n", encoding="utf-8")
        code, output = run_main("sweep", str(spec), "--out", str(mod / "out.jsonl"))
        line = assert_one_error(code, output)
        assert "error[D031]" in line and "is outside the specification's folder" in line
        assert SECRET not in output and not (mod / "out.jsonl").exists()


def test_a_results_file_naming_a_scenario_outside_its_folder_reads_nothing(place, monkeypatch):
    mod, other = place
    result = simulate("woodstock-fever/1", 3, games=3, seed=1, express=True)
    for game in result["games"]:
        game.pop("factions", None)
    asked = []
    real = Environment.resolve_scenario
    monkeypatch.setattr(Environment, "resolve_scenario", lambda self, ref: asked.append(str(ref)) or real(self, ref))
    for reference in (str(other / "s.yaml"), "../other/s.yaml"):
        result["summary"]["scenario"] = reference
        path = mod / "results.json"
        path.write_text(json.dumps(result), encoding="utf-8")
        results = load_results(path)
        assert len(results.games) == 3 and any("could not be found" in note for note in results.notes)
    assert not any("other" in ref for ref in asked), asked


def test_a_log_naming_a_scenario_outside_its_folder_replays_without_reading_it(place, monkeypatch):
    mod, other = place
    log = mod / "game.jsonl"
    simulate("woodstock-fever/1", 3, games=1, seed=2, express=True, log=str(log))
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    events[0]["scenario"] = "../other/s.yaml"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    asked = []
    real = Environment.resolve_scenario
    monkeypatch.setattr(Environment, "resolve_scenario", lambda self, ref: asked.append(str(ref)) or real(self, ref))
    code, output = run_main("replay-log", str(log))
    assert code == 0 and SECRET not in output and "Traceback" not in output, output
    assert not any("other" in ref for ref in asked), asked


# ------------------------------------------------------------------ writing saves

@pytest.mark.parametrize("what", ["a folder", "a pipe", "a link", "a device"])
def test_a_save_never_replaces_what_is_not_a_regular_file(tmp_path, what):
    game = new_game(seed=1, express=True)
    target = tmp_path / "target"
    if what == "a folder":
        target.mkdir()
    elif what == "a pipe":
        os.mkfifo(target)
    elif what == "a link":
        (tmp_path / "real.json").write_text("keep me", encoding="utf-8")
        target.symlink_to(tmp_path / "real.json")
    else:
        target = Path("/dev/null")
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(SaveProblem) as info:
        save_game(target, game, "woodstock-fever/1")
    assert info.value.diagnostics[0].code == "L006" and "never replaced" in info.value.diagnostics[0].message
    assert sorted(os.listdir(tmp_path)) == before  # no temporary file left
    if what == "a link":
        assert (tmp_path / "real.json").read_text(encoding="utf-8") == "keep me"


def test_a_save_replaces_a_regular_file_atomically(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("an older save", encoding="utf-8")
    game = new_game(seed=1, express=True)
    game.apply(0)
    record = save_game(target, game, "woodstock-fever/1")
    assert json.loads(target.read_text(encoding="utf-8")) == record
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def test_write_atomic_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "f.txt"
    target.write_text("old", encoding="utf-8")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(Exception):
        write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old" and sorted(os.listdir(tmp_path)) == ["f.txt"]


# ------------------------------------------------------------------ the checksum

def _saved(tmp_path) -> Path:
    game = new_game(seed=3, express=True)
    for _ in range(5):
        game.apply(0)
    path = tmp_path / "game.json"
    save_game(path, game, "woodstock-fever/1")
    return path


def test_a_saved_game_carries_a_checksum_of_its_content(tmp_path):
    path = _saved(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data)[-1] == "checksum" and data["checksum"] == checksum(data)
    assert read_save(path)["answers"] == [0] * 5


@pytest.mark.parametrize("edit", ["an option", "the seed", "an answer", "the checksum"])
def test_an_edited_save_is_reported_as_edited(tmp_path, edit):
    path = _saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    edited = {"an option": text.replace('"express": true', '"express": false'),
              "the seed": text.replace('"seed": 3', '"seed": 4'),
              "an answer": text.replace('"answers": [0, 0, 0, 0, 0]', '"answers": [0, 0, 0, 0, 1]'),
              "the checksum": text.replace('"sha256:', '"sha256:0')}[edit]
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    code, output = run_main("play", "--resume", str(path))
    line = assert_one_error(code, output)
    assert line.endswith("error[L004]: this save file was edited since it was written: its checksum does not "
                         "match its content, so it is not resumed")


def test_a_save_without_a_checksum_is_read_as_written_by_hand(tmp_path):
    path = _saved(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["checksum"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert read_save(path)["answers"] == [0] * 5


# ------------------------------------------------------------------ an error reads only the line it shows

def test_a_diagnostic_reads_only_up_to_the_part_of_the_line_it_shows(tmp_path):
    path = tmp_path / "f.power"
    path.write_bytes(b"power X { }\n" + b"\xff" * 1000)  # bytes that are not UTF-8, after the line shown
    rendered = Diagnostic(Span(str(path), 1, 7, 1, 8), "a problem", "S001").render()
    assert rendered.splitlines()[1:] == ["    power X { }", "          ^"]
    device = Diagnostic(Span("/dev/zero", 1, 1), "a problem", "S001").render()
    assert device == "/dev/zero:1:1: error[S001]: a problem"
