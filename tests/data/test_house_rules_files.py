"""A scenario's house rules, box file and added powers: how they load, and the exact words of every mistake.

The games they make are played out in tests/kernel/test_house_rules_played.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from happydayz.base.errors import DataProblem
from happydayz.cli.app import main
from happydayz.data.boxes import check_data_file, load_box, load_library, load_scenario_file
from happydayz.data.model import HouseRules

from conftest import ROOT

FACTIONS = "box: woodstock-fever\nfactions: [Hippies, Soldiers, Dogs]\n"


@pytest.fixture(scope="module")
def library():
    return load_library()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path, library) -> list[str]:
    with pytest.raises(DataProblem) as caught:
        load_scenario_file(path, library)
    return [f"{d.span}: error[{d.code}]: {d.message}" for d in caught.value.diagnostics]


# --- what loads ---------------------------------------------------------------

def test_every_key_loads(tmp_path, library):
    path = write(tmp_path, "s.yaml", FACTIONS + (
        "players: 4\n"
        "house_rules:\n"
        "  hand_size: 9\n"
        "  transfer: {cards: 3, direction: across, rounds: [3, 1]}\n"
        "  encounter: false\n"
        "  sides: [\"-\", \"+\"]\n"
        "  rounds: 3\n"
        "  starting_population: 30\n"
        "  elimination: false\n"))
    scenario, _ = load_scenario_file(path, library)
    assert scenario.house_rules == HouseRules(
        hand_size=9, transfer_cards=3, transfer_direction="across", transfer_rounds=(1, 3), encounter=False,
        sides=("+", "-"), rounds=3, starting_population=30, elimination=False)
    assert scenario.house_rules.changed


def test_no_house_rules_keep_the_box_rules(tmp_path, library):
    scenario, _ = load_scenario_file(write(tmp_path, "s.yaml", FACTIONS), library)
    assert scenario.house_rules == HouseRules() and not scenario.house_rules.changed
    scenario, _ = load_scenario_file(write(tmp_path, "t.yaml", FACTIONS + "house_rules: {}\n"), library)
    assert not scenario.house_rules.changed
    # (the Happy DayZ boxes' own scenarios; a classic game's box, such as Hearts, has its house rules)
    assert all(not s.house_rules.changed for s in library.scenarios() if s.box in ("woodstock-fever", "american-dream"))


def test_one_key_changes_one_rule(tmp_path, library):
    path = write(tmp_path, "s.yaml", FACTIONS + "house_rules:\n  sides: [\"+\"]\n")
    scenario, _ = load_scenario_file(path, library)
    assert scenario.house_rules == HouseRules(sides=("+",))


def test_a_box_scenario_may_have_house_rules(tmp_path):
    text = (ROOT / "boxes" / "woodstock_fever.yaml").read_text(encoding="utf-8")
    text = text.replace("  - id: 1\n    title: A signal on the radio\n",
                        "  - id: 1\n    title: A signal on the radio\n    players: 6\n"
                        "    house_rules: {hand_size: 10, encounter: false}\n")
    assert "house_rules" in text
    box = load_box(write(tmp_path, "box.yaml", text))
    first = box.scenarios[0]
    assert first.players == 6 and first.house_rules == HouseRules(hand_size=10, encounter=False)


# --- the schema's words ----------------------------------------------------------

def test_bad_values_exact_schema_errors(tmp_path, library):
    path = write(tmp_path, "bad.yaml", FACTIONS + (
        "players: 8\n"
        "house_rules:\n"
        "  hand_size: 0\n"
        "  transfer: {cards: -1, direction: acros, rounds: [0, 2, 2]}\n"
        "  encounter: \"no\"\n"
        "  sides: []\n"
        "  rounds: 51\n"
        "  starting_population: -1\n"
        "  elimination: 1\n"
        "  shuffle: true\n"))
    assert problems(path, library) == [
        f"{path}:3:10: error[D013]: players: 8 is more than the maximum, 7",
        f"{path}:5:14: error[D013]: house_rules.hand_size: 0 is less than the minimum, 1",
        f"{path}:6:21: error[D013]: house_rules.transfer.cards: -1 is less than the minimum, 0",
        f"{path}:6:36: error[D013]: house_rules.transfer.direction: 'acros' is not one of 'both', 'left', 'right', "
        "'across' (did you mean 'across'?)",
        f"{path}:6:51: error[D013]: house_rules.transfer.rounds: lists the same item more than once",
        f"{path}:6:52: error[D013]: house_rules.transfer.rounds[0]: 0 is less than the minimum, 1",
        f"{path}:7:14: error[D012]: house_rules.encounter: expected true or false, got the text 'no'",
        f"{path}:8:10: error[D013]: house_rules.sides: needs at least 1 item(s), got 0",
        f"{path}:9:11: error[D013]: house_rules.rounds: 51 is more than the maximum, 50",
        f"{path}:10:24: error[D013]: house_rules.starting_population: -1 is less than the minimum, 0",
        f"{path}:11:16: error[D012]: house_rules.elimination: expected true or false, got the number 1",
        f"{path}:12:3: error[D010]: house_rules: 'shuffle' is not a known key",
    ]


def test_a_side_that_does_not_exist_and_a_list_for_a_mapping(tmp_path, library):
    path = write(tmp_path, "bad.yaml", FACTIONS + "house_rules:\n  sides: [\"+\", \"*\"]\n")
    assert problems(path, library) == [f"{path}:4:16: error[D013]: house_rules.sides[1]: '*' is not one of '+', '-'"]
    path = write(tmp_path, "bad2.yaml", FACTIONS + "house_rules: [hand_size]\n")
    assert problems(path, library) == [f"{path}:3:14: error[D012]: house_rules: expected a mapping, got a list"]


def test_check_shows_the_place_with_a_caret(tmp_path, capsys):
    path = write(tmp_path, "bad.yaml", FACTIONS + "house_rules:\n  transfer: {direction: sideways}\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out == (
        f"{path}:4:25: error[D013]: house_rules.transfer.direction: 'sideways' is not one of 'both', 'left', "
        "'right', 'across'\n"
        "      transfer: {direction: sideways}\n"
        "                            ^^^^^^^^\n"
        "1 error, 0 warnings in 1 file\n")


# --- what the schema cannot say (D035, D032) -------------------------------------------

def test_house_rules_that_cannot_apply(tmp_path, library):
    path = write(tmp_path, "bad.yaml", FACTIONS + (
        "players: 5\n"
        "house_rules:\n"
        "  hand_size: 13\n"
        "  transfer: {cards: 1, direction: across, rounds: [1, 5]}\n"))
    assert problems(path, library) == [
        f"{path}:5:14: error[D035]: house_rules.hand_size: 5 Communities dealt 13 cards each need 65 cards, "
        "but the deck of this scenario has 62",
        f"{path}:6:35: error[D035]: house_rules.transfer.direction: nobody sits across the table in a game of 5: "
        "'across' needs an even number of players",
        f"{path}:6:55: error[D035]: house_rules.transfer.rounds[1]: round 5 is never played: the campaign has "
        "4 rounds",
    ]


def test_transfer_rounds_follow_the_rounds_house_rule(tmp_path, library):
    path = write(tmp_path, "bad.yaml", FACTIONS + "house_rules:\n  rounds: 2\n  transfer: {rounds: [2, 3]}\n")
    assert problems(path, library) == [
        f"{path}:5:26: error[D035]: house_rules.transfer.rounds[1]: round 3 is never played: the campaign has "
        "2 rounds"]


def test_six_players_need_a_deal(tmp_path, library):
    path = write(tmp_path, "six.yaml", FACTIONS + "players: 6\n")
    assert problems(path, library) == [
        f"{path}:3:10: error[D032]: players: box 'woodstock-fever' has no deal for 6 players"]
    # a hand size deals for any count the deck allows
    path = write(tmp_path, "six2.yaml", FACTIONS + "players: 6\nhouse_rules: {hand_size: 10}\n")
    scenario, _ = load_scenario_file(path, library)
    assert scenario.players == 6


# --- a box file and added powers of the scenario's own -------------------------------------

SMALL_BOX = """\
id: small-box
title: Small Box
starting_population: 20
deal: {2: 8, 3: 6, 4: 5, 5: 4, 6: 3}
campaign_rounds: 2
transfer_cards: 1
always: [Zombies]
factions:
  - name: Zombies
    power: zombies.power
    cards: [{values: "1-10", survivors: -3}]
  - {name: Hippies, power: hippies.power, cards: [{values: "1-5", survivors: 1}]}
  - {name: Soldiers, power: soldiers.power, cards: [{values: "1-5", survivors: 1}]}
"""

SHELTER = "power Shelter {\n  added\n\n  at end of round {\n    gain 1\n  }\n}\n"


def test_a_scenario_brings_its_box_file_and_added_powers(tmp_path, library):
    write(tmp_path, "small.yaml", SMALL_BOX)
    write(tmp_path, "shelter.power", SHELTER)
    path = write(tmp_path, "s.yaml", "box_file: small.yaml\nfactions: [Hippies, Soldiers]\nplayers: 6\n"
                                     "added: [Shelter]\nadded_powers:\n  - {name: Shelter, power: shelter.power}\n")
    scenario, extended = load_scenario_file(path, library)
    assert scenario.box == "small-box" and scenario.players == 6 and scenario.added == ("Shelter",)
    box = extended.boxes["small-box"]
    assert box.deal[6] == 3 and len(box.factions["Hippies"].cards) == 5
    assert extended.extra_added["Shelter"].power_file == (tmp_path / "shelter.power").resolve()
    assert "small-box" not in library.boxes  # the library given is left as it was
    assert check_data_file(path, library) == []
    # 'box' may name the same box
    write(tmp_path, "same.yaml", "box: small-box\nbox_file: small.yaml\nfactions: [Hippies]\n")
    assert load_scenario_file(tmp_path / "same.yaml", library)[0].box == "small-box"


def test_the_deck_of_the_scenarios_box_limits_the_deal(tmp_path, library):
    write(tmp_path, "small.yaml", SMALL_BOX)
    path = write(tmp_path, "s.yaml", "box_file: small.yaml\nfactions: [Hippies, Soldiers]\nplayers: 6\n"
                                     "house_rules: {hand_size: 4}\n")
    assert problems(path, library) == [
        f"{path}:4:26: error[D035]: house_rules.hand_size: 6 Communities dealt 4 cards each need 24 cards, "
        "but the deck of this scenario has 20"]


def test_box_file_mistakes(tmp_path, library):
    write(tmp_path, "small.yaml", SMALL_BOX)
    cases = {
        "box_file: ../small.yaml\nfactions: [Hippies]\n":
            "1:11: error[D030]: box_file: '../small.yaml': a box file is named by its place inside the scenario's "
            "folder (no absolute path, no '..')",
        "box_file: /etc/small.yaml\nfactions: [Hippies]\n":
            "1:11: error[D030]: box_file: '/etc/small.yaml': a box file is named by its place inside the scenario's "
            "folder (no absolute path, no '..')",
        "box_file: nothere.yaml\nfactions: [Hippies]\n":
            f"1:11: error[D030]: box_file: the box file 'nothere.yaml' is not found (looked for "
            f"{tmp_path / 'nothere.yaml'})",
        "box: woodstock-fever\nbox_file: small.yaml\nfactions: [Hippies]\n":
            "1:6: error[D030]: box: 'woodstock-fever' is not the box of box_file 'small.yaml', whose id is "
            "'small-box'",
        "factions: [Hippies]\n": "1:1: error[D011]: missing required key 'box'",
    }
    for number, (text, wanted) in enumerate(cases.items()):
        path = write(tmp_path, f"s{number}.yaml", text)
        assert problems(path, library) == [f"{path}:{wanted}"]


def test_a_box_file_that_is_a_link_out_of_the_folder_is_not_read(tmp_path, library):
    inner = tmp_path / "inner"
    inner.mkdir()
    write(tmp_path, "small.yaml", SMALL_BOX)
    (inner / "link.yaml").symlink_to(tmp_path / "small.yaml")
    path = write(inner, "s.yaml", "box_file: link.yaml\nfactions: [Hippies]\n")
    assert problems(path, library) == [
        f"{path}:1:11: error[D030]: box_file: 'link.yaml' is a link that leads outside the scenario's folder "
        f"{str(inner)!r}; it is not read"]


def test_the_problems_of_the_box_file_point_into_it(tmp_path, library):
    broken = SMALL_BOX.replace("5: 4, 6: 3}", "5: 4, 8: 3}").replace("hippies.power", "hipies.power")
    write(tmp_path, "small.yaml", broken)
    path = write(tmp_path, "s.yaml", "box_file: small.yaml\nfactions: [Hippies]\n")
    box = tmp_path / "small.yaml"
    found = problems(path, library)
    assert found[0] == f"{box}:4:32: error[D026]: deal: 8 players is not a possible game (2 to 7 players)"
    assert found[1].startswith(f"{box}:12:28: error[D025]: factions[1].power: power file 'hipies.power' of 'Hippies' "
                               "not found")
    assert len(found) == 2


def test_a_box_file_whose_id_is_taken(tmp_path, library):
    write(tmp_path, "wf.yaml", SMALL_BOX.replace("id: small-box", "id: woodstock-fever"))
    path = write(tmp_path, "s.yaml", "box_file: wf.yaml\nfactions: [Hippies]\n")
    [found] = problems(path, library)
    assert found.startswith(f"{path}:1:11: error[D029]: box_file: the id 'woodstock-fever' of 'wf.yaml' is already "
                            "the id of the loaded box")


def test_added_power_mistakes(tmp_path, library):
    write(tmp_path, "shelter.power", SHELTER)
    path = write(tmp_path, "s.yaml", FACTIONS + (
        "added: [Shelter, Bunker]\n"
        "added_powers:\n"
        "  - {name: Bunker, power: shelter.power}\n"
        "  - {name: Hippies, power: shelter.power}\n"
        "  - {name: Shelter, power: shelter.power}\n"
        "  - {name: Shelter, power: shelter.power}\n"
        "  - {name: Cellar, power: nope.power}\n"
        "  - {name: Attic}\n"))
    assert problems(path, library) == [f"{path}:10:5: error[D011]: added_powers[5]: missing required key 'power'"]
    path = write(tmp_path, "s.yaml", path.read_text(encoding="utf-8").replace("  - {name: Attic}\n", ""))
    found = problems(path, library)
    assert found[:3] == [
        f"{path}:5:12: error[D020]: added_powers[0].name: 'Bunker' is already an added power of box "
        "'woodstock-fever'; choose another name",
        f"{path}:6:12: error[D020]: added_powers[1].name: 'Hippies' is already the name of a Faction; choose "
        "another name",
        f"{path}:8:12: error[D020]: added_powers[3].name: 'Shelter' is defined twice",
    ]
    assert found[3].startswith(f"{path}:9:27: error[D025]: added_powers[4].power: power file 'nope.power' of "
                               "'Cellar' not found")
    assert len(found) == 4


def test_check_tells_an_added_power_file_written_for_a_faction(tmp_path, capsys):
    write(tmp_path, "moles.power", "power Moles {\n  for faction Moles\n}\n")
    path = write(tmp_path, "s.yaml", FACTIONS + "added_powers:\n  - {name: Tunnels, power: moles.power}\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        f"{path}:4:28: error[D034]: added_powers[0].power: moles.power is for the Faction Moles, so it cannot be "
        "the added power Tunnels\n")
    assert "hint: begin moles.power with 'power ... { added'" in out


def test_the_cookbook_example_checks():
    [path] = sorted((ROOT / "docs" / "cookbook").glob("house-rules-*.yaml"))
    assert path.read_text(encoding="utf-8").startswith("# House rules")
    assert check_data_file(path) == []
