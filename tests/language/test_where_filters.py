"""The compiler's shortcut for `where <attribute> <comparison> <value>` filters changes no game.

Filters such as `faction is led` or `value > 5` read the compared value once
instead of binding `it` for every element (compiler.Compiler._attribute_test).
Every game must come out exactly as with the general path.
"""

from __future__ import annotations

import random

import pytest

from happydayz.data.environment import Environment
from happydayz.language.compiler import Compiler
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SIFTERS = """
power Sifters {
  for faction Sifters
  on win {
    each card in trick where value > 5 {
      move card to expedition of left
    }
    choose card from held where value <= 3 {
      move card to discard
    }
  }
  at end of round {
    gain count(expedition where survivors != -1)
    lose count(expedition where value >= 10)
    gain count(expedition where faction is Hippies)
  }
}
"""

SCENARIO = """
title: Filter test
box: woodstock-fever
factions:
  - Sifters
  - Hippies
  - Dogs
custom_factions:
  - name: Sifters
    power: sifters.power
    cards: [{values: "1-13", survivors: -1}]
"""


def _logs(scenario: str, players: int, seeds) -> list[list[dict]]:
    env = Environment()  # a new one compiles the powers again, with the compiler as it is now
    sc, lib = env.resolve_scenario(scenario)
    setup = build_setup(sc, lib, GameOptions(players=players), env)
    logs = []
    for seed in seeds:
        game = Game(setup, seed)
        chooser = random.Random(seed)
        while game.decision is not None:
            game.apply(chooser.randrange(len(game.decision.options)))
        logs.append(game.log)
    return logs


@pytest.mark.parametrize("scenario", ["custom", "woodstock-fever/1", "american-dream/1"])
def test_the_filter_shortcut_plays_every_game_as_the_general_path(tmp_path, monkeypatch, scenario):
    if scenario == "custom":
        (tmp_path / "sifters.power").write_text(SIFTERS, encoding="utf-8")
        scenario = str(tmp_path / "scenario.yaml")
        (tmp_path / "scenario.yaml").write_text(SCENARIO, encoding="utf-8")
    fast = _logs(scenario, 3, range(4))
    with monkeypatch.context() as m:
        m.setattr(Compiler, "_attribute_test", lambda self, cond: None)
        general = _logs(scenario, 3, range(4))
    assert fast == general
    assert any(e["event"] == "move" for log in fast for e in log)  # the filtered moves did happen
