"""The language server's messages, read from a byte stream that may be framed badly.

The protocol frames each message as headers (`Content-Length: N`), a blank line
and N bytes of JSON. pygls's own reader trusts every frame: a frame one byte
longer than its Content-Length, or an empty Content-Length, left it reading the
following messages as headers for ever, and `Content-Length: 99999999999999`
made it read until it died. This reader, used by `serve` instead:

- finds a `Content-Length` header anywhere in a line (bytes left over from a bad
  frame before it are dropped) and resynchronises on the next one after a header
  it cannot read, saying so in one log line;
- reads a header line of at most MAX_HEADER bytes;
- skips a message longer than MAX_MESSAGE without holding it (read and dropped
  in chunks), saying so; at the end of the stream it stops.

Log lines go to stderr, which editors show as the server's output.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import BinaryIO, Callable

MAX_MESSAGE = 8 * 1024 * 1024  # a message's bytes: a document is at most 1 MiB (a YAML file), escaped in JSON
MAX_HEADER = 8 * 1024  # a header line's bytes
_CHUNK = 1024 * 1024
_LENGTH = re.compile(rb"Content-Length:[ \t]*([0-9]*)[ \t]*\r?\n?$", re.IGNORECASE)


def log(message: str) -> None:
    print(f"happydayz lsp: {message}", file=sys.stderr, flush=True)


async def read_messages(stream: BinaryIO, handle: Callable[[bytes], None], stopped: Callable[[], bool]) -> None:
    """Hand each message's body to `handle`, in order, until the stream ends or `stopped()`."""
    loop = asyncio.get_running_loop()

    async def read(call, *args):
        return await loop.run_in_executor(None, call, *args)

    length: int | None = None
    while not stopped():
        line = await read(stream.readline, MAX_HEADER + 1)
        if not line:
            return
        if len(line) > MAX_HEADER:
            log(f"a header line longer than {MAX_HEADER} bytes: resynchronising on the next Content-Length")
            length = None
            while line and not line.endswith(b"\n"):  # the rest of that line, in bounded pieces
                line = await read(stream.readline, MAX_HEADER + 1)
            continue
        match = _LENGTH.search(line)
        if match is not None:
            digits = match.group(1)
            if match.start() > 0:
                log(f"{match.start()} byte(s) before a header were not part of any message: dropped")
            if not digits or len(digits) > 15:
                log(f"a Content-Length header without a length ({_shown(line)}): resynchronising on the next one")
                length = None
            else:
                length = int(digits)
            continue
        if line.strip():
            continue  # another header (Content-Type), or bytes of a message that lost its frame
        if length is None:
            continue  # a blank line outside any message
        wanted, length = length, None
        if wanted > MAX_MESSAGE:
            log(f"a message of {wanted} bytes is larger than the limit of {MAX_MESSAGE} bytes: skipped")
            while wanted > 0:
                chunk = await read(stream.read, min(wanted, _CHUNK))
                if not chunk:
                    log("the stream ended inside a skipped message: closing")
                    return
                wanted -= len(chunk)
            continue
        body = await read(stream.read, wanted)
        if len(body) < wanted:
            log("the stream ended inside a message: closing")
            return
        handle(body)


def _shown(line: bytes) -> str:
    text = line.rstrip(b"\r\n").decode("utf-8", "replace")
    return repr(text if len(text) <= 80 else text[:80] + "…")


__all__ = ["MAX_MESSAGE", "MAX_HEADER", "read_messages", "log"]
