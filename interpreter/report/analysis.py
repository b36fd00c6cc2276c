"""The numbers of a balance report: win rates by seat, by first leader and by variant, per-power effects.

Every rate is given with a 95 % Wilson score interval and every mean with a
95 % normal interval (happydayz.report.stats). Nothing here names a Faction,
power or box: everything comes from the results.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any

from happydayz.report.results import GameRecord, Results
from happydayz.report.stats import mean_interval, proportion_z_test, rate

def _won(g: GameRecord) -> int:
    """How many won a game: its winners, or with teams the teams that won (a team wins together)."""
    if g.teams is None:
        return len(g.winners)
    return sum(1 for team in g.teams if team[0] in g.winners)


def _team_section(games: list[GameRecord]) -> list[dict]:
    """Per set of teams: each team's wins (one per game it won, never one per Community) and final populations."""
    out = []
    by_teams: dict[tuple, list[GameRecord]] = defaultdict(list)
    for g in games:
        if g.teams is not None:
            by_teams[g.teams].append(g)
    for teams, group in sorted(by_teams.items()):
        total = len(group)
        fair = sum(_won(g) for g in group) / (len(teams) * total)
        rows = []
        for index, team in enumerate(teams):
            wins = sum(1 for g in group if team[0] in g.winners)
            rows.append({"team": index, "seats": list(team), "win": rate(wins, total),
                         "p_value": proportion_z_test(wins, total, fair) if fair else None,
                         "population": mean_interval(g.final_populations[team[0]] if g.pooled else
                                                     sum(g.final_populations[s] for s in team) for g in group)})
        out.append({"teams": [list(t) for t in teams], "games": total, "fair_share": fair, "rows": rows})
    return out


def _seat_section(games: list[GameRecord]) -> dict[int, dict]:
    """Per player count: each seat's wins, final population and elimination (games without teams: a team's win is
    not a win of each of its seats)."""
    out: dict[int, dict] = {}
    by_players: dict[int, list[GameRecord]] = defaultdict(list)
    for g in games:
        if g.teams is None:
            by_players[g.players].append(g)
    for n, group in sorted(by_players.items()):
        total = len(group)
        total_wins = sum(len(g.winners) for g in group)
        fair = total_wins / (n * total) if total else None
        seats = []
        for seat in range(n):
            wins = sum(1 for g in group if seat in g.winners)
            seats.append({
                "seat": seat,
                "win": rate(wins, total),
                "p_value": proportion_z_test(wins, total, fair) if fair else None,
                "population": mean_interval(g.final_populations[seat] for g in group),
                "eliminated": rate(sum(1 for g in group if _at_floor(g, g.final_populations[seat])), total),
            })
        leader = None
        with_leader = [g for g in group if g.first_leader is not None]
        if with_leader:
            m = len(with_leader)
            offsets = []
            for k in range(n):
                wins = sum(1 for g in with_leader if (g.first_leader + k) % n in g.winners)
                offsets.append({"offset": k, "win": rate(wins, m),
                                "p_value": proportion_z_test(wins, m, fair) if fair else None})
            leads = [rate(sum(1 for g in with_leader if g.first_leader == s), m) for s in range(n)]
            leader = {"games": m, "offsets": offsets, "leads": leads}
        out[n] = {"games": total, "fair_share": fair, "seats": seats, "leader": leader}
    return out


def _at_floor(g: GameRecord, population: int) -> bool:
    """Whether a final population is at the game's floor: eliminated (0 by default; no floor: never)."""
    return g.floor is not None and population <= g.floor


def _group_metrics(group: list[GameRecord]) -> dict:
    total = len(group)
    with_leader = [g for g in group if g.first_leader is not None]
    return {
        "games": total,
        "population": mean_interval(p for g in group for p in g.final_populations),
        "eliminated": rate(sum(1 for g in group if any(_at_floor(g, p) for p in g.final_populations)), total),
        "no_winner": rate(sum(1 for g in group if not g.winners), total),
        "shared": rate(sum(1 for g in group if _won(g) > 1), total),
        "rounds": mean_interval(g.rounds for g in group),
        "leader_win": rate(sum(1 for g in with_leader if g.first_leader in g.winners), len(with_leader))
        if with_leader else None,
    }


def _variant_section(games: list[GameRecord]) -> dict | None:
    known = [g for g in games if g.factions is not None]
    if not known:
        return None
    by_faction: dict[str, dict[str, list[GameRecord]]] = defaultdict(lambda: defaultdict(list))
    order: list[str] = []
    for g in known:
        for faction, variant in g.factions:
            if faction not in order:
                order.append(faction)
            by_faction[faction][variant].append(g)
    rows = []
    for faction in order:
        for variant in ("basic", "positive", "negative", *sorted(set(by_faction[faction]) -
                                                                  {"basic", "positive", "negative"})):
            group = by_faction[faction].get(variant)
            if group:
                rows.append({"faction": faction, "variant": variant, **_group_metrics(group)})
    sets = Counter(g.factions for g in known)
    return {"games": len(known), "rows": rows, "faction_sets": len(sets),
            "compared": any(len(variants) > 1 for variants in by_faction.values())}


def _power_section(games: list[GameRecord]) -> dict | None:
    """Per power: triggers, its gain/lose and moved Survivors, and the win rates of the Communities it ran for.

    "when it ran" is score + moved when every record has "moved", else score only.
    """
    with_powers = [g for g in games if g.powers is not None]
    if not with_powers:
        return None
    complete = all("moved" in r for g in with_powers for r in g.powers.values())
    rows = []
    for key in sorted({key for g in with_powers for key in g.powers}):
        present = [g for g in with_powers if key in g.powers]
        fired, idle, fired_survivors = [], [], []
        for g in present:
            record = g.powers[key]
            for seat, t in enumerate(record["triggers"]):
                won = seat in g.winners
                if t > 0:
                    fired.append(won)
                    fired_survivors.append(record["score"][seat] + (record["moved"][seat] if complete else 0))
                else:
                    idle.append(won)
        rows.append({
            "power": key,
            "games": len(present),
            "triggers": mean_interval(sum(g.powers[key]["triggers"]) for g in present),
            "score_per_game": mean_interval(sum(g.powers[key]["score"]) for g in present),
            "moved_per_game": mean_interval(sum(g.powers[key]["moved"]) for g in present
                                            if "moved" in g.powers[key]),
            "survivors_when_fired": mean_interval(fired_survivors),
            "win_fired": rate(sum(fired), len(fired)),
            "win_idle": rate(sum(idle), len(idle)),
        })
    return {"games": len(with_powers), "rows": rows, "moved": complete}


def _short_cell_labels(games: list[GameRecord]) -> tuple[dict[str, str], str]:
    """Cell label -> the keys that differ between cells only; and what every cell shares."""
    data = {g.cell: g.cell_data for g in games}
    if len(data) < 2 or not all(isinstance(d, dict) for d in data.values()):
        return {label: label for label in data}, ""
    keys = sorted({k for d in data.values() for k in d})

    def text(value: Any) -> str:
        return value if isinstance(value, str) else json.dumps(value, sort_keys=True)

    varying = [k for k in keys if len({text(d[k]) if k in d else None for d in data.values()}) > 1]
    shared = [k for k in keys if k not in varying]
    first = next(iter(data.values()))
    labels = {label: ", ".join(f"{k}={text(d[k])}" for k in varying if k in d) or label for label, d in data.items()}
    return labels, ", ".join(f"{k}={text(first[k])}" for k in shared)


MAX_ROUND_COUNTS = 50  # game lengths in the table and the plot: the most common ones, if a file has more


def analyse(results: Results) -> dict:
    """Every number of the report, as plain data (Rate and Mean objects)."""
    games = results.games
    rounds = Counter(g.rounds for g in games)
    short, shared = _short_cell_labels(games)
    cells: dict[str, list[GameRecord]] = defaultdict(list)
    for g in games:
        cells[short[g.cell]].append(g)
    populations = [p for g in games for p in g.final_populations]
    winning = [max(g.final_populations) for g in games if g.winners]
    zeros = Counter(sum(1 for p in g.final_populations if _at_floor(g, p)) for g in games)
    bots = sorted({", ".join(g.bots) for g in games if g.bots})
    return {
        "overall": _group_metrics(games),
        "players": sorted({g.players for g in games}),
        "floors": sorted({"none" if g.floor is None else g.floor for g in games}, key=str),
        "bots": bots,
        "seats": _seat_section(games),
        "teams": _team_section(games),
        "variants": _variant_section(games),
        "powers": _power_section(games),
        "cells": {label: _group_metrics(group) for label, group in cells.items()},
        "cells_shared": shared,
        "rounds": {r: rate(c, len(games)) for r, c in sorted(rounds.most_common(MAX_ROUND_COUNTS))},
        "rounds_left_out": max(0, len(rounds) - MAX_ROUND_COUNTS),
        "populations": populations,
        "winning_populations": winning,
        "communities_at_zero": {k: rate(c, len(games)) for k, c in sorted(zeros.items())},
        "leader_known": sum(1 for g in games if g.first_leader is not None),
    }


__all__ = ["analyse"]
