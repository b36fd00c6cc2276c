"""What a person at the table remembers of the Expedition zones: the cards they saw go in, even after a power
takes one out at random.

The kernel's observation tells only what everyone knows for sure lies in a
zone: when a power removes a card blind (a random pick), nobody is
sure which of the known cards is still there, so the observation forgets them
all. A person does not forget them: they remember the cards and know that one
of them may be gone. This memory keeps, per Expedition zone and round, every
card everyone saw there; a card the observation no longer places there is kept
as "perhaps still there" until it is seen somewhere else. It keeps only what
every Community knows, so it may be shown to any seat or a spectator.
"""

from __future__ import annotations

from typing import Mapping

from happydayz.kernel.determinize import expeditions_seen, known_cards
from happydayz.kernel.observation import card_ids


class ZoneMemory:
    """The cards one seat saw go into each Expedition zone this round."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.seen: list[list[int]] = []

    def update(self, observation: Mapping) -> None:
        """Read the seat's observation after an answer (a new round starts the memory afresh)."""
        zones = expeditions_seen(observation)
        if observation["round"] != self.round or len(self.seen) != len(zones):
            self.round, self.seen = observation["round"], [[] for _ in zones]
        # a card everyone sees anywhere else has left the zone (a seat's own hand is left out: the memory
        # holds only what every Community knows, so that it may be shown to any of them)
        public = known_cards(observation, zones) - set(card_ids(observation, "hand"))
        for seat, cards in enumerate(zones):
            kept = [c for c in self.seen[seat] if c in cards or c not in public]
            self.seen[seat] = kept + [c for c in cards if c not in kept]

    def perhaps(self, observation: Mapping, seat: int, holder: bool = True) -> list[int]:
        """The cards seen going into `seat`'s zone that may have left it since, unseen, for the Community whose
        `observation` this is (a card it holds itself has surely left); `holder=False` for a spectator, who
        sees no hand."""
        if seat >= len(self.seen):
            return []
        sure = set(expeditions_seen(observation)[seat]) | (set(card_ids(observation, "hand")) if holder else set())
        return [c for c in self.seen[seat] if c not in sure]


__all__ = ["ZoneMemory"]
