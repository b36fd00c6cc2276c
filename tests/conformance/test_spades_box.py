"""The bundled Spades box (boxes/spades.yaml): listed, checked, shown with its own card names, its
rules met in hands laid by hand, and played to the end of a whole game by simulate and every bot.
(Its rules against OpenSpiel's: test_spades.py; a game worked out by hand:
tests/games/classic_spades_nil_and_bags.yaml.) `end game`, the construct its end uses, is checked
here too."""

from __future__ import annotations

import random
import re

import pytest

from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.simulation.simulate import simulate

ENV = Environment()
SCENARIO = "spades/1"
FILES = ["boxes/spades.yaml", "powers/spades_clubs.power", "powers/spades_diamonds.power",
         "powers/spades_hearts.power", "powers/spades_spades.power", "powers/spades_table.power"]


def test_the_box_holds_a_52_card_deck_of_four_suits_and_two_teams():
    box = ENV.library.boxes["spades"]
    assert list(box.factions) == ["Clubs", "Diamonds", "Hearts", "Spades"] and box.always == ()
    cards = [c for f in box.factions.values() for c in f.cards]
    assert len(cards) == 52 and sorted({c.value for c in cards}) == list(range(2, 15))
    setup, _ = prepare(ENV, SCENARIO)
    assert setup.starting_population == 0 and setup.teams == ((0, 2), (1, 3)) and setup.pooled


def test_cards_are_shown_as_players_know_them():
    shown = {c.label: c.shown for f in ENV.library.boxes["spades"].factions.values() for c in f.cards}
    assert (shown["Spades 12"], shown["Hearts 10"], shown["Clubs 14"], shown["Diamonds 11"]) == ("Q♠", "10♥", "A♣", "J♦")


def test_scenarios_lists_it_and_check_passes_without_a_warning(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"spades/1\s+│\s+Spades, a game to 500", out) and "spades/2" in out
    assert main(["check", *FILES]) == 0
    assert "0 errors, 0 warnings in 6 files" in capsys.readouterr().out


def test_the_scripted_game_passes(capsys):
    assert main(["test", "tests/games/classic_spades_nil_and_bags.yaml"]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


@pytest.mark.parametrize("bots", ["random", "greedy", "ismcts,random,greedy,random"])
@pytest.mark.usefixtures("quick_ismcts")
def test_the_bots_play_whole_games_to_the_end(bots):
    """A whole game, hand after hand, until a team reaches 500 or falls to -350 (the mercy rule)."""
    result = simulate(SCENARIO, players=4, games=1 if "ismcts" in bots else 5, seed=1, bots=bots, env=ENV)
    for game in result["games"]:
        scores = game["final_populations"]
        assert scores[0] == scores[2] and scores[1] == scores[3]  # a team keeps one score
        best = max(scores[0], scores[1])
        assert game["winners"] == [s for s in range(4) if scores[s] == best]
        assert game["rounds"] < 50 and (best >= 500 or min(scores) <= -350)  # ended by a threshold


def test_simulate_plays_the_scenario_from_the_command_line(capsys):
    assert main(["simulate", "--scenario", SCENARIO, "--games", "2", "--seed", "3", "--bots", "greedy"]) == 0
    assert "Team 0" in capsys.readouterr().out


def test_a_spade_leads_only_from_a_hand_of_spades_and_broken_by_play_lets_it_lead_once_played():
    """OpenSpiel's rule (spades/1): never broken; the table rule (spades/2): broken by a spade played."""
    for scenario, broken_leads in (("spades/1", 0), ("spades/2", None)):
        led_broken = 0
        for seed in range(10):
            setup, _ = prepare(ENV, scenario, express=True)
            game, rng = Game(setup, seed, record=False), random.Random(seed)
            played_spade = False
            while not game.over:
                d = game.decision
                if d.kind == "lead":
                    label = game.tables.label
                    held = {label[c].rsplit(" ", 1)[0] for c in game.zone("hand", d.actor)}
                    leads = {label[o.value[0] if isinstance(o.value, tuple) else o.value].rsplit(" ", 1)[0]
                             for o in d.options}
                    if held - {"Spades"} and "Spades" in leads:
                        assert played_spade, (scenario, seed)
                        led_broken += 1
                choice = rng.randrange(len(d.options))
                option = d.options[choice]
                if d.kind in ("lead", "follow"):
                    card = option.value[0] if isinstance(option.value, tuple) else option.value
                    played_spade |= game.tables.label[card].startswith("Spades")
                game.apply(choice)
        if broken_leads is not None:
            assert led_broken == broken_leads
        else:
            assert led_broken > 0


def test_end_game_only_in_an_end_of_round_hook(tmp_path, capsys):
    bad = tmp_path / "bad.power"
    bad.write_text("power Bad {\n  added\n  on win {\n    end game\n  }\n}\n")
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "error[C046]: 'end game' only makes sense in" in out and "at end of round" in out
    good = tmp_path / "good.power"
    good.write_text("power Good {\n  added\n  at end of round {\n    if round == 2 {\n      end game\n    }\n  }\n}\n")
    assert main(["check", str(good)]) == 0


def test_a_low_win_threshold_ends_the_game_with_the_hand_that_reaches_it(tmp_path):
    scenario = tmp_path / "low.scenario.yaml"
    scenario.write_text("title: Spades to 50\nbox: spades\nfactions: [Clubs, Diamonds, Hearts, Spades]\n"
                        "added: [SpadesTable]\nplayers: 4\nhouse_rules: {encounter: false, sides: [\"+\"]}\n"
                        "options: {win_threshold: 50, mercy_threshold: -50}\n")
    for seed in range(5):
        setup, _ = prepare(ENV, str(scenario))
        game, rng = Game(setup, seed, record=False), random.Random(seed)
        while not game.over:
            game.apply(rng.randrange(len(game.decision.options)))
        scores = [game.population[0], game.population[1]]
        # the last hand brought a team to 50 (and 200 more) or to -50 (and 200 less); none before
        assert max(scores) >= 250 or min(scores) <= -250, scores


def test_serve_shows_the_names_and_plays_a_hand_to_the_end():
    from happydayz.table.session import TableSession

    session = TableSession.start(ENV, SCENARIO, express=True, seed=3)
    view = session.view(0)
    assert view["decision"]["kind"] == "choose"  # seat 0 bids first
    assert [o["label"] for o in view["decision"]["options"]] == [str(n) for n in range(14)]
    names = [card["name"] for card in view["hand"]]
    assert len(names) == 13 and all(re.fullmatch(r"(10|[2-9JQKA])[♣♦♥♠]", n) for n in names)
    while not session.over:
        session.answer(0)
    assert session.game.over
