"""The bundled Hearts box (boxes/hearts.yaml): listed, checked, shown with its own card names, and played to
the end of a whole game by simulate, play, serve's session and every bot. (Its rules against OpenSpiel's:
test_hearts.py; a game worked out by hand: tests/games/classic_hearts_moon_to_100.yaml.)"""

from __future__ import annotations

import io
import random
import re
import sys

import pytest

from happydayz.base.errors import HappyError
from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.simulation.simulate import simulate
from happydayz.table.session import TableSession

ENV = Environment()
SCENARIO = "hearts/1"


def test_the_box_holds_a_52_card_deck_of_four_suits_whose_points_are_the_hearts_and_the_queen():
    box = ENV.library.boxes["hearts"]
    assert list(box.factions) == ["Clubs", "Diamonds", "Hearts", "Spades"] and box.always == ()
    cards = [c for f in box.factions.values() for c in f.cards]
    assert len(cards) == 52 and sorted({c.value for c in cards}) == list(range(2, 15))
    assert sum(c.survivors for c in cards) == 26  # the score counts the points taken
    assert {c.label: c.survivors for c in cards if c.survivors} == {
        **{f"Hearts {v}": 1 for v in range(2, 15)}, "Spades 12": 13}


def test_the_score_is_the_points_taken_to_a_target_of_100_and_the_fewest_win():
    setup, _ = prepare(ENV, SCENARIO)
    assert (setup.starting_population, setup.floor, setup.target, setup.winner) == (0, None, (100, None), "fewest")
    assert setup.elimination  # (on, but a score with no floor eliminates nobody: the target ends the game)


def test_cards_are_shown_as_players_know_them():
    shown = {c.label: c.shown for f in ENV.library.boxes["hearts"].factions.values() for c in f.cards}
    assert (shown["Spades 12"], shown["Hearts 10"], shown["Clubs 14"], shown["Diamonds 11"]) == ("Q♠", "10♥", "A♣", "J♦")
    # The Happy DayZ boxes give no card_names: their cards show their labels.
    assert all(not c.shown for f in ENV.library.boxes["woodstock-fever"].factions.values() for c in f.cards)


def test_scenarios_lists_it_and_check_passes_without_a_warning(capsys):
    assert main(["scenarios"]) == 0
    assert re.search(r"hearts/1\s+│\s+Hearts, a game to 100", capsys.readouterr().out)
    assert main(["check", "boxes/hearts.yaml", "powers/hearts_clubs.power", "powers/hearts_diamonds.power",
                 "powers/hearts_hearts.power", "powers/hearts_spades.power"]) == 0
    assert "0 errors, 0 warnings in 5 files" in capsys.readouterr().out


@pytest.mark.parametrize("bots", ["random", "greedy", "ismcts,random,greedy,greedy-reference"])
@pytest.mark.usefixtures("quick_ismcts")
def test_the_bots_play_whole_games_to_100(bots):
    result = simulate(SCENARIO, players=4, games=2 if bots != "random" else 10, seed=1, bots=bots, env=ENV,
                      express="ismcts" in bots)
    for game in result["games"]:
        populations = game["final_populations"]
        assert game["winners"] == [s for s in range(4) if populations[s] == min(populations)]  # the fewest win
        if "ismcts" not in bots:  # a whole game: it ends in the hand in which somebody reaches 100 points
            assert max(populations) >= 100 and game["rounds"] >= 4


def test_every_hand_hands_out_the_26_points():
    setup, _ = prepare(ENV, SCENARIO, express=True)
    for seed in range(20):
        game = Game(setup, seed, record=False)
        rng = random.Random(seed)
        while not game.over:
            game.apply(rng.randrange(len(game.decision.options)))
        points = list(game.last_deltas)  # the score counts the points taken
        assert sum(points) in (26, 78), points  # 78: somebody shot the moon (0 for it, 26 for each other)


def test_play_in_the_terminal_to_the_end(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--scenario", SCENARIO, "--express", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Choose a card to pass to your" in out and "Game over" in out
    hand = re.search(r"Your hand: (.*)", out).group(1)
    assert re.fullmatch(r"((10|[2-9JQKA])[♣♦♥♠]( \(\+1\)| \(\+13\))?(, )?)+", hand), hand
    assert re.search(r"Trick won by Community \d: Clubs led on the \+ side - 2♣, ", out)


def test_serve_shows_the_names_and_plays_to_the_end():
    session = TableSession.start(ENV, SCENARIO, express=True, seed=3)
    view = session.view(0)
    assert view["decision"]["kind"] == "transfer"
    names = [card["name"] for card in view["hand"]]
    assert len(names) == 13 and all(re.fullmatch(r"(10|[2-9JQKA])[♣♦♥♠]", n) for n in names)
    assert all(re.fullmatch(r"(10|[2-9JQKA])[♣♦♥♠]( \(\+1\)| \(\+13\))?", o["label"]) for o in view["decision"]["options"])
    while not session.over:
        session.answer(0)
    assert session.game.over


def test_three_or_five_players_are_refused_with_a_reason():
    with pytest.raises(HappyError) as caught:
        prepare(ENV, SCENARIO, players=3)
    assert "nobody sits across it in a game of 3" in caught.value.diagnostics[0].message


def _random_hand(scenario: str, seed: int) -> tuple[Game, list[str]]:
    setup, _ = prepare(ENV, scenario, express=True)
    game, rng, kinds = Game(setup, seed, record=False), random.Random(seed), []
    while not game.over:
        kinds.append(game.decision.kind)
        game.apply(rng.randrange(len(game.decision.options)))
    return game, kinds


def test_the_omnibus_scenario_sets_the_jack_of_diamonds_option():
    for seed in range(10):
        game, _ = _random_hand("hearts/2", seed)
        assert sum(game.last_deltas) in (16, 68)  # 26 less the jack's 10 (78 - 10 with a moon)


def test_the_scenario_without_passing_asks_no_pass():
    game, kinds = _random_hand("hearts/3", 0)
    assert "transfer" not in kinds and kinds.count("lead") == 13 and len(kinds) == 52
    game, kinds = _random_hand("hearts/1", 0)
    assert kinds[:12] == ["transfer"] * 12
