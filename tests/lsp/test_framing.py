"""The language server survives bad framing (lsp.framing). (Its debouncing: test_lsp_session.py.)

The framing test writes raw bytes to `happydayz lsp`: a frame one byte longer
than its Content-Length, an empty Content-Length, a message over the size limit
and a Content-Length of 99999999999999 at the end of the stream. The server
answers every good request after each of them, logs one line for each, and ends
without a traceback. (pygls's own reader never answered again after the first.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HUGE = 9 * 1024 * 1024  # over lsp.framing.MAX_MESSAGE (8 MiB)
HIPPIES = ROOT / "powers" / "hippies.power"

pytestmark = pytest.mark.slow  # each test starts a server


def frame(message: dict, extra: bytes = b"", length: int | None = None) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return f"Content-Length: {len(body) if length is None else length}\r\n\r\n".encode() + body + extra


def request(id_: int, method: str, params: dict | None = None) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}


def responses(output: bytes) -> list[dict]:
    out = []
    while output:
        head, _, rest = output.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        out.append(json.loads(rest[:length]))
        output = rest[length:]
    return out


def test_bad_frames_resynchronise_and_the_server_answers_the_next_request():
    initialize = {"processId": None, "rootUri": None, "capabilities": {}}
    body = json.dumps(request(1, "initialize", initialize)).encode()
    huge = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///tmp/huge.power", "languageId": "happydayz", "version": 1, "text": "x" * HUGE}}}
    stream = b"".join([
        frame(request(1, "initialize", initialize), length=len(body) - 1),  # one byte longer than it says
        frame(request(2, "initialize", initialize)),
        b"Content-Length: \r\n\r\n" + json.dumps(request(3, "shutdown")).encode(),  # an empty Content-Length
        frame(request(4, "textDocument/hover", {"textDocument": {"uri": HIPPIES.as_uri()},
                                                "position": {"line": 0, "character": 0}})),
        frame(huge),  # over the limit: skipped, not held
        frame(request(5, "shutdown")),
        b"Content-Length: 99999999999999\r\n\r\n{",  # and the stream ends
    ])
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "happydayz", "lsp"], input=stream, capture_output=True, timeout=120)
    answered = {r["id"] for r in responses(done.stdout) if "id" in r}
    assert {2, 4, 5} <= answered, (answered, done.stderr.decode()[-2000:])
    assert 1 not in answered and 3 not in answered
    log = done.stderr.decode()
    assert "Traceback" not in log, log[-3000:]
    assert "happydayz lsp: 1 byte(s) before a header were not part of any message: dropped" in log
    assert "happydayz lsp: a Content-Length header without a length ('Content-Length: '): resynchronising" in log
    assert (f"happydayz lsp: a message of {len(json.dumps(huge))} bytes is larger than the limit of 8388608 bytes: "
            "skipped") in log
    assert "happydayz lsp: the stream ended inside a skipped message: closing" in log
    assert time.monotonic() - start < 60
