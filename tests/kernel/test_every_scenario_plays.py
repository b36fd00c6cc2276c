"""Every scenario of the Happy DayZ boxes plays to the end with 2 to 5 Communities, express and campaign.

(The classic games' boxes seat their own number: tests/conformance/test_hearts_box.py plays Hearts.)"""

import random

import pytest

from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

from conftest import ENV

LIBRARY = ENV.library
SCENARIOS = sorted(s.id for s in LIBRARY.scenarios() if s.box in ("woodstock-fever", "american-dream"))
MAX_DECISIONS = 5_000


def test_both_boxes_bring_nine_scenarios_each():
    assert len(SCENARIOS) == 18
    assert {s.split("/")[0] for s in SCENARIOS} == {"woodstock-fever", "american-dream"}


@pytest.mark.parametrize("express", [True, False], ids=["express", "campaign"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_scenario_plays_to_the_end(scenario_id, players, express):
    scenario, library = ENV.resolve_scenario(scenario_id)
    # Promo cards and the random-power rule on every other configuration, so both paths are played.
    twist = (SCENARIOS.index(scenario_id) + players) % 2 == 0
    setup = build_setup(scenario, library, GameOptions(players=players, express=express, promos=twist,
                                                       random_powers=twist and not express), ENV)
    for seed in (1, 2, 3):
        game = Game(setup, seed)
        chooser = random.Random(seed)
        decisions = 0
        while game.decision is not None:
            game.apply(chooser.randrange(len(game.decision.options)))
            decisions += 1
            assert decisions < MAX_DECISIONS, "the game does not end"
        assert sum(len(zone) for zone in game.zones.values()) == len(game.cards)
        assert all(p >= 0 for p in game.population)
        assert 1 <= len(game.history) <= setup.rounds
        if express:
            assert len(game.history) == 1
        best = max(game.population)
        assert game.winners == ([] if best == 0 else [s for s in range(players) if game.population[s] == best])
