"""Saying who won a game, in the words every front end uses."""

from __future__ import annotations

from typing import Sequence

# When every Community ends at 0, no Community wins (the rulebooks give that game to
# the game's threat; the rules pages say so, the code names no Faction).
NOBODY_WINS = "Nobody wins"


def winners_text(winners: Sequence[int], you: int | None = None) -> str:
    """The end-of-game sentence for a list of winning seats."""
    def name(seat: int) -> str:
        return f"Community {seat}" + (" (you)" if seat == you else "")

    if not winners:
        return f"{NOBODY_WINS}: no Community has a Survivor left."
    if len(winners) == 1:
        return f"{name(winners[0])} wins."
    listed = ", ".join(name(s) for s in winners[:-1]) + f" and {name(winners[-1])}"
    return f"{listed} share the win."


__all__ = ["NOBODY_WINS", "winners_text"]
