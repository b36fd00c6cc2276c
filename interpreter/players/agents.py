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
from happydayz.kernel.observation import CARD_IDS, KEYS as OBSERVATION_KEYS
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
        where = f"decision '{decision.prompt}' ({decision.kind}, Community {decision.actor})"
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


class Observation(Mapping):
    """What `Game.observe(seat)` returns, made on first use: an agent that never looks costs nothing.

    It holds a way to make the view, not the game. It is the table as it is while
    the agent decides: read it then, not later.

    Made with `part` (as `play_game` does, by `seat_view`), it also answers one
    key at a time without making the whole view — `observation["hand_sizes"]`
    makes that list only — and the card lists by their ids alone
    (`card_ids(observation, key)`): a bot reads only what it needs. Every key is
    exactly what `Game.observe(seat)` gives for it.
    """

    __slots__ = ("_make", "_data", "_part", "_parts")

    def __init__(self, make: Callable[[], dict], part: Callable[[str], object] | None = None):
        self._make, self._data, self._part, self._parts = make, None, part, None

    def _made(self) -> dict:
        if self._data is None:
            self._data = self._make()
        return self._data

    def __getitem__(self, key: str):
        if self._data is None and self._part is not None:
            parts = self._parts
            if parts is None:
                parts = self._parts = {}
            elif key in parts:
                return parts[key]
            value = parts[key] = self._part(key)
            if value is not _WHOLE:
                return value
            del parts[key]
        return self._made()[key]

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


_WHOLE = object()  # what a part maker answers for a key it does not make alone: the whole view is made


def card_ids(observation: Mapping, key: str):
    """The ids of an observation's card list `key` (hand; per seat for transfer, expedition_face_up,
    expedition_known: a list of lists), or the Encounter card's id for "encounter" (None without one).

    From a seat view (`Observation` made with a part maker) without making the label dicts; from
    any other observation, read off its dicts. Never a list to change: it may be the view's own.
    """
    if isinstance(observation, Observation) and observation._data is None and observation._part is not None:
        parts = observation._parts
        if parts is None:
            parts = observation._parts = {}
        name = key + "#ids"
        value = parts.get(name, _WHOLE)
        if value is _WHOLE:
            value = observation._part(name)
            if value is not _WHOLE:
                parts[name] = value
        if value is not _WHOLE:
            return value
    value = observation[key]
    if key == "encounter":
        return value["id"] if value else None
    if key == "hand":
        return [c["id"] for c in value]
    return [[c["id"] for c in cards] for cards in value]


def seat_view(game: Game, seat: int) -> Callable[[str], object]:
    """The part maker of `seat`'s observation: one key of `game.observe(seat)` at a time (see Observation).

    Keys with a "#ids" suffix give the card lists by their ids (see card_ids). A key it does not make
    alone answers _WHOLE. Made while the agent decides: the game is read then. Both come from the
    makers Game.observe itself reads (kernel.observation).
    """

    def part(key: str):
        if key.endswith("#ids"):
            maker = CARD_IDS.get(key[:-4])
        else:
            maker = OBSERVATION_KEYS.get(key)
        return _WHOLE if maker is None else maker(game, seat)

    return part


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
        make, part = views[d.actor]
        return agents[d.actor].decide(Observation(make, part), d)

    game.play(ask)
    return game.result()


__all__ = ["Agent", "RandomAgent", "ScriptedAgent", "Observation", "as_dict", "card_ids", "seat_view", "play_game"]
