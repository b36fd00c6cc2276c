"""`end game` (docs/language.md, Statements): a power's `at end of round` hook ends the game at that
round's count, whatever rounds are left; the end-of-game hooks and the winner follow as at any end.
A game whose powers never say it plays all its rounds, as before."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare

ENV = Environment()
MODS = Path(__file__).resolve().parents[1] / "games" / "mods"

STOPPER = """power Stopper {
  added

  option stop_at = 2

  counter ended

  at end of round {
    if round == stop_at {
      gain 5
      end game
    }
  }

  at end of game {
    add 1 to ended
  }
}
"""


def _scenario(tmp_path: Path, stop_at: int) -> str:
    tmp_path.mkdir(exist_ok=True)
    shutil.copy(MODS / "plain.power", tmp_path / "plain.power")
    (tmp_path / "stopper.power").write_text(STOPPER)
    path = tmp_path / "stop.scenario.yaml"
    path.write_text("title: A power ends the game\nbox: woodstock-fever\nfactions: [Plain]\nplayers: 3\nadded: [Stopper]\n"
                    "custom_factions:\n  - {name: Plain, power: plain.power}\n"
                    "added_powers:\n  - {name: Stopper, power: stopper.power}\n"
                    "hand: {hand_size: 2, transfer: {cards: 0}}\n"
                    f"options: {{stop_at: {stop_at}}}\nhouse_rules: {{encounter: false, rounds: 4, elimination: false}}\n")
    return str(path)


def _play(scenario: str, seed: int = 0) -> Game:
    setup, _ = prepare(ENV, scenario)
    game, rng = Game(setup, seed), random.Random(seed)
    while not game.over:
        game.apply(rng.randrange(len(game.decision.options)))
    return game


def test_end_game_ends_the_game_at_that_rounds_count(tmp_path):
    game = _play(_scenario(tmp_path / "a", 2))
    played_on = _play(_scenario(tmp_path / "b", 9))  # the same seed and moves: the same first two rounds
    assert game.round_no == 2 and len(game.history) == 2 and played_on.round_no == 4
    # the round that ends the game is counted whole, its hooks' gains too
    assert game.history[-1]["deltas"] == [d + 5 for d in played_on.history[1]["deltas"]]
    assert game.state[("Stopper:ended", None)] == 3  # the end-of-game hooks ran, once per Community
    assert [e["what"] for e in game.log if e["event"] == "end"] == ["game"] * 3  # once per Community's hook
    best = max(game.population)
    assert game.winners == [s for s in range(3) if game.population[s] == best]


def test_a_game_whose_power_never_says_it_plays_every_round(tmp_path):
    game = _play(_scenario(tmp_path, 9))
    assert game.round_no == 4 and len(game.history) == 4
    assert not [e for e in game.log if e["event"] == "end"]


def test_end_game_elsewhere_is_refused_at_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.power"
    bad.write_text("power Bad {\n  added\n  after trick {\n    end game\n  }\n}\n")
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.power:4:5: error[C046]: 'end game' only makes sense in" in out and "at end of round" in out
