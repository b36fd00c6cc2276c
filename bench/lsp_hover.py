#!/usr/bin/env python3
"""How long the language server takes to answer a hover on a 256 KiB power file, idle and while edits pour in.

    python bench/lsp_hover.py            # a table
    python bench/lsp_hover.py --json     # the figures as JSON, on stdout
    python bench/lsp_hover.py --edits 5  # fewer edits before the last hover

It starts `happydayz lsp` as an editor does (over pipes), opens a power file of
256 KiB (a real power and comments up to the size limit), and measures in wall
seconds, from the request to its answer:

- `open_diagnostics_s`: the first diagnostics after opening it;
- `hover_idle_s`: a hover on the power's name, the server idle;
- `hover_after_edits_s`: a hover sent right after EDITS whole-document edits
  (the server debounces them and analyses the latest version only: before it
  did, 30 edits delayed this hover by 86 s);
- `diagnostics_after_edits_s`: the diagnostics of the last edit, from the hover.

Wall time, on a shared machine: the figures move with its load.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZE = 256 * 1024 - 64  # just below the power file limit


def big_power() -> str:
    text = (ROOT / "powers" / "hippies.power").read_text(encoding="utf-8")
    padding = "# a comment line that pads the file to the size limit of a power file\n"
    return text + padding * ((SIZE - len(text)) // len(padding))


class Session:
    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "happydayz", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, method: str, params: dict, request: bool = False) -> int | None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.process.stdin.flush()
        return message.get("id")

    def receive(self) -> dict:
        length = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed")
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            elif line in (b"\r\n", b"\n"):
                return json.loads(self.process.stdout.read(length))

    def wait_for(self, test) -> dict:
        while True:
            message = self.receive()
            if test(message):
                return message

    def close(self) -> None:
        self.send("shutdown", {}, request=True)
        self.send("exit", {})
        self.process.wait(timeout=30)


def measure(edits: int) -> dict:
    path = (ROOT / "powers" / "big-bench.power").resolve()  # never written: the text travels in the messages
    uri, text = path.as_uri(), big_power()
    session = Session()
    try:
        first = session.send("initialize", {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}}, True)
        session.wait_for(lambda m: m.get("id") == first)
        session.send("initialized", {})
        start = time.perf_counter()
        session.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "happydayz", "version": 1,
                                                               "text": text}})
        session.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        opened = time.perf_counter() - start
        at = text.index("\npower ") + 1  # the power's name, as a hover in an editor
        position = {"line": text.count("\n", 0, at), "character": len("power ") + 1}

        def hover() -> tuple[float, dict]:
            began = time.perf_counter()
            asked = session.send("textDocument/hover", {"textDocument": {"uri": uri}, "position": position}, True)
            answer = session.wait_for(lambda m: m.get("id") == asked)
            return time.perf_counter() - began, answer

        idle, answer = hover()
        if not answer.get("result"):
            raise RuntimeError(f"no hover at {position}: {answer}")
        for version in range(2, edits + 2):
            session.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                    "contentChanges": [{"text": text + "\n" * version}]})
        after, _ = hover()
        began = time.perf_counter()
        session.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"].get("version") == edits + 1)
        diagnosed = time.perf_counter() - began
    finally:
        session.close()
    return {"file_bytes": len(text.encode("utf-8")), "edits": edits, "open_diagnostics_s": round(opened, 3),
            "hover_idle_s": round(idle, 3), "hover_after_edits_s": round(after, 3),
            "diagnostics_after_edits_s": round(diagnosed, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--edits", type=int, default=30, help="edits before the last hover (default 30)")
    args = parser.parse_args(argv)
    result = measure(args.edits)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
