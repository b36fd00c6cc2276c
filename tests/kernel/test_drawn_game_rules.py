"""Issue 27: the game-wide rules of an added power drawn by the random-power rule apply like a fixed one's.

The scripted game tests/games/random_power_game_wide_trump.yaml proves the outcome (round 1 without the
drawn power: no cut; round 2 with it: a Plain card cuts); here: who won each trick, the setup's game-wide
rules before and after the draw, and that a drawn power with no game-wide rule leaves the setup as it was.
"""

from __future__ import annotations

from happydayz.data.environment import Environment
from happydayz.kernel.scripted import load_script, play_script

from conftest import ROOT

GAME = ROOT / "tests" / "games" / "random_power_game_wide_trump.yaml"


def test_a_drawn_added_power_brings_its_game_wide_trump_from_the_next_round():
    game = play_script(load_script(GAME), Environment()).game
    drawn = [(e["power_kind"], e["name"]) for e in game.log if e["event"] == "power_drawn"]
    assert drawn == [("added", "Cutters"), ("faction", "Plain")]
    wins = [(e["round"], e["seat"]) for e in game.log if e["event"] == "win"]
    assert wins == [(1, 0), (2, 2)]
    assert game.added == ["Cutters"]
    assert len(game.setup.game_trumps) == 1 and game.setup.game_counts_as == ()


def test_the_setup_is_kept_where_the_drawn_powers_carry_no_game_wide_rule():
    game = play_script(load_script(GAME), Environment()).game
    base = game.setup.with_added(())  # (the derived setup shares its cache with the scenario's)
    assert base.game_trumps == () and base.with_added([]) is base
    bunker = [name for name in base.power_pool_added if name != "Cutters"]
    assert bunker and base.with_added(bunker) is base  # the Bunker: no game-wide rule, the same setup
    with_cutters = base.with_added(["Cutters"])
    assert with_cutters is not base and with_cutters is base.with_added(("Cutters",))
    assert with_cutters.kernel_tables is base.kernel_tables


def test_check_warns_where_a_drawable_power_s_game_wide_trump_meets_a_faction_s_own(tmp_path):
    from happydayz.authoring.checking import check_paths
    mods = ROOT / "tests" / "games" / "mods"
    (tmp_path / "cutters.power").write_text((mods / "cutters.power").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "cops.power").write_text("power Cops {\n  for faction Cops\n  rule trumps when void\n}\n",
                                         encoding="utf-8")
    scenario = (mods / "cutters.scenario.yaml").read_text(encoding="utf-8")
    scenario = scenario.replace("[Scientists, Plain]", "[Scientists, Cops]").replace("name: Plain", "name: Cops")
    (tmp_path / "s.yaml").write_text(scenario.replace("plain.power", "cops.power"), encoding="utf-8")
    found = [(d.code, d.span.line) for d in check_paths([tmp_path / "s.yaml"]) if d.severity == "warning"]
    assert ("W013", 3) in found, found
    # the negative control: without the drawable power, no warning
    (tmp_path / "s.yaml").write_text(scenario.replace("plain.power", "cops.power").split("added_powers:")[0]
                                     + "hand:\n  transfer: {cards: 0}\n", encoding="utf-8")
    assert [d.code for d in check_paths([tmp_path / "s.yaml"]) if d.severity == "warning"] == []
