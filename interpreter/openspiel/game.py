"""Happy DayZ as an OpenSpiel game: `pyspiel.load_game("happydayz", {...})`.

The parameters (all optional):

    scenario   a scenario id ("BOX-ID/N") or a scenario file's path; "" the default scenario   ""
    players    the number of Communities                 4
    express    the express game (one round)              False
    returns    "population" (final minus starting population) or "win" (+1 a winner, -1 the others)
    seed       seeds the games' deals: the k-th new_initial_state of a game object gets the k-th seed
               drawn from it                             0
    powers     more folders to look for power files in, separated by os.pathsep   ""

Chance is *sampled*: the deal and every random pick a power makes come from
the kernel Game's own seeded RNG, inside the state (chance mode
SAMPLED_STOCHASTIC), so a state has no chance nodes and its clone replays the
same chance. The actions are `kernel.actions.ActionSpace` (a fixed numbering of
every answer; the legal actions of a state are exactly the options of the
kernel's pending decision), the observation tensors `kernel.actions.ObservationLayout`.

Observations and information states are built from `Game.observe(seat)` only:

- observation string: that dict as JSON (sorted keys); tensor: the layout's vector;
- information state string: the same, then "moves:" and every action the
  player took so far; tensor: the observation vector followed by one value
  per action, 1 for the actions the player took in the current round.
"""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pyspiel

from happydayz.data.environment import Environment
from happydayz.kernel.actions import ActionSpace, ObservationLayout
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare

SHORT_NAME = "happydayz"
DEFAULTS = {"scenario": "", "players": 4, "express": False, "returns": "population", "seed": 0,
            "powers": ""}
RETURNS = ("population", "win")

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Happy DayZ",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class HappyDayzGame(pyspiel.Game):
    """One scenario at one player count; `env` (an Environment) when made from Python, else a default one."""

    def __init__(self, params: dict | None = None, env: Environment | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        if params["returns"] not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {params['returns']!r}")
        if env is None:
            env = Environment(power_dirs=[d for d in str(params["powers"]).split(os.pathsep) if d])
        self.env = env
        self.setup, self.scenario = prepare(env, params["scenario"] or None, int(params["players"]),
                                            express=bool(params["express"]))
        self.space = ActionSpace(self.setup)
        self.layout = ObservationLayout(self.setup)
        self.returns_kind = params["returns"]
        self.seeds = random.Random(int(params["seed"]))
        setup = self.setup
        n = setup.n
        if self.returns_kind == "win":
            low, high = -1.0, 1.0
        else:  # the change of population: at worst all lost; a generous bound on gains
            gain = sum(max(0, c.survivors or 0) for c in setup.cards)
            # (a score that starts at 0 and that only powers raise, to a target: the target sets the scale)
            target = max((abs(t) for t in setup.target or () if t is not None), default=0)
            scale = max(gain, setup.starting_population, target, 1)
            low, high = -float(setup.starting_population), float(scale * setup.rounds * 2)
            if setup.floor != 0 or setup.winner == "fewest":  # the hand's score goes below 0, or stops elsewhere,
                low = -high  # or counts against (the return is then turned: see returns): as generous a bound below
        cards = len(setup.cards)
        # A round: the Transfer passes, then at most one trick per card (the kernel stops a round past
        # that), each with a play per Community and some choices; then a Faction change or a drawn power.
        passes = max(setup.transfer_in(r)[0] for r in range(1, setup.rounds + 1))  # (the hand may vary it by round)
        bids = 50 * n if setup.hand.auction is not None else 0  # (the kernel ends an auction after 50 laps)
        per_round = n * passes + bids + cards * (n + 8) + 3  # (+1: a chosen dealer)
        info = pyspiel.GameInfo(num_distinct_actions=self.space.size, max_chance_outcomes=0, num_players=n,
                                min_utility=low, max_utility=high, utility_sum=None,
                                max_game_length=per_round * setup.rounds)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self, seed: int | str | None = None) -> "HappyDayzState":
        """A new game: dealt with `seed`, or with the next seed of this game object's sequence.

        (OpenSpiel also makes initial states of its own, to learn the tensors' shape and to
        clone a state; they draw from the sequence too, so the same calls give the same games.)
        """
        if seed is None:
            seed = self.seeds.getrandbits(32)
        elif isinstance(seed, str):  # OpenSpiel's new_initial_state(str): a seed written out
            seed = int(seed)
        return HappyDayzState(self, seed)

    def state_from(self, game: Game) -> "HappyDayzState":
        """A state around an existing kernel Game of this setup (a determinization, a position)."""
        state = HappyDayzState(self, game.seed)
        state.table.game = game
        return state

    def make_py_observer(self, iig_obs_type=None, params=None) -> "HappyDayzObserver":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        return HappyDayzObserver(self, info_state)


class _Table:
    """Holds the kernel Game, dealt on first use; a deep copy copies the game with Game.copy (the setup is shared)."""

    __slots__ = ("owner", "seed", "_game", "moves")

    def __init__(self, owner: HappyDayzGame, seed: int, game: Game | None = None,
                 moves: list[tuple[int, int, int]] | None = None) -> None:
        self.owner, self.seed, self._game = owner, seed, game
        self.moves = [] if moves is None else moves  # (player, round, action) of every action taken

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = Game(self.owner.setup, self.seed, record=False)
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game

    def __deepcopy__(self, memo) -> "_Table":
        return _Table(self.owner, self.seed, self.game.copy(), self.moves[:])


class HappyDayzState(pyspiel.State):
    """A game in progress: the kernel Game and the actions taken so far, (player, round, action)."""

    # OpenSpiel clones a Python state by making a new initial state and deep-copying each attribute:
    # the attributes are the table (copied with Game.copy) and plain values; the game's static
    # facts are reached through the _Table, never copied.
    def __init__(self, game: HappyDayzGame, seed: int) -> None:
        super().__init__(game)
        self.table = _Table(game, seed)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def moves(self) -> list[tuple[int, int, int]]:
        return self.table.moves

    @property
    def space(self) -> ActionSpace:
        return self.table.owner.space

    def current_player(self) -> int:
        game = self.game
        if game.over:
            return pyspiel.PlayerId.TERMINAL
        return game.decision.decider

    def _legal_actions(self, player: int) -> list[int]:
        decision = self.game.decision
        if decision is None or decision.decider != player:
            return []
        return self.space.legal(decision)

    def _apply_action(self, action: int) -> None:
        game = self.game
        decision = game.decision
        # the round is public (observe(seat)["round"]): it dates the player's own moves in its information state
        self.moves.append((decision.decider, game.round_no, int(action)))
        game.apply(self.space.option_index(decision, action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.space.describe(action)

    def is_terminal(self) -> bool:
        return self.game.over

    def returns(self) -> list[float]:
        game = self.game
        if not game.over:
            return [0.0] * game.n
        if self.table.owner.returns_kind == "win":
            return [1.0 if seat in game.winners else -1.0 for seat in range(game.n)]
        start = game.setup.starting_population
        if game.setup.winner == "fewest":  # the hand's score counts against (score.winner): less is better
            return [float(start - p) for p in game.population]
        return [float(p - start) for p in game.population]

    def __str__(self) -> str:
        game = self.game
        d = game.decision
        where = "over" if d is None else f"Community {d.decider}: {d.prompt}"
        return (f"round {game.round_no}/{game.setup.rounds}; populations {game.population}; {where}; "
                f"seed {game.seed}; answers {game.answers}")


class HappyDayzObserver:
    """Builds one player's observation or information state (PyObserver interface) from Game.observe."""

    def __init__(self, game: HappyDayzGame, info_state: bool) -> None:
        self.layout, self.space, self.info_state = game.layout, game.space, info_state
        size = self.layout.size + (self.space.size if info_state else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = self.layout.views(self.tensor[:self.layout.size])
        if info_state:
            self.dict["own_actions"] = self.tensor[self.layout.size:]

    def set_from(self, state: HappyDayzState, player: int) -> None:
        observation = state.game.observe(player)
        self.layout.encode(observation, self.tensor[:self.layout.size], self.dict)
        if self.info_state:
            own = self.dict["own_actions"]
            own.fill(0)
            for who, round_no, action in state.moves:
                if who == player and round_no == observation["round"]:
                    own[action] = 1

    def string_from(self, state: HappyDayzState, player: int) -> str:
        text = json.dumps(state.game.observe(player), sort_keys=True, separators=(",", ":"))
        if self.info_state:
            text += " moves:" + ",".join(str(action) for who, _, action in state.moves if who == player)
        return text


__all__ = ["GAME_TYPE", "DEFAULTS", "HappyDayzGame", "HappyDayzState", "HappyDayzObserver", "SHORT_NAME"]
