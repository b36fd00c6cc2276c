"""The web table's ASGI application: the two pages, their static files and a JSON API.

Pages: `/` (set up a game), `/game/ID` (watch it), `/game/ID/seat/N` (play seat
N of it) and `/playground` (edit, check, explain and simulate a power). Everything else under `/api/` answers JSON; a bad request
gets a 4xx with {"error": "..."}, an unexpected failure a 500 with the same
shape and no traceback. User files are read and written only inside the mods
folder (web.mods); a scenario is a bundled id or "mods:PATH", never any other
path. Who may send requests is checked first (web.guard: Host, Origin,
Content-Type); bodies are read in pieces and refused past MAX_BODY; bots,
powers and simulations run as cancellable work (web.work), stopped when their
client leaves. The guarantees are written out in docs/reliability.md.

    GET  /api/scenarios                  bundled scenarios and those of the mods folder, the default marked
    GET  /api/bots                       the bots' names
    POST /api/games                      start a game {scenario, players, seat, people, bots, express, seed, pace,
                                         ...} or resume a save {resume: NAME}
    GET  /api/games/{id}?seat=N          what seat N (default: the first person's; "spectator") sees
                                         (table.session.TableSession.view)
    GET  /api/games/{id}/events?seat=N   the same view after each move, as server-sent events
    POST /api/games/{id}/answer          {index, seat}: a person's answer; the bots play on
    POST /api/games/{id}/takeback        take back the person's last answer (a game of one person)
    POST /api/games/{id}/save            {name, overwrite}: write saves/NAME.json in the mods folder (409 when
                                         it exists and overwrite is not true)
    GET  /api/saves                      the saves of the mods folder
    GET  /api/files                      the files of the mods folder
    GET  /api/files/{path}               a file's text and its sha256
    PUT  /api/files/{path}               {text, base}: write a power, box or scenario file (409 when `base`, the
                                         sha256 of the text it was edited from or null for a new file, is not
                                         the file's now)
    POST /api/factions                   {name}: a new Faction's power file and a scenario that plays it
    POST /api/check                      {path, text}: diagnostics and card text of unsaved text
    GET  /api/powers                     the bundled powers' names
    GET  /api/explain/{name}             the card text and source of a bundled power
    POST /api/simulate                   {scenario, players, games, seed, express, bots}: the balance report
                                         (one at a time, three more queued; 429 past that)
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from happydayz.authoring.powerfiles import bundled_powers, checked_power
from happydayz.authoring.scaffold import new_faction
from happydayz.base.errors import HappyError, UsageError
from happydayz.base.files import load_json
from happydayz.base.resources import data_dir
from happydayz.data.boxes import MAX_PLAYERS, default_scenario
from happydayz.data.environment import Environment
from happydayz.kernel.savegame import read_save
from happydayz.language.cardtext import card_text
from happydayz.players.registry import BOTS
from happydayz.table.session import SPECTATOR, TableSession
from happydayz.web.guard import GuardMiddleware, HostRules
from happydayz.web.mods import EDITABLE, ModsError, ModsFolder
from happydayz.web.playground import check_text, simulate_report
from happydayz.web.tables import MAX_PACE, Full, Table, game_file, load_table
from happydayz.web.work import Busy, Cancel, Cancelled, Work

STATIC = Path(__file__).resolve().parent / "static"
MAX_GAMES_KEPT = 64
#: A game nobody has asked about for this long may be dropped to make room for a new one ...
ABANDONED_AFTER = 30 * 60
#: ... and one nobody has asked about for this long is dropped in any case (seconds).
EXPIRES_AFTER = 12 * 60 * 60
MAX_BODY = 2 * 1024 * 1024
#: The longest one-line error message answered (one quoting a long value is cut).
MAX_MESSAGE = 500
#: Games one POST /api/simulate may ask for.
MAX_SIMULATED_GAMES = 2000
log = logging.getLogger("happydayz.web")


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Games:
    """The games being played, by id, each with its own lock and the time it was last asked about.

    A game is dropped only when it is abandoned (nobody asked about it for ABANDONED_AFTER) and its room is
    needed, or expired (EXPIRES_AFTER); with MAX_GAMES_KEPT games in play and none abandoned, a new one is
    refused (429).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._games: OrderedDict[str, tuple[TableSession, threading.Lock]] = OrderedDict()
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _drop_old(self) -> None:
        now = self._clock()
        for key in [k for k, seen in self._seen.items() if now - seen >= EXPIRES_AFTER]:
            self._games.pop(key, None)
            self._seen.pop(key, None)
        while len(self._games) >= MAX_GAMES_KEPT:
            oldest = next(iter(self._games))  # the least recently asked about
            if now - self._seen[oldest] < ABANDONED_AFTER:
                raise BadRequest(f"the server is holding {len(self._games)} games in play; finish or leave one, "
                                 f"or try again later", 429)
            self._games.pop(oldest)
            self._seen.pop(oldest)

    def add(self, session: Any, key: str | None = None) -> str:
        """Hold a game (a new key unless `key` is given: a game read back from its file)."""
        key = key if key is not None else uuid.uuid4().hex
        with self._lock:
            if key in self._games:
                return key
            self._drop_old()
            self._games[key] = (session, threading.Lock())
            self._seen[key] = self._clock()
        return key

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._games

    def get(self, key: str) -> tuple[TableSession, threading.Lock]:
        with self._lock:
            found = self._games.get(key)
            if found is not None:
                self._games.move_to_end(key)
                self._seen[key] = self._clock()
        if found is None:
            raise BadRequest(f"no game {key!r} (it may have ended with the server)", 404)
        return found

    def replace(self, key: str, session: TableSession) -> None:
        with self._lock:
            lock = self._games[key][1]
            self._games[key] = (session, lock)


# ------------------------------------------------------------------ helpers

async def body(request) -> dict:
    """The request's JSON object. Its size is checked from Content-Length before anything is read, and
    again as it arrives: reading stops at the first byte past MAX_BODY."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(f"the request is too large (at most {MAX_BODY} bytes)", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BadRequest(f"the request is too large (at most {MAX_BODY} bytes)", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    try:
        data = load_json(text, "<request>", code="W001", what="request body",
                         invalid="the request body is not valid JSON", refuse_surrogates=True)
    except HappyError as exc:  # too deep, a huge number, a lone surrogate, not JSON: one line, with where
        problem = exc.diagnostics[0]
        raise BadRequest(f"{problem.message} (line {problem.span.line}, column {problem.span.column})") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def field(data: dict, name: str, kind: type | tuple, default: Any = ..., low: int | None = None,
          high: int | None = None) -> Any:
    if name not in data or data[name] is None:
        if default is ...:
            raise BadRequest(f"missing {name!r}")
        return default
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise BadRequest(f"{name!r} must be {' or '.join(k.__name__ for k in kinds)}")
    if not isinstance(value, kinds):
        raise BadRequest(f"{name!r} must be {' or '.join(k.__name__ for k in kinds)}")
    if isinstance(value, int) and not isinstance(value, bool):
        if (low is not None and value < low) or (high is not None and value > high):
            raise BadRequest(f"{name!r} must be from {low} to {high}")
    return value


def scenario_ref(mods: ModsFolder, env: Environment, ref: str) -> str:
    """A scenario reference from a request: a bundled id, or "mods:PATH" for a file of the mods folder.

    Nothing else: a path (absolute, relative, or climbing out) is refused before anything is opened.
    """
    if ref.startswith("mods:"):
        path = mods.resolve(ref[5:], (".yaml", ".yml"))
        if not path.is_file():
            raise BadRequest(f"no scenario file {ref[5:]!r} in the mods folder", 404)
        return str(path)
    if ref not in {s.id for s in env.library.scenarios()}:
        shown = ref[:80].encode("unicode_escape").decode("ascii")
        raise BadRequest(f"no bundled scenario {shown!r}: a scenario is a bundled id (GET /api/scenarios) or "
                         f"'mods:PATH' for a file of the mods folder", 404)
    return ref


def path_scrubber(mods: ModsFolder) -> Callable[[str], str]:
    """What hides this machine's paths in an answer: a path of the mods folder becomes relative to it, the
    bundled data's and the system temporary folder's become 'bundled/...' and 'temporary/...'."""
    replacements = []
    folders = ((mods.root, ""), (data_dir("powers").parent, "bundled/"), (Path(tempfile.gettempdir()), "temporary/"))
    for folder, shown in folders:
        for text in {str(folder).rstrip("/") + "/", str(folder.resolve()).rstrip("/") + "/"} - {"/"}:
            replacements.append((json.dumps(text)[1:-1], shown))
    replacements.sort(key=lambda pair: -len(pair[0]))  # the longest first: the mods folder may lie in /tmp

    def scrub(text: str) -> str:
        for old, new in replacements:
            text = text.replace(old, new)
        return text
    return scrub


# ------------------------------------------------------------------ the app

def create_app(mods_folder: str | Path, env: Environment | None = None, hosts: HostRules | None = None,
               work: Work | None = None):
    """The Starlette application for a mods folder (created if missing), whose power files scenarios find.

    `hosts` says which Host and Origin values are served (web.guard; by default those of 127.0.0.1:8000);
    `work` runs the bots, powers and simulations (web.work; shutdown cancels it with `work.cancel_all()`).
    Starlette is imported here, not with the module: it is the optional extra happydayz[web].
    """
    from starlette.applications import Starlette  # optional dependency: Starlette (happydayz[web])
    from starlette.concurrency import run_in_threadpool  # optional dependency: Starlette (happydayz[web])
    from starlette.exceptions import HTTPException  # optional dependency: Starlette (happydayz[web])
    from starlette.middleware import Middleware  # optional dependency: Starlette (happydayz[web])
    from starlette.responses import FileResponse, HTMLResponse, JSONResponse  # optional dependency: Starlette (happydayz[web])
    from starlette.routing import Mount, Route  # optional dependency: Starlette (happydayz[web])
    from starlette.staticfiles import StaticFiles  # optional dependency: Starlette (happydayz[web])

    mods = ModsFolder.at(mods_folder)
    env = env if env is not None else Environment(power_dirs=[mods.root])
    hosts = hosts if hosts is not None else HostRules.for_server("127.0.0.1", 8000)
    work = work if work is not None else Work()
    games = Games()
    scrub = path_scrubber(mods)

    class PublicJSON(JSONResponse):
        """JSON with this machine's paths hidden (see path_scrubber)."""

        def render(self, content: Any) -> bytes:
            return scrub(super().render(content).decode("utf-8")).encode("utf-8")

    def json_error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
        if len(message) > MAX_MESSAGE:  # a message that quotes a long value from the request
            message = message[:MAX_MESSAGE - 1] + "…"
        return PublicJSON({"error": message}, status_code=status, headers=headers)

    async def held(request, key: str) -> Table:
        """The game `key`: held in memory, or read back from its file (a game of before a restart)."""
        if key not in games and game_file(mods.root, key) is not None:
            table = await work.run(request, lambda cancel: load_table(mods.root, key, env))
            if table is not None:
                games.add(table, key)
        return games.get(key)[0]

    def viewer_of(request, table: Table) -> int:
        """Who asks: ?seat=N (a seat a person plays), ?seat=spectator, or by default the first person's seat."""
        asked = request.query_params.get("seat")
        session = table.session
        if asked is None:
            return session.seat
        if asked == "spectator":
            return SPECTATOR
        if not asked.isdigit() or int(asked) >= session.game.n:
            raise BadRequest(f"no seat {asked[:20]!r}: seats are 0 to {session.game.n - 1}, or 'spectator'")
        if int(asked) not in session.people:
            raise BadRequest(f"seat {asked} is played by a bot; watch the game as a spectator instead", 403)
        return int(asked)

    async def with_game(request, key: str, job: Callable[[Table, Cancel], Any]) -> Any:
        """`job(table, cancel)` on the game `key`, holding its lock, as work its client's leaving cancels."""
        await held(request, key)
        _, lock = games.get(key)

        def locked(cancel: Cancel) -> Any:
            while not lock.acquire(timeout=0.2):  # another request's work on this game: wait, or give up
                cancel.check()
            try:
                return job(games.get(key)[0], cancel)
            finally:
                lock.release()
        return await work.run(request, locked)

    async def play_bots_then_view(request, key: str, viewer: int | None = None, new: bool = False) -> dict:
        """The bots play up to a person's decision, each move published (and paced); cancelled if the client
        leaves: the game is kept, and a later request plays them again from there. Then the game as `viewer`
        (default: the one the request names) sees it. A `new` game is written to its file in any case."""
        def job(table: Table, cancel: Cancel) -> dict:
            if table.session.bots_to_play:
                table.session.run_bots(table.between_moves(cancel.check))
                table.publish()
            elif new:
                table.persist()
            return table.view(viewer_of(request, table) if viewer is None else viewer)
        return await with_game(request, key, job)

    # --- pages
    async def index(request):  # the set-up page, and the table of a game (the page reads its address)
        return FileResponse(STATIC / "play.html", media_type="text/html", headers={"Cache-Control": "no-cache"})

    # the playground's player counts: 2 to MAX_PLAYERS, the one limit of a table (no copy in the page)
    playground_html = (STATIC / "playground.html").read_text(encoding="utf-8").replace(
        "<!--player-counts-->", "".join(f"<option>{n}</option>" for n in range(2, MAX_PLAYERS + 1)))

    async def playground_page(request):
        return HTMLResponse(playground_html)

    # --- lists
    def counts(scenario) -> list[int]:
        """The player counts a scenario can be played by: its own, or those its box deals for."""
        if scenario.players:
            return [scenario.players]
        box = env.library.boxes.get(scenario.box)
        return sorted(box.deal) if box is not None else []

    def _scenarios() -> list[dict]:
        found = [{"ref": s.id, "id": s.id, "title": s.title, "players": s.players, "counts": counts(s),
                  "source": "bundled", "factions": [[c.faction, c.variant] for c in s.factions],
                  "added": list(s.added)}
                 for s in env.library.scenarios()]
        for entry in mods.files((".yaml", ".yml")):
            try:
                scenario, _ = env.resolve_scenario(mods.resolve(entry["path"]))
            except (HappyError, OSError, ValueError, ModsError):
                continue  # a box file, or a scenario that does not load (the playground's check says why)
            found.append({"ref": "mods:" + entry["path"], "id": entry["path"], "title": scenario.title,
                          "players": scenario.players, "counts": counts(scenario), "source": "mods",
                          "factions": [[c.faction, c.variant] for c in scenario.factions],
                          "added": list(scenario.added)})
        default = default_scenario(env.library)  # the one `happydayz play` plays when none is named
        for entry in found:
            entry["default"] = entry["ref"] == default
        return found

    async def scenarios(request):  # reads every scenario file of the mods folder: a check, for the queue
        return PublicJSON(await work.queued(work.checks, request, lambda cancel: _scenarios()))

    async def bots(request):
        return PublicJSON(sorted(BOTS))

    # --- games
    async def new_game(request):
        data = await body(request)
        pace = field(data, "pace", (int, float), 0)
        if not 0 <= pace <= MAX_PACE:
            raise BadRequest(f"'pace' must be from 0 to {MAX_PACE} seconds")
        if "resume" in data:
            name = field(data, "resume", str)
            path = mods.save_path(name)
            if not path.is_file():
                raise BadRequest(f"no save {name!r}", 404)

            def make(cancel: Cancel) -> TableSession:  # the save's scenario may lie anywhere in the mods folder
                return TableSession.from_record(read_save(path, scenario_folder=mods.root), env, mods.relative(path),
                                                stop=cancel.check, play_bots=False)
        else:
            ref = scenario_ref(mods, env, field(data, "scenario", str)) if data.get("scenario") else None
            players = field(data, "players", int, None, 2, MAX_PLAYERS)
            seat = field(data, "seat", int, 0, 0, MAX_PLAYERS - 1)
            seed = field(data, "seed", int, 0, 0, 2 ** 63)
            names = field(data, "bots", (list, str), None)
            if isinstance(names, list) and not all(isinstance(n, str) for n in names):
                raise BadRequest("'bots' must list bot names")
            people = field(data, "people", list, [])
            if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < MAX_PLAYERS for p in people):
                raise BadRequest(f"'people' must list seats (0 to {MAX_PLAYERS - 1})")
            express = field(data, "express", bool, True)
            promos = field(data, "promos", bool, False)
            random_powers = field(data, "random_powers", bool, False)

            def make(cancel: Cancel) -> TableSession:
                session = TableSession.start(env, ref, players, seat, seed, express, promos, random_powers, names,
                                             play_bots=False)
                session.people = frozenset({seat, *(p for p in people if p < session.game.n)})
                return session
        table = Table(await work.run(request, make), pace)
        key = games.add(table)  # kept from here on, even if the client leaves
        table.key, table.file = key, game_file(mods.root, key)
        return PublicJSON(await play_bots_then_view(request, key, table.session.seat, new=True), status_code=201)

    async def get_game(request):
        return PublicJSON(await play_bots_then_view(request, request.path_params["key"]))

    async def events(request):
        """Server-sent events: the view of the seat asked for after each move (behind the same guard)."""
        from starlette.responses import StreamingResponse  # optional dependency: Starlette (happydayz[web])
        table = await held(request, request.path_params["key"])
        try:
            stream = table.events(viewer_of(request, table))
        except Full as exc:
            raise Busy(str(exc)) from None
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def answer(request):
        key = request.path_params["key"]
        data = await body(request)
        index = field(data, "index", int)
        seat = field(data, "seat", int, None, 0, MAX_PLAYERS - 1)

        def job(table: Table, cancel: Cancel) -> dict:
            session = table.session
            session.answer(index, table.between_moves(cancel.check), seat)
            table.publish()
            return table.view(session.seat if seat is None else seat)
        return PublicJSON(await with_game(request, key, job))

    async def take_back(request):
        key = request.path_params["key"]

        def job(table: Table, cancel: Cancel) -> dict:
            if len(table.session.people) > 1:
                raise UsageError("a game of several people cannot take an answer back")
            table.session = table.session.take_back(cancel.check)
            table.publish()
            return table.view(table.session.seat)
        return PublicJSON(await with_game(request, key, job))

    async def save(request):
        key = request.path_params["key"]
        data = await body(request)
        name = field(data, "name", str)
        overwrite = field(data, "overwrite", bool, False)
        path = mods.save_path(name)

        def job(table: Table, cancel: Cancel) -> dict:
            if path.exists() and not overwrite:  # another tab's save, perhaps: never replaced unasked
                raise BadRequest(f"a save named {path.stem!r} exists already; overwrite it, or choose another name",
                                 409)
            path.parent.mkdir(parents=True, exist_ok=True)
            session = table.session
            session.save(path)
            return {"name": path.stem, "path": mods.relative(path), "answers": len(session.game.answers)}
        return PublicJSON(await with_game(request, key, job))

    async def saves(request):
        return PublicJSON(mods.saves())

    # --- files and the playground
    async def files(request):
        return PublicJSON({"root": mods.root.name, "files": mods.files()})  # the folder's name, not its path

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    async def read_file(request):
        relative = request.path_params["path"]
        text = mods.read(relative)
        return PublicJSON({"path": relative, "text": text, "sha": sha(text)})

    async def write_file(request):
        relative = request.path_params["path"]
        data = await body(request)
        text = field(data, "text", str)
        if "base" in data:  # the text the editor started from: refuse to replace what another tab saved since
            base = field(data, "base", str, None)
            target = mods.resolve(relative, EDITABLE)
            now = sha(mods.read(relative)) if target.is_file() else None
            if now != base:
                raise BadRequest(f"{relative[:200]} was changed since it was opened (in another tab?); "
                                 f"overwrite it, or reload it" if now else f"{relative[:200]} exists already", 409)
        path = mods.write(relative, text)
        return PublicJSON({"path": mods.relative(path), "size": path.stat().st_size, "sha": sha(text)})

    async def faction(request):
        data = await body(request)
        name = field(data, "name", str)

        def make() -> dict:
            written = new_faction(name, mods.root, env.library)
            return {"files": [mods.relative(path) for path in written]}
        return PublicJSON(await run_in_threadpool(make), status_code=201)

    async def check(request):
        data = await body(request)
        relative, text = field(data, "path", str), field(data, "text", str)
        return PublicJSON(await work.queued(work.checks, request, lambda cancel: check_text(mods, relative, text, env)))

    async def powers(request):
        return PublicJSON(sorted(bundled_powers()))

    async def explain(request):
        name = request.path_params["name"]
        found = bundled_powers()
        if name not in found:
            raise BadRequest(f"no bundled power {name[:80]!r}", 404)
        return PublicJSON({"name": name, "text": card_text(checked_power(found[name], env)),
                           "source": found[name].read_text(encoding="utf-8")})

    async def simulate(request):
        data = await body(request)
        ref = scenario_ref(mods, env, field(data, "scenario", str))
        players = field(data, "players", int, None, 2, MAX_PLAYERS)
        count = field(data, "games", int, 100, 1, MAX_SIMULATED_GAMES)
        seed = field(data, "seed", int, 0, 0, 2 ** 63)
        express = field(data, "express", bool, True)
        names = field(data, "bots", str, None)

        def job(cancel: Cancel) -> dict:  # cancel.check is called after every game
            return simulate_report(ref, players, count, seed, express, names, env, mods, progress=cancel.check)
        return PublicJSON(await work.queued(work.simulations, request, job))

    async def not_found(request):
        raise BadRequest(f"no such endpoint: {request.method} {request.url.path}", 404)

    # --- errors: JSON, never a traceback
    async def on_bad_request(request, exc: BadRequest):
        return json_error(exc.status, exc.message)

    async def on_mods_error(request, exc: ModsError):
        return json_error(exc.status, exc.message)

    async def on_usage(request, exc: UsageError):
        return json_error(400, str(exc))

    async def on_happy(request, exc: HappyError):
        return PublicJSON({"error": exc.render(), "diagnostics": exc.records()}, status_code=400)

    async def on_busy(request, exc: Busy):
        return json_error(429, str(exc), {"Retry-After": "5"})

    async def on_cancelled(request, exc: Cancelled):  # the client has gone: nobody reads this
        return json_error(503, "the work was cancelled (the client left, or the server is stopping)")

    async def on_http(request, exc: HTTPException):
        message = exc.detail if isinstance(exc.detail, str) and exc.status_code != 404 else "not found"
        return json_error(exc.status_code, message)

    async def on_crash(request, exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return json_error(500, "internal error: the server could not answer this request (see its log)")

    routes = [
        Route("/", index),
        Route("/game/{key}", index),
        Route("/game/{key}/seat/{seat:int}", index),
        Route("/playground", playground_page),
        Route("/api/scenarios", scenarios),
        Route("/api/bots", bots),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{key}", get_game),
        Route("/api/games/{key}/events", events),
        Route("/api/games/{key}/answer", answer, methods=["POST"]),
        Route("/api/games/{key}/takeback", take_back, methods=["POST"]),
        Route("/api/games/{key}/save", save, methods=["POST"]),
        Route("/api/saves", saves),
        Route("/api/files", files),
        Route("/api/files/{path:path}", read_file, methods=["GET"]),
        Route("/api/files/{path:path}", write_file, methods=["PUT"]),
        Route("/api/factions", faction, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/powers", powers),
        Route("/api/explain/{name}", explain),
        Route("/api/simulate", simulate, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
    ]
    handlers = {BadRequest: on_bad_request, ModsError: on_mods_error, UsageError: on_usage, HappyError: on_happy,
                Busy: on_busy, Cancelled: on_cancelled, HTTPException: on_http, Exception: on_crash}
    app = Starlette(debug=False, routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(GuardMiddleware, rules=hosts)])
    app.state.mods = mods
    app.state.env = env
    app.state.work = work
    return app


__all__ = ["create_app", "STATIC"]
