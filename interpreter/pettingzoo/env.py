"""Happy DayZ as a PettingZoo AEC environment.

    import happydayz.pettingzoo as hpz
    env = hpz.env(scenario="BOX-ID/2", players=4)  # a scenario id or file (None: the default scenario)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

The agents are "community_0" … "community_{n-1}"; the agent to act is the
actor of the kernel's pending decision. An action is a number of
`kernel.actions.ActionSpace` (Discrete(size)); an observation is a dict:

    observation   float32 vector of ObservationLayout.size values in [-10, 10]
                  (kernel.actions: built from Game.observe(seat) only)
    action_mask   int8 vector of ActionSpace.size, 1 for the legal actions: exactly the
                  options of the pending decision, for the agent that must answer it (all 0 for the others)

Rewards come at the end: the change of each Community's population, or with
returns="win" +1 for the winners and -1 for the others. `reset(seed=s)`
seeds the sequence of deals (each reset draws the next game's seed from it).
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from happydayz.data.environment import Environment
from happydayz.kernel.actions import BOUND, ActionSpace, ObservationLayout
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare

RETURNS = ("population", "win")


class HappyDayzEnv(AECEnv):
    """One scenario at one player count; a new game at each reset."""

    metadata = {"render_modes": ["ansi", "human"], "name": "happydayz_v0", "is_parallelizable": False}

    def __init__(self, scenario: str | None = None, players: int = 4, express: bool = False,
                 returns: str = "population", env: Environment | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}")
        self.environment = env if env is not None else Environment()
        self.setup, self.scenario = prepare(self.environment, scenario, players, express=express)
        self.returns = returns
        self.render_mode = render_mode
        self.space = ActionSpace(self.setup)
        self.layout = ObservationLayout(self.setup)
        self.possible_agents = [f"community_{seat}" for seat in range(self.setup.n)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            }) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game(self.setup, self._seeds.getrandbits(32), record=False)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.decision.decider]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat[agent]
        decision = self.game.decision
        mine = decision is not None and decision.decider == seat
        return {"observation": self.layout.encode(self.game.observe(seat)),
                "action_mask": self.space.mask(decision) if mine else np.zeros(self.space.size, np.int8)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        game.apply(self.space.option_index(game.decision, int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.over:
            for a in self.agents:
                seat = self.seat[a]
                if self.returns == "win":
                    self.rewards[a] = 1.0 if seat in game.winners else -1.0
                else:
                    gained = float(game.population[seat] - self.setup.starting_population)
                    # (a score that counts against, score.winner fewest: less is better, the reward is turned)
                    self.rewards[a] = -gained if self.setup.winner == "fewest" else gained
                self.terminations[a] = True
            self.infos = {a: {"result": game.result()} for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[game.decision.decider]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.game is None:
            return None
        game = self.game
        d = game.decision
        text = (f"round {game.round_no}/{game.setup.rounds}, populations {game.population}: " +
                ("the game is over" if d is None else f"Community {d.decider}: {d.prompt}"))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def raw_env(**kwargs) -> HappyDayzEnv:
    """The environment without PettingZoo's wrappers."""
    return HappyDayzEnv(**kwargs)


def env(**kwargs) -> AECEnv:
    """The environment, wrapped so that PettingZoo checks the order of calls (reset before step)."""
    return wrappers.OrderEnforcingWrapper(HappyDayzEnv(**kwargs))


__all__ = ["HappyDayzEnv", "env", "raw_env"]
