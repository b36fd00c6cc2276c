"""What a running power may read of a game and do to it: the one interface between compiled powers and a game.

Every compiled closure (compiler.py) and the VM (vm.py) reach the game only
through these members, so the language knows nothing else of the kernel: the
kernel's Game implements PowerHost, and a bot that runs a power on a table it
imagines (the greedy bot's look-ahead) implements it too. A test runs every
bundled power against a host that offers these members and nothing more.

Values: a card is its id (int), a Community its seat (int), a Faction its name.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Protocol, Sequence

# An effect is a plain tuple; its first item says which:
#   ("move", cards, zone, owner, position)  cards to `zone` ("hand", "transfer", "expedition" of seat
#                                            `owner`, or "reserve"/"discard" with owner None), at
#                                            position "top" or "end"
#   ("score", seat, amount)                  Survivors gained (or lost, if negative) at the count
#   ("next_leader", seat)                    who leads the next trick
#   ("next_lead", faction)                   the Faction the next trick is led in
#   ("state", key, seat, value)              a counter or mark (of seat, or None: the game's) is now value
#   ("declare", card, faction)               the card counts as that Faction for the rest of the trick
#   ("side", side)                           the trick is now played on that side ("+" or "-"; None: flip it)
#   ("end", "trick" | "round" | "game")      the trick ends now (nobody else plays it) / the round ends after it /
#                                            the game ends after this round's count
Effect = tuple


class CardFacts(Protocol):
    """Facts about the cards of a game that never change while it is played."""

    read: Mapping[str, Sequence[Any]]  # "faction", "value", "survivors" -> the attribute of each card
    cards_of: Mapping[str, frozenset[int]]  # Faction -> its cards
    zone_keys: Mapping[str, Sequence[str]]  # "hand", "transfer", "expedition" -> each seat's zone key
    clockwise: Sequence[Sequence[int]]  # seat -> every seat clockwise from it, itself first
    team_of: Sequence[Sequence[int]]  # seat -> its team (the hand's teams), clockwise from it, itself first
    partner_of: Sequence[int]  # seat -> its partner: the next of its team clockwise (itself, alone)


class PowerHost(Protocol):
    """A game as a power sees it while it runs."""

    n: int  # the number of Communities
    round_no: int  # the round being played, from 1
    population: Sequence[int]  # each Community's Survivors before this round's count
    tables: CardFacts
    zones: Mapping[str, Sequence[int]]  # zone key -> its cards in order (the Reserve: top first)
    rng: random.Random  # the game's one source of chance (a random pick)
    trick: Any  # the trick on the table (or just won): .plays is [(seat, card, trump)] in play order; None between
    tricks_won: Sequence[int]  # tricks each Community has won this round
    state: Mapping[tuple, Any]  # (state key, seat or None) -> a counter's or mark's value; absent: 0 or false
    round_steps: int  # the steps the round's ended hooks spent (vm.ended keeps it; a compiled power never reads it)

    @property
    def reserve(self) -> Sequence[int]: ...

    def held(self, seat: int) -> tuple[int, ...]:
        """A Community's hand and Transfer zone, the cards it can play."""
        ...

    def factions_in_play(self) -> tuple[str, ...]:
        """The Factions in play, highest rank first."""
        ...

    def apply_effects(self, effects: list[Effect], source: Any) -> None:
        """Do what a statement of the power says; `source` is the running hook's frame (vm.Frame)."""
        ...


#: The members a compiled power may use, as the conformance test checks them.
HOST_MEMBERS = frozenset({"n", "round_no", "population", "tables", "zones", "rng", "reserve", "held",
                          "factions_in_play", "apply_effects", "trick", "tricks_won", "state"})
FACT_MEMBERS = frozenset({"read", "cards_of", "zone_keys", "clockwise", "team_of", "partner_of"})

__all__ = ["PowerHost", "CardFacts", "Effect", "HOST_MEMBERS", "FACT_MEMBERS"]
