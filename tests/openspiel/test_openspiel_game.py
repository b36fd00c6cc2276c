"""The OpenSpiel game "happydayz", checked by OpenSpiel itself and against the kernel.

- `pyspiel.random_sim_test` (OpenSpiel's own random playouts with its checks:
  clones, legal actions sorted and masked, tensors of the game's shape, returns
  in the utility range, game length) for several scenarios and player counts;
- the legal actions of every state are exactly the kernel's options, one action per option;
- an observation depends on nothing its player cannot see (two deals that differ
  only in the other hands give the same observation);
- OpenSpiel's MCTS (searching determinizations of its own view) plays against the project's bots.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import happydayz.openspiel  # noqa: F401  (registers the game)
from happydayz.data.environment import Environment
from happydayz.kernel.actions import ActionSpace, ObservationLayout
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.openspiel.bots import Determinized, play
from happydayz.openspiel.game import HappyDayzGame
from happydayz.players.registry import make_bots

SIMS = [  # (parameters, number of playouts)
    ({"scenario": "woodstock-fever/1", "players": 4}, 6),  # a campaign of 4 rounds
    ({"scenario": "american-dream/6", "players": 3, "express": False}, 6),  # Faction changes between rounds
    ({"scenario": "woodstock-fever/2", "players": 2, "express": True}, 10),
    ({"scenario": "american-dream/3", "players": 5, "express": True, "returns": "win"}, 10),
]


@pytest.mark.slow
@pytest.mark.parametrize("params,sims", SIMS, ids=lambda v: "-".join(f"{x}" for x in v.values()) if isinstance(v, dict) else str(v))
def test_openspiels_random_sim_test(params, sims):
    game = pyspiel.load_game("happydayz", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_the_game_describes_itself():
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3
    setup = game.setup
    space, layout = ActionSpace(setup), ObservationLayout(setup)
    assert game.num_distinct_actions() == space.size == 3 * len(setup.cards) + 3 + len(space.factions) ** 2 + \
        len(space.factions) + 4  # leads, cards, seats, Faction changes, Factions, yes, no, stop, keep
    assert game.observation_tensor_shape() == [layout.size]
    assert game.information_state_tensor_shape() == [layout.size + space.size]
    assert layout.size == sum(int(np.prod(shape)) for _, shape in layout.pieces)
    assert game.min_utility() == -setup.starting_population


@pytest.mark.parametrize("scenario,players,express", [("woodstock-fever/1", 4, False), ("american-dream/6", 3, False),
                                                      ("american-dream/8", 5, True), ("woodstock-fever/7", 2, True)])
def test_legal_actions_are_exactly_the_kernels_options(scenario, players, express):
    """Play the OpenSpiel state and a kernel Game side by side: the same decisions, one action per option."""
    game = pyspiel.load_game("happydayz", {"scenario": scenario, "players": players, "express": express})
    space = game.space
    rng = random.Random(7)
    kinds = set()
    for seed in range(2 if express else 1):
        state = game.new_initial_state(seed)
        kernel = Game(game.setup, seed)
        while not kernel.over:
            d = kernel.decision
            kinds.add(d.kind)
            actions = space.actions(d)
            assert state.current_player() == d.actor
            assert state.legal_actions() == sorted(actions) and len(set(actions)) == len(d.options)
            assert all(space.option_index(d, a) == i for i, a in enumerate(actions))
            mask = state.legal_actions_mask(d.actor)
            assert sum(mask) == len(d.options) and all(mask[a] for a in actions)
            for other in range(players):
                if other != d.actor:
                    assert state.legal_actions(other) == []
            index = rng.randrange(len(d.options))
            state.apply_action(actions[index])
            kernel.apply(index)
        assert state.is_terminal()
        assert state.returns() == [float(p - game.setup.starting_population) for p in kernel.population]
    assert {"transfer", "lead", "follow"} <= kinds


def test_every_option_kind_has_an_action():
    space = ActionSpace(prepare(Environment(), "woodstock-fever/1", 3)[0])
    assert space.describe(space.yes) == "yes" and space.describe(space.stop) == "stop choosing"
    names = [space.describe(a) for a in range(space.size)]
    assert len(set(names)) == len(names)  # every action has its own name (OpenSpiel checks this of legal actions)


def test_an_observation_shows_nothing_its_player_cannot_see():
    """Two deals that differ only in the cards of the other hands look the same to Community 0."""
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True})
    setup = game.setup
    first = Game(setup, 0)
    hands = {seat: list(first.zone("hand", seat)) for seat in range(3)}
    swapped = dict(hands)
    swapped[1], swapped[2] = hands[2], hands[1]
    second = Game(setup, 0)
    second.rig_deal(swapped, list(first.reserve))
    a, b = game.state_from(first), game.state_from(second)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_string(1) != b.observation_string(1)  # Community 1 sees its own hand


def test_an_information_state_remembers_the_players_own_actions():
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True})
    state = game.new_initial_state(3)
    player = state.current_player()
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.information_state_string(player).endswith(f"moves:{action}")
    tensor = state.information_state_tensor(player)
    assert tensor[game.layout.size + action] == 1


def test_the_returns_can_be_wins():
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True,
                                           "returns": "win"})
    state = game.new_initial_state(1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    winners = state.game.winners
    assert state.returns() == [1.0 if seat in winners else -1.0 for seat in range(3)]


def test_a_seed_gives_the_same_games():
    def first_observations(seed):
        game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "seed": seed})
        return [game.new_initial_state().observation_string(0) for _ in range(3)]

    assert first_observations(5) == first_observations(5)
    assert first_observations(5) != first_observations(6)
    game = HappyDayzGame({"scenario": "woodstock-fever/1", "players": 3})
    assert game.new_initial_state(11).observation_string(1) == game.new_initial_state(11).observation_string(1)


def test_a_clone_plays_on_alone():
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True})
    state = game.new_initial_state(2)
    state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[-1])
    assert str(clone) != str(state) and len(state.history()) == 1


@pytest.mark.slow
def test_openspiels_mcts_plays_against_the_projects_bots():
    game = pyspiel.load_game("happydayz", {"scenario": "woodstock-fever/1", "players": 3, "express": True,
                                           "returns": "win"})
    results = []
    for seed in range(3):
        search = mcts.MCTSBot(game, uct_c=2.0, max_simulations=16,
                              evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                              random_state=np.random.RandomState(seed))
        bots = [Determinized(game, 0, search, seed), *make_bots(["random", "greedy", "ismcts"], seed)[1:]]
        state = play(game, bots, seed)
        assert state.is_terminal()
        results.append(state.returns())
    assert all(sorted(r)[-1] == 1.0 for r in results)  # every game has a winner (or shared winners)


HAND_MODS = Path(__file__).resolve().parents[1] / "games" / "mods"


@pytest.mark.parametrize("name", ["hand_auction_climbing", "hand_chosen", "hand_euchre", "hand_euchre_redeal",
                                  "hand_secret_zone"])
def test_openspiel_plays_the_hands_new_decisions_dealer_and_bids(name):
    """A chosen dealer and a climbing auction: OpenSpiel's own random simulation test plays them to the end."""
    game = pyspiel.load_game("happydayz", {"scenario": str(HAND_MODS / f"{name}.scenario.yaml"), "express": True})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
