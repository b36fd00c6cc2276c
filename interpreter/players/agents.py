"""Agents: whoever answers a decision, a bot or a script.

Every decision of the game — a Transfer pass, a lead, a follow, a choice inside
a power, a Faction change — goes through one interface:

    agent.decide(observation, decision) -> index into decision.options

The observation is what `Game.observe(seat)` returns for the deciding seat, so
an agent sees only what that Community may see; it never gets the Game.

Bots are registered by name in `happydayz.players.registry.BOTS` (name ->
factory taking a seed), so a new bot is one entry there.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Callable, Iterable, Mapping, Protocol, Sequence, runtime_checkable

from happydayz.base.errors import GameRuleError
from happydayz.kernel.observation import Observation, card_ids, seat_view
from happydayz.kernel.game import Decision, Game


@runtime_checkable
class Agent(Protocol):
    def decide(self, observation: Mapping, decision: Decision) -> int:
        """The index, in decision.options, of the option chosen."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal options, with its own seeded RNG."""

    def __init__(self, seed: int | str = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def decide(self, observation: dict, decision: Decision) -> int:
        return self.rng.randrange(len(decision.options))

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


class ScriptedAgent:
    """Answers from a list, in order: option labels (any case) or indexes.

    A label that is not among the options, an index out of range, or running
    out of answers raises GameRuleError naming the decision, the answer and
    the legal options.
    """

    def __init__(self, answers: Iterable[int | str]):
        self.answers: list[int | str] = list(answers)
        self.position = 0

    @property
    def remaining(self) -> int:
        return len(self.answers) - self.position

    def decide(self, observation: dict, decision: Decision) -> int:
        legal = ", ".join(repr(o.label) for o in decision.options)
        where = f"decision '{decision.prompt}' ({decision.kind}, Community {decision.decider})"
        if self.position >= len(self.answers):
            raise GameRuleError(f"no scripted answer left for {where}; legal options: {legal}")
        answer = self.answers[self.position]
        self.position += 1
        if isinstance(answer, bool):
            raise GameRuleError(f"answer {answer!r} to {where} is neither a label nor an index; legal options: {legal}")
        if isinstance(answer, int):
            if 0 <= answer < len(decision.options):
                return answer
            raise GameRuleError(f"answer {answer} to {where} is out of range: choose 0 to "
                                f"{len(decision.options) - 1}; legal options: {legal}")
        index = decision.index_of_label(str(answer))
        if index is None:
            raise GameRuleError(f"answer {str(answer)!r} is not an option of {where}; legal options: {legal}")
        return index


def as_dict(observation: Mapping) -> dict:
    """The observation as a plain dict, made once: an agent that reads most of it reads it this way.

    An `Observation` gives the dict it made (no copy: agents only read it); a dict is itself.
    """
    if type(observation) is dict:
        return observation
    if isinstance(observation, Observation):
        return observation._made()
    return dict(observation)


def play_game(game: Game, agents: Sequence[Agent] | Mapping[int, Agent]) -> dict:
    """Ask the agent of each decision's actor until the game is over; the game's result."""
    seats = agents.items() if isinstance(agents, Mapping) else enumerate(agents)
    for seat, agent in seats:
        bind = getattr(agent, "bind", None)
        if bind is not None:  # bots that read the public facts of the game (card specs, compiled powers)
            bind(game.setup, seat)
    # Each seat's view makers, made once: they read the game when the agent reads the view.
    views = [(partial(game.observe, seat), seat_view(game, seat)) for seat in range(game.n)]

    def ask(d: Decision) -> int:
        make, part = views[d.decider]
        return agents[d.decider].decide(Observation(make, part), d)

    game.play(ask)
    return game.result()


__all__ = ["Agent", "RandomAgent", "ScriptedAgent", "Observation", "as_dict", "card_ids", "seat_view", "play_game"]
