"""Playing many games in parallel: worker processes on this machine, or Ray.

The unit of work is a `Batch`: a few games (index, seed) of one `GameJob`. A
GameJob is a small, plain description of a game set-up — the scenario's
reference (a bundled id or the absolute path of a scenario file), the options,
the variant overrides and the bot names — so a worker rebuilds the GameSetup
itself (and keeps it for the next batches). Nothing heavier than that crosses a
process boundary: no Game, no GameSetup, no compiled power. This works with
every start method ("fork", "spawn", "forkserver") and on Ray workers.

A game is deterministic given its set-up and its seed, so where it is played
does not change its result; the caller puts the results back in game order.

Backends:

* ``local`` with one job: the games are played here, one after the other.
* ``local`` with N jobs: a ProcessPoolExecutor of N processes.
* ``ray``: a Ray task per batch, on a local Ray instance started for the run
  (``ray.init(num_cpus=N)``) or on an existing cluster (``address``).

Ctrl-C (KeyboardInterrupt) stops a run cleanly: the batches not started are
cancelled, running ones stop after their current game, every game that was
finished is handed to the caller, and then KeyboardInterrupt is raised again.
"""

from __future__ import annotations

import importlib
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from happydayz.base.errors import UsageError
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.savegame import log_lines
from happydayz.kernel.setup import GameSetup, prepare
from happydayz.players.agents import play_game
from happydayz.players.registry import make_bots
from happydayz.simulation.records import game_extras

BACKENDS = ("local", "ray")
RAY_INSTALL_HINT = "pip install 'happydayz[ray]'"


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to rebuild the set-up of a game (plain, hashable data)."""

    scenario: str  # a bundled scenario id, or the absolute path of a scenario file
    players: int
    bots: tuple[str, ...]
    express: bool = False
    promos: bool = False
    random_powers: bool = False
    faction_change: bool = True
    variants: tuple[tuple[str, str], ...] = ()  # (Faction, variant) overrides
    bot_modules: tuple[str, ...] = ()  # modules to import so that the bots are registered
    log: bool = False  # also return each game's event log (JSON Lines text)
    label: str | None = None  # the scenario's id as the driver names it (a file's path as typed)
    boxes: tuple[str, ...] = ()  # box files loaded besides the bundled ones (absolute paths)
    power_dirs: tuple[str, ...] = ()  # the folders searched for power files (--powers), absolute

    @property
    def setup_key(self) -> "GameJob":
        """The job without what does not change its set-up (the log flag, the bot modules)."""
        return replace(self, log=False, bot_modules=())


@dataclass(frozen=True)
class Batch:
    """Some games of one job: `games` holds (game index, game seed) pairs."""

    key: Any  # the caller's tag, returned with each game (for example a sweep cell's number)
    job: GameJob
    games: tuple[tuple[int, int], ...]


#: One finished game, as handed to the caller: (key, game index, record, log text or None).
Outcome = tuple[Any, int, dict, "str | None"]


# ------------------------------------------------------------------ the worker side

class Worker:
    """What a process keeps from one batch to the next: Environments and the set-ups built from jobs.

    The driver makes one with the set-ups it has already built; a forked worker
    process inherits it, a spawned one or a Ray task rebuilds what it needs.
    """

    MAX_SETUPS = 256  # set-ups kept (a sweep has one per cell)

    def __init__(self, env: Environment | None = None, setups: Mapping[GameJob, GameSetup] | None = None):
        self.envs: dict[tuple, Environment] = {}
        if env is not None:
            self.envs[tuple(map(str, env.power_dirs)), tuple(map(str, env.box_files))] = env
        self.setups: dict[GameJob, GameSetup] = {job.setup_key: s for job, s in (setups or {}).items()}
        self.stop: Any = None  # a multiprocessing Event set by the driver on Ctrl-C (worker processes only)

    def env_for(self, job: GameJob) -> Environment:
        settings = (job.power_dirs, job.boxes)
        env = self.envs.get(settings)
        if env is None:
            env = self.envs[settings] = Environment(job.power_dirs, job.boxes)
        return env

    def setup_for(self, job: GameJob) -> GameSetup:
        """The GameSetup of a job, built once per worker."""
        key = job.setup_key
        setup = self.setups.get(key)
        if setup is None:
            for module in job.bot_modules:
                importlib.import_module(module)
            setup, scenario = prepare(self.env_for(job), job.scenario, job.players, job.express, job.promos,
                                      job.random_powers, job.faction_change, variants=dict(job.variants))
            if job.label is not None and scenario.id != job.label:
                # A scenario file is read here by its absolute path; its games are
                # logged under the name the driver knows it by.
                setup.scenario = replace(scenario, id=job.label)
            if len(self.setups) >= self.MAX_SETUPS:
                self.setups.pop(next(iter(self.setups)))  # the oldest
            self.setups[key] = setup
        return setup

    def play(self, job: GameJob, seed: int) -> Game:
        """A game of a job, played to its end by the job's bots."""
        game = Game(self.setup_for(job), seed)
        play_game(game, make_bots(list(job.bots), seed))
        return game

    @staticmethod
    def record(game: Game, index: int) -> dict:
        """What a simulation keeps of game `index`: its result, who led first and what each power did."""
        return {"game": index, **game.result(), **game_extras(game)}

    def play_one(self, job: GameJob, index: int, seed: int) -> tuple[dict, str | None]:
        """Play game `index` of a job with its seed: its record and, if asked, its event log."""
        game = self.play(job, seed)
        log = "".join(line + "\n" for line in log_lines(game, game_index=index)) if job.log else None
        return self.record(game, index), log

    def run_batch(self, batch: Batch) -> list[Outcome]:
        """Play the games of a batch; in a worker process it stops early once the driver asks it to."""
        out: list[Outcome] = []
        for index, seed in batch.games:
            if self.stop is not None and self.stop.is_set():
                break
            record, log = self.play_one(batch.job, index, seed)
            out.append((batch.key, index, record, log))
        return out


# This process's Worker when it is a worker process: given by the pool's initializer, or made
# by the first Ray task it runs (Ray has no initializer).
_worker: Worker | None = None


def run_batch(batch: Batch) -> list[Outcome]:
    """A worker process's or a Ray task's entry point."""
    global _worker
    if _worker is None:
        _worker = Worker()
    return _worker.run_batch(batch)


def _init_worker(stop_event, worker: Worker) -> None:
    global _worker
    _worker = worker
    worker.stop = stop_event
    # Ctrl-C is the driver's business: it stops the workers through the event.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ------------------------------------------------------------------ batches

def batch_size(games: int, workers: int) -> int:
    """How many games to a batch: about eight batches per worker, at most 25 games each."""
    if workers <= 1:
        return max(1, min(25, games))
    return max(1, min(25, math.ceil(games / (workers * 8))))


def make_batches(key: Any, job: GameJob, games: Sequence[tuple[int, int]], size: int) -> list[Batch]:
    """Cut a job's games into batches of `size`, keeping their order."""
    games = list(games)
    return [Batch(key, job, tuple(games[i:i + size])) for i in range(0, len(games), size)]


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_start_method() -> str:
    """"fork" on Linux (the workers inherit the powers already compiled), else the platform default."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods:
        return "fork"
    return multiprocessing.get_start_method(allow_none=False)


def check_backend(backend: str, address: str | None = None) -> None:
    """UsageError for an unknown backend, an address without Ray, or Ray not installed."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise UsageError("--address joins a Ray cluster: use it with --backend ray")
    if backend == "ray":
        _import_ray()


def _import_ray():
    try:
        import ray  # noqa: PLC0415 - optional dependency
    except ImportError:
        raise UsageError(f"the ray backend needs Ray, which is not installed: {RAY_INSTALL_HINT}") from None
    return ray


# ------------------------------------------------------------------ running

def run(batches: Iterable[Batch], on_outcome: Callable[[Outcome], None], *, worker: Worker | None = None,
        jobs: int = 1, backend: str = "local", address: str | None = None, start_method: str | None = None) -> None:
    """Play every batch, calling on_outcome(outcome) in this process for each game finished.

    With one local job the outcomes come in order; otherwise in the order the
    batches finish. On KeyboardInterrupt the outcomes of every game finished
    are still delivered, then KeyboardInterrupt is raised again.
    
    `worker` holds the set-ups the caller has built (the games here and in
    forked worker processes use them); by default a new one.
    """
    batches = [b for b in batches if b.games]
    check_backend(backend, address)
    worker = worker if worker is not None else Worker()
    if backend == "ray":
        _run_ray(batches, on_outcome, jobs, address)
    elif jobs <= 1 or len(batches) <= 1:
        for batch in batches:
            for index, seed in batch.games:
                record, log = worker.play_one(batch.job, index, seed)
                on_outcome((batch.key, index, record, log))
    else:
        start_method = start_method or default_start_method()
        # A forked process inherits the driver's Worker, powers compiled; a spawned one builds its own.
        _run_pool(batches, on_outcome, jobs, start_method, worker if start_method == "fork" else Worker())


def _deliver(outcomes: Iterable[Outcome], on_outcome: Callable[[Outcome], None]) -> None:
    for outcome in outcomes:
        on_outcome(outcome)


def _run_pool(batches: list[Batch], on_outcome, jobs: int, start_method: str, worker: Worker) -> None:
    context = multiprocessing.get_context(start_method)
    stop = context.Event()
    workers = min(jobs, len(batches))
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                                   initargs=(stop, worker))
    # The workers are created while the batches are submitted. Ignoring SIGINT
    # meanwhile makes them start with Ctrl-C ignored (before their initializer
    # runs), and keeps a Ctrl-C now from leaving the pool half made.
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
    try:
        pending = {executor.submit(run_batch, batch) for batch in batches}
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                _deliver(future.result(), on_outcome)
    except KeyboardInterrupt:
        stop.set()
        for future in pending:
            future.cancel()
        running = [f for f in pending if not f.cancelled()]
        try:  # the running batches end after their current game
            done, _ = wait(running)
        except KeyboardInterrupt:  # a second Ctrl-C: do not wait any longer
            done = {f for f in running if f.done()}
            _terminate(executor)
        for future in done:
            if not future.cancelled() and future.exception() is None:
                _deliver(future.result(), on_outcome)
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    except BaseException:
        stop.set()
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


def _terminate(executor: ProcessPoolExecutor) -> None:
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.terminate()
        except (OSError, AttributeError):  # pragma: no cover - already gone
            pass


def _run_ray(batches: list[Batch], on_outcome, jobs: int, address: str | None) -> None:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        if address is not None:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=max(1, jobs), **options)
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(run_batch)
        pending = [remote.remote(batch) for batch in batches]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=0.5)
                for ref in done:
                    _deliver(ray.get(ref), on_outcome)
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            ready, _ = ray.wait(pending, num_returns=len(pending), timeout=0) if pending else ([], [])
            for ref in ready:
                try:
                    _deliver(ray.get(ref, timeout=0), on_outcome)
                except Exception:  # cancelled or failed: not a finished batch
                    pass
            raise
    finally:
        if started:
            ray.shutdown()


__all__ = [
    "BACKENDS", "RAY_INSTALL_HINT", "GameJob", "Batch", "Outcome", "Worker",
    "run_batch", "batch_size", "make_batches", "default_jobs", "default_start_method", "check_backend", "run",
]
