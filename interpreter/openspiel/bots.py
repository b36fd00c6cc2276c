"""Playing OpenSpiel's bots and the project's bots at one table, each seeing only its own Community's view.

OpenSpiel's MCTS searches from the state it is given: given the real state it
would read every hand. `Determinized` gives it instead, at each of its
decisions, a state sampled from its player's observation
(`kernel.determinize.sample_state`: the hidden cards dealt at random among the
hidden places), and plays the action the search chose there. A choice inside
a power cannot be determinized from an observation (the running power's state
is not shown), so there it picks uniformly among the legal actions.

`play(game, bots, seed)` plays one game: an OpenSpiel bot (anything with
`step(state) -> action`) or a project bot (`decide(observation, decision)`,
from `players.registry`) per seat; the project's bots get `Game.observe` and
the kernel's Decision, OpenSpiel's bots a HappyDayzState.
"""

from __future__ import annotations

import random
from typing import Sequence

from happydayz.kernel.determinize import SUPPORTED_KINDS, DeterminizeError, sample_state
from happydayz.openspiel.game import HappyDayzGame, HappyDayzState


class Determinized:
    """An OpenSpiel bot that searches a determinization of its player's observation, never the real state."""

    def __init__(self, game: HappyDayzGame, player: int, bot, seed: int = 0) -> None:
        self.game, self.player, self.bot = game, player, bot
        self.rng = random.Random(seed)

    def step(self, state: HappyDayzState) -> int:
        kernel = state.game
        decision = kernel.decision
        legal = state.legal_actions(self.player)
        if decision.kind in SUPPORTED_KINDS:
            try:
                sampled = sample_state(self.game.setup, kernel.observe(self.player), self.rng, decision, quiet=True)
            except DeterminizeError:
                sampled = None
            if sampled is not None:
                view = self.game.state_from(sampled)
                if view.legal_actions(self.player) == legal:
                    action = self.bot.step(view)
                    if action in legal:
                        return action
        return self.rng.choice(legal)

    def restart(self) -> None:
        restart = getattr(self.bot, "restart", None)
        if restart is not None:
            restart()


def play(game: HappyDayzGame, bots: Sequence, seed: int) -> HappyDayzState:
    """Play one game dealt with `seed`: bots[seat] is an OpenSpiel bot (step) or a project bot (decide)."""
    state = game.new_initial_state(seed)
    kernel = state.game
    for seat, bot in enumerate(bots):
        bind = getattr(bot, "bind", None)
        if bind is not None and not hasattr(bot, "step"):
            bind(game.setup, seat)
    while not state.is_terminal():
        seat = state.current_player()
        bot = bots[seat]
        if hasattr(bot, "step"):
            action = bot.step(state)
        else:
            decision = kernel.decision
            action = game.space.encode(decision, bot.decide(kernel.observe(seat), decision))
        state.apply_action(action)
    return state


__all__ = ["Determinized", "play"]
