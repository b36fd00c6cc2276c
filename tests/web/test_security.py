"""The web server as an attacker meets it: the real `happydayz serve` over HTTP, with hostile headers and bodies.

Each test is one finding of the security review (docs/reliability.md, "The web server"): no file outside the
bundled data and the mods folder is read or written, no foreign Host or Origin is served, no request keeps the
server busy after its client has gone or stops the others, and every hostile request gets a 4xx with a one-line
JSON error.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from .conftest import Server

SCENARIO = """\
title: A mods scenario
box: woodstock-fever
factions:
  - Hippies
  - Soldiers
  - Dogs
"""


@pytest.fixture
def fresh(tmp_path):
    """A server of its own (some tests measure its memory and processor time, or stop it)."""
    mods = tmp_path / "mods"
    mods.mkdir()
    running = Server(mods)
    yield running
    running.stop()


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def refused(response: httpx.Response, *statuses: int) -> str:
    """The one-line JSON error of a refused request (a 4xx), which names no path of this machine."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    if statuses:
        assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


# ------------------------------------------------------------------ 1. what is read

@pytest.fixture
def secret(tmp_path):
    """A file outside the mods folder, with words that must never come back in an answer."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "scen.yaml").write_text(SCENARIO, encoding="utf-8")
    key = outside / "id_rsa"
    key.write_text("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n", encoding="utf-8")
    return outside


@pytest.mark.parametrize("endpoint", ["/api/games", "/api/simulate"])
def test_a_scenario_is_a_bundled_id_or_a_mods_file_never_any_path(http, server, secret, endpoint):
    relative_out = os.path.relpath(secret / "scen.yaml", server.mods)
    for ref in ("/etc/passwd", str(secret / "id_rsa"), "/proc/self/environ", str(secret / "scen.yaml"),
                relative_out, "mods:" + relative_out, "mods:/etc/passwd", "../outside/scen.yaml"):
        response = http.post(endpoint, json={"scenario": ref, "games": 1})
        message = refused(response, 403, 404)
        for word in ("root:", "PRIVATE KEY", "PATH=", "A mods scenario", str(secret)):
            assert word not in response.text, (ref, response.text[:300])
        assert "mods:" in message or "mods folder" in message, message


def test_a_link_in_the_mods_folder_that_leads_out_is_refused_before_reading(http, server, secret):
    os.symlink(secret / "scen.yaml", server.mods / "out.yaml")
    os.symlink(secret / "id_rsa", server.mods / "key.yaml")
    try:
        for ref in ("mods:out.yaml", "mods:key.yaml"):
            response = http.post("/api/games", json={"scenario": ref})
            assert "leads out of the mods folder" in refused(response, 403)
            assert "PRIVATE KEY" not in response.text and "A mods scenario" not in response.text
        assert "out.yaml" not in [f["path"] for f in http.get("/api/files").json()["files"]]
    finally:
        (server.mods / "out.yaml").unlink()
        (server.mods / "key.yaml").unlink()


def test_the_mods_folder_is_named_not_located(http, server):
    listing = http.get("/api/files")
    assert listing.json()["root"] == server.mods.name
    assert str(server.mods) not in listing.text


# ------------------------------------------------------------------ 2. who may ask

def test_a_foreign_host_is_refused_so_dns_rebinding_reads_nothing(server):
    with httpx.Client(timeout=30) as raw:
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example", "127.0.0.1",
                     f"localhost:{server.port + 1}", ""):
            for path in ("/api/files", "/", "/api/scenarios"):
                response = raw.get(server.url + path, headers={"Host": host})
                assert "only requests for its own address" in refused(response, 403), (host, path)
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"[::1]:{server.port}",
                     f"LOCALHOST:{server.port}"):
            assert raw.get(server.url + "/api/bots", headers={"Host": host}).status_code == 200, host


def test_allow_host_adds_a_name(tmp_path):
    mods = tmp_path / "mods"
    mods.mkdir()
    running = Server(mods, ("--allow-host", "pi.local", "--allow-host", "table.example:9999"))
    try:
        with httpx.Client(timeout=30) as raw:
            ok = {f"pi.local:{running.port}", "table.example:9999", f"localhost:{running.port}"}
            for host in ok:
                assert raw.get(running.url + "/api/bots", headers={"Host": host}).status_code == 200, host
            for host in ("pi.local:9999", "table.example", "other.local"):
                refused(raw.get(running.url + "/api/bots", headers={"Host": host}), 403)
            made = raw.post(running.url + "/api/games", json={"scenario": "woodstock-fever/1", "players": 3},
                            headers={"Host": f"pi.local:{running.port}", "Origin": f"http://pi.local:{running.port}"})
            assert made.status_code == 201, made.text
    finally:
        running.stop()


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:{other}", "http://localhost.evil.example:{port}"])
def test_a_foreign_origin_is_refused_for_every_method(http, server, origin):
    origin = origin.format(port=server.port, other=server.port + 1)
    headers = {"Origin": origin}
    assert "other sites" in refused(http.get("/api/files", headers=headers), 403)
    assert "other sites" in refused(http.post("/api/games", json={"scenario": "woodstock-fever/1"},
                                              headers=headers), 403)
    assert "other sites" in refused(http.put("/api/files/planted.power", json={"text": "power P {}\n"},
                                             headers=headers), 403)
    assert not (server.mods / "planted.power").exists()


def test_the_own_origin_is_served(http, server):
    for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        response = http.put("/api/files/own.power", json={"text": "power Own {}\n"}, headers={"Origin": origin})
        assert response.status_code == 200, response.text
    (server.mods / "own.power").unlink()


def test_a_cross_site_form_post_creates_nothing(http, server):
    """A page elsewhere can send text/plain or a form without a preflight: refused, whatever Origin says."""
    before = sorted(p.name for p in server.mods.iterdir())
    text_body = json.dumps({"name": "Planted"})
    for headers in ({"Origin": "http://evil.example", "Content-Type": "text/plain"},
                    {"Content-Type": "text/plain"},
                    {"Content-Type": "application/x-www-form-urlencoded"},
                    {"Content-Type": "multipart/form-data; boundary=x"},
                    {}):
        response = http.post("/api/factions", content=text_body, headers=headers)
        refused(response, 403, 415)
    assert sorted(p.name for p in server.mods.iterdir()) == before


def test_a_state_change_without_origin_needs_a_same_origin_fetch_or_none(http, server):
    for site in ("cross-site", "same-site", "none"):
        response = http.post("/api/factions", json={"name": "Sneaky"}, headers={"Sec-Fetch-Site": site})
        assert "other sites" in refused(response, 403)
    assert not (server.mods / "sneaky.power").exists()
    made = http.post("/api/games", json={"scenario": "woodstock-fever/1", "players": 3},
                     headers={"Sec-Fetch-Site": "same-origin"})
    assert made.status_code == 201


# ------------------------------------------------------------------ 3. what is written

def test_a_link_planted_in_the_mods_folder_is_never_written_through(http, server, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside / "evil.power", server.mods / "evil.power")  # a link to a file that does not exist yet
    os.symlink(outside / "evil.yaml", server.mods / "evil.yaml")
    try:
        response = http.post("/api/factions", json={"name": "Evil"})
        refused(response, 400, 403)
        put = http.put("/api/files/evil.power", json={"text": "power Evil {}\n"})
        refused(put, 400, 403)
        assert list(outside.iterdir()) == []
    finally:
        (server.mods / "evil.power").unlink()
        (server.mods / "evil.yaml").unlink()


def test_a_simulation_writes_nothing_beside_a_users_file(http, server):
    (server.mods / "sims").mkdir(exist_ok=True)
    (server.mods / "sims" / "mine.yaml").write_text(SCENARIO, encoding="utf-8")
    seen: set[str] = set()
    stop = threading.Event()

    def watch() -> None:  # every name that appears beside the scenario while the simulation runs
        while not stop.is_set():
            seen.update(p.name for p in (server.mods / "sims").iterdir())
            time.sleep(0.005)
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        response = http.post("/api/simulate", json={"scenario": "mods:sims/mine.yaml", "games": 20, "players": 3})
    finally:
        stop.set()
        watcher.join()
    assert response.status_code == 200, response.text
    assert seen == {"mine.yaml"}
    assert str(server.mods) not in response.text and "/tmp/" not in response.text


# ------------------------------------------------------------------ 4. bounded work

def _raw_request(port: int, head: str, body: bytes = b"", timeout: float = 10) -> tuple[str, float]:
    """Send `head` and `body` on a socket; the status line and the seconds the answer took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head.encode("latin-1") + body)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode("latin-1"), time.monotonic() - started


def test_a_declared_large_body_is_refused_before_it_is_sent(fresh):
    head = (f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{fresh.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 300000000\r\n\r\n")
    status, _ = _raw_request(fresh.port, head, b'{"path": "a.power", "text": "')  # the rest never comes
    assert " 413 " in status, status


def test_a_streamed_large_body_is_refused_past_the_limit_without_holding_it(fresh):
    before = fresh.peak_memory_mb()
    chunk = b"x" * (1024 * 1024)

    def body():
        yield b'{"path": "a.power", "text": "'
        for _ in range(300):  # 300 MiB, if the server read it all
            yield chunk
        yield b'"}'
    with httpx.Client(timeout=60) as client:
        try:
            response = client.post(fresh.url + "/api/check", content=body(),
                                   headers={"content-type": "application/json"})
            assert response.status_code == 413, response.text[:200]
        except (httpx.RemoteProtocolError, httpx.WriteError):
            pass  # the server answered 413 and closed the connection while the body was still being sent
    assert fresh.process.poll() is None
    assert fresh.peak_memory_mb() - before < 60, (before, fresh.peak_memory_mb())


def _post_and_leave(port: int, path: str, payload: dict, after: float) -> None:
    """POST, then close the connection before the answer comes (the client goes away)."""
    body = json.dumps(payload).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode() + body)
        time.sleep(after)


def _settles(server: Server, within: float = 6.0, quiet: float = 1.5) -> float:
    """Seconds until the server's processor time stops growing (less than 0.15 s over `quiet` seconds)."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        used = server.cpu_seconds()
        time.sleep(quiet)
        if server.cpu_seconds() - used < 0.15:
            return time.monotonic() - started
    raise AssertionError(f"the server was still working {within} s after its client left")


@pytest.mark.slow
def test_simulations_are_queued_and_refused_past_the_queue_so_the_table_stays_responsive(fresh):
    answers: list[int] = []

    def ask() -> None:
        with httpx.Client(timeout=120) as client:
            try:
                answers.append(client.post(fresh.url + "/api/simulate",
                                           json={"scenario": "woodstock-fever/1", "games": 2000}).status_code)
            except httpx.ReadTimeout:
                answers.append(0)
    threads = [threading.Thread(target=ask) for _ in range(12)]
    for thread in threads:
        thread.start()
    # One runs, three are queued, the other eight are told at once: wait for those eight (a loaded
    # machine may take a while to start twelve clients), then check that no queued one answered.
    deadline = time.monotonic() + 60
    while len(answers) < 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    assert answers.count(429) == 8 and len(answers) == 8, answers
    slowest = 0.0
    with httpx.Client(base_url=fresh.url, timeout=30) as client:
        for _ in range(5):
            started = time.monotonic()
            assert client.get("/api/bots").status_code == 200
            game = client.post("/api/games", json={"scenario": "woodstock-fever/1", "players": 3})
            assert game.status_code == 201
            slowest = max(slowest, time.monotonic() - started)
    assert slowest < 3, slowest
    too_many = httpx.post(fresh.url + "/api/simulate", json={"scenario": "woodstock-fever/1", "games": 2001})
    assert "'games' must be from 1 to 2000" in refused(too_many, 400)
    fresh.stop()  # the four simulations' clients are still waiting: stopping ends them


@pytest.mark.slow
def test_checks_of_large_files_are_queued_too(fresh):
    text = "title: big\nbox: woodstock-fever\nfactions: [Hippies, Soldiers, Dogs]\n" + "# a comment\n" * 80_000
    answers: list[int] = []

    def ask() -> None:
        with httpx.Client(timeout=120) as client:
            answers.append(client.post(fresh.url + "/api/check", json={"path": "big.yaml", "text": text}).status_code)
    threads = [threading.Thread(target=ask) for _ in range(14)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    started = time.monotonic()
    assert httpx.get(fresh.url + "/api/bots", timeout=30).status_code == 200
    assert time.monotonic() - started < 3
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200] * 8 + [429] * 6, answers


@pytest.mark.slow
def test_a_simulation_stops_when_its_client_leaves(fresh):
    idle = fresh.cpu_seconds()
    _post_and_leave(fresh.port, "/api/simulate", {"scenario": "woodstock-fever/1", "games": 2000,
                                                  "bots": "greedy"}, after=1.0)
    assert fresh.cpu_seconds() - idle > 0.3  # it had started
    _settles(fresh)
    assert httpx.get(fresh.url + "/api/bots", timeout=5).status_code == 200


def _slow_save(mods: Path) -> None:
    """A save of a whole 5-player campaign whose bots are ISMCTS: resuming it replays every one of their
    decisions (about 8 s of work)."""
    from happydayz.data.environment import Environment
    from happydayz.kernel.game import Game
    from happydayz.kernel.savegame import dumps_record, save_record
    from happydayz.kernel.setup import prepare

    env = Environment()
    setup, _ = prepare(env, "woodstock-fever/1", 5, False, False, False)
    game = Game(setup, 5)
    while game.decision is not None:
        game.apply(len(game.decision.options) - 1)
    record = save_record(game, "woodstock-fever/1", seat=0, env=env)
    record.pop("checksum", None)
    record["bots"] = ["ismcts"] * 5
    (mods / "saves").mkdir(exist_ok=True)
    (mods / "saves" / "slow.json").write_text(dumps_record(record), encoding="utf-8")


@pytest.mark.slow
def test_bot_work_stops_when_its_client_leaves_and_the_game_is_recomputed_on_rejoin(fresh):
    _slow_save(fresh.mods)
    leaving = [threading.Thread(target=_post_and_leave, args=(fresh.port, "/api/games", {"resume": "slow"}, 1.0))
               for _ in range(2)]
    for thread in leaving:
        thread.start()
    for thread in leaving:
        thread.join()
    _settles(fresh)
    # A new game whose bots play first: its client leaves while they think; the game stays and is played on.
    with httpx.Client(base_url=fresh.url, timeout=120) as client:
        view = client.post("/api/games", json={"scenario": "woodstock-fever/1", "players": 5, "seat": 0,
                                               "bots": "ismcts", "seed": 2}).json()
        while view["decision"]["kind"] == "transfer":
            view = client.post(f"/api/games/{view['id']}/answer", json={"index": 0}).json()
        key = view["id"]
        answers = len(view["narration"])
    option = view["decision"]["options"][0]["index"]
    _post_and_leave(fresh.port, f"/api/games/{key}/answer", {"index": option}, after=0.3)
    _settles(fresh)
    with httpx.Client(base_url=fresh.url, timeout=120) as client:
        again = client.get(f"/api/games/{key}").json()  # rejoin: the bots' moves are worked out again
        assert again["id"] == key and len(again["narration"]) > answers
        assert again["over"] or again["decision"] is not None


@pytest.mark.slow
def test_the_first_ctrl_c_stops_the_server_even_mid_simulation(fresh):
    threading.Thread(target=lambda: _post_and_leave(fresh.port, "/api/simulate",
                                                    {"scenario": "woodstock-fever/1", "games": 2000,
                                                     "bots": "greedy"}, after=8), daemon=True).start()
    time.sleep(1.5)
    fresh.process.send_signal(signal.SIGINT)
    started = time.monotonic()
    fresh.process.wait(timeout=8)
    assert time.monotonic() - started < 6
    fresh.log.seek(0)
    assert "Traceback" not in fresh.log.read()


# ------------------------------------------------------------------ 5. hostile bodies

ENDPOINTS = [("POST", "/api/games"), ("POST", "/api/check"), ("POST", "/api/simulate"), ("POST", "/api/factions"),
             ("PUT", "/api/files/deep.power")]


@pytest.mark.parametrize("method, path", ENDPOINTS)
def test_json_nested_without_end_is_a_400(http, method, path):
    deep = b"[" * 100_000 + b"]" * 100_000
    message = refused(http.request(method, path, content=deep, headers={"content-type": "application/json"}), 400)
    assert "nest" in message, message


@pytest.mark.parametrize("method, path, payload", [
    ("POST", "/api/games", {"scenario": "woodstock-fever/1", "bots": "random\ud800"}),
    ("POST", "/api/check", {"path": "a.power", "text": "power A {\ud800}"}),
    ("POST", "/api/simulate", {"scenario": "woodstock-fever/1\ud800"}),
    ("POST", "/api/factions", {"name": "Lone\ud800"}),
    ("PUT", "/api/files/lone.power", {"text": "power Lone {\ud800}\n"}),
    ("POST", "/api/check", {"path": "a\udfff.power", "text": ""}),
])
def test_lone_surrogates_are_a_400(http, server, method, path, payload):
    content = json.dumps(payload).encode("ascii")  # ensure_ascii writes the surrogate as \ud800
    response = http.request(method, path, content=content, headers={"content-type": "application/json"})
    assert "lone surrogate" in refused(response, 400)
    assert not (server.mods / "lone.power").exists()


def test_a_web_save_of_a_mods_scenario_resumes(http, server):
    (server.mods / "campaigns").mkdir(exist_ok=True)
    (server.mods / "campaigns" / "night.yaml").write_text(SCENARIO, encoding="utf-8")
    view = http.post("/api/games", json={"scenario": "mods:campaigns/night.yaml", "players": 3, "seed": 9}).json()
    view = http.post(f"/api/games/{view['id']}/answer", json={"index": view["decision"]["options"][0]["index"]}).json()
    saved = http.post(f"/api/games/{view['id']}/save", json={"name": "night"})
    assert saved.status_code == 200 and saved.json()["path"] == "saves/night.json"
    resumed = http.post("/api/games", json={"resume": "night"})
    assert resumed.status_code == 201, resumed.text
    again = resumed.json()
    assert again["hand"] == view["hand"] and again["narration"] == view["narration"]
    assert str(server.mods) not in resumed.text


@pytest.mark.parametrize("method, path, payload", [
    ("POST", "/api/games", {"scenario": "mods:" + "a" * 5000 + ".yaml"}),
    ("POST", "/api/check", {"path": "b" * 300 + ".yaml", "text": "title: x"}),
    ("GET", "/api/files/" + "c" * 300 + ".power", None),
    ("PUT", "/api/files/" + "d/" * 600 + "e.power", {"text": "power E {}\n"}),
    ("POST", "/api/simulate", {"scenario": "woodstock-fever/1", "games": 1, "bots": "x" * 3000}),
])
def test_names_too_long_for_the_system_are_a_short_400(http, method, path, payload):
    response = http.request(method, path, json=payload)
    assert len(refused(response, 400)) <= 500


SPINNING = """\
power Mutants {
  for faction Mutants
  on win {
    gain sum(sum(sum(sum(1 for d in numbers(1, 50)) for c in numbers(1, 50)) for b in numbers(1, 50)) for a in numbers(1, 50))
  }
}
"""


@pytest.mark.slow
def test_a_power_that_would_spin_is_stopped_by_its_budget_and_the_server_answers(fresh):
    """A checked power whose work has no practical end (6,250,000 steps) stops at the step budget (R001): the
    request gets a 4xx naming the power, and the server is idle again at once."""
    (fresh.mods / "mutants.power").write_text(SPINNING, encoding="utf-8")
    (fresh.mods / "mutants.yaml").write_text("box: american-dream\nfactions: [Mutants, Bikers, Nurses]\n"
                                              "custom_factions:\n  - name: Mutants\n    power: mutants.power\n",
                                              encoding="utf-8")
    with httpx.Client(base_url=fresh.url, timeout=60) as client:
        view = client.post("/api/games", json={"scenario": "mods:mutants.yaml", "players": 3, "seed": 2}).json()
        stopped = None
        for _ in range(200):
            if "error" in view:
                stopped = view
                break
            if view["over"]:
                break
            response = client.post(f"/api/games/{view['id']}/answer",
                                   json={"index": view["decision"]["options"][0]["index"]})
            view = response.json()
            if response.status_code >= 400:
                assert 400 <= response.status_code < 500, response.text[:300]
                stopped = view
                break
    assert stopped is not None, "no trick of the Mutants was won in the game"
    assert "R001" in json.dumps(stopped) and "Mutants" in stopped["error"]
    _settles(fresh, within=4.0, quiet=1.0)
