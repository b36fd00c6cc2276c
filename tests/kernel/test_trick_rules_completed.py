"""Issue 28, the trick rules completed: what the scripted games' expectations do not show.

The scripted games (tests/games/rule_conditional_lead_rules.yaml, rule_next_side_after_trick.yaml,
rule_trick_nobody_takes.yaml and the cookbook's wizard-wizard-lead, mod-tide-turner, tarot-trumps,
tichu-dog-out) prove the outcomes; here: the event log and the narration of a trick nobody takes,
tricks(), what a table infers of voids, and every bot playing each new construct to the end.
"""

from __future__ import annotations

import json

import pytest

from happydayz.cli import main
from happydayz.data.environment import Environment
from happydayz.kernel import fastpath
from happydayz.kernel.scripted import load_script, play_script
from happydayz.table.narration import narrate

from conftest import ROOT

GAMES = ROOT / "tests" / "games"
COOKBOOK = ROOT / "docs" / "cookbook"


def _played(path):
    return play_script(load_script(path), Environment()).game


def test_a_trick_nobody_takes_is_won_by_nobody_in_the_log_the_narration_and_the_count():
    game = _played(GAMES / "rule_trick_nobody_takes.yaml")
    events = [e for e in game.log if e["event"] in ("win", "untaken")]
    assert [e["event"] for e in events] == ["untaken", "win"]
    assert events[0]["cards"] == ["Ghosts 5", "Ghosts 9", "Scientists 7"] and events[0]["to"] == "reserve"
    assert events[1]["seat"] == 1
    lines = [line.text for line in narrate(game)]
    untaken = [text for text in lines if text.startswith("Nobody takes the trick")]
    assert untaken == ["Nobody takes the trick: Ghosts led on the + side - Ghosts 5, Ghosts 9, Scientists 7; its cards "
                       "go to the bottom of the Reserve."]
    assert [text for text in lines if text.startswith("Trick won by")] == [
        "Trick won by Community 1: Scientists led on the + side - Scientists 4, Scientists 10, Children 3"]
    # the Reserve's bottom holds the trick (play order) and its Encounter card
    labels = [game.tables.label[c] for c in game.zones["reserve"]]
    assert labels[-4:] == ["Ghosts 5", "Ghosts 9", "Scientists 7", "Children 1"]


def test_the_dog_trick_goes_to_the_discard_pile():
    game = _played(COOKBOOK / "tichu-dog-out.yaml")
    assert [e["event"] for e in game.log if e["event"] in ("win", "untaken")] == ["untaken", "win", "win"]
    assert [game.tables.label[c] for c in game.zones["discard"]] == ["Hounds", "Scientists 1"]


def test_no_hook_of_a_won_trick_runs_for_a_trick_nobody_takes(tmp_path):
    power = (GAMES / "mods" / "ghosts.power").read_text(encoding="utf-8").rstrip().rstrip("}")
    power += "  after trick {\n    gain 100\n  }\n\n  on win {\n    gain 1000\n  }\n}\n"
    (tmp_path / "ghosts.power").write_text(power, encoding="utf-8")
    (tmp_path / "s.yaml").write_text((GAMES / "mods" / "ghosts.scenario.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    script = (GAMES / "rule_trick_nobody_takes.yaml").read_text(encoding="utf-8")
    (tmp_path / "g.yaml").write_text(script.replace("mods/ghosts.scenario.yaml", "s.yaml"), encoding="utf-8")
    game = _played(tmp_path / "g.yaml")
    hooks = [(e["event"], e.get("seat")) for e in game.log if e["event"] in ("untaken", "win", "power")]
    # the on lead of trick 1 (seat 0), nobody takes it; trick 2 is won: its after trick runs, once, for seat 1
    assert hooks == [("power", 0), ("untaken", None), ("win", 1), ("power", 1)]
    assert game.population == [66, 184, 66]  # 84, and the after trick's 100 for the one trick won


def test_a_card_always_playable_on_a_condition_shows_a_void_only_when_its_player_had_none():
    game = _played(COOKBOOK / "wizard-wizard-lead.yaml")
    plays = [e for e in game.log if e["event"] == "play"]
    assert plays[1] == {**plays[1], "seat": 1, "card": "Knights 9"}
    # Seat 1 held a Wizard when it played its Knight to the Wizard lead: not void in Wizards; seat 2 was.
    assert "Wizards" not in game.voids[1]


@pytest.mark.parametrize("scenario", [COOKBOOK / "wizard-wizard-lead.scenario.yaml", GAMES / "mods" / "moons.scenario.yaml",
                                      COOKBOOK / "mod-tide-turner.scenario.yaml", GAMES / "mods" / "seesaw.scenario.yaml",
                                      COOKBOOK / "tarot-trumps.scenario.yaml", COOKBOOK / "tichu-dog-out.scenario.yaml",
                                      GAMES / "mods" / "ghosts.scenario.yaml"], ids=lambda p: p.stem)
@pytest.mark.parametrize("bots", ["random", "greedy", "ismcts,greedy,random"])
@pytest.mark.usefixtures("quick_ismcts")
def test_each_bot_plays_each_new_construct_to_the_end(capsys, scenario, bots):
    players = "4" if "tichu" in scenario.name else "3"
    games = 1 if "ismcts" in bots else 3
    bots = bots if "," not in bots else ",".join((bots.split(",") + ["random"])[:int(players)])
    code = main(["simulate", "--scenario", str(scenario), "--players", players, "--games", str(games), "--seed", "3",
                 "--bots", bots, "--express", "--json", "-"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["games"]) == games and all(g["winners"] is not None for g in result["games"])


def test_the_generated_trick_loop_steps_aside_only_for_the_powers_that_need_it():
    from happydayz.kernel.scripted import build_game
    for path, used in ((COOKBOOK / "mod-tide-turner.yaml", True), (COOKBOOK / "tarot-trumps.yaml", True),
                       (GAMES / "rule_minivans_only_trick_goes_to_leader.yaml", False)):
        game = build_game(load_script(path), Environment())
        assert (fastpath.source_for(game) is None) is used, path.name
