"""A game-wide `rule counts as FACTION ranked VALUE when C` (issue 27): the cookbook's euchre-left-bower game,
with negative controls (the same game without the rule, and with the bowers' ranks swapped), and the fast
trick path stepping aside where such a rule is in force."""
from __future__ import annotations

import shutil

from happydayz.authoring.testing import run_script
from happydayz.data.environment import Environment
from happydayz.kernel import fastpath
from happydayz.kernel.game import Game

from conftest import ROOT

COOKBOOK = ROOT / "docs" / "cookbook"
FILES = ("euchre-left-bower.power", "euchre-left-bower.scenario.yaml", "euchre-left-bower.yaml")


PROBLEM = "answers[4]: the options should be ['Nurses 11', 'Scientists 10', 'Scientists 2'], but they are ['Nurses 11']"


def _copy(tmp_path, edit=None):
    for name in FILES:
        shutil.copy(COOKBOOK / name, tmp_path / name)
    if edit is not None:
        power = tmp_path / FILES[0]
        power.write_text(edit(power.read_text(encoding="utf-8")), encoding="utf-8")
    return tmp_path / FILES[2]


def test_both_bowers_follow_lead_and_win_as_trumps(tmp_path):
    result = run_script(_copy(tmp_path), Environment())
    assert result.passed and result.error is None and result.problems == []


def test_without_the_rule_the_left_bower_is_a_nurse_again(tmp_path):
    # negative control: seat 1 holds a Nurse, so it must follow with it
    lines = lambda text: "\n".join(l for l in text.splitlines() if "rule counts as" not in l) + "\n"
    result = run_script(_copy(tmp_path, lines), Environment())
    assert not result.passed
    assert result.problems == [PROBLEM] and result.error is not None
    assert result.error.message.endswith("Legal options: Nurses 11")


def test_the_rank_decides_between_the_two_bowers(tmp_path):
    # negative control: the left bower ranked above the right takes trick 2, so the expected count is wrong
    swap = lambda text: text.replace("ranked 19", "ranked 21")
    result = run_script(_copy(tmp_path, swap), Environment())
    assert not result.passed
    # the left bower took trick 2: seat 1, not seat 0, leads trick 3 with its last card
    assert result.error is not None and result.error.code == "D043"
    assert result.error.message.endswith("Legal options: Scientists 10 on +; Scientists 10 on -")


def test_the_fast_trick_path_steps_aside_where_a_card_counts_as_another_faction(tmp_path):
    from happydayz.kernel.setup import GameOptions, build_setup

    _copy(tmp_path, lambda text: 'power "Left Bower" {\n  added\n\n'
                                 '  rule counts as Scientists ranked 19 when value of played == 11\n}\n')
    env = Environment()
    scenario, library = env.resolve_scenario(str(tmp_path / FILES[1]))
    setup = build_setup(scenario, library, GameOptions(players=2, express=True), env)
    assert len(setup.game_counts_as) == 1
    assert fastpath.source_for(Game(setup, 1, record=False)) is None
    setup.game_counts_as = ()  # negative control: nothing else of this game keeps the kernel's loop
    assert fastpath.source_for(Game(setup, 1, record=False)) is not None
