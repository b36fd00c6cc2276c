"""House rules (a scenario's `house_rules:`) played out: each one changes the game it names, and only that.

The scenario files are written into a temporary folder; the data-layer checks of
the same keys (schema errors, D035) are in tests/data/test_house_rules_files.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from happydayz.cli.app import main
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup
from happydayz.kernel.tables import _transfer_targets, tables_of
from happydayz.base.errors import GameRuleError

from conftest import ENV, ROOT, check_invariants, prepare

FACTIONS = "[Hippies, Soldiers, Dogs]"
MAX_DECISIONS = 5_000


def scenario(tmp_path: Path, house: str, players: int | None = 4, name: str = "house.yaml", extra: str = "",
             factions: str = FACTIONS) -> str:
    """A Woodstock Fever scenario file with the given `house_rules:` body (YAML, indented by 2)."""
    text = f"box: woodstock-fever\nfactions: {factions}\n"
    if players is not None:
        text += f"players: {players}\n"
    text += extra
    if house:
        text += "house_rules:\n" + "".join(f"  {line}\n" for line in house.strip().splitlines())
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def new_game(path: str, seed: int = 1, players: int | None = None, **options) -> Game:
    setup, _ = prepare(path, players, **options)
    return Game(setup, seed)


def play_on(game: Game, seed: int = 1, until=None) -> Game:
    """Answer at random until the game ends (or `until(game)` holds)."""
    chooser = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if game.decision is None or (until is not None and until(game)):
            return game
        game.apply(chooser.randrange(len(game.decision.options)))
    pytest.fail("the game does not end")


def events(game: Game, kind: str) -> list[dict]:
    return [e for e in game.log if e["event"] == kind]


# --- the deal ------------------------------------------------------------------

def test_hand_size_deals_that_many_cards_to_each_community(tmp_path):
    game = new_game(scenario(tmp_path, "hand_size: 5\ntransfer: {cards: 0}"))
    assert game.decision.kind == "lead"  # no Transfer: the first trick is asked at once
    assert [len(game.zone("hand", seat)) for seat in range(4)] == [5, 5, 5, 5]
    # the rest of the 62 cards is the Reserve, less the Encounter card turned up for the first trick
    assert len(game.reserve) == 62 - 4 * 5 - 1
    check_invariants(game)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_hand_size_deals_for_every_player_count_even_one_the_box_has_no_deal_for(tmp_path, players):
    game = new_game(scenario(tmp_path, "hand_size: 8\ntransfer: {cards: 0}\nelimination: false", players=players))
    assert game.n == players
    assert [len(game.zone("hand", seat)) for seat in range(players)] == [8] * players
    play_on(game)
    assert game.over and len(game.history) == 4


def test_a_hand_size_the_deck_cannot_fill_is_refused_at_setup(tmp_path):
    path = scenario(tmp_path, "hand_size: 11", players=None)  # 6 x 11 = 66 > 62
    with pytest.raises(GameRuleError) as caught:
        prepare(path, 6)
    assert str(caught.value.diagnostics[0].message) == (
        "6 Communities dealt 11 cards each need 66 cards, but the deck of this game has 62")


# --- the Transfer --------------------------------------------------------------

def _receivers(game: Game) -> dict[int, list[int]]:
    """Who passed to whom at the last Transfer: receiver -> givers, in order."""
    passes = events(game, "transfer")[-1]["passes"]
    out: dict[int, list[int]] = {}
    for p in passes:
        out.setdefault(p["to"], []).append(p["from"])
    return out


@pytest.mark.parametrize("direction, givers", [
    ("left", {0: [3, 3], 1: [0, 0], 2: [1, 1], 3: [2, 2]}),  # the left neighbour is the next seat
    ("right", {0: [1, 1], 1: [2, 2], 2: [3, 3], 3: [0, 0]}),
    ("across", {0: [2, 2], 1: [3, 3], 2: [0, 0], 3: [1, 1]}),
    ("both", {0: [1, 3], 1: [0, 2], 2: [1, 3], 3: [0, 2]}),  # the box's usual: one card to each neighbour
])
def test_transfer_direction(tmp_path, direction, givers):
    game = new_game(scenario(tmp_path, f"transfer: {{cards: 2, direction: {direction}}}"))
    assert game.decision.kind == "transfer"
    play_on(game, until=lambda g: g.decision.kind != "transfer")
    assert {receiver: sorted(g) for receiver, g in _receivers(game).items()} == givers
    assert [len(game.zone("transfer", seat)) for seat in range(4)] == [2, 2, 2, 2]


def test_transfer_prompts_name_the_receiver(tmp_path):
    game = new_game(scenario(tmp_path, "transfer: {cards: 1, direction: across}"))
    assert game.decision.prompt == "Choose a card to pass to the Community across the table (Community 2)"
    game = new_game(scenario(tmp_path, "transfer: {cards: 3, direction: right}", name="right.yaml"))
    assert game.decision.prompt == "Choose a card to pass to your right neighbour (Community 3)"


def test_transfer_cards_zero_means_no_transfer(tmp_path):
    game = play_on(new_game(scenario(tmp_path, "transfer: {cards: 0}")))
    assert not [e for e in game.log if e["event"] == "decision" and e["decision"] == "transfer"]
    assert all(e["passes"] == [] for e in events(game, "transfer"))


def test_transfer_only_in_the_rounds_listed(tmp_path):
    game = play_on(new_game(scenario(tmp_path, "transfer: {rounds: [2, 4]}\nelimination: false")))
    assert len(game.history) == 4
    rounds = sorted({e["round"] for e in game.log if e["event"] == "decision" and e["decision"] == "transfer"})
    assert rounds == [2, 4]
    assert [len(e["passes"]) for e in events(game, "transfer")] == [0, 8, 0, 8]


def test_without_a_first_transfer_community_0_leads_first(tmp_path):
    game = new_game(scenario(tmp_path, "transfer: {rounds: [2]}"))
    assert game.decision.kind == "lead" and game.decision.actor == 0


def test_the_box_transfer_is_unchanged_for_two_cards():
    """'both' with the boxes' 2 cards (or 1) is the Transfer as it always was."""
    for players in (2, 3, 4, 5):
        for seat in range(players):
            for count in (0, 1, 2):
                old = [1 - seat] * count if players == 2 else [(seat + 1) % players, (seat - 1) % players][:count]
                assert _transfer_targets(seat, players, count) == old
                assert _transfer_targets(seat, players, count, "both") == old


# --- the Encounter card ----------------------------------------------------------

def test_encounter_false_turns_up_no_encounter_card_and_leaves_the_reserve(tmp_path):
    # Factions whose powers never touch the Reserve
    game = new_game(scenario(tmp_path, "encounter: false\nrounds: 1", factions="[Hippies, Soldiers, Children]"))
    dealt = None
    chooser = random.Random(3)
    while game.decision is not None:
        if game.decision.kind == "lead" and dealt is None:
            dealt = list(game.reserve)
        if dealt is not None and game.round_no == 1 and game.decision.kind in ("lead", "follow"):
            assert game.reserve == dealt  # the Reserve stays as dealt
            assert game.zones["encounter"] == []
        game.apply(chooser.randrange(len(game.decision.options)))
    assert dealt and len(dealt) == 62 - 4 * 12
    starts = events(game, "encounter")
    assert starts and all(e["card"] is None for e in starts)  # each trick starts without an Encounter card
    # nobody won an Encounter card: the Expeditions hold only the tricks' cards
    assert sum(len(game.zone("expedition", s)) for s in range(4)) == 4 * 12


def test_by_default_an_encounter_card_is_turned_up(tmp_path):
    game = play_on(new_game(scenario(tmp_path, "rounds: 1")))
    assert any(e["card"] is not None for e in events(game, "encounter"))


# --- the sides -------------------------------------------------------------------

@pytest.mark.parametrize("side", ["+", "-"])
def test_sides_leaves_the_leader_only_that_side(tmp_path, side):
    game = new_game(scenario(tmp_path, f'sides: ["{side}"]\nrounds: 1'))
    chooser = random.Random(2)
    leads = 0
    while game.decision is not None:
        if game.decision.kind == "lead":
            leads += 1
            assert {o.value[1] for o in game.decision.options} == {side}
            assert all(o.label.endswith(f" on {side}") for o in game.decision.options)
        game.apply(chooser.randrange(len(game.decision.options)))
    assert leads > 5
    assert {e["side"] for e in events(game, "play")} == {side}


def test_both_sides_by_default(tmp_path):
    game = new_game(scenario(tmp_path, "transfer: {cards: 0}"))
    assert {o.value[1] for o in game.decision.options} == {"+", "-"}
    assert len(game.decision.options) == 2 * 12


# --- rounds, population, elimination -------------------------------------------

def test_rounds_sets_the_length_of_the_campaign(tmp_path):
    game = play_on(new_game(scenario(tmp_path, "rounds: 2\nelimination: false")))
    assert game.setup.rounds == 2 and len(game.history) == 2 and game.over
    # an express game still plays one round
    assert prepare(scenario(tmp_path, "rounds: 6", name="six.yaml"), express=True)[0].rounds == 1


def test_starting_population(tmp_path):
    game = new_game(scenario(tmp_path, "starting_population: 20"))
    assert game.population == [20, 20, 20, 20]


def test_elimination_false_plays_on_after_a_community_reaches_0(tmp_path):
    path = scenario(tmp_path, "starting_population: 1\nelimination: false")
    for seed in range(1, 20):
        game = play_on(new_game(path, seed=seed), seed=seed)
        early = [h for h in game.history[:-1] if 0 in h["populations"]]
        if early:
            break
    else:
        pytest.fail("no game had a Community at 0 before its last round")
    assert len(game.history) == 4 and game.over
    assert game.history[-1]["round"] == 4


def test_elimination_by_default_ends_the_game_at_0(tmp_path):
    game = play_on(new_game(scenario(tmp_path, "starting_population: 1")))
    assert 0 in game.population and len(game.history) < 4


# --- six players, a box file and added powers of the scenario's own ---------------

SIX_BOX = """\
id: six-seats
title: Six Seats
starting_population: 30
deal: {2: 16, 3: 14, 4: 12, 5: 10, 6: 9}
campaign_rounds: 2
transfer_cards: 2
always: [Mini-van, Zombies]
factions:
  - {name: Mini-van, power: minivan.power, cards: [{count: 3, value: null, survivors: 0}]}
  - name: Zombies
    power: zombies.power
    cards: [{values: "1-10", survivors: -3}, {values: "11-16", survivors: -6}, {values: "17-20", survivors: -9}]
  - {name: Hippies, power: hippies.power, cards: [{values: "1-13", survivors: 1}]}
  - {name: Soldiers, power: soldiers.power, cards: [{values: "1-13", survivors: 1}]}
  - {name: Dogs, power: dogs.power, cards: [{values: "1-13", survivors: 1}]}
"""

SHELTER = """\
power Shelter {
  added

  at end of round {
    gain 1
  }
}
"""


@pytest.fixture
def six(tmp_path) -> str:
    (tmp_path / "six_box.yaml").write_text(SIX_BOX, encoding="utf-8")
    (tmp_path / "shelter.power").write_text(SHELTER, encoding="utf-8")
    path = tmp_path / "six.yaml"
    path.write_text("title: Six at the table\nbox_file: six_box.yaml\nfactions: [Hippies, Soldiers, Dogs]\n"
                    "players: 6\nadded: [Shelter]\nadded_powers:\n  - {name: Shelter, power: shelter.power}\n",
                    encoding="utf-8")
    return str(path)


def test_six_players_with_the_scenarios_own_box_play_to_the_end(six):
    setup, scenario = prepare(six)
    assert setup.n == 6 and scenario.box == "six-seats" and setup.starting_population == 30 and setup.rounds == 2
    tables = tables_of(setup)
    assert len(tables.seat) == 6 and len(tables.hand_keys) == 6
    assert [[r for r, _ in passes] for passes in tables.transfers] == [
        [1, 5], [2, 0], [3, 1], [4, 2], [5, 3], [0, 4]]
    for seed in (1, 2, 3):
        game = Game(setup, seed)
        assert [len(game.zone("hand", s)) for s in range(6)] == [9] * 6
        assert len(game.reserve) == 62 - 6 * 9
        play_on(game, seed)
        check_invariants(game)
        assert game.over and game.winners and len(game.population) == 6
        # the Shelter, the scenario's own added power, counted for every Community each round
        gains = [e for e in events(game, "score") if e["power"] == "Shelter"]
        assert len(gains) == 6 * len(game.history)


def test_six_players_with_bots_from_the_command_line(six, capsys):
    assert main(["simulate", "--scenario", six, "--games", "2", "--seed", "1", "--bots", "greedy",
                 "--json", "-", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert summary["players"] == 6 and len(summary["wins"]) == 6


def test_a_box_without_a_deal_for_6_cannot_seat_6(tmp_path):
    with pytest.raises(GameRuleError) as caught:
        prepare(scenario(tmp_path, "", players=None), 6)
    assert "6 players cannot play this box: it deals for 2, 3, 4, 5 players" in caught.value.diagnostics[0].message


def test_across_with_an_odd_number_of_players_is_refused_at_setup(tmp_path):
    with pytest.raises(GameRuleError) as caught:
        prepare(scenario(tmp_path, "transfer: {direction: across}", players=None), 3)
    assert "nobody sits across it in a game of 3" in caught.value.diagnostics[0].message


# --- the bundled scenarios are untouched --------------------------------------------

def test_bundled_scenarios_play_by_the_box_rules():
    for scenario_ in ENV.library.scenarios():
        assert not scenario_.house_rules.changed or scenario_.box in ("hearts", "oh-hell", "spades", "euchre", "bridge")  # a classic game has its own
    setup = build_setup(*ENV.resolve_scenario("woodstock-fever/1"), GameOptions(players=4), ENV)
    assert (setup.deal, setup.rounds, setup.starting_population, setup.transfer_cards) == (
        {2: 16, 3: 14, 4: 12, 5: 10}, 4, 66, 2)
    assert (setup.transfer_direction, setup.transfer_rounds, setup.encounter, setup.sides, setup.elimination) == (
        "both", None, True, ("+", "-"), True)


def test_the_cookbook_example_plays():
    [path] = sorted((ROOT / "docs" / "cookbook").glob("house-rules-*.yaml"))
    game = play_on(new_game(str(path)))
    assert game.over
