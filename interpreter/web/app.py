"""The web table's ASGI application: the two pages, their static files and a JSON API.

Pages: `/` (play against bots) and `/playground` (edit, check, explain and
simulate a power). Everything else under `/api/` answers JSON; a bad request
gets a 4xx with {"error": "..."}, an unexpected failure a 500 with the same
shape and no traceback. User files are read and written only inside the mods
folder (web.mods).

    GET  /api/scenarios                  bundled scenarios and those of the mods folder
    GET  /api/bots                       the bots' names
    POST /api/games                      start a game {scenario, players, seat, bots, express, seed, ...}
                                         or resume a save {resume: NAME}
    GET  /api/games/{id}                 what the person sees (table.session.TableSession.view)
    POST /api/games/{id}/answer          {index}: the person's answer; the bots play on
    POST /api/games/{id}/takeback        take back the person's last answer
    POST /api/games/{id}/save            {name}: write saves/NAME.json in the mods folder
    GET  /api/saves                      the saves of the mods folder
    GET  /api/files                      the files of the mods folder
    GET  /api/files/{path}               a file's text
    PUT  /api/files/{path}               {text}: write a power, box or scenario file
    POST /api/factions                   {name}: a new Faction's power file and a scenario that plays it
    POST /api/check                      {path, text}: diagnostics and card text of unsaved text
    GET  /api/powers                     the bundled powers' names
    GET  /api/explain/{name}             the card text and source of a bundled power
    POST /api/simulate                   {scenario, players, games, seed, express, bots}: the balance report
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from happydayz.authoring.powerfiles import bundled_powers, checked_power
from happydayz.authoring.scaffold import new_faction
from happydayz.base.errors import HappyError, UsageError
from happydayz.data.boxes import MAX_PLAYERS
from happydayz.data.environment import Environment
from happydayz.kernel.savegame import read_save
from happydayz.language.cardtext import card_text
from happydayz.players.registry import BOTS
from happydayz.table.session import TableSession
from happydayz.web.mods import ModsError, ModsFolder
from happydayz.web.playground import check_text, simulate_report

STATIC = Path(__file__).resolve().parent / "static"
MAX_GAMES_KEPT = 64
MAX_BODY = 2 * 1024 * 1024
log = logging.getLogger("happydayz.web")


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Games:
    """The games being played, by id (the oldest forgotten beyond MAX_GAMES_KEPT), each with its own lock."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, tuple[TableSession, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: TableSession) -> str:
        key = uuid.uuid4().hex
        with self._lock:
            self._games[key] = (session, threading.Lock())
            while len(self._games) > MAX_GAMES_KEPT:
                self._games.popitem(last=False)
        return key

    def get(self, key: str) -> tuple[TableSession, threading.Lock]:
        with self._lock:
            found = self._games.get(key)
        if found is None:
            raise BadRequest(f"no game {key!r} (it may have ended with the server)", 404)
        return found

    def replace(self, key: str, session: TableSession) -> None:
        with self._lock:
            lock = self._games[key][1]
            self._games[key] = (session, lock)


# ------------------------------------------------------------------ helpers

async def body(request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest("the request is too large", 413)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request body is not valid JSON") from None
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


def scenario_ref(mods: ModsFolder, ref: str) -> str:
    """A scenario reference from a request: a bundled id, or "mods:PATH" for a file of the mods folder."""
    if ref.startswith("mods:"):
        path = mods.resolve(ref[5:], (".yaml", ".yml"))
        if not path.is_file():
            raise BadRequest(f"no scenario file {ref[5:]!r} in the mods folder", 404)
        return str(path)
    return ref


# ------------------------------------------------------------------ the app

def create_app(mods_folder: str | Path, env: Environment | None = None):
    """The Starlette application for a mods folder (created if missing), whose power files scenarios find.

    Starlette is imported here, not with the module: it is the optional extra happydayz[web].
    """
    from starlette.applications import Starlette  # optional dependency: Starlette (happydayz[web])
    from starlette.concurrency import run_in_threadpool  # optional dependency: Starlette (happydayz[web])
    from starlette.exceptions import HTTPException  # optional dependency: Starlette (happydayz[web])
    from starlette.responses import FileResponse, JSONResponse  # optional dependency: Starlette (happydayz[web])
    from starlette.routing import Mount, Route  # optional dependency: Starlette (happydayz[web])
    from starlette.staticfiles import StaticFiles  # optional dependency: Starlette (happydayz[web])

    def json_error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    mods = ModsFolder.at(mods_folder)
    env = env if env is not None else Environment(power_dirs=[mods.root])
    games = Games()

    def game_view(key: str, session: TableSession) -> dict:
        return {"id": key, **session.view()}

    # --- pages
    async def index(request):
        return FileResponse(STATIC / "play.html", media_type="text/html")

    async def playground_page(request):
        return FileResponse(STATIC / "playground.html", media_type="text/html")

    # --- lists
    def _scenarios() -> list[dict]:
        found = [{"ref": s.id, "id": s.id, "title": s.title, "players": s.players, "source": "bundled",
                  "factions": [[c.faction, c.variant] for c in s.factions], "added": list(s.added)}
                 for s in env.library.scenarios()]
        for entry in mods.files((".yaml", ".yml")):
            try:
                scenario, _ = env.resolve_scenario(mods.resolve(entry["path"]))
            except (HappyError, OSError, ValueError):
                continue  # a box file, or a scenario that does not load (the playground's check says why)
            found.append({"ref": "mods:" + entry["path"], "id": entry["path"], "title": scenario.title,
                          "players": scenario.players, "source": "mods",
                          "factions": [[c.faction, c.variant] for c in scenario.factions],
                          "added": list(scenario.added)})
        return found

    async def scenarios(request):
        return JSONResponse(await run_in_threadpool(_scenarios))

    async def bots(request):
        return JSONResponse(sorted(BOTS))

    # --- games
    async def new_game(request):
        data = await body(request)
        if "resume" in data:
            name = field(data, "resume", str)
            path = mods.save_path(name)
            if not path.is_file():
                raise BadRequest(f"no save {name!r}", 404)

            def resume() -> TableSession:
                return TableSession.from_record(read_save(path), env, mods.relative(path))
            session = await run_in_threadpool(resume)
        else:
            ref = scenario_ref(mods, field(data, "scenario", str, default=None) or "") if data.get("scenario") \
                else None
            players = field(data, "players", int, None, 2, MAX_PLAYERS)
            seat = field(data, "seat", int, 0, 0, MAX_PLAYERS - 1)
            seed = field(data, "seed", int, 0, 0, 2 ** 63)
            names = field(data, "bots", (list, str), None)
            if isinstance(names, list) and not all(isinstance(n, str) for n in names):
                raise BadRequest("'bots' must list bot names")
            express = field(data, "express", bool, True)
            promos = field(data, "promos", bool, False)
            random_powers = field(data, "random_powers", bool, False)

            def start() -> TableSession:
                return TableSession.start(env, ref, players, seat, seed, express, promos, random_powers, names)
            session = await run_in_threadpool(start)
        key = games.add(session)
        return JSONResponse(game_view(key, session), status_code=201)

    async def get_game(request):
        key = request.path_params["key"]
        _, lock = games.get(key)

        def look() -> dict:
            with lock:
                return game_view(key, games.get(key)[0])
        return JSONResponse(await run_in_threadpool(look))

    async def answer(request):
        key = request.path_params["key"]
        data = await body(request)
        index = field(data, "index", int)
        _, lock = games.get(key)

        def apply() -> dict:
            with lock:
                session = games.get(key)[0]
                session.answer(index)
                return game_view(key, session)
        return JSONResponse(await run_in_threadpool(apply))

    async def take_back(request):
        key = request.path_params["key"]
        _, lock = games.get(key)

        def back() -> dict:
            with lock:
                earlier = games.get(key)[0].take_back()
                games.replace(key, earlier)
                return game_view(key, earlier)
        return JSONResponse(await run_in_threadpool(back))

    async def save(request):
        key = request.path_params["key"]
        data = await body(request)
        name = field(data, "name", str)
        path = mods.save_path(name)
        _, lock = games.get(key)

        def write() -> dict:
            with lock:
                session = games.get(key)[0]
                path.parent.mkdir(parents=True, exist_ok=True)
                session.save(path)
                return {"name": path.stem, "path": mods.relative(path), "answers": len(session.game.answers)}
        return JSONResponse(await run_in_threadpool(write))

    async def saves(request):
        return JSONResponse(mods.saves())

    # --- files and the playground
    async def files(request):
        return JSONResponse({"root": str(mods.root), "files": mods.files()})

    async def read_file(request):
        relative = request.path_params["path"]
        return JSONResponse({"path": relative, "text": mods.read(relative)})

    async def write_file(request):
        relative = request.path_params["path"]
        data = await body(request)
        text = field(data, "text", str)
        path = mods.write(relative, text)
        return JSONResponse({"path": mods.relative(path), "size": path.stat().st_size})

    async def faction(request):
        data = await body(request)
        name = field(data, "name", str)

        def make() -> dict:
            written = new_faction(name, mods.root, env.library)
            return {"files": [mods.relative(path) for path in written]}
        return JSONResponse(await run_in_threadpool(make), status_code=201)

    async def check(request):
        data = await body(request)
        relative, text = field(data, "path", str), field(data, "text", str)
        return JSONResponse(await run_in_threadpool(check_text, mods, relative, text, env))

    async def powers(request):
        return JSONResponse(sorted(bundled_powers()))

    async def explain(request):
        name = request.path_params["name"]
        found = bundled_powers()
        if name not in found:
            raise BadRequest(f"no bundled power {name!r}", 404)
        return JSONResponse({"name": name, "text": card_text(checked_power(found[name], env)),
                             "source": found[name].read_text(encoding="utf-8")})

    async def simulate(request):
        data = await body(request)
        ref = scenario_ref(mods, field(data, "scenario", str))
        players = field(data, "players", int, None, 2, MAX_PLAYERS)
        count = field(data, "games", int, 100, 1, 2000)
        seed = field(data, "seed", int, 0, 0, 2 ** 63)
        express = field(data, "express", bool, True)
        names = field(data, "bots", str, None)
        return JSONResponse(await run_in_threadpool(simulate_report, ref, players, count, seed, express, names, env))

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
        return JSONResponse({"error": exc.render(), "diagnostics": exc.records()}, status_code=400)

    async def on_http(request, exc: HTTPException):
        message = exc.detail if isinstance(exc.detail, str) and exc.status_code != 404 else "not found"
        return json_error(exc.status_code, message)

    async def on_crash(request, exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return json_error(500, "internal error: the server could not answer this request (see its log)")

    routes = [
        Route("/", index),
        Route("/playground", playground_page),
        Route("/api/scenarios", scenarios),
        Route("/api/bots", bots),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{key}", get_game),
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
                HTTPException: on_http, Exception: on_crash}
    app = Starlette(debug=False, routes=routes, exception_handlers=handlers)
    app.state.mods = mods
    app.state.env = env
    return app


__all__ = ["create_app", "STATIC"]
