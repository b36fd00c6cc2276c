"""Simulating many games with bots: per-game results and a summary.

Everything is derived from one seed: game i is seeded from (seed, i), and the
bot at each seat from (game seed, seat), so the same arguments always give the
same output, byte for byte — with one job or many, on this machine or on Ray
(see `parallel`): the games are put back in order of their index.
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any, Callable, Mapping, TextIO

from happydayz.base.errors import UsageError
from happydayz.base.files import append_lines, open_text_output
from happydayz.data.boxes import scenario_reference
from happydayz.data.environment import Environment
from happydayz.data.model import Scenario
from happydayz.kernel.setup import GameSetup, prepare
from happydayz.players.registry import BOTS, parse_bots
from happydayz.simulation import parallel
from happydayz.simulation.precision import parse_width, play_until

ProgressCallback = Callable[[int, int], None]  # (games done, games in all)

#: The most games one simulation plays (its results are kept in memory and written as one JSON file).
MAX_GAMES = 1_000_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation seeded `seed`."""
    return random.Random(f"{seed}/{index}").getrandbits(32)


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during `simulate`: `result` holds the games finished (summary["interrupted"] is true)."""

    def __init__(self, result: dict):
        super().__init__("interrupted")
        self.result = result


class SimulationIncomplete(Exception):
    """A simulation that could not finish (a worker lost too often, a game that failed).

    `result` holds the games finished (summary["incomplete"] is true), `reason` says why.
    """

    def __init__(self, result: dict, reason: str):
        super().__init__(reason)
        self.result = result
        self.reason = reason


def bot_modules(names: list[str]) -> tuple[str, ...]:
    """The modules defining the bots named, so that a fresh worker process registers them too."""
    modules = []
    for name in names:
        module = getattr(BOTS.get(name), "__module__", None)
        if module and module not in modules and module != "__main__":
            modules.append(module)
    return tuple(modules)


def job_for(setup: GameSetup, scenario: Scenario, bots: list[str], variants: Mapping[str, str] | None,
            env: Environment, log: bool = False, setup_seed: int = 0) -> parallel.GameJob:
    """The plain description of a set-up that worker processes rebuild it from."""
    options = setup.options
    return parallel.GameJob(scenario_reference(scenario, env.library), options.players, tuple(bots), options.express,
                            options.promos, options.random_powers, options.faction_change,
                            tuple(sorted((variants or {}).items())), bot_modules(bots), log, scenario.id,
                            tuple(map(str, env.box_files)), tuple(map(str, env.power_dirs)),
                            scenario.random_setup, setup_seed, env.codegen)


def simulate(scenario_ref: str | os.PathLike | None = None, players: int | None = 4, games: int = 1, seed: int = 0,
             express: bool = False, promos: bool = False, random_powers: bool = False,
             bots: str | list[str] | None = None, progress: ProgressCallback | None = None,
             log: str | os.PathLike | TextIO | None = None, env: Environment | None = None, *,
             jobs: int = 1, backend: str = "local", address: str | None = None,
             variants: Mapping[str, str] | None = None, start_method: str | None = None,
             random_setup: bool = False, until_ci: float | str | None = None) -> dict:
    """Play `games` games between bots; their results and a summary.

    With `until_ci` (a half-width W: 0.02, or "2%") `games` is a cap: the games are
    played in rounds until the 95 % interval of every rate the results report is
    narrower than ±W (see `precision`), and summary["stopped"] says how many games
    it took and why it stopped. The games are those of a plain run of that many.

    `log` (a path, "-" for stdout, or an open text file) receives every event
    of every game as JSON Lines, each event with a "game" index, in game order.
    `jobs` > 1 plays the games in that many worker processes; `backend="ray"`
    plays them on Ray (a local instance of `jobs` CPUs, or the cluster at
    `address`). The result does not depend on where the games were played.

    Ctrl-C raises SimulationInterrupted, whose `result` holds the games finished
    (the log holds theirs too). A run that cannot finish raises SimulationIncomplete,
    likewise with the games finished. A worker process that dies is replaced and its
    games played again, so it changes nothing in the result. At most MAX_GAMES games.
    """
    if games < 0:
        raise UsageError(f"the number of games must be 0 or more, not {games}")
    if games > MAX_GAMES:
        raise UsageError(f"at most {MAX_GAMES:,} games in one simulation, not {games:,}: run several with "
                         f"different --seed, or a sweep")
    if jobs < 1:
        raise UsageError(f"the number of jobs must be 1 or more, not {jobs}")
    if until_ci is not None:
        try:
            until_ci = parse_width(until_ci)
        except ValueError as problem:
            raise UsageError(f"until_ci: {problem}") from None
    parallel.check_backend(backend, address)
    env = env if env is not None else Environment()
    setup, scenario = prepare(env, scenario_ref, players, express, promos, random_powers, variants=variants,
                              random_setup=random_setup, setup_seed=seed)
    n = setup.n
    names = parse_bots(bots, n)
    job = job_for(setup, scenario, names, variants, env, log=log is not None, setup_seed=seed)
    workers = jobs if backend == "local" else max(jobs, 2)
    stopped = None

    records: dict[int, dict[str, Any]] = {}
    logs: dict[int, str] = {}
    written = 0  # games whose log is written: 0 .. written-1

    with open_text_output(log) as log_file:
        def flush(everything: bool = False) -> None:
            nonlocal written
            if log_file is None:
                return
            order = sorted(logs) if everything else []
            while written in logs:
                append_lines(log_file, logs.pop(written))
                written += 1
            for index in order:  # after Ctrl-C: the finished games beyond a gap
                if index in logs:
                    append_lines(log_file, logs.pop(index))

        def on_outcome(outcome: parallel.Outcome) -> None:
            _, index, record, text = outcome
            with parallel.interrupts_held():  # a game is kept with its log line, or not at all
                records[index] = record
                if text is not None:
                    logs[index] = text
                    flush()
            if progress is not None:
                progress(len(records), goal)

        worker = parallel.Worker(env, {job: setup})
        if log_file is not None and log_file is not sys.stdout and not hasattr(log, "write"):
            worker.close_fds = (log_file.fileno(),)  # a forked worker never holds the log open
        goal = games  # the games played once the current round is done

        def play(first: int, end: int) -> list[dict]:
            """Play games first … end-1; the records of every game played, in game order."""
            nonlocal goal
            goal = end
            batches = parallel.make_batches(None, job, ((i, game_seed(seed, i)) for i in range(first, end)),
                                            parallel.batch_size(end - first, workers))  # seeds made as played
            parallel.run(batches, on_outcome, worker=worker, jobs=jobs, backend=backend, address=address,
                         start_method=start_method)
            return [records[i] for i in sorted(records)]

        try:
            if until_ci is None:
                play(0, games)
            else:
                stopped = play_until(until_ci, games, n, play)
        except KeyboardInterrupt:
            flush(everything=True)
            done = [records[i] for i in sorted(records)]
            raise SimulationInterrupted({"games": done, "summary": summarize(done, n, scenario, setup, seed, names,
                                                                             interrupted=True)}) from None
        except parallel.RunIncomplete as stop:
            flush(everything=True)
            done = [records[i] for i in sorted(records)]
            summary = summarize(done, n, scenario, setup, seed, names)
            summary["incomplete"] = True
            raise SimulationIncomplete({"games": done, "summary": summary}, stop.reason) from None
    done = [records[i] for i in sorted(records)]
    summary = summarize(done, n, scenario, setup, seed, names)
    if stopped is not None:  # only then, so that other runs' JSON keeps its keys
        summary["stopped"] = stopped
    return {"games": done, "summary": summary}


def summarize(records: list[dict], players: int, scenario: Scenario, setup: GameSetup, seed: int,
              bots: list[str], interrupted: bool = False) -> dict:
    count = len(records)
    wins = [0] * players
    population_sum = [0] * players
    no_winner = 0
    shared = 0
    rounds = 0
    for record in records:
        for seat in record["winners"]:
            wins[seat] += 1
        if not record["winners"]:
            no_winner += 1
        elif len(record["winners"]) > 1:
            shared += 1
        for seat, population in enumerate(record["final_populations"]):
            population_sum[seat] += population
        rounds += record["rounds"]

    def rate(value: int) -> float | None:
        return round(value / count, 4) if count else None

    summary = {
        "scenario": scenario.id,
        "title": scenario.title,
        "players": players,
        "games": count,
        "seed": seed,
        "options": setup.options.record(),
        "bots": list(bots),
        "wins": wins,
        "win_rate": [rate(w) for w in wins],
        "shared_wins": shared,
        "no_winner": no_winner,  # games where every Community ended at 0
        "no_winner_rate": rate(no_winner),
        "mean_final_population": [rate(p) for p in population_sum],
        "mean_rounds": rate(rounds),
    }
    if setup.teams is not None:  # a team wins together: its wins are the team's, never its Communities' own
        _team_summary(summary, records, setup.teams, rate)
    if scenario.random_setup:  # only then, so that other runs' JSON keeps its keys
        summary["random_setup"] = {"factions": [[c.faction, c.variant] for c in scenario.factions],
                                   "added": list(scenario.added)}
    if interrupted:  # only then, so that a finished run's JSON keeps its keys
        summary["interrupted"] = True
    return summary


def _team_summary(summary: dict, records: list[dict], teams, rate) -> None:
    """A summary of a game with teams: the wins, win rate and shared wins per team, in place of per seat."""
    wins = [0] * len(teams)
    shared = 0
    for record in records:
        won = record.get("winning_teams", [])
        for team in won:
            wins[team] += 1
        shared += len(won) > 1
    del summary["wins"], summary["win_rate"]  # (a team's win is not a win of each of its Communities)
    summary["shared_wins"] = shared
    summary["teams"] = [list(team) for team in teams]
    summary["team_wins"] = wins
    summary["team_win_rate"] = [rate(w) for w in wins]


def to_json(result: dict) -> str:
    """The stable JSON text of a simulation (same result, same bytes)."""
    return json.dumps(result, indent=2, sort_keys=False) + "\n"


__all__ = ["game_seed", "simulate", "SimulationInterrupted", "SimulationIncomplete", "MAX_GAMES", "bot_modules", "job_for", "summarize", "to_json"]
