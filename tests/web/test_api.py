"""The server's JSON API, over HTTP against the real server: bad requests get a 4xx and a JSON error (never a
traceback page), and no path outside the mods folder can be read or written."""

from __future__ import annotations

import os

import httpx
import pytest


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def error_of(response: httpx.Response, status: int | tuple[int, ...]) -> str:
    wanted = status if isinstance(status, tuple) else (status,)
    assert response.status_code in wanted, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")
    assert "Traceback" not in response.text and 'File "' not in response.text
    return response.json()["error"]


def test_the_pages_are_served_and_need_nothing_from_elsewhere(http):
    for path in ("/", "/playground"):
        page = http.get(path)
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert "http://" not in page.text and "https://" not in page.text  # no CDN, no web font
    # the playground offers every player count the table seats: 2 to MAX_PLAYERS, read from the one constant
    from happydayz.data.boxes import MAX_PLAYERS
    counts = http.get("/playground").text.split('id="sim-players">')[1].split("</select>")[0]
    assert counts == "<option value=\"\">scenario's</option>" + "".join(f"<option>{n}</option>"
                                                                   for n in range(2, MAX_PLAYERS + 1))
    assert MAX_PLAYERS == 7 and "<option>7</option>" in counts
    for asset in ("style.css", "common.js", "play.js", "playground.js"):
        text = http.get(f"/static/{asset}").text
        assert "http://" not in text and "https://" not in text


@pytest.mark.parametrize("method, path, body", [
    ("GET", "/api/no-such-thing", None),
    ("POST", "/api/no/such/thing", {}),
    ("GET", "/api/games/0123456789abcdef", None),
    ("POST", "/api/games/0123456789abcdef/answer", {"index": 0}),
    ("GET", "/api/files/missing.power", None),
    ("GET", "/api/explain/no_such_power", None),
    ("GET", "/nothing-here", None),
])
def test_unknown_things_are_404_json(http, method, path, body):
    assert error_of(http.request(method, path, json=body), 404)


@pytest.mark.parametrize("body, words", [
    ({"scenario": "no-such/scenario"}, "scenario"),
    ({"players": 9}, "players"),
    ({"players": "four"}, "players"),
    ({"seat": 7, "players": 3}, "seat"),
    ({"bots": ["random", "genius", "random", "random"]}, "genius"),
    ({"bots": [1, 2]}, "bots"),
    ({"express": "yes"}, "express"),
    ({"scenario": "mods:../../etc/passwd.yaml"}, "mods folder"),
    ({"resume": "../../etc/passwd"}, "save"),
    ({"resume": "never-saved"}, "never-saved"),
])
def test_bad_game_requests_are_4xx_json(http, body, words):
    assert words in error_of(http.post("/api/games", json=body), (400, 403, 404))


def test_malformed_bodies_are_400_json(http):
    assert "JSON" in error_of(http.post("/api/games", content=b"{not json",
                                        headers={"content-type": "application/json"}), 400)
    assert "object" in error_of(http.post("/api/games", json=[1, 2]), 400)
    game = http.post("/api/games", json={"scenario": "woodstock-fever/1", "players": 3, "seed": 1}).json()
    answer = f"/api/games/{game['id']}/answer"
    assert "option" in error_of(http.post(answer, json={"index": 999}), 400)
    assert "index" in error_of(http.post(answer, json={"index": "first"}), 400)
    assert "index" in error_of(http.post(answer, json={}), 400)
    assert error_of(http.post(f"/api/games/{game['id']}/takeback"), 400)  # nothing of mine to take back yet
    assert error_of(http.post(f"/api/games/{game['id']}/save", json={"name": "../escape"}), 400)


def test_a_game_over_http(http):
    game = http.post("/api/games", json={"scenario": "woodstock-fever/5", "players": 4, "seat": 2, "seed": 4,
                                         "bots": ["greedy", "random", "random", "greedy"], "express": True})
    assert game.status_code == 201
    view = game.json()
    assert view["seat"] == 2 and view["bots"][0] == "greedy" and view["decision"]["kind"] == "transfer"
    labels = [c["label"] for c in view["hand"]]
    assert len(labels) == 12
    while not view["over"]:
        option = view["decision"]["options"][0]
        view = http.post(f"/api/games/{view['id']}/answer", json={"index": option["index"]}).json()
        assert "error" not in view, view
    assert view["winners"] is not None and view["decision"] is None
    assert view["narration"][-1]["event"] == "game_over"
    assert {r["seat"] for r in view["breakdown"][-1]["rows"]} == {0, 1, 2, 3}


def check_outside(raw: httpx.Client, outside) -> None:
    for path in ("/api/files/..%2f..%2f..%2fetc%2fpasswd", "/api/files/%2fetc%2fpasswd",
                 f"/api/files/{str(outside).lstrip('/').replace('/', '%2f')}", "/api/files/link.power",
                 "/api/files/sub%2f..%2f..%2fsecret.power", "/static/..%2f..%2f..%2fetc%2fpasswd"):
        response = raw.get(path)
        assert response.status_code in (400, 403, 404), path
        assert "root:" not in response.text and "Secret" not in response.text


def test_no_path_outside_the_mods_folder(http, server, tmp_path):
    outside = tmp_path / "secret.power"
    outside.write_text("power Secret {}\n", encoding="utf-8")
    link = server.mods / "link.power"
    if not link.exists():
        os.symlink(outside, link)
    with httpx.Client(base_url=server.url, timeout=30) as raw:
        check_outside(raw, outside)
    for path in ("..%2fescaped.power", "%2ftmp%2fescaped.power", "link.power", "notes.txt", "x.py"):
        response = http.put(f"/api/files/{path}", json={"text": "power Escaped {}\n"})
        assert response.status_code in (400, 403), path
    assert not (server.mods.parent / "escaped.power").exists() and outside.read_text() == "power Secret {}\n"
    assert "link.power" not in [f["path"] for f in http.get("/api/files").json()["files"]]
    assert error_of(http.post("/api/check", json={"path": "../x.power", "text": ""}), 403)


def test_files_inside_the_mods_folder(http, server):
    written = http.put("/api/files/deep/er/glow.power", json={"text": "power Glow {\n  for faction Glow\n}\n"})
    assert written.status_code == 200 and (server.mods / "deep" / "er" / "glow.power").is_file()
    assert http.get("/api/files/deep/er/glow.power").json()["text"].startswith("power Glow")
    assert "deep/er/glow.power" in [f["path"] for f in http.get("/api/files").json()["files"]]
    checked = http.post("/api/check", json={"path": "deep/er/glow.power", "text": "power Glow {\n  for faction\n}\n"})
    diagnostics = checked.json()["diagnostics"]
    assert diagnostics and diagnostics[0]["file"] == "deep/er/glow.power" and diagnostics[0]["line"] >= 2


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")  # Starlette's test client
def test_an_unexpected_failure_is_a_json_500_without_a_traceback(tmp_path, monkeypatch):
    """The application in process, a view made to fail: the answer is JSON, the traceback stays in the log."""
    from starlette.testclient import TestClient

    from happydayz.table.session import TableSession
    from happydayz.web.app import create_app

    client = TestClient(create_app(tmp_path / "mods"), base_url="http://127.0.0.1:8000", raise_server_exceptions=False)
    game = client.post("/api/games", json={"scenario": "woodstock-fever/1", "players": 3}).json()

    def broken(self):
        raise RuntimeError("a bug in the view")
    monkeypatch.setattr(TableSession, "view", broken)
    response = client.get(f"/api/games/{game['id']}")
    assert "internal error" in error_of(response, 500)
    assert "a bug in the view" not in response.text
