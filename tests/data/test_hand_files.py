"""The box file's and a scenario's `hand:` section: how it loads, its defaults in the open, and every mistake's words.

The games it makes are played by the scripted games tests/games/hand_*.yaml and tests/kernel/test_hand_played.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from happydayz.base.errors import DataProblem
from happydayz.base.safeyaml import load_yaml
from happydayz.data.boxes import load_library, load_scenario_file
from happydayz.data.hand import HAPPY_DAYZ, ByRound, HandSizeError, SizeExpression, hand_of

from conftest import ROOT

FACTIONS = "box: woodstock-fever\nfactions: [Hippies, Soldiers, Dogs]\n"
BOXES = ("woodstock_fever.yaml", "american_dream.yaml")


@pytest.fixture(scope="module")
def library():
    return load_library()


def problems(tmp_path: Path, text: str, library) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(FACTIONS + text, encoding="utf-8")
    with pytest.raises(DataProblem) as caught:
        load_scenario_file(path, library)
    return [f"{d.span.line}:{d.span.column}: error[{d.code}]: {d.message}" for d in caught.value.diagnostics]


def _hand_keys() -> list[str]:
    """Every key of the hand in the scenario schema, transfer's as transfer.KEY."""
    hand = json.loads((ROOT / "boxes" / "schema" / "scenario.schema.json").read_text())["$defs"]["hand"]
    keys = []
    for key, spec in hand["properties"].items():
        if key in ("transfer", "score"):
            keys += [f"{key}.{sub}" for sub in spec["properties"]]
        else:
            keys.append(key)
    return keys


def test_the_schema_has_the_hand_keys_the_docs_describe():
    assert _hand_keys() == ["dealer", "first_dealer", "hand_size", "first_leader", "transfer.cards", "transfer.to",
                            "transfer.seen_by", "transfer.into", "turn_up", "auction", "score.floor", "score.target",
                            "score.winner", "dummy", "teams"]


def test_every_key_of_the_hand_is_a_row_of_the_defaults_table_in_rules_md():
    text = (ROOT / "docs" / "rules.md").read_text()
    section = text[text.index("## The hand and its defaults"):]
    section = section[:section.index("\n## ", 4)]
    rows = re.findall(r"^\| `([a-z_.]+)` \|", section, re.M)
    assert rows == _hand_keys()


@pytest.mark.parametrize("box", BOXES)
def test_both_bundled_boxes_state_every_key_of_the_hand(box):
    data = load_yaml(ROOT / "boxes" / box).data["hand"]
    stated = [k for k in data if k not in ("transfer", "score")] + [f"{group}.{k}" for group in ("transfer", "score")
                                                                   for k in data[group]]
    assert sorted(stated) == sorted(_hand_keys())


@pytest.mark.parametrize("box", BOXES)
def test_what_the_bundled_boxes_state_is_the_kernels_default(box):
    """The defaults are Happy DayZ's rules: a box that leaves the hand out plays as the bundled boxes do."""
    stated = hand_of(load_yaml(ROOT / "boxes" / box).data["hand"])
    assert stated.transfer_cards == ByRound((2,))
    from dataclasses import replace
    assert replace(stated, transfer_cards=None) == HAPPY_DAYZ


def test_by_round_lists_repeat_their_last_item_and_cycles_start_again():
    listed, cycle = ByRound(("a", "b")), ByRound(("a", "b", "c"), cycle=True)
    assert [listed.at(r) for r in range(1, 5)] == ["a", "b", "b", "b"]
    assert [cycle.at(r) for r in range(1, 8)] == ["a", "b", "c", "a", "b", "c", "a"]


def test_a_size_expression_reads_round_players_and_rounds_with_division_rounding_down():
    oh_hell = SizeExpression("min(round, 2 * (51 / players) - round)")
    assert [oh_hell(r, 4, 23) for r in range(1, 24)] == list(range(1, 13)) + list(range(11, 0, -1))
    assert SizeExpression("rounds + abs(-players) % 3")(1, 4, 5) == 6


@pytest.mark.parametrize("text, message, column", [
    ("__import__('os')", "the function '__import__' is not known here: use min, max or abs", 0),
    ("round ** 2", "only whole numbers, round, players, rounds, + - * / %, parentheses, min, max and abs are "
                   "allowed", 0),
    ("round + hand", "the name 'hand' is not known here: use round, players, rounds", 8),
    ("2.5", "only whole numbers, round, players, rounds, + - * / %, parentheses, min, max and abs are allowed", 0),
    ("(round", "this is not an expression: '(' was never closed", 0),
])
def test_a_size_expression_allows_only_its_few_forms(text, message, column):
    with pytest.raises(HandSizeError) as caught:
        SizeExpression(text)
    assert (str(caught.value), caught.value.column) == (message, column)


def test_a_scenario_hand_loads_over_the_box_key_by_key(tmp_path, library):
    path = tmp_path / "s.yaml"
    path.write_text(FACTIONS + "hand:\n  dealer: rotating\n  transfer: {to: [left, right, across, none]}\n",
                    encoding="utf-8")
    scenario, _ = load_scenario_file(path, library)
    assert scenario.hand.given() == ("dealer", "transfer_to")
    assert scenario.hand.transfer_to == ByRound(("left", "right", "across", "none"))


def test_a_size_expression_that_is_not_allowed_points_at_its_place(tmp_path, library):
    assert problems(tmp_path, 'hand:\n  hand_size: "round + hand"\n', library) == [
        "4:23: error[D036]: hand.hand_size: the name 'hand' is not known here: use round, players, rounds"]


def test_a_size_expression_below_one_card_in_a_round_played_is_refused(tmp_path, library):
    assert problems(tmp_path, 'players: 4\nhand:\n  hand_size: "3 - round"\n', library) == [
        "5:14: error[D036]: hand.hand_size: the hand size '3 - round' is 0 in round 3 with 4 players: every round "
        "deals at least 1 card"]


def test_the_dealer_leads_needs_a_dealer(tmp_path, library):
    assert problems(tmp_path, "hand: {first_leader: dealer_left}\n", library) == [
        "3:22: error[D036]: hand.first_leader: the first leader or the first bidder is the dealer or the dealer's "
        "left, but nobody deals: give the hand a dealer (fixed, rotating or chosen)"]


def test_an_auction_from_the_dealers_left_needs_a_dealer_and_its_winner_an_auction(tmp_path, library):
    assert problems(tmp_path, "hand:\n  first_leader: auction_winner\n  auction: {bids: {factions: true}}\n",
                    library) == [
        "5:12: error[D036]: hand.auction: the first leader or the first bidder is the dealer or the dealer's left, "
        "but nobody deals: give the hand a dealer (fixed, rotating or chosen)"]
    assert problems(tmp_path, "hand: {first_leader: auction_winner_left}\n", library) == [
        "3:22: error[D036]: hand.first_leader: the first leader is the auction's winner, but the hand has no auction: "
        "give it one (auction:)"]


def test_a_transfer_zone_may_be_seen_by_its_giver_and_receiver_only(tmp_path, library):
    # (once refused, D036; tests/players/test_secret_transfer.py shows every reader hides it from the others)
    path = tmp_path / "s.yaml"
    path.write_text(FACTIONS + "hand:\n  transfer: {seen_by: giver_and_receiver}\n", encoding="utf-8")
    scenario, _ = load_scenario_file(path, library)
    assert (scenario.hand.seen_by, scenario.hand.into) == ("giver_and_receiver", None)


def test_the_older_house_rule_and_the_hand_may_not_both_say_the_hand_size(tmp_path, library):
    assert problems(tmp_path, "house_rules: {hand_size: 5}\nhand: {hand_size: 6}\n", library) == [
        "4:19: error[D036]: hand.hand_size: the house rule hand_size says this too: keep one of them"]


def test_a_seat_the_game_does_not_have_is_refused(tmp_path, library):
    assert problems(tmp_path, "players: 3\nhand: {dealer: fixed, first_dealer: 4}\n", library) == [
        "4:37: error[D036]: hand.first_dealer: there is no seat 4 in a game of 3 (seats 0 to 2)"]


def test_a_pass_across_with_an_odd_number_of_players_is_refused(tmp_path, library):
    assert problems(tmp_path, "players: 3\nhand:\n  transfer: {to: {cycle: [left, across]}}\n", library) == [
        "5:18: error[D035]: hand.transfer.to: nobody sits across the table in a game of 3: 'across' needs an even "
        "number of players"]


def test_a_score_loads_its_floor_target_and_winner(tmp_path, library):
    path = tmp_path / "s.yaml"
    path.write_text(FACTIONS + "hand:\n  score: {floor: none, target: {at_least: 500, at_most: -200}, "
                               "winner: fewest}\n", encoding="utf-8")
    scenario, _ = load_scenario_file(path, library)
    assert scenario.hand.given() == ("floor", "target", "winner")
    assert (scenario.hand.floor, scenario.hand.target, scenario.hand.winner) == ("none", (500, -200), "fewest")


def test_a_target_below_the_floor_is_refused_at_its_place(tmp_path, library):
    assert problems(tmp_path, "hand:\n  score: {floor: 0, target: {at_most: -200}}\n", library) == [
        "4:39: error[D060]: hand.score.target.at_most: no score can fall to -200: the floor is 0 (give the score "
        "no floor, floor: none, or a target the scores can reach)"]


def test_a_score_key_the_schema_does_not_know_is_named(tmp_path, library):
    assert problems(tmp_path, "hand:\n  score: {winner: least}\n", library) == [
        "4:19: error[D013]: hand.score.winner: 'least' is not one of 'most', 'fewest'"]
