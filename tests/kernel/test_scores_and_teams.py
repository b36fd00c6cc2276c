"""The hand's score (floor, target, winner) and teams, played: both loops, every bot, and what a team's win is
everywhere it is counted (simulate's summary, the until-CI rates, the report, the end-of-game sentence).

The scripted games tests/games/score_*.yaml and teams_*.yaml play the rules by hand.
"""

from __future__ import annotations

import pytest

from happydayz.kernel.game import Game, winners_of
from happydayz.kernel.outcome import winners_text
from happydayz.kernel.setup import prepare
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots
from happydayz.report.analysis import analyse
from happydayz.report.results import Results, _record
from happydayz.simulation.precision import rate_counts
from happydayz.simulation.simulate import simulate

from conftest import ENV, ROOT
from test_hand_played import _both_loops

MODS = ROOT / "tests" / "games" / "mods"
SCENARIOS = ("score_below_zero", "score_target", "score_target_fewest", "teams_pooled", "teams_each")


def _setup(name: str, express: bool = False):
    return prepare(ENV, MODS / f"{name}.scenario.yaml", express=express)[0]


@pytest.mark.parametrize("name", SCENARIOS)
def test_both_loops_play_the_same_games_of_a_score_or_teams(name, monkeypatch):
    _both_loops(_setup(name), 8, monkeypatch)


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("name", ("score_below_zero", "teams_pooled"))
@pytest.mark.usefixtures("quick_ismcts")
def test_every_bot_plays_a_score_below_zero_and_teams_to_the_end(name, bot):
    setup = _setup(name)
    game = Game(setup, 3)
    play_game(game, make_bots([bot] * setup.n, 3))
    assert game.over and game.winners


def test_winners_most_fewest_and_no_winner_against_the_floor():
    assert winners_of([0, 0, 0], 0, "most") == []  # every Community at the floor: nobody wins
    assert winners_of([-13, -1, 0], None, "most") == [2]  # no floor: the best, even 0
    assert winners_of([-5, -5, 3], None, "most") == [2]
    assert winners_of([72, 66, 66], 0, "fewest") == [1, 2]  # ties shared
    assert winners_of([-3, -3, -3], None, "most") == [0, 1, 2]


def test_a_pooled_team_keeps_one_score_and_its_partners_show_it():
    setup = _setup("teams_pooled")
    assert (setup.teams, setup.team_of, setup.partner_of, setup.pooled) == (
        ((0, 2), (1, 3)), ((0, 2), (1, 3), (2, 0), (3, 1)), (2, 3, 0, 1), True)
    game = Game(setup, 5)
    play_game(game, make_bots(["random"] * 4, 5))
    assert game.population[0] == game.population[2] and game.population[1] == game.population[3]
    result = game.result()
    assert result["teams"] == [[0, 2], [1, 3]] and result["team_score"] == "pooled"
    assert result["winners"] in ([0, 2], [1, 3], [0, 1, 2, 3])
    assert result["winning_teams"] == [i for i, t in enumerate(result["teams"]) if t[0] in result["winners"]]


def test_a_game_without_teams_keeps_its_result_keys():
    game = Game(_setup("score_target_fewest"), 1)  # (the floor of 0: no key of its own)
    play_game(game, make_bots(["random"] * 3, 1))
    assert sorted(game.result()) == ["final_populations", "rounds", "seed", "winners"]
    game = Game(_setup("score_below_zero"), 1)  # another floor, or none: the result says it (the report reads it)
    play_game(game, make_bots(["random"] * 3, 1))
    assert sorted(game.result()) == ["final_populations", "floor", "rounds", "seed", "winners"]
    assert game.result()["floor"] == "none"


def test_simulate_counts_a_teams_win_once_for_the_team_never_for_each_partner():
    result = simulate(str(MODS / "teams_pooled.scenario.yaml"), games=12, seed=4, bots=["random"] * 4, env=ENV)
    summary, games = result["summary"], result["games"]
    assert "wins" not in summary and "win_rate" not in summary
    assert summary["teams"] == [[0, 2], [1, 3]]
    assert summary["team_wins"] == [sum(0 in g["winning_teams"] for g in games),
                                    sum(1 in g["winning_teams"] for g in games)]
    assert sum(summary["team_wins"]) == 12 + summary["shared_wins"] - summary["no_winner"]
    rates = rate_counts(games, 4)
    assert [r[0] for r in rates[:2]] == ["Team 0's win rate", "Team 1's win rate"]
    assert all("Community" not in what for what, _, _ in rates)


def test_the_report_gives_a_win_rate_per_team_and_no_seat_wins_for_team_games(tmp_path):
    records = [{"game": 0, "rounds": 1, "final_populations": [70, 50, 70, 50], "winners": [0, 2],
                "teams": [[0, 2], [1, 3]], "team_score": "pooled", "winning_teams": [0]},
               {"game": 1, "rounds": 1, "final_populations": [40, 60, 40, 60], "winners": [1, 3],
                "teams": [[0, 2], [1, 3]], "team_score": "pooled", "winning_teams": [1]},
               {"game": 2, "rounds": 1, "final_populations": [80, 50, 70, 50], "winners": [0, 2],
                "teams": [[0, 2], [1, 3]], "team_score": "each", "winning_teams": [0]}]
    games = [_record(r, i, "", ("games", i), tmp_path / "r.json") for i, r in enumerate(records)]
    analysis = analyse(Results(tmp_path / "r.json", "simulate", games))
    assert analysis["seats"] == {}  # a team's win is never a win of each seat
    (section,) = analysis["teams"]
    assert [(row["seats"], row["win"].successes) for row in section["rows"]] == [([0, 2], 2), ([1, 3], 1)]
    assert section["fair_share"] == 0.5
    assert analysis["overall"]["shared"].successes == 0  # two partners winning is not a shared win
    assert [row["population"].mean for row in section["rows"]] == [(70 + 40 + 150) / 3, (50 + 60 + 100) / 3]


def test_the_end_of_game_sentence_names_the_team():
    assert winners_text([0, 2], you=2, teams=[[0, 2], [1, 3]]) == \
        "Team 0 (Community 0 and Community 2 (you)) wins."
    assert winners_text([0, 1, 2, 3], teams=[[0, 2], [1, 3]]) == \
        "Team 0 (Community 0 and Community 2) and Team 1 (Community 1 and Community 3) share the win."
    assert winners_text([0, 2]) == "Community 0 and Community 2 share the win."


def test_ismcts_rewards_a_team_against_the_other_teams_never_against_a_partner():
    from types import SimpleNamespace

    from happydayz.players.ismcts import ISMCTSAgent

    setup = _setup("teams_each")
    counted = SimpleNamespace(n=4, history=[{"deltas": [4, -2, 3, 1], "populations": [70, 64, 69, 67]}],
                              round_gain=[0] * 4, population=[70, 64, 69, 67])
    agent = ISMCTSAgent(0, reward="best").bind(setup, 0)
    rewards = agent.rewards(counted, 0)
    # team 0-2: 4 + 3 = 7, team 1-3: -2 + 1 = -1; partners get the same reward, the teams mirror each other
    assert rewards[0] == rewards[2] > 0.5 > rewards[1] == rewards[3]
    assert rewards[0] == pytest.approx(0.5 + 0.5 * __import__("math").tanh(8 / agent.scale))


def test_a_position_below_the_floor_is_refused_at_its_place(tmp_path, capsys):
    from happydayz.cli.app import main

    path = tmp_path / "g.yaml"
    path.write_text("factions: [Hippies, Soldiers, Dogs]\nbox: woodstock-fever\nplayers: 3\nposition:\n"
                    "  hands: {0: [Hippies 1], 1: [Hippies 2], 2: [Hippies 3]}\n  populations: [-1, 66, 66]\n"
                    "answers: []\n", encoding="utf-8")
    assert main(["replay", "--quiet", str(path)]) == 1
    out = capsys.readouterr()
    assert ("g.yaml:6:16: error[D041]: position.populations: a population below 0: the hand's score is floored at 0 "
            "(give it floor: none to play scores below it)") in out.out + out.err
