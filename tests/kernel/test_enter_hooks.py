"""Issue 28, item 5: `on enter expedition` / `on enter hand`, a hook when a card enters a Community's zone.

The scripted game docs/cookbook/mod-medic-cleanup.yaml proves the outcome (a Zombie discarded at once);
here: the events, who the hook runs for, `mover`, that the deal runs none, the bounded chain (R002),
the generated trick loop stepping aside, and every bot playing it to the end.
"""

from __future__ import annotations

import json

import pytest

from happydayz.base.errors import GameRuleError
from happydayz.cli import main
from happydayz.data.environment import Environment
from happydayz.kernel import fastpath
from happydayz.kernel.scripted import build_game, load_script, play_script

from conftest import ROOT
from test_events_and_state import jesters

GAMES = ROOT / "tests" / "games"
COOKBOOK = ROOT / "docs" / "cookbook"
MEDICS = COOKBOOK / "mod-medic-cleanup.yaml"


def _played(path):
    return play_script(load_script(path), Environment()).game


def test_the_hook_runs_once_per_card_entering_for_its_receiver_and_acts_on_the_card_at_once():
    game = _played(MEDICS)
    entered = [(e["seat"], e["card"], e["from"], e["mover"]) for e in game.log if e["event"] == "enter"]
    # trick 1: seat 0 takes 3 cards + the Encounter card; trick 2: seat 2 the same (a won trick: no mover)
    assert entered == [(0, "Scientists 9", "trick", None), (0, "Zombies 4", "trick", None),
                       (0, "Scientists 7", "trick", None), (0, "Scientists 10", "trick", None),
                       (2, "Scientists 2", "trick", None), (2, "Zombies 6", "trick", None),
                       (2, "Scientists 1", "trick", None), (2, "Scientists 11", "trick", None)]
    moves = [e for e in game.log if e["event"] == "move"]
    assert [(m["power"], m["hook"], m["by"], m["cards"], m["to"]) for m in moves] == [
        ("Medics", "enter_expedition", 0, ["Zombies 4"], "discard")]
    assert [game.tables.label[c] for c in game.zones["discard"]] == ["Zombies 4"]


def test_the_deal_runs_no_enter_hook(tmp_path):
    # `on enter hand` gains 1000 per card: the deal of 14 cards a hand would give 14,000 each
    game = jesters(tmp_path, "\non enter hand {\n  gain 1000\n}\n")
    assert game.phase in ("transfer", "lead") and len(game.zone("hand", 0)) > 0
    assert [e for e in game.log if e["event"] == "enter"] == [] and game.round_gain == [0, 0, 0]
    game.play(lambda d: 0)
    # afterwards only cards a power moved into a hand (the Zombies' deal) gained
    dealt = [e for e in game.log if e["event"] == "enter"]
    assert all(e["to"] == "hand" and e["mover"] == "Zombies" for e in dealt)


def test_a_power_that_moves_a_card_is_its_mover(tmp_path):
    # the Zombies' on win deals a trick's Zombies, one to each Expedition zone: `on enter expedition` sees
    # mover Zombies, from expedition (the winner's, where the trick went); a won trick's cards have no mover
    (tmp_path / "m.power").write_text(
        "power Medics {\n  for faction Medics\n\n  on enter expedition {\n    if Zombies in mover {\n"
        "      gain 100\n    }\n  }\n}\n", encoding="utf-8")
    scenario = (COOKBOOK / "mod-medic-cleanup.scenario.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(scenario.replace("mod-medic-cleanup.power", "m.power"), encoding="utf-8")
    (tmp_path / "g.yaml").write_text("""title: a Zombie lead deals the trick's Zombies
scenario: s.yaml
players: 3
position:
  hands: {0: [Zombies 9], 1: [Zombies 4], 2: [Scientists 3]}
  reserve: [Scientists 10]
  active: 0
answers:
  - "0: Zombies 9 on +"
  - "1: Zombies 4"
  - "2: Scientists 3"
end: over
""", encoding="utf-8")
    game = _played(tmp_path / "g.yaml")
    entered = [(e["seat"], e["card"], e["from"], e["mover"]) for e in game.log if e["event"] == "enter"]
    # Zombies 9 stays in seat 0's zone (dealt to the winner: it enters nothing); Zombies 4 goes to seat 1
    assert entered == [(0, "Zombies 9", "trick", None), (0, "Zombies 4", "trick", None),
                       (0, "Scientists 3", "trick", None), (0, "Scientists 10", "trick", None),
                       (1, "Zombies 4", "expedition", "Zombies")]
    gains = [(e["power"], e["seat"], e["amount"]) for e in game.log if e["event"] == "score"]
    assert ("Medics", 1, 100) in gains and [g for g in gains if g[0] == "Medics"] == [("Medics", 1, 100)]


def test_a_chain_of_enter_hooks_is_stopped_with_the_chain_of_powers(tmp_path):
    # each card entering an Expedition zone is moved on to the left one's, which moves it on again
    game = jesters(tmp_path, "\non enter expedition {\n  move entered to expedition of left\n}\n")
    with pytest.raises(GameRuleError) as caught:
        game.play(lambda d: 0)
    d = caught.value.diagnostics[0]
    assert d.code == "R002"
    assert d.message == ("the hooks 'on enter expedition' kept triggering one another: "
                         + " -> ".join(["Jesters"] * 9) + "; a chain of more than 8 is stopped")


def test_a_chain_within_the_limit_runs_to_its_end(tmp_path):
    # the negative control: a card moved on once (only from a won trick) stops there
    game = jesters(tmp_path, "\non enter expedition {\n  if count(mover) == 0 {\n    move entered to expedition of left\n"
                             "  }\n}\n")
    game.play(lambda d: 0)
    assert game.decision is None


def test_the_generated_trick_loop_steps_aside_only_when_an_enter_hook_is_in_force():
    for path, used in ((MEDICS, True), (GAMES / "rule_minivans_only_trick_goes_to_leader.yaml", False)):
        game = build_game(load_script(path), Environment())
        assert (fastpath.source_for(game) is None) is used, path.name


@pytest.mark.parametrize("bots", ["random", "greedy", "ismcts,greedy,random"])
@pytest.mark.usefixtures("quick_ismcts")
def test_each_bot_plays_a_game_with_enter_hooks_to_the_end(capsys, bots):
    games = 1 if "ismcts" in bots else 3
    code = main(["simulate", "--scenario", str(COOKBOOK / "mod-medic-cleanup.scenario.yaml"), "--players", "3",
                 "--games", str(games), "--seed", "3", "--bots", bots, "--express", "--json", "-"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["games"]) == games and all(g["winners"] is not None for g in result["games"])


GREETERS = GAMES / "enter_hand_from_transfer.yaml"


def test_a_card_the_transfer_passes_into_a_hand_enters_it_from_a_hand_with_no_mover():
    # issue 28: the Transfer (hand.transfer.into: hand) runs `on enter hand` like other moves
    game = _played(GREETERS)
    entered = [(e["seat"], e["card"], e["to"], e["from"], e["mover"]) for e in game.log if e["event"] == "enter"]
    assert entered[:3] == [(2, "Plain 4", "hand", "hand", None), (0, "Plain 10", "hand", "hand", None),
                           (1, "Scientists 5", "hand", "hand", None)]
    assert all(to == "expedition" and origin == "trick" for _, _, to, origin, _ in entered[3:]) and len(entered) == 9
    # the hooks ran before the first lead: the transfer event, then the three enter events, then the first play
    kinds = [e["event"] for e in game.log]
    assert kinds.index("transfer") < kinds.index("enter") < kinds.index("play")
    gains = [(e["seat"], e["amount"]) for e in game.log if e["event"] == "score" and e["power"] == "Greeters"]
    assert gains[:3] == [(2, 10), (0, 10), (1, 10)]


def test_a_transfer_into_a_transfer_zone_enters_no_hand(tmp_path):
    # the negative control: the same game with the passed cards in Transfer zones (into: transfer_zone)
    mods = GAMES / "mods"
    for name in ("greeters.power", "plain.power"):
        (tmp_path / name).write_text((mods / name).read_text(encoding="utf-8"), encoding="utf-8")
    scenario = (mods / "greeters.scenario.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(scenario.replace("into: hand", "into: transfer_zone"), encoding="utf-8")
    script = GREETERS.read_text(encoding="utf-8").replace("mods/greeters.scenario.yaml", "s.yaml")
    (tmp_path / "g.yaml").write_text(script.split("expect:")[0], encoding="utf-8")
    game = _played(tmp_path / "g.yaml")
    entered = [e for e in game.log if e["event"] == "enter"]
    assert entered and all(e["to"] == "expedition" for e in entered)
    assert [e for e in game.log if e["event"] == "score" and e["amount"] == 10] == []


@pytest.mark.parametrize("name", ["from_trick", "from_hand", "from_transfer", "from_expedition", "from_reserve",
                                  "from_discard"])
def test_where_a_card_came_from_is_read_only_in_the_enter_hooks(tmp_path, name):
    from happydayz.authoring.checking import check_paths
    path = tmp_path / "p.power"
    path.write_text(f"power P {{\n  added\n\n  at end of round {{\n    if {name} {{\n      gain 1\n    }}\n  }}\n}}\n",
                    encoding="utf-8")
    codes = [d.code for d in check_paths([path])]
    assert "C003" in codes, codes
    path.write_text(f"power P {{\n  added\n\n  on enter hand {{\n    if {name} {{\n      gain 1\n    }}\n  }}\n}}\n",
                    encoding="utf-8")
    assert [d.code for d in check_paths([path]) if d.severity == "error"] == []
