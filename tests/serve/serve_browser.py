"""Helpers of the browser tests: a running ``armybuilder serve`` and a Chromium tab reading it.

The page draws the terminal on a canvas, so its text is not in the DOM. What the tab shows
is read from what it received: every websocket frame the browser got is fed to a terminal
emulator (pyte) of the size the page asked for, which then holds the screen the tab draws.
Clicks go to the cell of a text on that screen, at the page's own cell size.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

CHROMIUM = os.environ.get("ARMYBUILDER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 90.0  # seconds: a session starts a Python process, slow on a loaded 2-core machine


def browser_missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python driver playwright is not installed (pip install -e '.[test]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        found = shutil.which("chromium")
        if found is None:
            return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)"
    return None


def chromium_path() -> str:
    return CHROMIUM if os.path.isfile(CHROMIUM) else (shutil.which("chromium") or CHROMIUM)


@dataclass
class Served:
    """A running ``armybuilder serve``; a thread reads what it prints (a read never blocks a test)."""

    process: subprocess.Popen
    address: str  # the printed address, token included
    base: str  # scheme, host and port
    token: str
    workspaces: Path
    printed: list[str]
    reader: threading.Thread

    def stop(self) -> str:
        """Stop it as ctrl+c does (killed if it has not left within 30 s); everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.reader.join(10)
        return "".join(self.printed)


def start_serve(workspaces: Path, *extra: str, env: dict[str, str] | None = None) -> Served:
    """``armybuilder serve --port 0`` on the loopback; waits (at most :data:`WAIT` seconds) for
    the address it prints. A server that prints none in time is killed."""
    command = [sys.executable, "-m", "armybuilder", "serve", "--port", "0", "--workspaces", str(workspaces), *extra]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stdout is not None
    printed: list[str] = []
    lines: queue.Queue[str | None] = queue.Queue()

    def read(stream=process.stdout) -> None:
        for line in stream:
            printed.append(line)
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, name="armybuilder-serve-output", daemon=True)
    reader.start()
    deadline = time.monotonic() + WAIT
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            break
        found = re.search(r"open\s+(http://\S+)", line)
        if found:
            address = found.group(1)
            parts = urlsplit(address)
            token = parse_qs(parts.query)["token"][0]
            return Served(process, address, f"{parts.scheme}://{parts.netloc}", token, workspaces, printed, reader)
    process.kill()
    process.wait(10)
    reader.join(10)
    raise AssertionError(f"armybuilder serve printed no address within {WAIT:g} s:\n" + "".join(printed))


class Tab:
    """One Chromium tab on the served editor, with the screen it shows (as text)."""

    def __init__(self, page) -> None:
        import pyte

        self.page = page
        self._pyte = pyte
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.closed = False
        self.sent_resize: tuple[int, int] | None = None
        page.on("websocket", self._on_websocket)

    def _on_websocket(self, websocket) -> None:
        if not websocket.url.split("?")[0].endswith("/ws"):
            return
        query = parse_qs(urlsplit(websocket.url).query)
        columns, rows = int(query.get("width", ["80"])[0]), int(query.get("height", ["24"])[0])
        self.screen = self._pyte.Screen(columns, rows)
        self.stream = self._pyte.ByteStream(self.screen)
        websocket.on("framereceived", self._received)
        websocket.on("framesent", self._sent)
        websocket.on("close", lambda *_: setattr(self, "closed", True))

    def _received(self, payload) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)

    def _sent(self, payload) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.sent_resize = (size["width"], size["height"])
            self.screen.resize(size["height"], size["width"])

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, pattern: str, timeout: float = WAIT) -> re.Match:
        """Wait until the screen shows ``pattern`` (a regular expression)."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text())
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"the tab never showed {pattern!r}; it shows:\n{self.text()}")
            self.page.wait_for_timeout(100)

    def wait_until(self, check, what: str, timeout: float = WAIT):
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"never {what}; the tab shows:\n{self.text()}")
            self.page.wait_for_timeout(100)

    def where(self, text: str) -> tuple[int, int]:
        """(row, column) of the first cell of ``text`` on the screen."""
        from wcwidth import wcwidth

        for row in range(self.screen.lines):
            line = self.screen.buffer[row]
            chars: list[str] = []
            columns: list[int] = []
            stub = False
            for x in range(self.screen.columns):
                if stub:  # the second cell of a wide character
                    stub = False
                    continue
                char = line[x].data
                stub = bool(char) and wcwidth(char[0]) == 2
                chars.append(char[:1] or " ")
                columns.append(x)
            found = "".join(chars).find(text)
            if found >= 0:
                return row, columns[found]
        raise AssertionError(f"{text!r} is not on the screen:\n{self.text()}")

    def wait_gone(self, pattern: str, timeout: float = WAIT) -> None:
        self.wait_until(lambda: not re.search(pattern, self.text()), f"lost {pattern!r}", timeout)

    def click(self, text: str) -> None:
        """Click the middle of ``text`` where the tab draws it (once it does)."""
        self.wait_for(re.escape(text))
        row, column = self.where(text)
        box = self.page.locator(".xterm-screen").bounding_box()
        assert box is not None
        width = box["width"] / self.screen.columns
        height = box["height"] / self.screen.lines
        self.page.mouse.click(box["x"] + (column + len(text) / 2) * width, box["y"] + (row + 0.5) * height)

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(50)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text, delay=20)
