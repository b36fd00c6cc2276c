"""The rulebooks' random set-up: three Factions' Power cards drawn at random, a drawn added power joining them."""

from __future__ import annotations

import json

from happydayz.cli.app import main
from happydayz.data.model import Scenario
from happydayz.kernel.setup import RANDOM_SETUP_FACTIONS, draw_powers

from conftest import ENV, prepare


def _draw(box: str, seed: int) -> Scenario:
    return draw_powers(Scenario("x", "x", box, ()), ENV.library, seed)


def test_a_draw_is_three_different_factions_of_the_box_with_their_basic_power():
    for box in ("woodstock-fever", "american-dream"):
        own = set(ENV.library.boxes[box].factions) - set(ENV.library.boxes[box].always)
        for seed in range(30):
            scenario = _draw(box, seed)
            names = [c.faction for c in scenario.factions]
            assert len(names) == len(set(names)) == RANDOM_SETUP_FACTIONS and set(names) <= own
            assert {c.variant for c in scenario.factions} == {"basic"} and scenario.random_setup
            assert set(scenario.added) <= set(ENV.library.boxes[box].added_powers)


def test_the_same_seed_draws_the_same_setup_and_added_powers_come_up():
    draws = [_draw("woodstock-fever", seed) for seed in range(30)]
    assert draws == [_draw("woodstock-fever", seed) for seed in range(30)]
    assert any(d.added == ("Bunker",) for d in draws) and any(d.added == () for d in draws)
    assert len({d.factions for d in draws}) > 10


def test_a_scenario_file_can_ask_for_the_random_setup(tmp_path):
    (tmp_path / "draw.yaml").write_text("title: Luck of the draw\nbox: american-dream\nrandom_setup: true\n",
                                        encoding="utf-8")
    _, scenario = prepare(str(tmp_path / "draw.yaml"), 4, setup_seed=5)
    assert scenario.factions == _draw("american-dream", 5).factions


def test_simulate_random_setup_is_reproducible_and_says_what_was_drawn(capsys):
    runs = []
    for _ in range(2):
        assert main(["simulate", "--random-setup", "--games", "3", "--seed", "4", "--json", "-"]) == 0
        runs.append(capsys.readouterr().out)
    assert runs[0] == runs[1]
    drawn = json.loads(runs[0])["summary"]["random_setup"]
    assert [f for f, _ in drawn["factions"]] == [c.faction for c in _draw("woodstock-fever", 4).factions]
    assert main(["simulate", "--games", "3", "--seed", "4", "--json", "-"]) == 0
    assert "random_setup" not in json.loads(capsys.readouterr().out)["summary"]
