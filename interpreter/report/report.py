"""Balance reports: Markdown tables and PNG plots from simulation results.

    happydayz report RESULTS [--out DIR]

RESULTS is either the JSON that `happydayz simulate --json` writes (one
object: {"games": [...], "summary": {...}}) or the JSON Lines that
`happydayz sweep` writes (one game per line, each with its "cell" and the
"factions" it started with). The format is detected from the content.

Every rate is given with a 95 % Wilson score interval and every mean with a
95 % normal interval (stats.py). The plots are drawn with matplotlib's
Agg renderer on bare Figures (no pyplot): no display, no global backend change.

Optional per-game fields, used when present and skipped (with a note in the
report) when not:

    "first_leader": the seat that led the first trick (decided by the Transfer)
    "powers": {"<power name>/<variant>": {"triggers": [per seat], "score": [per seat],
                                          "moved": [per seat]}}

"moved" (the Survivors on the cards a power moved into or out of each
Expedition) may be missing: results written before it was recorded have none,
and the report then counts gain/lose effects only. `first_leader(game)` and
`power_stats(game)` compute these fields from a played Game, for a simulation
to add to its records.

This module names no Faction, power or box: everything comes from the data.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from happydayz.base.errors import Diagnostic, HappyError, Span
from happydayz.report.stats import Mean, Rate, mean_interval, proportion_z_test, rate

DEFAULT_OUT = "report"
REPORT_NAME = "report.md"

# Diagnostic codes of this module.
A_READ = "A001"  # the results file cannot be read
A_JSON = "A002"  # not JSON / JSON Lines
A_SHAPE = "A003"  # JSON, but not simulation results
A_WRITE = "A004"  # the report cannot be written


class ResultsProblem(HappyError):
    """A results file that is missing, unreadable or not simulation results (exit 1)."""


def _problem(path: str | Path, message: str, code: str, line: int = 1, column: int = 1,
             hint: str | None = None) -> ResultsProblem:
    return ResultsProblem(Diagnostic(Span(str(path), line, column), message, code, hint=hint))


# =================================================================== per-game extras

def first_leader(game) -> int | None:
    """The seat that led the first trick of the game (None if no trick was played)."""
    for event in game.log:
        if event["event"] == "encounter":
            return event["leader"]
    return None


def _effective(effect: tuple) -> bool:
    kind = effect[0]
    if kind == "score":
        return effect[2] != 0
    if kind == "move":
        return bool(effect[1])
    return True


def power_stats(game, start=None) -> dict[str, dict[str, list[int]]]:
    """What each power did in a finished game, per seat.

    Returns {"<power name>/<variant>": {"triggers": [...], "score": [...], "moved": [...]}},
    each list per seat, where the variant is basic, positive, negative, or
    fixed (a power without variants), and

    - triggers: how often the power ran for that seat with an effect. An
      on-win power counts every trick it ran for (the log's "power" events);
      an end-of-round power counts the rounds in which it changed something
      for that seat.
    - score: Survivors that seat gained (+) or lost (-) through the power's own
      gain/lose effects.
    - moved: the Survivors on the cards the power moved into (+) or out of (-)
      that seat's Expedition: they count for it at the count. Cards moved
      between two places that are not Expeditions count for nobody.

    Every power with a hook that is in play when the game starts is listed,
    with zeros if it never ran, so that "in play but never triggered" can be
    told from "not in play".

    The log does not say which power a score, a move or an end-of-round effect
    comes from, so the game is replayed with the effects traced (about the
    cost of the game itself, without the bots): from its seed, or from `start`,
    a copy of the game taken before its first answer (for a game set to a
    position). The replay must give the same log, else ValueError.
    """
    from happydayz.kernel.game import Game  # late: the kernel is not needed to read results

    setup = game.setup
    n = game.n
    stats: dict[str, dict[str, list[int]]] = {}

    def entry(name: str, variant: str) -> dict[str, list[int]]:
        key = f"{name}/{variant}"
        if key not in stats:
            stats[key] = {"triggers": [0] * n, "score": [0] * n, "moved": [0] * n}
        return stats[key]

    powers = [*setup.faction_power.values(), *setup.added_power.values(), *setup.card_power.values()]
    names = {str(p.file): p.name for p in powers}

    def has_hook(program) -> bool:
        return program.on_win is not None or program.end_of_round is not None

    begin = next((e for e in game.log if e["event"] == "game_start"), None)
    factions = [tuple(f) for f in (begin["factions"] if begin else [])]
    variant_of = dict(factions)
    for faction in (*setup.always, *(f for f, _ in factions)):
        power = setup.faction_power.get(faction)
        if power is not None:
            kind = "fixed" if power.fixed else variant_of.get(faction, "basic")
            if has_hook(power.variant(kind)):
                entry(power.name, kind)
    for added in (begin["added"] if begin else []):
        power = setup.added_power.get(added)
        if power is not None and has_hook(power.variant("basic")):
            entry(power.name, "fixed" if power.fixed else "basic")
    if setup.options.promos:
        for faction, (_, card) in setup.promo_swaps.items():
            power = setup.card_power.get(card)
            if faction in variant_of and power is not None and has_hook(power.variant("basic")):
                entry(power.name, "fixed" if power.fixed else "basic")

    replay = Game(setup, game.seed) if start is None else start.copy()
    played = len(replay.answers)
    for event in game.log[len(replay.log):]:
        if event["event"] == "power":
            entry(event["power"], event["variant"])["triggers"][event["seat"]] += 1

    apply = functools.partial(Game.apply_effects, replay)
    survivors = [card.survivors or 0 for card in setup.cards]
    expedition = {f"expedition:{seat}": seat for seat in range(n)}  # zone -> its seat
    counted: list = []  # end-of-round frames already counted (kept alive, so ids stay unique)
    counted_ids: set[int] = set()

    def traced(effects: list[tuple]) -> None:
        if replay.frames:
            frame = replay.frames[0]  # the frame the VM is running
            file, kind, hook = frame.key
            record = entry(names.get(file, Path(file).stem), kind)
            score, moved = record["score"], record["moved"]
            loc = replay.loc
            where: dict[int, str] = {}  # cards this list has moved already leave from there
            for effect in effects:
                if effect[0] == "score":
                    score[effect[1]] += effect[2]
                elif effect[0] == "move":
                    _, cards, zone, owner, _ = effect
                    dest = zone if owner is None else f"{zone}:{owner}"
                    for card in cards:
                        source = expedition.get(where.get(card, loc[card]))
                        if source is not None:
                            moved[source] -= survivors[card]
                        if dest in expedition:
                            moved[expedition[dest]] += survivors[card]
                        where[card] = dest
            if hook == "end" and id(frame) not in counted_ids and any(_effective(e) for e in effects):
                counted.append(frame)
                counted_ids.add(id(frame))
                record["triggers"][frame.me] += 1
        apply(effects)

    class Traced(Game):  # this replay only; the kernel is untouched
        __slots__ = ()

        def apply_effects(self, effects: list[tuple]) -> None:
            traced(effects)

    replay.__class__ = Traced
    for answer in game.answers[played:]:
        replay.apply(answer)
    if len(replay.log) != len(game.log) or replay.population != game.population:
        raise ValueError("the game does not replay from its seed and answers; power statistics need a game "
                         "played from the start with Game(setup, seed), or the copy it was played from (start)")
    return {key: stats[key] for key in sorted(stats)}


def game_extras(game) -> dict:
    """The optional per-game fields the report uses: first_leader and powers."""
    return {"first_leader": first_leader(game), "powers": power_stats(game)}


# ======================================================================= reading

@dataclass
class GameRecord:
    index: int
    players: int
    rounds: int
    final_populations: list[int]
    winners: list[int]
    cell: str
    factions: tuple[tuple[str, str], ...] | None = None
    cell_data: Any = None  # the sweep's "cell" as read
    first_leader: int | None = None
    powers: dict | None = None
    bots: tuple[str, ...] | None = None


@dataclass
class Results:
    path: Path
    kind: str  # "simulate" or "sweep"
    games: list[GameRecord]
    summary: dict | None = None
    notes: list[str] = field(default_factory=list)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _record(data: Any, index: int, cell: str, where: tuple[str, int], path: Path,
            factions: tuple | None = None, bots: tuple | None = None) -> GameRecord:
    """One game from a JSON object; ResultsProblem naming the place if it is not one."""
    label, line = where

    def bad(message: str) -> ResultsProblem:
        return _problem(path, f"{label}: {message}", A_SHAPE, line=line)

    if not isinstance(data, dict):
        raise bad("a game result must be a JSON object")
    populations = data.get("final_populations")
    if not isinstance(populations, list) or not populations or not all(_is_int(p) for p in populations):
        raise bad("'final_populations' must be a non-empty list of whole numbers")
    players = len(populations)
    winners = data.get("winners")
    if not isinstance(winners, list) or not all(_is_int(w) and 0 <= w < players for w in winners):
        raise bad(f"'winners' must be a list of seats from 0 to {players - 1}")
    rounds = data.get("rounds")
    if not _is_int(rounds) or rounds < 0:
        raise bad("'rounds' must be a whole number, 0 or more")
    raw_factions = data.get("factions", factions)
    parsed_factions = None
    if raw_factions is not None:
        try:
            parsed_factions = tuple((str(f), str(v)) for f, v in raw_factions)
        except (TypeError, ValueError):
            raise bad("'factions' must be a list of [Faction, variant] pairs") from None
    leader = data.get("first_leader")
    if leader is not None and not (_is_int(leader) and 0 <= leader < players):
        raise bad(f"'first_leader' must be a seat from 0 to {players - 1}")
    powers = data.get("powers")
    if powers is not None:
        def per_seat(value: Any) -> bool:
            return isinstance(value, list) and len(value) == players and all(_is_int(x) for x in value)

        if not isinstance(powers, dict) or not all(
                isinstance(v, dict) and per_seat(v.get("triggers")) and per_seat(v.get("score"))
                for v in powers.values()):
            raise bad("'powers' must map each power to {'triggers': [per seat], 'score': [per seat]}")
        for key, v in powers.items():
            if "moved" in v and not per_seat(v["moved"]):
                raise bad(f"'powers' {key!r}: 'moved' must be a list of {players} whole numbers, one per seat "
                          "(or left out)")
    raw_bots = data.get("bots", bots)
    return GameRecord(index=data.get("game", index) if _is_int(data.get("game")) else index, players=players,
                      rounds=rounds, final_populations=list(populations), winners=sorted(set(winners)), cell=cell,
                      factions=parsed_factions, first_leader=leader, powers=powers,
                      bots=tuple(str(b) for b in raw_bots) if isinstance(raw_bots, (list, tuple)) else None)


def _cell_label(cell: Any) -> str:
    if isinstance(cell, dict):
        parts = []
        for key in sorted(cell):
            value = cell[key]
            text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
            parts.append(f"{key}={text}")
        return ", ".join(parts) or "all"
    if cell is None:
        return "all"
    return str(cell) if isinstance(cell, str) else json.dumps(cell, sort_keys=True)


def _scenario_factions(reference: Any) -> tuple[tuple[str, str], ...] | None:
    """The Factions (and variants) a scenario starts with, or None if it cannot be found."""
    if not isinstance(reference, str):
        return None
    try:
        from happydayz.data.boxes import load_library, resolve_scenario

        scenario, _ = resolve_scenario(reference, load_library())
        return tuple((c.faction, c.variant) for c in scenario.factions)
    except Exception:  # a scenario file moved or changed: the report goes on without it
        return None


def load_results(path: str | Path) -> Results:
    """Read simulate JSON or sweep JSON Lines. Raises ResultsProblem for a bad file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise _problem(path, "this is a folder, not a results file", A_READ) from None
    except OSError as exc:
        raise _problem(path, f"cannot read the results file: {exc.strerror or exc}", A_READ,
                       hint="give the file written by 'happydayz simulate --json PATH' or 'happydayz sweep'") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _problem(path, "the results file is not UTF-8 text", A_READ, line=line) from None
    if not text.strip():
        raise _problem(path, "the results file is empty", A_SHAPE)

    try:
        document = json.loads(text)
    except json.JSONDecodeError as whole_error:
        document = None
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            first_ok = isinstance(json.loads(first), dict)
        except json.JSONDecodeError:
            first_ok = False
        if not first_ok:
            raise _problem(path, f"not valid JSON: {whole_error.msg}", A_JSON, whole_error.lineno,
                           whole_error.colno) from None
        return _load_lines(path, text)
    if isinstance(document, dict) and "games" in document:
        return _load_simulate(path, document)
    if isinstance(document, dict) and "final_populations" in document:
        return _load_lines(path, text)
    if isinstance(document, dict) and "event" in document:
        raise _event_log(path)
    raise _problem(path, "this JSON is not simulation results: expected an object with \"games\" (simulate --json) "
                   "or one game per line (sweep)", A_SHAPE)


def _event_log(path: Path) -> ResultsProblem:
    return _problem(path, "this is an event log (simulate --log), not results", A_SHAPE,
                    hint="give the file written by 'happydayz simulate --json PATH' or 'happydayz sweep'")


def _load_simulate(path: Path, document: dict) -> Results:
    games = document.get("games")
    summary = document.get("summary")
    if not isinstance(games, list):
        raise _problem(path, "\"games\" must be a list of game results", A_SHAPE)
    if summary is not None and not isinstance(summary, dict):
        raise _problem(path, "\"summary\" must be an object", A_SHAPE)
    summary = summary or {}
    scenario = summary.get("scenario")
    bots = summary.get("bots")
    notes = []
    factions = None
    if not all(isinstance(g, dict) and "factions" in g for g in games):
        factions = _scenario_factions(scenario)
        if factions is None and scenario is not None:
            notes.append(f"The Factions of scenario {scenario!r} could not be found, so the per-variant "
                         "section is left out.")
    players = summary.get("players")
    cell = _cell_label({"scenario": scenario, "players": players}) if scenario is not None else "all"
    records = [_record(g, i, cell, (f"games[{i}]", 1), path, factions, tuple(bots) if isinstance(bots, list) else None)
               for i, g in enumerate(games)]
    if not records:
        raise _problem(path, "the results hold no games", A_SHAPE, hint="simulate with --games 1 or more")
    return Results(path, "simulate", records, summary, notes)


def _load_lines(path: Path, text: str) -> Results:
    records: list[GameRecord] = []
    skipped = 0
    events = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _problem(path, f"line {number} is not valid JSON: {exc.msg}", A_JSON, number, exc.colno,
                           hint="a results file has one JSON object per line (an interrupted sweep may leave "
                                "a partial last line)") from None
        if isinstance(data, dict) and "final_populations" in data:
            record = _record(data, len(records), _cell_label(data.get("cell")), (f"line {number}", number), path)
            record.cell_data = data.get("cell")
            records.append(record)
        elif isinstance(data, dict) and "event" in data:
            events += 1
        else:
            skipped += 1
    if not records:
        if events:
            raise _event_log(path)
        raise _problem(path, "no game results found: expected one JSON object a line with \"final_populations\"",
                       A_SHAPE)
    notes = [f"{skipped} line(s) that are not game results were ignored."] if skipped else []
    return Results(path, "sweep", records, None, notes)


# ====================================================================== analysis

def _seat_section(games: list[GameRecord]) -> dict[int, dict]:
    """Per player count: each seat's wins, final population and elimination."""
    out: dict[int, dict] = {}
    by_players: dict[int, list[GameRecord]] = defaultdict(list)
    for g in games:
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
                "eliminated": rate(sum(1 for g in group if g.final_populations[seat] == 0), total),
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


def _group_metrics(group: list[GameRecord]) -> dict:
    total = len(group)
    with_leader = [g for g in group if g.first_leader is not None]
    return {
        "games": total,
        "population": mean_interval(p for g in group for p in g.final_populations),
        "eliminated": rate(sum(1 for g in group if min(g.final_populations) == 0), total),
        "no_winner": rate(sum(1 for g in group if not g.winners), total),
        "shared": rate(sum(1 for g in group if len(g.winners) > 1), total),
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
    zeros = Counter(sum(1 for p in g.final_populations if p == 0) for g in games)
    bots = sorted({", ".join(g.bots) for g in games if g.bots})
    return {
        "overall": _group_metrics(games),
        "players": sorted({g.players for g in games}),
        "bots": bots,
        "seats": _seat_section(games),
        "variants": _variant_section(games),
        "powers": _power_section(games),
        "cells": {label: _group_metrics(group) for label, group in cells.items()},
        "cells_shared": shared,
        "rounds": {r: rate(c, len(games)) for r, c in sorted(rounds.items())},
        "populations": populations,
        "winning_populations": winning,
        "communities_at_zero": {k: rate(c, len(games)) for k, c in sorted(zeros.items())},
        "leader_known": sum(1 for g in games if g.first_leader is not None),
    }


# ========================================================================= plots

PLOT_DPI = 100


def _figure(width: float = 7.0, height: float = 4.0):
    try:  # a bare Figure, not pyplot: no GUI, no global state; PNGs are drawn by Agg
        from matplotlib.figure import Figure
    except ImportError:
        raise ResultsProblem(Diagnostic(Span("<report>", 1, 1), "the report needs matplotlib to draw its plots",
                                        A_WRITE, hint="pip install matplotlib")) from None
    return Figure(figsize=(width, height), dpi=PLOT_DPI, layout="constrained")


def _errors(rates: list[Rate]) -> tuple[list[float], list[list[float]]]:
    values = [r.value or 0.0 for r in rates]
    return values, [[v - r.low for v, r in zip(values, rates)], [r.high - v for v, r in zip(values, rates)]]


def _mean_errors(means: list[Mean]) -> tuple[list[float], list[list[float]]]:
    values = [m.mean if m.mean is not None else 0.0 for m in means]
    low = [v - (m.low if m.low is not None else v) for v, m in zip(values, means)]
    high = [(m.high if m.high is not None else v) - v for v, m in zip(values, means)]
    return values, [low, high]


def _save(fig, out: Path, name: str) -> Path:
    target = out / name
    fig.savefig(target, dpi=PLOT_DPI, format="png", backend="agg", metadata={"Software": None})
    return target


def _bar_groups(ax, groups: list[tuple], many: bool) -> None:
    """Win-rate bars with 95% error bars: one group per player count, each with its fair-share line.

    `groups` holds (players, rates, colour or colours, bar names, fair share or None).
    """
    x = 0
    ticks, labels = [], []
    for n, rates, colour, names, fair_share in groups:
        values, errors = _errors(rates)
        xs = list(range(x, x + n))
        ax.bar(xs, values, yerr=errors, capsize=4, color=colour, alpha=0.85)
        if fair_share is not None:
            ax.hlines(fair_share, xs[0] - 0.4, xs[-1] + 0.4, colors="tab:red", linestyles="dashed",
                      label="fair share" if x == 0 else None)
        ticks += xs
        labels += [name + (f"\n({n}p)" if many else "") for name in names]
        x += n + 1
    ax.set_xticks(ticks, labels)
    ax.set_ylabel("win rate (95% CI)")
    ax.legend(loc="lower right")


def _seats_figure(seats: dict):
    return _figure(max(5.0, 1.2 * sum(len(s["seats"]) for s in seats.values()) + 2), 4.0)


def _plot_seats(analysis: dict, out: Path) -> Path:
    seats = analysis["seats"]
    fig = _seats_figure(seats)
    ax = fig.add_subplot()
    _bar_groups(ax, [(n, [s["win"] for s in section["seats"]], "tab:blue", [f"seat {s}" for s in range(n)],
                      section["fair_share"]) for n, section in seats.items()], many=len(seats) > 1)
    ax.set_title("Win rate by seat")
    ax.set_ylim(0, min(1.0, max(r["win"].high for s in seats.values() for r in s["seats"]) * 1.25 + 0.02))
    return _save(fig, out, "seat_win_rate.png")


def _plot_leader(analysis: dict, out: Path) -> Path:
    seats = analysis["seats"]
    fig = _seats_figure(seats)
    ax = fig.add_subplot()
    _bar_groups(ax, [(n, [o["win"] for o in section["leader"]["offsets"]], ["tab:orange"] + ["tab:gray"] * (n - 1),
                      ["first\nleader" if k == 0 else f"+{k}" for k in range(n)], section["fair_share"])
                     for n, section in seats.items() if section["leader"] is not None], many=len(seats) > 1)
    ax.set_xlabel("seat, clockwise from the first leader")
    ax.set_title("Win rate by position relative to the first leader")
    return _save(fig, out, "first_leader_win_rate.png")


def _plot_variants(analysis: dict, out: Path) -> Path:
    rows = analysis["variants"]["rows"]
    colours = {"basic": "tab:gray", "positive": "tab:green", "negative": "tab:red"}
    fig = _figure(max(6.0, 0.5 * len(rows) + 3), 6.0)
    top, bottom = fig.subplots(2, 1, sharex=True)
    xs, names, x, previous = [], [], 0.0, None
    for row in rows:
        if previous is not None and row["faction"] != previous:
            x += 0.6
        xs.append(x)
        names.append(f"{row['faction']}\n{row['variant']}")
        previous = row["faction"]
        x += 1
    cs = [colours.get(r["variant"], "tab:blue") for r in rows]
    values, errors = _mean_errors([r["population"] for r in rows])
    top.bar(xs, values, yerr=errors, capsize=3, color=cs)
    top.set_ylabel("mean final population")
    top.set_title("By Faction variant present at the start (95% CI)")
    values, errors = _errors([r["eliminated"] for r in rows])
    bottom.bar(xs, values, yerr=errors, capsize=3, color=cs)
    bottom.set_ylabel("games with a Community at 0")
    bottom.set_xticks(xs, names, rotation=60, ha="right", fontsize=8)
    return _save(fig, out, "variants.png")


def _plot_populations(analysis: dict, out: Path) -> Path:
    fig = _figure()
    ax = fig.add_subplot()
    populations = analysis["populations"]
    top = max(populations + analysis["winning_populations"] + [1])
    width = max(1, math.ceil((top + 1) / 40))
    bins = list(range(0, top + width + 1, width))
    ax.hist(populations, bins=bins, color="tab:blue", alpha=0.7, label="every Community")
    if analysis["winning_populations"]:
        ax.hist(analysis["winning_populations"], bins=bins, histtype="step", color="tab:orange", linewidth=2,
                label="the winner")
    ax.set_xlabel("final population (Survivors)")
    ax.set_ylabel("Communities")
    ax.set_title("Distribution of final populations")
    ax.legend()
    return _save(fig, out, "final_populations.png")


def _plot_rounds(analysis: dict, out: Path) -> Path:
    fig = _figure(6.0, 3.5)
    ax = fig.add_subplot()
    rounds = analysis["rounds"]
    values, errors = _errors(list(rounds.values()))
    ax.bar([str(r) for r in rounds], values, yerr=errors, capsize=4, color="tab:purple")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games (95% CI)")
    ax.set_title("Game length")
    return _save(fig, out, "rounds.png")


def _plot_elimination(analysis: dict, out: Path) -> Path:
    labels, rates = ["any\nCommunity"], [analysis["overall"]["eliminated"]]
    for n, section in analysis["seats"].items():
        suffix = f" ({n}p)" if len(analysis["seats"]) > 1 else ""
        for s in section["seats"]:
            labels.append(f"seat {s['seat']}{suffix}")
            rates.append(s["eliminated"])
    labels.append("every\nCommunity")
    rates.append(analysis["overall"]["no_winner"])
    fig = _figure(max(5.0, 0.9 * len(labels) + 2), 4.0)
    ax = fig.add_subplot()
    values, errors = _errors(rates)
    ax.bar(range(len(labels)), values, yerr=errors, capsize=4,
           color=["tab:red"] + ["tab:pink"] * (len(labels) - 2) + ["black"])
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("share of games (95% CI)")
    ax.set_title("Elimination: a Community at 0 Survivors at the end")
    return _save(fig, out, "elimination.png")


def _plot_powers(analysis: dict, out: Path) -> Path:
    rows = analysis["powers"]["rows"]
    fig = _figure(10.0, max(3.0, 0.4 * len(rows) + 1.5))
    left, right = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(rows)))
    names = [r["power"] for r in rows]
    values, errors = _mean_errors([r["survivors_when_fired"] for r in rows])
    left.barh(ys, values, xerr=errors, capsize=3, color=["tab:green" if v >= 0 else "tab:red" for v in values])
    left.axvline(0, color="black", linewidth=0.8)
    left.set_yticks(ys, names, fontsize=8)
    left.invert_yaxis()
    what = "gain/lose + moved" if analysis["powers"]["moved"] else "gain/lose effects only"
    left.set_xlabel(f"Survivors from the power ({what})\nper Community it ran for, per game (95% CI)")
    fired_values, fired_errors = _errors([r["win_fired"] for r in rows])
    idle_values, idle_errors = _errors([r["win_idle"] for r in rows])
    h = 0.38
    right.barh([y - h / 2 for y in ys], fired_values, height=h, xerr=fired_errors, capsize=2, color="tab:orange",
               label="the power ran for it")
    right.barh([y + h / 2 for y in ys], idle_values, height=h, xerr=idle_errors, capsize=2, color="tab:gray",
               label="it did not")
    right.set_xlabel("win rate of a Community (95% CI)")
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.suptitle("Per-power effect (correlation, not cause)")
    return _save(fig, out, "powers.png")


# ====================================================================== markdown

def _pct(r: Rate | None) -> str:
    if r is None or r.value is None:
        return "–"
    return f"{r.value:.1%} [{r.low:.1%}, {r.high:.1%}]"


def _num(m: Mean | None, digits: int = 1) -> str:
    if m is None or m.mean is None:
        return "–"
    return f"{m.mean:.{digits}f} [{m.low:.{digits}f}, {m.high:.{digits}f}]"


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def _table(head: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _nobody_wins() -> str:
    try:
        from happydayz.cli.app import NOBODY_WINS

        return NOBODY_WINS
    except Exception:  # pragma: no cover - the CLI always loads
        return "Nobody wins"


def _markdown(results: Results, analysis: dict, images: dict[str, Path], out: Path) -> str:
    overall = analysis["overall"]
    games = overall["games"]
    lines = ["# Balance report", ""]
    source = f"`{results.path.name}`: {games} games ({results.kind} results)"
    summary = results.summary or {}
    if summary.get("scenario"):
        options = summary.get("options") or {}
        mode = "express" if options.get("express") else "campaign"
        extra = [name for key, name in (("promos", "promo cards"), ("random_powers", "random powers"))
                 if options.get(key)]
        source += (f", scenario `{summary['scenario']}`" + (f" ({summary['title']})" if summary.get("title") else "")
                   + f", {mode}" + "".join(f", {e}" for e in extra)
                   + (f", seed {summary['seed']}" if summary.get("seed") is not None else ""))
    lines.append(source + ".")
    players = ", ".join(str(p) for p in analysis["players"])
    lines.append(f"Players: {players}. Bots: {'; '.join(analysis['bots']) or 'not recorded'}.")
    lines.append("")
    lines.append("Every rate is shown as `rate [95% CI]` (Wilson score interval), every mean as "
                 "`mean [95% CI]` (normal approximation). A shared win counts for each of its winners.")
    for note in results.notes:
        lines += ["", f"> {note}"]

    lines += ["", "## Overview", ""]
    lines += _table(["measure", "value"], [
        ["games", str(games)],
        ["rounds played (mean)", _num(overall["rounds"], 2)],
        ["final population (mean, every Community)", _num(overall["population"])],
        ["a Community at 0 at the end (elimination)", _pct(overall["eliminated"])],
        [f"every Community at 0 ({_nobody_wins()})", _pct(overall["no_winner"])],
        ["shared wins", _pct(overall["shared"])],
        ["the first leader wins", _pct(overall["leader_win"])],
    ])

    lines += ["", "## Win rate by seat", ""]
    lines.append("Seat 0 is the first seat, not necessarily the first to lead: the first leader is decided by the "
                 "Transfer. The fair share is the win rate every seat would have if seats did not matter "
                 "(wins per game ÷ players); p is a two-sided test against it.")
    for n, section in analysis["seats"].items():
        lines += ["", f"**{n} players** ({section['games']} games, fair share {section['fair_share']:.1%}):", ""]
        lines += _table(["seat", "win rate", "p", "mean final population", "eliminated"],
                        [[str(s["seat"]), _pct(s["win"]), _p(s["p_value"]), _num(s["population"]),
                          _pct(s["eliminated"])] for s in section["seats"]])
    lines += ["", f"![Win rate by seat]({images['seats'].name})"]

    lines += ["", "## First leader", ""]
    if "leader" in images:
        for n, section in analysis["seats"].items():
            leader = section["leader"]
            if leader is None:
                continue
            lines += [f"**{n} players** ({leader['games']} games with the first leader recorded):", ""]
            lines += _table(["seat, clockwise from the first leader", "win rate", "p"],
                            [["first leader" if o["offset"] == 0 else f"+{o['offset']}", _pct(o["win"]),
                              _p(o["p_value"])] for o in leader["offsets"]])
            lines += ["", "How often each seat leads first: "
                      + ", ".join(f"seat {s} {_pct(r)}" for s, r in enumerate(leader["leads"])), ""]
        lines.append(f"![Win rate relative to the first leader]({images['leader'].name})")
    else:
        lines.append("Skipped: the results do not record who led first (the per-game field `first_leader`, "
                     "from `happydayz.report.report.first_leader(game)`).")

    lines += ["", "## Faction variants", ""]
    variants = analysis["variants"]
    if variants is None:
        lines.append("Skipped: the results do not say which Factions each game started with.")
    else:
        lines.append("The Factions are shared by every Community, so a Faction's variant cannot win or lose by "
                     "itself: it shows in how many Survivors are left, how often a Community is wiped out, how "
                     "long games last and whether the first leader gains. Games are grouped by the variant each "
                     "Faction had at the start (a Faction change may replace it later).")
        lines += [""]
        lines += _table(["Faction", "variant", "games", "mean final population", "a Community at 0",
                         "every Community at 0", "rounds", "first leader wins"],
                        [[r["faction"], r["variant"], str(r["games"]), _num(r["population"]), _pct(r["eliminated"]),
                          _pct(r["no_winner"]), _num(r["rounds"], 2), _pct(r["leader_win"])]
                         for r in variants["rows"]])
        if "variants" in images:
            lines += ["", f"![By Faction variant]({images['variants'].name})"]
        else:
            lines += ["", "No plot: every game started with the same variant of each Faction, so there is nothing "
                      "to compare. A sweep over variants compares them."]

    if len(analysis["cells"]) > 1:
        lines += ["", "## Cells", ""]
        if analysis["cells_shared"]:
            lines += [f"Every cell: {analysis['cells_shared']}.", ""]
        lines += _table(["cell", "games", "mean final population", "a Community at 0", "every Community at 0",
                         "rounds", "first leader wins"],
                        [[label, str(m["games"]), _num(m["population"]), _pct(m["eliminated"]), _pct(m["no_winner"]),
                          _num(m["rounds"], 2), _pct(m["leader_win"])] for label, m in analysis["cells"].items()])

    lines += ["", "## Final populations", ""]
    pops = sorted(analysis["populations"])

    def quantile(q: float) -> int:
        return pops[min(len(pops) - 1, int(q * len(pops)))]

    lines.append(f"Every Community's final population: minimum {pops[0]}, quartiles {quantile(0.25)} / "
                 f"{quantile(0.5)} / {quantile(0.75)}, maximum {pops[-1]}.")
    if analysis["winning_populations"]:
        win = sorted(analysis["winning_populations"])
        lines.append(f"The winner's: median {win[len(win) // 2]}, range {win[0]}–{win[-1]}.")
    lines += ["", f"![Final populations]({images['populations'].name})"]

    lines += ["", "## Game length", ""]
    lines += _table(["rounds played", "share of games"], [[str(r), _pct(v)] for r, v in analysis["rounds"].items()])
    lines += ["", f"![Game length]({images['rounds'].name})"]

    lines += ["", "## Elimination", ""]
    lines.append("A game ends at the count where a Community reaches 0 Survivors.")
    lines += [""]
    lines += _table(["Communities at 0 at the end", "share of games"],
                    [[str(k), _pct(v)] for k, v in analysis["communities_at_zero"].items()])
    lines += ["", f"![Elimination]({images['elimination'].name})"]

    lines += ["", "## Per-power effect", ""]
    powers = analysis["powers"]
    if powers is None:
        lines.append("Skipped: the results have no per-game `powers` record (from "
                     "`happydayz.report.report.power_stats(game)`).")
    else:
        if powers["moved"]:
            ran = "its gain/lose and moved Survivors together (*gain/lose* + *moved*)"
        else:
            ran = ("its gain/lose Survivors only: not every record has `moved` (results written before it was "
                   "recorded), so moved cards are left out of this column")
        lines.append(f"{powers['games']} games with a `powers` record. *Triggers*: times a power ran for a "
                     "Community with an effect. *Gain/lose*: Survivors its gain/lose effects gave (+) or took (−), "
                     "summed over every Community. *Moved*: Survivors on the cards it moved into (+) or out of (−) "
                     "an Expedition, summed over every Community, so a power that only moves cards from one "
                     "Expedition to another adds up to 0 there. *Per Community when it ran*: the Survivors a "
                     f"Community it ran for got from it in the game, {ran}. The win rates compare Communities the "
                     "power ran for with those it did not: a correlation (winning tricks both triggers powers and "
                     "wins games), not the power's effect by itself.")
        lines += [""]
        lines += _table(["power", "games", "triggers per game", "gain/lose Survivors per game",
                         "Survivors moved per game", "per Community when it ran", "win rate when it ran",
                         "win rate otherwise"],
                        [[r["power"], str(r["games"]), _num(r["triggers"], 2), _num(r["score_per_game"], 2),
                          _num(r["moved_per_game"], 2), _num(r["survivors_when_fired"], 2), _pct(r["win_fired"]),
                          _pct(r["win_idle"])] for r in powers["rows"]])
        lines += ["", f"![Per-power effect]({images['powers'].name})"]
    lines.append("")
    return "\n".join(lines)


# ========================================================================= build

PLOT_NAMES = ("seat_win_rate.png", "first_leader_win_rate.png", "variants.png", "final_populations.png",
              "rounds.png", "elimination.png", "powers.png")


def build_report(results_path: str | Path, out_dir: str | Path = DEFAULT_OUT) -> Path:
    """Read the results, write report.md and its PNG plots into out_dir; the path of report.md.

    Raises ResultsProblem (a HappyError: exit 1 on the command line) for a bad
    results file or a folder that cannot be written. A plot of an earlier
    report that this one has no data for is removed, so the folder always
    matches report.md.
    """
    results = load_results(results_path)
    analysis = analyse(results)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _problem(out, f"cannot create the report folder: {exc.strerror or exc}", A_WRITE) from None
    try:
        images: dict[str, Path] = {
            "seats": _plot_seats(analysis, out),
            "populations": _plot_populations(analysis, out),
            "rounds": _plot_rounds(analysis, out),
            "elimination": _plot_elimination(analysis, out),
        }
        if any(s["leader"] for s in analysis["seats"].values()):
            images["leader"] = _plot_leader(analysis, out)
        if analysis["variants"] is not None and analysis["variants"]["compared"]:
            images["variants"] = _plot_variants(analysis, out)
        if analysis["powers"] is not None:
            images["powers"] = _plot_powers(analysis, out)
        target = out / REPORT_NAME
        target.write_text(_markdown(results, analysis, images, out), encoding="utf-8")
        written = {p.name for p in images.values()}
        for name in PLOT_NAMES:
            if name not in written and (out / name).is_file():
                (out / name).unlink()
    except OSError as exc:
        raise _problem(out, f"cannot write the report: {exc.strerror or exc}", A_WRITE) from None
    return target


# =========================================================================== CLI

def add_report(sub) -> None:
    p = sub.add_parser("report", help="a balance report (Markdown and plots) from simulation results",
                       description="Read the results of 'happydayz simulate --json' or 'happydayz sweep' and write "
                                   "report.md with tables (every rate with its 95% confidence interval) and PNG "
                                   "plots: win rate by seat and by first leader, Faction variants, final "
                                   "populations, game length, elimination, per-power effects.")
    p.add_argument("results", metavar="RESULTS", help="a simulate JSON file or a sweep JSON Lines file")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"the folder to write report.md and the plots into (default: {DEFAULT_OUT}/)")
    p.set_defaults(run=run_report)


def run_report(args) -> int:
    path = build_report(args.results, args.out)
    plots = [name for name in PLOT_NAMES if (path.parent / name).is_file()]
    print(f"wrote {path} and {len(plots)} plots: {', '.join(plots)}")
    return 0


COMMANDS = [add_report]

__all__ = ["build_report", "load_results", "analyse", "power_stats", "first_leader", "game_extras", "add_report",
           "run_report", "ResultsProblem", "Results", "GameRecord", "COMMANDS"]
