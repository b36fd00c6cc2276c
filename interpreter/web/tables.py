"""A game at the web table: its session, its file in the mods folder, and the pages that watch it live.

Every move is published: the game's version goes up, the view of every seat
(or spectator) that a page is watching is made once, while the game stands
still, and the game is written to `<mods>/games/ID.json` (atomically, in the
save format: kernel.savegame, TableSession.record), so that it survives a
restart of the server and can be replayed. A page watches through
server-sent events (`events`), each event one view; at most MAX_WATCHERS
pages watch one game, MAX_STREAMS all games together (429 past that).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from happydayz.base.files import write_atomic
from happydayz.kernel.savegame import SaveProblem, checksum, dumps_record, read_save
from happydayz.table.session import SPECTATOR, TableSession

GAMES = "games"
#: Pages watching one game at once, and all games together.
MAX_WATCHERS = 16
MAX_STREAMS = 64
#: The longest pause between two bots' plays a game may ask for (seconds).
MAX_PACE = 5.0
#: How often a watching page's stream looks for a new view, and sends a comment to keep the line open (seconds).
LOOK_EVERY = 0.1
KEEP_ALIVE = 15.0
_KEY = re.compile(r"^[0-9a-f]{32}$")


class Full(Exception):
    """Too many pages watch (answered 429)."""


class Table:
    """One game at the web table: `session` (whose `people` are the seats no bot plays) and `pace`, the pause
    after each move while bots play (seconds; 0: none)."""

    streams = 0  # pages watching any game (all Tables)
    _streams_lock = threading.Lock()

    def __init__(self, session: TableSession, pace: float = 0.0, file: Path | None = None, key: str = "") -> None:
        self.key = key  # the game's id (set when Games holds it)
        self.session = session
        self.pace = pace
        self.file = file
        self.version = 0
        self.latest: dict[int, tuple[int, dict]] = {}  # viewer -> (version, view)
        self.watchers: Counter[int] = Counter()
        self._lock = threading.Lock()  # guards version, latest and watchers (not the game: Games' lock does)

    # ------------------------------------------------------------ publishing
    def view(self, viewer: int) -> dict:
        return {"id": self.key, "version": self.version, **self.session.view(viewer)}

    def publish(self) -> None:
        """A move was made: a new version, the views of the watched viewers, the file. Call it holding the game's
        lock (the game does not move while the views are made)."""
        with self._lock:
            self.version += 1
            watched = [viewer for viewer, count in self.watchers.items() if count]
        views = {viewer: self.view(viewer) for viewer in watched}
        with self._lock:
            for viewer, view in views.items():
                self.latest[viewer] = (view["version"], view)
        self.persist()

    def persist(self) -> None:
        if self.file is None:
            return
        data = self.session.record()
        data.pop("checksum", None)
        data["pace"] = self.pace
        data["checksum"] = checksum(data)
        self.file.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.file, dumps_record(data), error=SaveProblem, what="game file")

    def between_moves(self, check: Callable[[], None]) -> Callable[[], None]:
        """What the bots call before each of their decisions: publish the move just made, wait `pace` (stopping
        at once when `check` raises: the client left), then go on."""
        def stop(*_: Any) -> None:
            check()
            self.publish()
            waited = 0.0
            while waited < self.pace:
                step = min(0.1, self.pace - waited)
                threading.Event().wait(step)
                waited += step
                check()
        return stop

    # ------------------------------------------------------------ watching
    def events(self, viewer: int) -> AsyncIterator[str]:
        """Server-sent events: each new view of `viewer` as one `data:` line, from the last made on. (Starlette
        stops the stream when the client leaves: the count of watchers goes down in its `finally`.)"""
        with Table._streams_lock, self._lock:
            if Table.streams >= MAX_STREAMS:
                raise Full(f"{Table.streams} pages are watching games already; try again later")
            if sum(self.watchers.values()) >= MAX_WATCHERS:
                raise Full(f"{MAX_WATCHERS} pages are watching this game already")
            Table.streams += 1
            self.watchers[viewer] += 1
        return self._stream(viewer, -1)  # the latest view made for this viewer first (a page reconnecting)

    async def _stream(self, viewer: int, sent: int) -> AsyncIterator[str]:
        try:
            yield ": watching\n\n"
            quiet = 0.0
            while True:
                with self._lock:
                    version, view = self.latest.get(viewer, (sent, None))
                if view is not None and version > sent:
                    sent = version
                    quiet = 0.0
                    yield "data: " + json.dumps(view) + "\n\n"
                else:
                    await asyncio.sleep(LOOK_EVERY)
                    quiet += LOOK_EVERY
                    if quiet >= KEEP_ALIVE:  # a line that dropped is found out by writing to it
                        quiet = 0.0
                        yield ": still here\n\n"
        finally:
            with Table._streams_lock, self._lock:
                Table.streams -= 1
                self.watchers[viewer] -= 1


def game_file(root: Path, key: str) -> Path | None:
    """The file of the game `key` (an id the server made: 32 hex digits; anything else names no file)."""
    return root / GAMES / f"{key}.json" if _KEY.match(key) else None


def load_table(root: Path, key: str, env) -> Table | None:
    """The game `key` as its file left it (None when there is no such file). Raises HappyError for a bad file."""
    file = game_file(root, key)
    if file is None or not file.is_file():
        return None
    data = read_save(file, scenario_folder=root)
    session = TableSession.from_record(data, env, f"{GAMES}/{key}.json", play_bots=False)
    pace = data.get("pace", 0.0)
    pace = float(pace) if isinstance(pace, (int, float)) and not isinstance(pace, bool) else 0.0
    return Table(session, min(max(pace, 0.0), MAX_PACE), file, key)


__all__ = ["Table", "Full", "game_file", "load_table", "SPECTATOR", "MAX_WATCHERS", "MAX_STREAMS", "MAX_PACE",
           "GAMES"]
