"""Who may talk to the web server: the Host, Origin, Sec-Fetch-Site and Content-Type checks.

The server listens on this machine, but any page the person's browser opens can
send it requests. Three rules keep those pages out:

- **Host.** A page on another site can point its own name at 127.0.0.1 (DNS
  rebinding) and then read the answers as same-origin. The browser still sends
  that name as `Host`, so only the server's own names are served: 127.0.0.1,
  localhost and [::1] with the server's port, the address it is bound to, and
  the names given with `--allow-host`. Anything else is 403.
- **Origin.** A request that names an Origin must come from one of those same
  names over http; `Origin: null` (a sandboxed frame, a file) and any other
  origin are 403. A state-changing request (POST, PUT, PATCH, DELETE) without
  an Origin is accepted only when `Sec-Fetch-Site` is absent (a script, curl)
  or `same-origin`.
- **Content-Type.** A request with a body must send it as `application/json`:
  a cross-site HTML form can only send the form types and `text/plain`, which
  browsers do not preflight. (There are no exceptions today.)

A pure ASGI middleware, so that it also covers any WebSocket or server-sent
events endpoint added later: a WebSocket is closed (code 1008) by the same rules.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_TYPES = frozenset({"application/json"})


def _bracketed(host: str) -> str:
    """An IPv6 address as it stands in a Host header ([::1]); any other name as it is, lower-cased."""
    host = host.strip().lower()
    if ":" in host and not host.startswith("["):
        return f"[{host}]"
    return host


def is_loopback(host: str) -> bool:
    """Whether an address to listen on is this machine's only (127.0.0.0/8, ::1, localhost)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_unspecified
    except ValueError:
        return False


@dataclass(frozen=True)
class HostRules:
    """The `Host` values (name:port) the server answers, and so the origins (http://name:port) it trusts."""

    hosts: frozenset[str]

    @classmethod
    def for_server(cls, bind: str, port: int, allowed: tuple[str, ...] = ()) -> "HostRules":
        """The loopback names at `port`, the bound address itself (unless it is 0.0.0.0 or ::), and `allowed`.

        An allowed value with a port (`pi.local:8000`) is taken as it is; one without (`pi.local`) means that
        name at the server's port.
        """
        names = list(LOOPBACK_NAMES)
        if not _is_wildcard(bind):
            names.append(_bracketed(bind))
        hosts = {f"{name}:{port}" for name in names}
        if port == 80:  # a browser leaves the default port out of Host and Origin
            hosts.update(names)
        for value in allowed:
            value = value.strip().lower()
            if not value:
                continue
            has_port = value.rsplit(":", 1)[-1].isdigit() and (not value.startswith("[") or "]:" in value)
            if value.count(":") > 1 and not value.startswith("["):  # a bare IPv6 address
                value, has_port = _bracketed(value), False
            hosts.add(value if has_port else f"{value}:{port}")
            if not has_port and port == 80:
                hosts.add(value)
        return cls(frozenset(hosts))

    def host_ok(self, host: str | None) -> bool:
        return host is not None and host.strip().lower() in self.hosts

    def origin_ok(self, origin: str) -> bool:
        origin = origin.strip().lower()
        return origin.startswith("http://") and origin[len("http://"):] in self.hosts


def _headers(scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last of repeated ones; Host is never repeated by a browser)."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        found[name.decode("latin-1").lower()] = value.decode("latin-1")
    return found


def refusal(scope, rules: HostRules) -> tuple[int, str] | None:
    """(status, message) when the request is refused, None when it may go on."""
    headers = _headers(scope)
    if not rules.host_ok(headers.get("host")):
        return 403, ("this server answers only requests for its own address (Host "
                     f"{headers.get('host', '(none)')!r} is not one of them); to reach it by another name, "
                     "start it with --allow-host NAME")
    origin = headers.get("origin")
    method = scope.get("method", "GET").upper() if scope["type"] == "http" else "GET"
    if origin is not None:
        if not rules.origin_ok(origin):
            return 403, f"requests from pages of other sites are refused (Origin {origin[:100]!r})"
    elif method in STATE_CHANGING or scope["type"] == "websocket":
        site = headers.get("sec-fetch-site")
        if site is not None and site.strip().lower() != "same-origin":
            return 403, f"requests from pages of other sites are refused (Sec-Fetch-Site {site[:40]!r})"
    if scope["type"] == "http" and method in STATE_CHANGING and _has_body(headers):
        media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media not in JSON_TYPES:
            return 415, f"the request body must be application/json, not {media[:60] or 'untyped'!r}"
    return None


def _has_body(headers: dict[str, str]) -> bool:
    if "transfer-encoding" in headers:
        return True
    length = headers.get("content-length", "0").strip()
    return length != "0"


class GuardMiddleware:
    """Refuses what `refusal` refuses, before the application sees the request."""

    def __init__(self, app, rules: HostRules) -> None:
        self.app = app
        self.rules = rules

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, self.rules)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        payload = json.dumps({"error": message}).encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})


__all__ = ["GuardMiddleware", "HostRules", "refusal", "is_loopback", "LOOPBACK_NAMES"]
