"""A game's JSON Lines event log replays the game exactly."""

import json

import pytest

from happydayz.cli.app import main
from happydayz.base.errors import GameRuleError
from happydayz.kernel.replaylog import read_log, replay_events, verify

from conftest import ENV


@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "games.jsonl"
    code = main(["simulate", "--scenario", "american-dream/1", "--players", "3", "--games", "3", "--seed", "11",
                 "--random-powers", "--log", str(path), "--json", str(path.with_suffix(".json"))])
    assert code == 0
    return path


@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_logged_game_replays_event_for_event(log_file, index):
    game, differences = verify(log_file, index)
    assert differences == []
    results = json.loads(log_file.with_suffix(".json").read_text())["games"]
    assert game.result()["final_populations"] == results[index]["final_populations"]
    assert game.result()["winners"] == results[index]["winners"]


def test_a_tampered_answer_is_refused(log_file):
    events = read_log(log_file, 0)
    first = next(i for i, e in enumerate(events) if e["event"] == "decision" and e["decision"] == "lead")
    events[first] = {**events[first], "answer": "no such card on +"}
    with pytest.raises(GameRuleError) as caught:
        replay_events(events, ENV)
    assert "does not fit the decision" in str(caught.value)


def test_replay_log_command(log_file, capsys):
    assert main(["replay-log", str(log_file), "--game", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] is True and out["events"] > 100


def test_a_log_that_is_not_json_lines_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "game_start"\n')
    assert main(["replay-log", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.jsonl:1:" in err and "not JSON" in err and "Traceback" not in err


# --- a dummy's decisions: logged with the partner that answered them, replayed against it ----------------

@pytest.fixture(scope="module")
def dummy_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "dummy.jsonl"
    code = main(["simulate", "--scenario", "bridge/1", "--players", "4", "--games", "1", "--seed", "5",
                 "--express", "--log", str(path)])
    assert code == 0
    return path


def test_a_dummys_decisions_are_logged_with_their_decider_and_replay(dummy_log):
    events = read_log(dummy_log, 0)
    plays = [e for e in events if e["event"] == "decision" and e["decision"] in ("lead", "follow")]
    dummy = next(e for e in events if e["event"] == "dummy")
    by_partner = [e for e in plays if "decider" in e]
    # every card of the dummy's after the opening lead: its 13 (or 12, if it made the opening lead: it never does)
    assert len(by_partner) == 13
    assert all(e["actor"] == dummy["seat"] and e["decider"] == dummy["controller"] for e in by_partner)
    assert all("decider" not in e for e in plays if e["actor"] != dummy["seat"])
    game, differences = verify(dummy_log, 0)
    assert differences == [] and game.over


def test_a_dummys_decision_logged_for_the_wrong_decider_is_refused(dummy_log):
    events = read_log(dummy_log, 0)
    first = next(i for i, e in enumerate(events) if e["event"] == "decision" and "decider" in e)
    actor = events[first]["actor"]
    events[first] = {k: v for k, v in events[first].items() if k != "decider"}  # as if the dummy had answered
    with pytest.raises(GameRuleError) as caught:
        replay_events(events, ENV)
    assert f"by Community {actor} does not fit the decision" in str(caught.value)
    assert f"asked of Community {(actor + 2) % 4}" in str(caught.value)
