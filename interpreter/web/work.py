"""The server's long work — bots thinking, powers running, simulations — bounded and cancellable.

Each piece of work runs on a daemon thread of its own, never on the event loop
and never on Starlette's shared thread pool, so that a slow simulation cannot
starve the other requests, and a stuck thread cannot keep the process alive
after Ctrl-C. The request that started it waits for it while watching its
client: when the client goes away, the work's `Cancel` is set, and the work
stops at its next check (between two bot decisions, between two simulated
games). Simulations also wait in a bounded queue: past its capacity a request
is refused at once with 429, so a burst of them cannot pile up.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable

#: How often a waiting request asks whether its client is still there (seconds).
POLL = 0.2


class Cancelled(Exception):
    """The work was cancelled: its client went away, or the server is stopping."""


class Cancel:
    """A flag the work reads at its safe points; set by the request that waits for it, or by shutdown."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def __bool__(self) -> bool:
        return self._event.is_set()

    def check(self, *_: Any) -> None:
        """Raise Cancelled when set (its arguments are ignored, so it can serve as a progress callback)."""
        if self._event.is_set():
            raise Cancelled()


class Busy(Exception):
    """The server has no room for this work now (answered 429)."""


class Queue:
    """A kind of heavy work: `running` of them at once, at most `waiting` more waiting their turn (in arrival
    order, leaving the queue if their client goes); any further one is Busy at once."""

    def __init__(self, what: str, running: int, waiting: int) -> None:
        self.what = what
        self.running = running
        self.slots = running + waiting
        self.admitted = 0
        self._semaphore: asyncio.Semaphore | None = None  # made on the event loop, at first use


class Work:
    """Every piece of work in flight, so that shutdown can cancel it all, and the queues of heavy work.

    At most `most` pieces of work run at once. Simulations run one at a time
    with three waiting; checks of a modder's text two at a time with six waiting.
    """

    def __init__(self, most: int = 32) -> None:
        self.most = most  # pieces of work in flight at once (threads); past that a request is Busy
        self._cancels: set[Cancel] = set()
        self._lock = threading.Lock()
        self._stopping = False
        self.simulations = Queue("simulations", running=1, waiting=3)
        self.checks = Queue("checks", running=2, waiting=6)

    def cancel_all(self) -> None:
        """Shutdown: every piece of work in flight, and any started later, is cancelled."""
        with self._lock:
            self._stopping = True
            cancels = list(self._cancels)
        for cancel in cancels:
            cancel.set()

    def _register(self) -> Cancel:
        cancel = Cancel()
        with self._lock:
            if len(self._cancels) >= self.most:
                raise Busy(f"the server is already working on {len(self._cancels)} requests; try again in a moment")
            self._cancels.add(cancel)
            if self._stopping:
                cancel.set()
        return cancel

    def _forget(self, cancel: Cancel) -> None:
        with self._lock:
            self._cancels.discard(cancel)

    async def run(self, request, job: Callable[[Cancel], Any]) -> Any:
        """`job(cancel)` on a daemon thread; its result. Cancelled when the client leaves first."""
        cancel = self._register()
        loop = asyncio.get_running_loop()
        done: asyncio.Future = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if not done.done():
                if error is not None:
                    done.set_exception(error)
                else:
                    done.set_result(result)

        def body() -> None:
            try:
                result, error = job(cancel), None
            except BaseException as exc:  # handed to the request, which answers it (or logs it)
                result, error = None, exc
            finally:
                self._forget(cancel)
            loop.call_soon_threadsafe(settle, result, error)

        threading.Thread(target=body, name="happydayz-work", daemon=True).start()
        try:
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(done), POLL)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        cancel.set()
                        raise Cancelled() from None
        except asyncio.CancelledError:  # the server is stopping, or the connection task was cancelled
            cancel.set()
            raise

    async def queued(self, queue: Queue, request, job: Callable[[Cancel], Any]) -> Any:
        """`run(job)` in `queue`: Busy at once when the queue is full; waits its turn otherwise."""
        if queue._semaphore is None:
            queue._semaphore = asyncio.Semaphore(queue.running)
        if queue.admitted >= queue.slots:
            raise Busy(f"the server is already running or queueing {queue.admitted} {queue.what}; "
                       f"try again when one has finished")
        queue.admitted += 1
        try:
            while True:  # wait for a running slot, leaving the queue if the client goes
                try:
                    await asyncio.wait_for(queue._semaphore.acquire(), POLL)
                    break
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        raise Cancelled() from None
            try:
                return await self.run(request, job)
            finally:
                queue._semaphore.release()
        finally:
            queue.admitted -= 1


__all__ = ["Work", "Queue", "Cancel", "Cancelled", "Busy", "POLL"]
