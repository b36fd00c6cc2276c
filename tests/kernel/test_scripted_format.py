"""The scripted-game format's assertions (docs/scripted-games.md), each shown to pass and to fail.

Every script here is the Woodstock Fever rulebook's example trick (docs/scripted-games.md):
seat 0 leads Hippies 9 on -, seat 1 plays Zombies 4, seat 2's Hippies 3 wins and the Hippies'
power makes seat 2 give the trick away.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from happydayz.base.errors import DataProblem
from happydayz.cli.app import main
from happydayz.kernel.scripted import replay

from conftest import ENV

BASE = {
    "factions": ["Hippies", "Soldiers", "Dogs"], "box": "woodstock-fever", "players": 3,
    "position": {"hands": {0: ["Hippies 9"], 1: ["Zombies 4"], 2: ["Hippies 3"]}, "reserve": ["Soldiers 3"]},
}
TRICK = ["0: Hippies 9 on -", "1: Zombies 4", "2: Hippies 3"]


def script(tmp_path: Path, name: str = "game.yaml", **keys) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({**BASE, **keys}, sort_keys=False), encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    return replay(path, ENV).mismatches


def test_a_check_of_the_options_offered_passes_and_fails(tmp_path):
    offered = {"check": {"decider": 2, "kind": "choose", "options": ["Community 0", "Community 1"]}}
    assert problems(script(tmp_path, answers=[*TRICK, offered, "2: Community 0"])) == []
    wrong = {"check": {"options": ["Community 0", "Community 1", "Community 2"]}}
    [line] = problems(script(tmp_path, answers=[*TRICK, wrong, "2: Community 0"]))
    assert line == ("answers[3]: the options should be ['Community 0', 'Community 1', 'Community 2'], but they are "
                    "['Community 0', 'Community 1']")


def test_includes_and_excludes(tmp_path):
    good = {"check": {"includes": ["Community 1"], "excludes": ["Community 2"]}}
    assert problems(script(tmp_path, answers=[*TRICK, good, "2: Community 0"])) == []
    bad = {"check": {"includes": ["Community 2"], "excludes": ["Community 0"]}}
    assert problems(script(tmp_path, answers=[*TRICK, bad, "2: Community 0"])) == [
        "answers[3]: ['Community 2'] should be offered; the options are ['Community 0', 'Community 1']",
        "answers[3]: ['Community 0'] should not be offered, but they are",
    ]


def test_a_refused_answer_with_its_message(tmp_path):
    refused = {"refused": {"answer": "Community 2", "message": "illegal answer"}}
    assert problems(script(tmp_path, answers=[*TRICK, refused, "2: Community 0"])) == []
    wrong_message = {"refused": {"answer": "Community 2", "message": "not your turn"}}
    [line] = problems(script(tmp_path, answers=[*TRICK, wrong_message, "2: Community 0"]))
    assert line.startswith("answers[3]: 'Community 2' is refused, but with 'illegal answer 'Community 2'")
    accepted = {"refused": {"answer": "Community 1"}}
    [line] = problems(script(tmp_path, answers=[*TRICK, accepted, "2: Community 0"]))
    assert line == "answers[3]: the answer 'Community 1' should be refused, but it is option 2 of " \
                   "'Hippies: choose another Community to take the cards of this trick'"


def test_no_decision_between_two_points_is_a_check_of_the_next_one(tmp_path):
    # After the give-away the round ends: no decision at all, the game is over.
    assert problems(script(tmp_path, answers=[*TRICK, "2: Community 0"], end="over")) == []
    [line] = problems(script(tmp_path, answers=[*TRICK, "2: Community 0", {"check": {"kind": "lead"}}]))
    assert line == "answers[4]: a decision was expected, but the game is over"


def test_a_script_whose_answers_run_out_fails_unless_it_says_it_stops_there(tmp_path):
    [line] = problems(script(tmp_path, answers=TRICK))
    assert line.startswith("end: the answers ran out but the game is not over: Community 2 still has to decide")
    assert problems(script(tmp_path, answers=TRICK, end="waiting")) == []
    assert problems(script(tmp_path, answers=TRICK, end={"waiting": {"decider": 2, "kind": "choose"}})) == []
    [line] = problems(script(tmp_path, answers=TRICK, end={"waiting": {"decider": 1}}))
    assert line == "end.waiting: Community 1 should decide, but Community 2 does " \
                   "('Hippies: choose another Community to take the cards of this trick')"
    [line] = problems(script(tmp_path, answers=[*TRICK, "2: Community 0"], end="waiting"))
    assert line == "end: the script says the game is still waiting for a decision, but it is over"


def test_expected_rounds_are_keyed_by_round_number(tmp_path):
    position = {**BASE["position"], "round": 3}
    expect = {"rounds": {3: {"deltas": [-1, 0, 1]}}}
    assert problems(script(tmp_path, position=position, answers=[*TRICK, "2: Community 0"], expect=expect)) == []
    expect = {"rounds": {1: {"deltas": [-1, 0, 1]}}}
    [line] = problems(script(tmp_path, position=position, answers=[*TRICK, "2: Community 0"], expect=expect))
    assert line == "round 1: expected, but it was not counted (rounds counted: 3)"


def test_a_deal_of_the_wrong_size_is_an_error_unless_it_says_it_is_short(tmp_path):
    rounds = [{"hands": {0: ["Hippies 9"], 1: ["Zombies 4"], 2: ["Hippies 3"]}}]
    path = script(tmp_path, rounds=rounds, answers=[])
    data = yaml.safe_load(path.read_text())
    del data["position"]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(DataProblem) as caught:
        replay(path, ENV)
    assert caught.value.diagnostics[0].code == "D045"
    assert caught.value.diagnostics[0].message == (
        "rounds[0]: round 1's deal gives Community 0 1 card, but 3 Communities are dealt 14 each: deal 14, "
        "or add 'short: true' to the round if a short hand-made deal is meant")
    data["rounds"][0]["short"] = True
    data["end"] = "waiting"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert replay(path, ENV).mismatches == []


def test_a_position_can_be_followed_by_the_deal_of_the_next_round(tmp_path):
    position = {**BASE["position"], "populations": [60, 60, 60]}
    deal = [{"short": True, "hands": {0: ["Dogs 1"], 1: ["Dogs 2"], 2: ["Dogs 3"]}, "reserve": ["Soldiers 4"]}]
    path = script(tmp_path, position=position, express=False, faction_change=False, rounds=deal,
                  answers=[*TRICK, "2: Community 0", "0: Dogs 1"], end={"waiting": {"decider": 1, "kind": "transfer"}})
    result = replay(path, ENV)
    assert result.mismatches == []
    assert [r["round"] for r in result.output["rounds"]] == [1]
    assert result.output["zones"]["hand"] == {"0": ["Dogs 1"], "1": ["Dogs 2"], "2": ["Dogs 3"]}
    assert result.output["zones"]["reserve"] == ["Soldiers 4"]


def test_happydayz_test_runs_a_folder_reports_and_fails_on_one_failing_game(tmp_path, capsys):
    good = script(tmp_path, "good.yaml", answers=[*TRICK, "2: Community 0"])
    assert good.exists()
    script(tmp_path, "bad.yaml", answers=[*TRICK, "2: Community 0"], expect={"winners": [9]})
    (tmp_path / "not_a_game.yaml").write_text("title: just data\n", encoding="utf-8")
    junit = tmp_path / "junit.xml"
    code = main(["test", str(tmp_path), "--junit", str(junit), "--json", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert code == 1
    assert f"FAIL  {tmp_path / 'bad.yaml'}" in out and f"PASS  {tmp_path / 'good.yaml'}" in out
    assert "      winners: expected [9], got [2]" in out
    assert out.rstrip().splitlines()[-1].startswith("2 scripted games: 1 passed, 1 failed in ")
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert [c.get("name") for c in suite.iter("testcase")] == ["bad.yaml", "good.yaml"]
    data = json.loads((tmp_path / "r.json").read_text())
    assert [g["passed"] for g in data["games"]] == [False, True] and data["failed"] == 1


def test_happydayz_test_reports_an_illegal_answer_as_an_error(tmp_path, capsys):
    script(tmp_path, answers=["0: Hippies 3 on -"])
    assert main(["test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "error[D043]: answers[0]: illegal answer '0: Hippies 3 on -'" in out


def test_happydayz_test_with_nothing_to_run_fails(tmp_path, capsys):
    assert main(["test", str(tmp_path)]) == 1
    assert "no scripted game found under" in capsys.readouterr().err


def test_zone_listings_read_card_values_as_numbers(tmp_path):
    position = {**BASE["position"], "expeditions": {1: ["Zombies 12", "Zombies 5", "Hippies 10", "Hippies 2"]}}
    result = replay(script(tmp_path, position=position, answers=[*TRICK, "2: Community 0"]), ENV)
    assert result.output["rounds"][0]["expeditions"]["1"] == ["Hippies 2", "Hippies 10", "Zombies 5", "Zombies 12"]


def test_a_position_counted_at_once_is_followed_by_the_deal_given_for_the_next_round(tmp_path):
    # The position holds no card, so its round is counted as soon as it is set; round 2 is the deal given.
    deal = [{"short": True, "hands": {0: ["Hippies 8"], 1: ["Soldiers 6"], 2: ["Dogs 1"]},
             "transfers": {0: ["Hippies 8"], 1: ["Soldiers 6"], 2: ["Dogs 1"]}}]
    path = script(tmp_path, position={"hands": {}, "expeditions": {1: ["Zombies 1"]}}, express=False,
                  faction_change=False, rounds=deal, answers=[{"check": {"kind": "lead"}}], end="waiting")
    result = replay(path, ENV)
    assert result.mismatches == []
    assert [r["deltas"] for r in result.output["rounds"]] == [[0, -3, 0]]
    assert result.output["zones"]["transfer"] == {"0": ["Dogs 1"], "1": ["Hippies 8"], "2": ["Soldiers 6"]}


def test_the_checks_and_the_rounds_counted_before_an_illegal_answer_are_reported_with_it(tmp_path):
    """A failing check and a wrong round-1 expectation are not hidden by a round-2 answer that is illegal."""
    from conftest import ROOT
    from happydayz.kernel.scripted import StoppedScript

    data = yaml.safe_load((ROOT / "tests" / "games" / "rule_campaign_two_rounds.yaml").read_text(encoding="utf-8"))
    answers = data["answers"]
    answers.insert(0, {"check": {"decider": 0}})  # seat 1 leads the first trick
    answers[answers.index("1: Zombies 19")] = "1: Nurses 2"  # seat 1 holds no Nurses 2
    data["expect"]["rounds"][0]["populations"] = [64, 70]
    data["expect"]["rounds"][1]["populations"] = [1, 2]  # not counted when the game stops: not compared
    path = tmp_path / "stopped.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(StoppedScript) as info:
        replay(path, ENV)
    first, second, stop = info.value.diagnostics
    assert (first.code, first.message) == ("D044", "answers[0]: Community 0 should decide, but Community 1 does "
                                                   "('Lead a card: choose it and the side of the board')")
    assert (second.code, second.message) == ("D044", "expect: round 1 populations: expected [64, 70], got [64, 69]")
    assert stop.code == "D043" and stop.message.startswith("answers[8]: illegal answer '1: Nurses 2'")
    assert first.span.line < stop.span.line
