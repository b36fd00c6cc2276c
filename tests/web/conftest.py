"""The web table's tests run against the real server (`happydayz serve` in a subprocess on 127.0.0.1) and,
for the pages, a real Chromium driven by Playwright: the system's browser, never a downloaded one."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a test that takes more than a few seconds (a browser plays a game)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`happydayz serve` on a free port of 127.0.0.1 (`extra`: more of its options), started and ready."""

    def __init__(self, mods: Path, extra: tuple[str, ...] = ()) -> None:
        self.mods = mods
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(mods.parent / f"serve-{self.port}.log", "w+", encoding="utf-8")
        self.process = subprocess.Popen([sys.executable, "-m", "happydayz", "serve", "--port", str(self.port),
                                         "--mods", str(mods), *extra], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                raise RuntimeError(f"happydayz serve did not start: {self.log.read()[-2000:]}")
            time.sleep(0.2)

    def cpu_seconds(self) -> float:
        """The processor time the server has used so far (user and system), from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_memory_mb(self) -> float:
        """The most resident memory the server has held (VmHWM), in MiB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmHWM in /proc/PID/status")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """`happydayz serve` on a free port of 127.0.0.1, with an empty mods folder."""
    root = tmp_path_factory.mktemp("serve")
    mods = root / "mods"
    mods.mkdir()
    running = Server(mods)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium: install the Debian package 'chromium' (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright
    user_data = Path(os.environ.get("TMPDIR", "/tmp")) / f"happydayz-chromium-{os.getpid()}"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(user_data), executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS,
            viewport={"width": 1400, "height": 1000})
        yield context
        context.close()
    shutil.rmtree(user_data, ignore_errors=True)


@pytest.fixture
def page(browser):
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: problems.append(f"a request leaves the machine: {request.url}")
            if not request.url.startswith(("http://127.0.0.1", "data:", "about:")) else None)
    yield page
    page.close()
    assert not problems, problems


def new_power_file(page, server, path: str) -> None:
    """In the playground: create the power file `path` of the mods folder and open it in the editor."""
    page.goto(server.url + "/playground")
    page.wait_for_selector("#bundled option", state="attached")
    page.fill("#new-path", path)
    page.click("#create")
    page.wait_for_function("() => !document.getElementById('editor').disabled")
