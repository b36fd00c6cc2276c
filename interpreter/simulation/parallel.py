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

Batches are made as they are needed (a few per worker in flight), so a long run
holds no list of its seeds. A worker that dies (killed, out of memory) loses
only its batch: the batches its pool held are played again in a new pool (see
_Feed); games are deterministic, so the results are those of an uninterrupted
run. A batch lost too often, or a game that raises (the rest of its batch with
it), is given up while the other batches are still played; the run then raises
RunIncomplete, after handing over every game finished. Worker processes end when their driver ends (Linux: the parent-death
signal; elsewhere a thread watching the parent), and close the files the driver
asked them to (Worker.close_fds) so that they never hold a results file.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import importlib
import itertools
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from happydayz.base.errors import HappyError, UsageError
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.savegame import log_lines
from happydayz.kernel.setup import GameSetup, prepare
from happydayz.language.codegen import DEFAULT as CODEGEN
from happydayz.players.agents import play_game
from happydayz.players.registry import make_bots
from happydayz.simulation.records import game_extras

BACKENDS = ("local", "ray")
RAY_INSTALL_HINT = "pip install 'happydayz[ray]'"
MAX_RETRIES = 3  # how often one batch is played again after its worker died
IN_FLIGHT_PER_WORKER = 4  # batches submitted ahead of the workers


class RunIncomplete(Exception):
    """A run that could not finish; every game finished was handed to the caller first."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class GameFailed(Exception):
    """A game of a batch raised (a bug): the games of the batch finished before it, and why."""

    def __init__(self, outcomes: list, reason: str):
        super().__init__(outcomes, reason)
        self.outcomes = outcomes
        self.reason = reason


def _failure(index: int, exc: BaseException) -> str:
    return f"game {index} failed: {type(exc).__name__}: {_short(exc)}"


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
    random_setup: bool = False  # the Factions are drawn at random (kernel.setup.draw_powers) ...
    setup_seed: int = 0  # ... with this seed
    codegen: bool = CODEGEN  # the powers run as generated code (Environment(codegen=...)): the same games either way

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
            self.envs[tuple(map(str, env.power_dirs)), tuple(map(str, env.box_files)), env.codegen] = env
        self.setups: dict[GameJob, GameSetup] = {job.setup_key: s for job, s in (setups or {}).items()}
        self.stop: Any = None  # a multiprocessing Event set by the driver on Ctrl-C (worker processes only)
        self.close_fds: tuple[int, ...] = ()  # the driver's files a forked worker closes at once (a results file)

    def env_for(self, job: GameJob) -> Environment:
        settings = (job.power_dirs, job.boxes, job.codegen)
        env = self.envs.get(settings)
        if env is None:
            env = self.envs[settings] = Environment(*settings)
        return env

    def setup_for(self, job: GameJob) -> GameSetup:
        """The GameSetup of a job, built once per worker."""
        key = job.setup_key
        setup = self.setups.get(key)
        if setup is None:
            for module in job.bot_modules:
                importlib.import_module(module)
            setup, scenario = prepare(self.env_for(job), job.scenario, job.players, job.express, job.promos,
                                      job.random_powers, job.faction_change, variants=dict(job.variants),
                                      random_setup=job.random_setup, setup_seed=job.setup_seed)
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
        """Play the games of a batch; in a worker process it stops early once the driver asks it to.

        A game that raises (a bug) ends the batch with GameFailed, which holds the games before it.
        """
        out: list[Outcome] = []
        for index, seed in batch.games:
            if self.stop is not None and self.stop.is_set():
                break
            try:
                record, log = self.play_one(batch.job, index, seed)
            except (KeyboardInterrupt, MemoryError, HappyError):
                raise
            except Exception as exc:
                raise GameFailed(out, _failure(index, exc)) from None
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


def _init_worker(stop_event, worker: Worker, driver: int | None = None) -> None:
    global _worker
    _worker = worker
    worker.stop = stop_event
    # Ctrl-C is the driver's business: it stops the workers through the event.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the driver's handler, inherited by a fork
    for fd in worker.close_fds:  # a fork inherits the driver's open files: never hold its results file
        with contextlib.suppress(OSError):
            os.close(fd)
    if driver is not None:
        _die_with(driver)


def _die_with(driver: int) -> None:
    """End this worker process when the driver `driver` ends, however it ends (kill -9 included)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != driver:  # the driver died before the signal was asked for
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - no libc: fall back to watching
            pass

    def watch() -> None:  # pragma: no cover - other systems
        while os.getppid() == driver:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="driver-watch", daemon=True).start()


# ------------------------------------------------------------------ batches

def batch_size(games: int, workers: int) -> int:
    """How many games to a batch: about eight batches per worker, at most 25 games each."""
    if workers <= 1:
        return max(1, min(25, games))
    return max(1, min(25, math.ceil(games / (workers * 8))))


def make_batches(key: Any, job: GameJob, games: Iterable[tuple[int, int]], size: int) -> Iterator[Batch]:
    """Cut a job's games into batches of `size`, keeping their order; made as they are asked for."""
    games = iter(games)
    while True:
        chunk = tuple(itertools.islice(games, size))
        if not chunk:
            return
        yield Batch(key, job, chunk)


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
    are still delivered, then KeyboardInterrupt is raised again. A run that
    cannot finish raises RunIncomplete, also after delivering every game finished.

    `batches` is read as the games are played (it may be a generator).
    `worker` holds the set-ups the caller has built (the games here and in
    forked worker processes use them); by default a new one.
    """
    check_backend(backend, address)
    batches = (b for b in batches if b.games)
    worker = worker if worker is not None else Worker()
    if backend == "ray":
        _run_ray(batches, on_outcome, jobs, address)
        return
    first = list(itertools.islice(batches, 2))
    batches = itertools.chain(first, batches)
    if jobs <= 1 or len(first) <= 1:
        failed: list[str] = []
        for batch in batches:
            for index, seed in batch.games:
                try:
                    record, log = worker.play_one(batch.job, index, seed)
                except (KeyboardInterrupt, MemoryError, HappyError):
                    raise
                except Exception as exc:  # a bug: the rest of this batch is given up, as in a worker
                    failed.append(_failure(index, exc))
                    break
                on_outcome((batch.key, index, record, log))
        _give_up(failed)
    else:
        start_method = start_method or default_start_method()
        # A forked process inherits the driver's Worker, powers compiled; a spawned one builds its own.
        _run_pool(batches, on_outcome, jobs, start_method, worker if start_method == "fork" else Worker())


def _short(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 200 else text[:200] + "…"


def _deliver(outcomes: Iterable[Outcome], on_outcome: Callable[[Outcome], None]) -> None:
    for outcome in outcomes:
        on_outcome(outcome)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored meanwhile (main thread only): worker processes forked now start with it ignored."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
    try:
        yield
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)


_INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def interrupts_held(numbers: tuple[int, ...] = _INTERRUPTS) -> Iterator[list[int]]:
    """Ctrl-C and SIGTERM (which the CLI turns into a Ctrl-C) that come while the block runs are held until it
    ends, and act then: a finished game's bookkeeping (its record, its log or results line) is done whole or not
    at all, so an interrupted run's files agree. Held by a handler of our own, not a signal mask: a signal may
    reach any thread (a process pool's among them), but Python runs its handlers in the main thread. (Off the
    main thread the block runs as it is.) `numbers`: the signals held; the block is given those caught (a list)."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = {number: signal.signal(number, lambda signum, frame: caught.append(signum)) for number in numbers}
    try:
        yield caught
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in caught[:1]:  # now, to the handlers of before: as if it came just after the block
            signal.raise_signal(number)


class _Feed:
    """The batches still to play: those lost by a dead worker first, then the caller's, made as needed.

    When a pool dies, every batch it held is lost, and which one killed it is not known: they are played
    again one at a time ("suspects"). A batch lost while it was alone in flight is the cause; after
    MAX_RETRIES + 1 such losses it is given up (the run goes on, and ends with RunIncomplete).
    """

    def __init__(self, batches: Iterable[Batch]):
        self.source = iter(batches)
        self.suspects: collections.deque[Batch] = collections.deque()
        self.losses: dict[tuple, int] = {}
        self.failed: list[str] = []
        self.in_doubt: set[tuple] = set()  # suspects submitted and not yet finished

    def next(self) -> Batch | None:
        if self.suspects:
            batch = self.suspects.popleft()
            self.in_doubt.add((repr(batch.key), batch.games[0][0]))
            return batch
        return next(self.source, None)

    def lost(self, batches: list[Batch], alone: bool) -> None:
        """`batches` were in flight in a pool that died (`alone`: the only one)."""
        for batch in batches:
            if alone:
                key = (repr(batch.key), batch.games[0][0])
                self.losses[key] = self.losses.get(key, 0) + 1
                if self.losses[key] > MAX_RETRIES:
                    self.failed.append(f"a worker process died {self.losses[key]} times playing games "
                                       f"{batch.games[0][0]} to {batch.games[-1][0]}; giving up on them")
                    continue
            self.suspects.append(batch)

    def cleared(self, batch: Batch) -> None:
        """A batch finished: it was not the cause."""
        self.in_doubt.discard((repr(batch.key), batch.games[0][0]))

    def finish(self) -> None:
        _give_up(self.failed)


def _give_up(failed: list[str]) -> None:
    """RunIncomplete naming the first failure, if there was any."""
    if failed:
        more = f" (and {len(failed) - 1} more failures)" if len(failed) > 1 else ""
        raise RunIncomplete(failed[0] + more)


def _suspect(pending: dict, feed: _Feed) -> bool:
    """Whether a suspect is in flight (then nothing else is submitted beside it)."""
    return any((repr(b.key), b.games[0][0]) in feed.in_doubt for b in pending.values())


def _run_pool(batches: Iterable[Batch], on_outcome, jobs: int, start_method: str, worker: Worker) -> None:
    context = multiprocessing.get_context(start_method)
    stop = context.Event()
    feed = _Feed(batches)
    window = jobs * IN_FLIGHT_PER_WORKER

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                   initargs=(stop, worker, os.getpid()))

    def fill(executor: ProcessPoolExecutor, pending: dict) -> bool:
        """Submit batches up to the window (suspects, see _Feed, one at a time); False if the pool is broken."""
        while len(pending) < (1 if feed.suspects or _suspect(pending, feed) else window):
            batch = feed.next()
            if batch is None:
                return True
            try:
                pending[executor.submit(run_batch, batch)] = batch
            except BrokenProcessPool:  # a worker died just now: this batch did not run; it goes again
                feed.suspects.appendleft(batch)
                return False
        return True

    def first_fill(executor: ProcessPoolExecutor, pending: dict) -> ProcessPoolExecutor:
        # A new pool creates its workers while the first batches are submitted. Ignoring SIGINT
        # meanwhile makes them start with Ctrl-C ignored (before their initializer runs), and keeps
        # a Ctrl-C now from leaving the pool half made. (Only then: an ignored Ctrl-C is lost.)
        with _sigint_ignored():
            for _ in range(MAX_RETRIES + 1):
                if fill(executor, pending) or pending:
                    return executor
                executor.shutdown(wait=False, cancel_futures=True)  # broken before anything ran: a new one
                executor = new_pool()
        raise RunIncomplete("worker processes could not be started")

    def refill(executor: ProcessPoolExecutor, pending: dict) -> ProcessPoolExecutor:
        if fill(executor, pending) or pending:  # (the futures pending report a broken pool themselves)
            return executor
        executor.shutdown(wait=False, cancel_futures=True)
        return first_fill(new_pool(), pending)

    executor = new_pool()
    pending: dict = {}
    try:
        executor = first_fill(executor, pending)
        while pending:
            alone = len(pending) == 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            lost: list[Batch] = []
            for future in done:
                batch = pending.pop(future)
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    lost.append(batch)
                    continue
                except GameFailed as failure:  # a bug: playing the game again gives the same; go on
                    feed.cleared(batch)
                    feed.failed.append(failure.reason)
                    _deliver(failure.outcomes, on_outcome)
                    continue
                except HappyError:  # a set-up a worker could not make: the user's mistake, reported as such
                    raise
                except Exception as exc:  # anything else from a worker: give its batch up, go on
                    feed.cleared(batch)
                    feed.failed.append(f"games {batch.games[0][0]} to {batch.games[-1][0]} failed: "
                                       f"{type(exc).__name__}: {_short(exc)}")
                    continue
                feed.cleared(batch)
                _deliver(outcomes, on_outcome)
            if lost:  # the whole pool is gone: keep what it finished, play the rest again in a new one
                for future, batch in list(pending.items()):
                    if future.done() and not future.cancelled() and future.exception() is None:
                        feed.cleared(batch)
                        _deliver(future.result(), on_outcome)
                    else:
                        lost.append(batch)
                pending.clear()
                feed.lost(lost, alone)
                executor.shutdown(wait=False, cancel_futures=True)
                executor = first_fill(new_pool(), pending)
            else:
                executor = refill(executor, pending)
        feed.finish()
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
        _deliver_finished(pending, on_outcome)
        _terminate(executor)
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


def _deliver_finished(pending: dict, on_outcome) -> None:
    """The outcomes of the futures already finished well (before giving up on a run)."""
    for future in pending:
        if future.done() and not future.cancelled():
            with contextlib.suppress(BaseException):
                outcomes = future.result(timeout=0)
                _deliver(outcomes, on_outcome)


def _terminate(executor: ProcessPoolExecutor) -> None:
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.terminate()
        except (OSError, AttributeError):  # pragma: no cover - already gone
            pass


def _run_ray(batches: Iterable[Batch], on_outcome, jobs: int, address: str | None) -> None:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        _start_ray(ray, jobs, address)
        started = True
    lost_errors = tuple(getattr(ray.exceptions, name) for name in
                        ("WorkerCrashedError", "NodeDiedError", "LocalRayletDiedError", "ObjectLostError")
                        if hasattr(ray.exceptions, name))
    feed = _Feed(batches)
    window = max(2, jobs) * IN_FLIGHT_PER_WORKER
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(run_batch)
        pending: dict = {}

        def fill() -> None:
            while len(pending) < window:
                batch = feed.next()
                if batch is None:
                    return
                pending[remote.remote(batch)] = batch

        try:
            fill()
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in done:
                    batch = pending.pop(ref)
                    try:
                        outcomes = ray.get(ref)
                    except lost_errors:  # the worker died: play its batch again (a task is its own process)
                        feed.lost([batch], alone=True)
                        continue
                    except ray.exceptions.RayTaskError as exc:  # a game raised: playing it again gives the same
                        cause = getattr(exc, "cause", None)
                        if isinstance(cause, GameFailed):
                            feed.failed.append(cause.reason)
                            _deliver(cause.outcomes, on_outcome)
                        else:
                            feed.failed.append(f"games {batch.games[0][0]} to {batch.games[-1][0]} failed: "
                                               f"{_short(cause if cause is not None else exc)}")
                        continue
                    _deliver(outcomes, on_outcome)
                fill()
            feed.finish()
        except (KeyboardInterrupt, RunIncomplete):
            # The batches finished are kept; those still running are not cancelled (ray.cancel): a cancel that
            # meets the reply of a task finishing just then fails a RAY_CHECK in this process's Ray core worker
            # ("Tried to complete task that was not pending", a race in Ray: ray-project/ray#54527), which prints
            # a C++ stack trace and exits 1 at once, every game lost. ray.shutdown() below ends them (our own Ray
            # instance); on a cluster they end as their job does, or after their batch (25 games at most).
            _deliver_ready(ray, pending, on_outcome)
            raise
    finally:
        if started:
            ray.shutdown()


def _start_ray(ray, jobs: int, address: str | None) -> None:
    """ray.init for a run; a SIGTERM that comes meanwhile waits until it returns, then stops the run as Ctrl-C does.

    ray.init installs Ray's own SIGTERM handlers, which end the process with sys.exit (exit 15, no game kept): they
    are not installed, ours (cli.app) stays. And a SIGTERM must not stop ray.init midway: one that comes while
    Ray's core worker starts meets its C++ failure handler (absl's), which prints a stack trace (that we cannot
    prevent), calls ours, and sets a 3 s alarm that aborts the process (exit -6): that alarm is cancelled.
    (Ctrl-C is not held, so that it still stops a slow start, such as a cluster's that does not answer.)
    """
    options: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    if address is not None:
        options["address"] = address
    else:
        options["num_cpus"] = max(1, jobs)
    utils = getattr(getattr(ray, "_private", None), "utils", None)
    rays_handler = getattr(utils, "set_sigterm_handler", None)
    keep_ours = rays_handler is not None and threading.current_thread() is threading.main_thread()
    if keep_ours:
        utils.set_sigterm_handler = lambda handler: None
    caught: list[int] = []
    try:
        with interrupts_held((signal.SIGTERM,)) as caught:
            ray.init(**options)
    except KeyboardInterrupt:  # the SIGTERM held, acting now (or a Ctrl-C during ray.init)
        if caught and hasattr(signal, "alarm"):
            signal.alarm(0)
        with contextlib.suppress(Exception):
            ray.shutdown()
        raise
    finally:
        if keep_ours:
            utils.set_sigterm_handler = rays_handler


def _deliver_ready(ray, pending: dict, on_outcome) -> None:
    """The outcomes of the Ray tasks in `pending` already finished well (before giving up on a run)."""
    ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0) if pending else ([], [])
    for ref in ready:
        try:
            outcomes = ray.get(ref, timeout=0)
        except Exception:  # failed: not a finished batch
            continue
        _deliver(outcomes, on_outcome)


__all__ = [
    "BACKENDS", "RAY_INSTALL_HINT", "MAX_RETRIES", "RunIncomplete", "GameFailed", "GameJob", "Batch", "Outcome", "Worker",
    "run_batch", "batch_size", "make_batches", "default_jobs", "default_start_method", "check_backend", "run",
]
