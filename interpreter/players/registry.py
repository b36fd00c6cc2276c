"""The bots by name: what `--bots random,greedy,...` can ask for, and how each seat's bot is seeded."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from happydayz.base.errors import UsageError, suggest
from happydayz.players.agents import Agent, RandomAgent
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent
from happydayz.players.ismcts import ISMCTSAgent

BotFactory = Callable[[int], Agent]

#: Bot name -> factory taking a seed. A new bot is one more entry.
BOTS: dict[str, BotFactory] = {
    "random": RandomAgent,
    "greedy": FastGreedyAgent,  # rules of thumb read from the compiled powers, card worths from a table (docs/bots.md)
    "greedy-reference": GreedyAgent,  # the same rules of thumb, card worths from the hooks run per card and guess
    "ismcts": lambda seed: ISMCTSAgent(seed=seed),  # information-set Monte Carlo tree search at leads and follows
}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in the game seeded `game_seed`."""
    return random.Random(f"{game_seed}/bot/{seat}").getrandbits(32)


def parse_bots(spec: str | Sequence[str] | None, players: int) -> list[str]:
    """Bot names for each seat, from "random,random,..." (None: all random).

    A single name applies to every seat. Raises UsageError for an unknown name
    (with a did-you-mean) or a list of the wrong length.
    """
    if spec is None:
        return ["random"] * players
    names = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else [str(n).strip() for n in spec]
    for name in names:
        if name not in BOTS:
            guess = suggest(name, BOTS) if name else None
            hint = f"; did you mean {guess!r}?" if guess else ""
            raise UsageError(f"unknown bot {name!r}{hint} (known bots: {', '.join(sorted(BOTS))})")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"--bots lists {len(names)} bots for {players} players: give one per seat, or one for all")
    return names


def make_bots(names: Sequence[str], game_seed: int) -> list[Agent]:
    """One agent per seat, each seeded from (game seed, seat)."""
    return [BOTS[name](bot_seed(game_seed, seat)) for seat, name in enumerate(names)]


__all__ = ["BOTS", "BotFactory", "bot_seed", "parse_bots", "make_bots"]
