"""A group never holds an element twice, so a choice offers each element once (docs/language.md)."""

from __future__ import annotations

from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

ECHOES = """
power Echoes {
  for faction Echoes
  on win {
    choose f from [Hippies, Dogs, Hippies, Echoes, Dogs] {
      choose c from trick + trick + encounter {
        move c to expedition of left
      }
    }
  }
}
"""

SCENARIO = """
title: Group test
box: woodstock-fever
factions: [Echoes, Hippies, Dogs]
custom_factions:
  - name: Echoes
    power: echoes.power
    cards: [{values: "1-13", survivors: -1}]
"""


def test_repeated_elements_are_offered_once(tmp_path):
    (tmp_path / "echoes.power").write_text(ECHOES, encoding="utf-8")
    (tmp_path / "groups.yaml").write_text(SCENARIO, encoding="utf-8")
    env = Environment()
    sc, lib = env.resolve_scenario(str(tmp_path / "groups.yaml"))
    game = Game(build_setup(sc, lib, GameOptions(players=3, express=True), env), 4)
    asked = []
    while game.decision is not None and len(asked) < 2:
        d = game.decision
        if d.kind == "choose" and game.frames[0].key[0].endswith("echoes.power"):
            asked.append(d)
        game.apply(0)
    assert asked, "no Echoes trick was won"
    factions, cards = asked
    assert [o.label for o in factions.options] == ["Hippies", "Dogs", "Echoes"]  # first of each, in order
    values = [o.value for o in cards.options]
    assert len(values) == len(set(values)) and 4 <= len(values) <= 5  # the trick's cards and the Encounter card, once
