"""The web server's rules one by one, in process: which Host and Origin values are served, what a WebSocket gets,
and when a game held by the server may be dropped."""

from __future__ import annotations

import asyncio

import pytest

from happydayz.web import app as web_app
from happydayz.web.guard import GuardMiddleware, HostRules, is_loopback, refusal


def scope(kind: str = "http", method: str = "GET", **headers: str) -> dict:
    return {"type": kind, "method": method,
            "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


RULES = HostRules.for_server("127.0.0.1", 8000, ("pi.local", "table.example:9000", "fe80::1"))


@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True), ("LocalHost:8000", True),
    ("pi.local:8000", True), ("table.example:9000", True), ("[fe80::1]:8000", True),
    ("127.0.0.1", False), ("localhost:8001", False), ("pi.local:9000", False), ("table.example:8000", False),
    ("evil.example:8000", False), ("127.0.0.1:8000.evil.example", False), ("", False),
])
def test_the_hosts_served(host, ok):
    assert RULES.host_ok(host) is ok
    assert RULES.origin_ok(f"http://{host}") is (ok and bool(host))
    assert not RULES.origin_ok(f"https://{host}")


def test_port_80_may_be_left_out_and_a_bound_address_is_its_own_name():
    rules = HostRules.for_server("192.168.1.20", 80)
    assert rules.host_ok("localhost") and rules.host_ok("localhost:80") and rules.host_ok("192.168.1.20")
    assert not HostRules.for_server("0.0.0.0", 8000).host_ok("0.0.0.0:8000")
    assert is_loopback("127.0.0.2") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")


@pytest.mark.parametrize("request_scope, status", [
    (scope(host="evil.example:8000"), 403),
    (scope(), 403),  # no Host at all
    (scope(host="localhost:8000", origin="null"), 403),
    (scope(host="localhost:8000", origin="http://localhost:8000"), None),
    (scope(method="POST", host="localhost:8000", sec_fetch_site="cross-site"), 403),
    (scope(method="POST", host="localhost:8000", sec_fetch_site="same-origin"), None),
    (scope(method="POST", host="localhost:8000"), None),  # a script: no Origin, no Sec-Fetch-Site, no body
    (scope(method="GET", host="localhost:8000", sec_fetch_site="cross-site"), None),  # a link followed: reads only
    (scope(method="POST", host="localhost:8000", content_length="12", content_type="text/plain"), 415),
    (scope(method="PUT", host="localhost:8000", transfer_encoding="chunked"), 415),
    (scope(method="POST", host="localhost:8000", content_length="12",
           content_type="application/json; charset=utf-8"), None),
    (scope("websocket", host="evil.example"), 403),
    (scope("websocket", host="localhost:8000", origin="http://evil.example"), 403),
    (scope("websocket", host="localhost:8000", sec_fetch_site="cross-site"), 403),
    (scope("websocket", host="localhost:8000", origin="http://localhost:8000"), None),
])
def test_what_is_refused(request_scope, status):
    found = refusal(request_scope, RULES)
    assert (found[0] if found else None) == status, found


def test_a_websocket_that_fails_the_rules_is_closed_before_the_application_sees_it():
    reached, sent = [], []

    async def application(scope, receive, send):
        reached.append(scope)

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "websocket.connect"}
    guard = GuardMiddleware(application, RULES)
    asyncio.run(guard(scope("websocket", host="localhost:8000", origin="http://evil.example"), receive, send))
    assert reached == [] and sent[0]["type"] == "websocket.close" and sent[0]["code"] == 1008
    asyncio.run(guard(scope("websocket", host="localhost:8000"), receive, send))
    assert len(reached) == 1


def test_a_game_is_dropped_only_when_abandoned_and_its_room_is_needed_or_expired(monkeypatch):
    monkeypatch.setattr(web_app, "MAX_GAMES_KEPT", 2)
    now = [0.0]
    games = web_app.Games(clock=lambda: now[0])
    first, second = games.add("first"), games.add("second")
    now[0] = web_app.ABANDONED_AFTER - 1
    with pytest.raises(web_app.BadRequest) as full:
        games.add("third")
    assert full.value.status == 429 and "2 games in play" in full.value.message
    games.get(first)  # asked about again: the second is now the one least recently asked about
    now[0] = web_app.ABANDONED_AFTER + 1
    third = games.add("third")
    assert games.get(first)[0] == "first" and games.get(third)[0] == "third"
    with pytest.raises(web_app.BadRequest):
        games.get(second)
    now[0] += web_app.EXPIRES_AFTER
    games.add("fourth")
    for key in (first, third):
        with pytest.raises(web_app.BadRequest):
            games.get(key)
