"""A Layout: a game's state written out in public terms, to build a Game from (Game.from_layout).

Determinization (determinize.py) samples one from what a Community saw; the
Game constructor is the one place that turns it into the game's fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Trick:
    """The trick on the table."""

    leader: int
    encounter: int | None
    led: str | None = None
    side: str | None = None
    plays: list[tuple[int, int, bool]] = field(default_factory=list)  # (seat, card, trump) in play order
    named: bool = False  # the Faction led was named before the lead
    prompt: str | None = None  # a follow's prompt, once worked out for this Faction led and side
    declared: dict[int, str] | None = None  # card -> the Faction a power declared it to count as
    untaken: tuple[str, str] | None = None  # nobody takes the trick: (zone, position) its cards go to


@dataclass
class Layout:
    zones: dict[str, list[int]]  # zone key -> its cards in order; zones not given are empty, cards not in any are out
    population: list[int]
    factions: list[tuple[str, str]]  # (Faction, variant) in play, in rank order
    added: list[str]  # added powers in play
    round_no: int
    round_gain: list[int]  # Survivors gained or lost by powers so far this round, per seat
    active: int  # the active Community
    known: list[list[int]]  # the cards everyone saw arrive in each Expedition zone
    voids: list[set[str]]  # the Factions each Community is known to lack in hand
    history: list[dict] = field(default_factory=list)  # the rounds counted so far
    trick: Trick | None = None
    transfer_picks: list[tuple[int, int, int]] = field(default_factory=list)  # (giver, receiver, card) so far
    phase: str = "start_trick"  # where the game goes on from: "transfer", "lead", "follow" or "start_trick"
    tricks_won: list[int] | None = None  # tricks each Community has won this round (None: none yet)
    state: dict[tuple, object] = field(default_factory=dict)  # the powers' counters and marks (see Game.state)
    dealer: int | None = None  # who deals the round (None: nobody deals)


__all__ = ["Layout", "Trick"]
