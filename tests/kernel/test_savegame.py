"""Save files, event logs and agents: a saved game resumes exactly; bad files are reported, never crash."""

from __future__ import annotations

import json
from collections.abc import Mapping
import random

import pytest

from happydayz.players.agents import RandomAgent, ScriptedAgent, play_game
from happydayz.players.registry import BOTS, bot_seed, make_bots, parse_bots
from happydayz.cli.app import main
from happydayz.base.errors import GameRuleError, HappyError, UsageError
from happydayz.kernel.game import Game
from happydayz.cli.play import resume_game, start_game
from happydayz.kernel.savegame import (
    FORMAT, SaveProblem, checksum, load_game, read_save, save_game, write_log_jsonl,
)

from conftest import prepare


def new_game(scenario="woodstock-fever/1", players=4, seed=0, **options) -> Game:
    setup, _ = prepare(scenario, players, **options)
    return Game(setup, seed)


def random_answers(game: Game, rng: random.Random) -> list[int]:
    """Play `game` to the end with random answers; the answers given."""
    while game.decision is not None:
        game.apply(rng.randrange(len(game.decision.options)))
    return list(game.answers)


CASES = [
    ("woodstock-fever/1", 4, {}),
    ("woodstock-fever/6", 5, {"promos": True}),
    ("american-dream/6", 3, {"random_powers": True}),
    ("american-dream/9", 2, {"express": True, "promos": True, "random_powers": True}),
]


@pytest.mark.parametrize("scenario, players, options", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_save_anywhere_and_resume_is_the_same_game(tmp_path, scenario, players, options, seed):
    straight = new_game(scenario, players, seed, **options)
    answers = random_answers(straight, random.Random(seed))
    cut = random.Random(f"cut/{seed}").randrange(1, len(answers))

    partial = new_game(scenario, players, seed, **options)
    for answer in answers[:cut]:
        partial.apply(answer)
    path = tmp_path / "save.json"
    save_game(path, partial, scenario)

    resumed, meta = load_game(path)
    assert meta["answers"] == answers[:cut]
    assert resumed.log == partial.log and resumed.decision == partial.decision
    for answer in answers[cut:]:
        resumed.apply(answer)
    assert resumed.over
    assert resumed.result() == straight.result()
    assert resumed.log == straight.log
    assert resumed.history == straight.history


def test_save_file_format(tmp_path):
    game = new_game(seed=5, express=True, promos=True)
    game.apply(0)
    game.apply(1)
    path = tmp_path / "s.json"
    record = save_game(path, game, "woodstock-fever/1", seat=2)
    data = json.loads(path.read_text())
    assert data == record
    assert data == {
        "format": FORMAT,
        "scenario": "woodstock-fever/1",
        "options": {"players": 4, "express": True, "promos": True, "random_powers": False, "faction_change": True},
        "seed": 5,
        "answers": [0, 1],
        "seat": 2,
        "checksum": checksum(data),
    }
    assert data["checksum"].startswith("sha256:") and len(data["checksum"]) == 7 + 64
    assert FORMAT == "happydayz-save/1"
    assert read_save(path) == data


def test_a_scenario_file_is_saved_by_absolute_path(tmp_path, monkeypatch):
    scenario = tmp_path / "mine.yaml"
    scenario.write_text("title: Mine\nbox: woodstock-fever\nfactions: [Hippies, Dogs, Bikers]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    game = new_game("mine.yaml", 3, seed=4, express=True)
    game.apply(0)
    save_game(tmp_path / "s.json", game, "mine.yaml")
    assert json.loads((tmp_path / "s.json").read_text())["scenario"] == str(scenario.resolve())
    monkeypatch.chdir("/")
    resumed, _ = load_game(tmp_path / "s.json")
    assert resumed.answers == game.answers and resumed.decision == game.decision
    assert resumed.log[1:] == game.log[1:]  # the first event names the scenario as it was given


def test_resume_brings_the_bots_back_too(tmp_path):
    """A person's game (scripted) saved mid-way and resumed ends as the uninterrupted one."""
    seat, seed = 2, 8
    person = random.Random(99)

    straight, bots, ref = start_game("american-dream/1", 4, seat, seed, express=True)
    script = []
    while (d := straight.decision) is not None:
        if d.actor == seat:
            choice = person.randrange(len(d.options))
            script.append(choice)
        else:
            choice = bots[d.actor].decide(straight.observe(d.actor), d)
        straight.apply(choice)

    cut = len(script) // 2
    game, bots, ref = start_game("american-dream/1", 4, seat, seed, express=True)
    given = 0
    while given < cut or game.decision.actor != seat:
        d = game.decision
        if d.actor == seat:
            game.apply(script[given])
            given += 1
        else:
            game.apply(bots[d.actor].decide(game.observe(d.actor), d))
    save_game(tmp_path / "s.json", game, ref, seat=seat)

    resumed, bots, ref, resumed_seat = resume_game(tmp_path / "s.json")
    assert resumed_seat == seat and ref == "american-dream/1"
    agents = list(bots)
    agents[seat] = ScriptedAgent(script[cut:])
    play_game(resumed, agents)
    assert resumed.result() == straight.result()
    assert resumed.log == straight.log


CORRUPT = [
    ("", "L002", "not valid JSON"),
    ("{not json", "L002", "not valid JSON"),
    ("[1, 2]", "L003", "a save file holds a JSON object"),
    ('{"format": "something-else/9"}', "L003", "not a save file of this version"),
    ('{"format": "happydayz-save/1"}', "L004", "missing key 'scenario'"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {}, "seed": 1, "answers": []}',
     "L004", "options: missing 'players'"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 9, "express": false,'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": []}', "L004", "options.players"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 4, "express": "no",'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": []}', "L004", "options.express"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 4, "express": false,'
     ' "promos": false, "random_powers": false}, "seed": "x", "answers": []}', "L004", "seed: expected"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 4, "express": false,'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": [0, -1]}', "L004", "answers: expected"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 4, "express": true,'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": [0, 500]}', "L005", "answer #2 does not"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/1", "options": {"players": 4, "express": true,'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": [' + ", ".join(["0"] * 2000) + "]}",
     "L005", "the game is over"),
    ('{"format": "happydayz-save/1", "scenario": "woodstock-fever/99", "options": {"players": 4, "express": true,'
     ' "promos": false, "random_powers": false}, "seed": 1, "answers": []}', "D031", "unknown scenario"),
    ("[" * 100000, "L002", "nested too deeply"),
]


@pytest.mark.parametrize("text, code, message", CORRUPT)
def test_corrupt_save_files_are_reported(tmp_path, capsys, text, code, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(HappyError) as info:
        load_game(path)
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.code == code and message in diagnostic.message
    assert main(["play", "--resume", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and message in err


def test_missing_and_binary_save_files(tmp_path, capsys):
    with pytest.raises(SaveProblem, match="no such save file"):
        load_game(tmp_path / "nothing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(SaveProblem, match="not UTF-8"):
        load_game(binary)
    with pytest.raises(SaveProblem, match="folder"):
        load_game(tmp_path)
    assert main(["play", "--resume", str(tmp_path / "nothing.json")]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_the_error_points_at_the_key_at_fault(tmp_path):
    game = new_game(seed=3, express=True)
    game.apply(0)
    path = tmp_path / "s.json"
    save_game(path, game, "woodstock-fever/1")
    path.write_text(path.read_text().replace('"seed": 3', '"seed": "three"'))
    with pytest.raises(SaveProblem) as info:
        load_game(path)
    span = info.value.diagnostics[0].span
    assert path.read_text().splitlines()[span.line - 1].strip().startswith('"seed"')
    assert "^" in info.value.render()


def test_saving_where_it_cannot_be_written(tmp_path):
    game = new_game(seed=1)
    with pytest.raises(SaveProblem, match="cannot write"):
        save_game(tmp_path / "no" / "such" / "dir.json", game, "woodstock-fever/1")


def test_event_log_as_json_lines(tmp_path):
    game = new_game(seed=2, express=True)
    play_game(game, make_bots(["random"] * 4, 2))
    path = tmp_path / "log.jsonl"
    write_log_jsonl(path, game)
    lines = path.read_text().splitlines()
    assert [json.loads(line) for line in lines] == game.log
    write_log_jsonl(path, game, game_index=7)
    assert all(json.loads(line)["game"] == 7 for line in path.read_text().splitlines())


# --- agents ------------------------------------------------------------------

def test_agents_see_the_observation_of_their_seat_never_the_game():
    seen = []

    class Spy:
        def __init__(self, seat):
            self.seat = seat

        def decide(self, observation, decision):
            assert isinstance(observation, Mapping) and not isinstance(observation, Game)
            assert observation["seat"] == decision.actor == self.seat
            seen.append(decision.kind)
            return 0

    game = new_game(seed=1, players=3, express=True)
    result = play_game(game, [Spy(s) for s in range(3)])
    assert result == game.result() and game.over
    assert {"transfer", "lead", "follow"} <= set(seen)


def test_random_agent_is_seeded():
    def run(seed):
        game = new_game(seed=4, express=True)
        play_game(game, [RandomAgent(seed + s) for s in range(4)])
        return game.answers

    assert run(1) == run(1)
    assert run(1) != run(2)
    assert bot_seed(4, 0) != bot_seed(4, 1) and bot_seed(4, 0) == bot_seed(4, 0)


def test_scripted_agent_by_label_and_index():
    game = new_game(seed=6, express=True)
    first = game.decision
    label = first.options[3].label
    agent = ScriptedAgent([label.upper(), 0])
    assert agent.decide(game.observe(first.actor), first) == first.index_of_label(label)
    assert agent.decide(game.observe(first.actor), first) == 0
    with pytest.raises(GameRuleError, match="no scripted answer left"):
        agent.decide({}, first)
    with pytest.raises(GameRuleError) as info:
        ScriptedAgent(["Not A Card 99"]).decide({}, first)
    message = info.value.diagnostics[0].message
    assert "'Not A Card 99'" in message and first.prompt in message and repr(first.options[0].label) in message
    with pytest.raises(GameRuleError, match="out of range"):
        ScriptedAgent([len(first.options)]).decide({}, first)


def test_bot_registry_and_names():
    assert "random" in BOTS
    assert parse_bots(None, 3) == ["random"] * 3
    assert parse_bots("random", 2) == ["random", "random"]
    assert parse_bots(" random, random ,random", 3) == ["random"] * 3
    with pytest.raises(UsageError, match="did you mean 'random'"):
        parse_bots("Randon,random", 2)
    with pytest.raises(UsageError, match="3 bots for 2 players"):
        parse_bots("random,random,random", 2)
