"""Issue 27: the greedy bots read the game-wide `rule counts as` (and trumps) when they weigh a card.

The position: Euchre's left bower (docs/cookbook/euchre-left-bower), the dealer names the Scientists; seat 0
leads Scientists 12. Seat 1 holds Nurses 11 (the left bower: a Scientist ranked 19, it follows and takes the
trick) and Scientists 2 (it follows and loses). A bot that read the printed Faction would see the bower as a
Nurse that cannot win; both bots now see it win the trick.
"""

from __future__ import annotations

import pytest

from happydayz.data.environment import Environment
from happydayz.kernel.observation import observe
from happydayz.kernel.scripted import load_script, play_script
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent

from conftest import ROOT

COOKBOOK = ROOT / "docs" / "cookbook"


def _position(tmp_path):
    for name in ("euchre-left-bower.power", "euchre-left-bower.scenario.yaml"):
        (tmp_path / name).write_text((COOKBOOK / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "g.yaml").write_text("""title: the left bower, to follow a trump lead
scenario: euchre-left-bower.scenario.yaml
players: 2
express: true
rounds:
  - hands:
      0: [Scientists 12, Nurses 3, Nurses 4]
      1: [Nurses 11, Scientists 2, Nurses 6]
    reserve: []
answers:
  - "0: Scientists"
  - "0: Scientists 12 on +"
  - check: {decider: 1, kind: follow, options: [Nurses 11, Scientists 2]}
end: waiting
""", encoding="utf-8")
    return play_script(load_script(tmp_path / "g.yaml"), Environment()).game


@pytest.mark.parametrize("bot", [GreedyAgent, FastGreedyAgent])
def test_the_greedy_bots_see_the_left_bower_take_the_trick(tmp_path, bot):
    game = _position(tmp_path)
    agent = bot(seed=0).bind(game.setup, 1)
    labels = [o.label for o in game.decision.options]
    chosen = labels[agent.decide(observe(game, 1), game.decision)]
    assert chosen == "Nurses 11"
    scores = dict(zip(labels, agent.option_scores(observe(game, 1), game.decision)))
    # the negative control: the same bot reading printed Factions (no game-wide rule) sees no card winning
    blind = bot(seed=0).bind(game.setup, 1)
    blind.setup = type(game.setup).__new__(type(game.setup))
    blind.setup.__dict__.update(game.setup.__dict__, game_counts_as=())
    blind_scores = dict(zip(labels, blind.option_scores(observe(game, 1), game.decision)))
    assert scores["Nurses 11"] - scores["Scientists 2"] > blind_scores["Nurses 11"] - blind_scores["Scientists 2"]
