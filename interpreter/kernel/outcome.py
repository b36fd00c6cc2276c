"""Saying who won a game, in the words every front end uses."""

from __future__ import annotations

from typing import Sequence

# When every Community ends at 0, no Community wins (the rulebooks give that game to
# the game's threat; the rules pages say so, the code names no Faction).
NOBODY_WINS = "Nobody wins"


def winners_text(winners: Sequence[int], you: int | None = None,
                 teams: Sequence[Sequence[int]] | None = None, floor: int | None = 0) -> str:
    """The end-of-game sentence for a list of winning seats (with `teams`, the hand's: the teams that won).

    Nobody wins only when every score is at the hand's floor (`floor`, 0 by default: no Survivor left; a
    score with no floor, None, always has a winner): the sentence names the floor when it is not 0.
    """
    def name(seat: int) -> str:
        return f"Community {seat}" + (" (you)" if seat == you else "")

    if not winners:
        if floor is None or floor == 0:
            return f"{NOBODY_WINS}: no Community has a Survivor left."
        whose = "every team's score" if teams is not None else "every score"
        return f"{NOBODY_WINS}: {whose} is at the floor, {floor}."
    if teams is not None:  # a team wins together: one win of the team, never one of each of its Communities
        won = [(i, team) for i, team in enumerate(teams) if team[0] in winners]
        named = [f"Team {i} (" + _listed([name(s) for s in team]) + ")" for i, team in won]
        return f"{named[0]} wins." if len(named) == 1 else f"{_listed(named)} share the win."
    if len(winners) == 1:
        return f"{name(winners[0])} wins."
    return f"{_listed([name(s) for s in winners])} share the win."


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


__all__ = ["NOBODY_WINS", "winners_text"]
