"""Playing until the rates are known closely enough: `simulate --until-ci W` and a sweep's `until_ci`.

The games are played in rounds. After each round every rate the results report
gets its 95 % Wilson interval (happydayz.base.stats), and the run stops once
the widest of them is narrower than ±W (half its width below W), or at the
cap. The rates are those a simulation and the balance report show with
intervals:

- the win rate of each seat (of the bot at that seat), and the rate of games
  nobody won;
- for each power in play, the win rate of the Communities it ran for ("when it
  ran") and of those it did not ("otherwise"), counted per Community and game
  as the report's per-power section does. A rate with no games behind it yet
  (a power that never ran) is not shown, so it does not count.

Rounds: the first is FIRST_ROUND games. Then, since an interval narrows as
1/√n, the games a round adds are those the widest interval needs by that rule
(n·(h/W)² in all, for h its half-width now), rounded up to a whole number of
FIRST_ROUND, at least FIRST_ROUND and at most the games played so far (the
total at most doubles, so a guess from few games cannot overshoot far), and
never beyond the cap.

Game i is always seeded from (seed, i) and a round plays games n … n+k-1, so
the rounds change nothing in the games: a run that stops after n games holds
exactly the games of a plain run of n games. Where to stop is decided from the
results in game order only, so it is the same with any number of jobs.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

from happydayz.base.stats import CONFIDENCE, half_width

#: The games of the first round, and the step the later rounds are rounded up to.
FIRST_ROUND = 100


def parse_width(text: str | float) -> float:
    """The half-width W of `--until-ci W` / `until_ci:`: a fraction (0.02) or a percentage ("2%").

    ValueError, with a message for the user, for anything but a number more than 0 and at most 1 (100%).
    """
    out_of_range = "expected a half-width more than 0 and at most 1 (100%), got {}"
    if isinstance(text, int) and not isinstance(text, bool) and text != 1:  # (a YAML integer may be huge)
        raise ValueError(out_of_range.format(text if abs(text) < 10**12 else "a number of more than 12 digits"))
    raw = text.strip() if isinstance(text, str) else text
    percent = isinstance(raw, str) and raw.endswith("%")
    try:
        if isinstance(raw, bool):
            raise ValueError
        value = float(raw[:-1] if percent else raw)
    except (TypeError, ValueError):
        raise ValueError(f"expected a half-width such as 0.02 or 2%, got {text!r}") from None
    width = value / 100.0 if percent else value
    if not 0.0 < width <= 1.0:  # (NaN fails this too)
        raise ValueError(out_of_range.format(text if isinstance(text, str) else f"{value:g}"))
    return width


def rate_counts(records: Iterable[dict], players: int) -> list[tuple[str, int, int]]:
    """(what, successes, trials) for every rate the results report, from game records in game order.

    A record needs "winners", and "powers" for the per-power rates (a record without it adds none).
    """
    games = 0
    wins = [0] * players
    team_wins: list[int] = []  # with teams: each team's (a team wins together: never its Communities' own)
    teams = None
    nobody = 0
    fired: dict[str, list[int]] = {}  # power -> [wins, Communities] when it ran; [2:] otherwise
    for record in records:
        games += 1
        winners = record["winners"]
        if "teams" in record:
            teams = record["teams"]
            team_wins = team_wins or [0] * len(teams)
            for team in record["winning_teams"]:
                team_wins[team] += 1
        else:
            for seat in winners:
                wins[seat] += 1
        nobody += not winners
        for power, stats in (record.get("powers") or {}).items():
            counts = fired.setdefault(power, [0, 0, 0, 0])
            for seat, times in enumerate(stats["triggers"]):
                at = 0 if times > 0 else 2
                counts[at] += seat in winners
                counts[at + 1] += 1
    if teams is not None:
        rates = [(f"Team {i}'s win rate", team_wins[i], games) for i in range(len(teams))]
    else:
        rates = [(f"Community {seat}'s win rate", wins[seat], games) for seat in range(players)]
    rates.append(("the rate of games nobody won", nobody, games))
    for power in sorted(fired):
        won, ran, won_idle, idle = fired[power]
        rates += [(f"{power}'s win rate when it ran", won, ran), (f"{power}'s win rate otherwise", won_idle, idle)]
    return [(what, successes, trials) for what, successes, trials in rates if trials]


def widest_interval(records: Iterable[dict], players: int) -> tuple[float, str | None]:
    """The largest half-width of the 95 % intervals of the reported rates, and which rate has it."""
    widest, which = 0.0, None
    for what, successes, trials in rate_counts(records, players):
        half = half_width(successes, trials, CONFIDENCE)
        if half > widest:
            widest, which = half, what
    return widest, which


def next_round(played: int, widest: float, target: float, cap: int) -> int:
    """How many games the next round plays (see the module's docstring)."""
    if played == 0:
        return min(FIRST_ROUND, cap)
    needed = math.ceil(played * (widest / target) ** 2) - played
    more = min(max(FIRST_ROUND, math.ceil(needed / FIRST_ROUND) * FIRST_ROUND), max(played, FIRST_ROUND))
    return max(0, min(more, cap - played))


def play_until(target: float, cap: int, players: int, play: Callable[[int, int], list[dict]]) -> dict:
    """Play rounds until every reported rate is within ±target, or `cap` games; the "stopped" record.

    `play(first, end)` plays games first … end-1 and returns the records of every game played so
    far, in game order. The record: {"reason": "ci" | "cap", "games", "widest_half_width",
    "widest" (the rate with the widest interval), "until_ci" (the target)}.
    """
    played, widest, which = 0, 1.0, None
    while played < cap:
        end = played + next_round(played, widest, target, cap)
        records = play(played, end)
        played = end
        widest, which = widest_interval(records, players)
        if widest < target:
            break
    return {"reason": "ci" if played and widest < target else "cap", "games": played,
            "widest_half_width": round(widest, 4) if played else None, "widest": which, "until_ci": target}


def describe(stopped: dict) -> str:
    """One sentence for people: how many games it took, and why it stopped."""
    target = f"±{stopped['until_ci']:.1%}"
    games = f"{stopped['games']:,} game" + ("" if stopped["games"] == 1 else "s")
    if stopped["widest_half_width"] is None:
        return f"Stopped at the cap of {games}, before any rate was known (wanted {target})."
    widest = f"±{stopped['widest_half_width']:.2%}, {stopped['widest']}"
    if stopped["reason"] == "ci":
        return f"Stopped after {games}: every 95% interval is within {target} (the widest: {widest})."
    return f"Stopped at the cap of {games}: the widest 95% interval is still {widest} (wanted {target})."


__all__ = ["FIRST_ROUND", "parse_width", "rate_counts", "widest_interval", "next_round", "play_until", "describe"]
