"""Every bot answers every kind of decision the modder's language can ask: courses, numbers, sides,
declarations in `on play`, and plays narrowed by trick rules. A power using them all is played to the end."""

from __future__ import annotations

import json

import pytest

from happydayz.cli import main

POWER = """\
power Jesters {
  for faction Jesters
  counter bid per community secret
  mark broken for round

  variant basic {
    rule wild
    rule leads only when broken
    rule never wins when count(trick where faction is Jesters) > 2
    at start of round {
      choose n from numbers(0, 3) { set bid = n }
    }
    on play {
      set broken = true
      choose f from factions { declare played as f }
    }
    on lead {
      choose s from sides { set side = s }
    }
    on win {
      choose "Take 2" { gain 2 } or "Give 2 to the left" { gain 2 for left } or "End the round" { end round }
    }
    at end of round {
      if tricks(self) == bid { gain 5 }
    }
  }
  variant positive {
    rule must be played when value of played == 13
  }
  variant negative {
    rule only leads
  }
}
"""
SCENARIO = """\
title: Jesters for the bots
box: woodstock-fever
factions: [Jesters, Hippies, Soldiers]
custom_factions:
  - name: Jesters
    power: jesters.power
    cards:
      - {values: "1-13", survivors: 1}
"""


@pytest.mark.parametrize("bots", ["random,random,random", "greedy,greedy,random", "ismcts,greedy,random"])
@pytest.mark.usefixtures("quick_ismcts")
def test_each_bot_plays_a_modded_power_to_the_end(tmp_path, capsys, bots):
    (tmp_path / "jesters.power").write_text(POWER, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    games = 1 if "ismcts" in bots else 3
    code = main(["simulate", "--scenario", str(tmp_path / "s.yaml"), "--players", "3", "--games", str(games),
                 "--seed", "2", "--bots", bots, "--express", "--json", "-"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["games"]) == games and all(g["winners"] for g in result["games"])
