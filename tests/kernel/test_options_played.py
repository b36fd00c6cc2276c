"""Scenario options: a power declares them, the scenario sets them, hooks read them (tests/games/option_*.yaml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from happydayz.base.errors import GameRuleError
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.language.ir import power_ir

from conftest import ROOT

MODS = ROOT / "tests" / "games" / "mods"
SCENARIO = (MODS / "tally.scenario.yaml").read_text(encoding="utf-8")


def _scenario(tmp_path: Path, options: str) -> Path:
    (tmp_path / "tally.power").write_text((MODS / "tally.power").read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("options: {bonus: 3, doubled: true}", options), encoding="utf-8")
    return path


def _played(path: Path, codegen: bool) -> Game:
    game = Game(prepare(Environment(codegen=codegen), path, express=True)[0], 4)
    chooser = random.Random(4)
    game.play(lambda d: chooser.randrange(len(d.options)))
    return game


@pytest.mark.parametrize("codegen", [True, False])
@pytest.mark.parametrize("options, per_trick", [("options: {bonus: 3, doubled: true}", 6),
                                                ("options: {bonus: 2}", 2), ("options: {bonus: 0}", 0)])
def test_the_scenarios_options_or_the_defaults_are_what_the_hooks_read(tmp_path, codegen, options, per_trick):
    """The same game with the defaults (1 a trick) and with the scenario's options: only the bonus differs."""
    default = _played(_scenario(tmp_path, ""), codegen)
    game = _played(_scenario(tmp_path, options), codegen)
    assert game.answers == default.answers
    assert game.history[0]["deltas"] == [d + (per_trick - 1) * t
                                         for d, t in zip(default.history[0]["deltas"], default.tricks_won)]
    assert any(default.tricks_won)


def test_the_options_show_with_the_public_state():
    env = Environment()
    game = Game(prepare(env, MODS / "tally.scenario.yaml", express=True)[0], 0)
    assert game.observe(1)["state"] == [{"power": "Tally", "name": "bonus", "seat": None, "value": 3},
                                        {"power": "Tally", "name": "doubled", "seat": None, "value": True}]


@pytest.mark.parametrize("options, message", [
    ("options: {bonsu: 3}", "options.bonsu: no power of this game declares the option 'bonsu' (declared: bonus, "
                            "doubled)"),
    ("options: {doubled: 2}", "options.doubled: the option 'doubled' is yes or no, so 2 does not fit it"),
])
def test_an_option_no_power_declares_or_of_the_wrong_type_is_refused_at_set_up(tmp_path, options, message):
    with pytest.raises(GameRuleError) as caught:
        prepare(Environment(), _scenario(tmp_path, options))
    assert caught.value.diagnostics[0].message == message


def test_compile_json_gives_an_options_default():
    power = Environment().load_power(MODS / "tally.power", {"Tally"})
    state = power_ir(power)["state"]
    assert (state["bonus"]["option"], state["doubled"]["option"]) == (1, False)
