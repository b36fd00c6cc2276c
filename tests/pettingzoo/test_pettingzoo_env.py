"""The PettingZoo AEC environment, checked by PettingZoo's own tests and against the kernel.

- `pettingzoo.test.api_test` (the AEC API: agents, spaces, observations in
  their space, rewards, terminations, masked random play) and `seed_test`
  (two environments reset with one seed play the same);
- the action mask is exactly the kernel's options, for the agent that must answer.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import happydayz.pettingzoo as hpz
from happydayz.kernel.game import Game


def test_pettingzoos_api_test():
    api_test(hpz.env(scenario="woodstock-fever/2", players=4), num_cycles=300)


@pytest.mark.parametrize("scenario,players,express", [("american-dream/6", 3, False), ("woodstock-fever/5", 5, True)])
def test_pettingzoos_api_test_on_more_tables(scenario, players, express):
    api_test(hpz.env(scenario=scenario, players=players, express=express, returns="win"), num_cycles=1000)


def test_pettingzoos_seed_test():
    seed_test(lambda: hpz.env(scenario="woodstock-fever/2", players=4), num_cycles=200)


def test_the_mask_is_the_kernels_options():
    env = hpz.raw_env(scenario="american-dream/6", players=3)
    env.reset(seed=3)
    kernel = Game(env.setup, env.game.seed)  # the same deal, played beside it
    rng = random.Random(3)
    while env.agents:
        agent = env.agent_selection
        observation, reward, termination, truncation, info = env.last()
        if termination:
            env.step(None)
            continue
        d = kernel.decision
        assert agent == f"community_{d.actor}"
        mask = observation["action_mask"]
        actions = env.space.actions(d)
        assert mask.sum() == len(d.options) and all(mask[a] == 1 for a in actions)
        for other in env.agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0
        index = rng.randrange(len(d.options))
        env.step(np.int64(actions[index]))
        kernel.apply(index)
    assert kernel.over
    assert env.space.legal(kernel.decision) == []


def test_rewards_come_at_the_end():
    env = hpz.env(scenario="woodstock-fever/1", players=3, express=True)
    env.reset(seed=1)
    total = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
        else:
            env.step(env.action_space(agent).sample(observation["action_mask"]))
    game = env.unwrapped.game
    assert total == {f"community_{s}": float(game.population[s] - game.setup.starting_population) for s in range(3)}


def test_an_illegal_action_is_refused():
    env = hpz.raw_env(scenario="woodstock-fever/1", players=3, express=True)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(Exception, match="not a legal answer"):
        env.step(illegal)


HAND_MODS = Path(__file__).resolve().parents[1] / "games" / "mods"


@pytest.mark.parametrize("name, players", [("hand_auction", 3), ("hand_chosen", 3), ("hand_euchre", 4),
                                           ("hand_euchre_redeal", 4), ("hand_secret_zone", 3)])
def test_pettingzoos_api_test_on_the_hands_new_decisions(name, players):
    """An auction with a power's rule on the bids, a chosen dealer, and Euchre's (a turned card, two stages, a
    deal again): PettingZoo's own API test."""
    scenario = HAND_MODS / f"{name}.scenario.yaml"
    api_test(hpz.env(scenario=str(scenario), players=players, express=True), num_cycles=300)
