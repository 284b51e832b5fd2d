"""The editor processes behind the browser tabs: started, counted, closed when idle, stopped.

textual-serve's :class:`~textual_serve.app_service.AppService` runs one app process per
websocket and relays the terminal stream, downloads and resizes. Here each process is the
served editor (:mod:`armybuilder.tui.served`) started without a shell, in the tab's
workspace folder and in a process group of its own, so that stopping a session also ends
the worker processes a playtest or a meta run started.

Stopping asks politely first: SIGTERM makes the editor write every unsaved list to its
recovery copy and leave (the home screen offers the copies next time); a process that has
not left after a few seconds is killed with its group.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from armybuilder.tui.workspace import WORKSPACE_ENV

GRACE_SECONDS = 5.0  # time to write the recovery copies before the process is killed
START_SECONDS = 180.0
"""How long an editor may take to draw its first screen (imports on a busy host) before it
counts as broken and is stopped; the idle clock starts only once it has drawn."""


_running: contextvars.ContextVar[EditorProcess | None] = contextvars.ContextVar("armybuilder_editor", default=None)
"""The editor whose output the current task relays (set in :meth:`EditorProcess.run`)."""


class _NoFalseAlarm(logging.Filter):
    """textual-serve logs "Application failed to start" whenever an editor's output ends before
    its first screen. A tab closed (or reloaded) while its editor was still starting ends it so
    too; that is no failure, and the server's terminal does not say it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        editor = _running.get()
        return not (editor is not None and editor.stopping and record.getMessage() == "Application failed to start")


logging.getLogger("textual-serve").addFilter(_NoFalseAlarm())


class EditorProcess(AppService):
    """One browser tab's editor, confined to ``workspace``."""

    def __init__(
        self,
        workspace: Path,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
    ) -> None:
        super().__init__(
            "armybuilder.tui.served",
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.workspace = workspace
        self.started = self.last_input = time.monotonic()
        self._drawn = False
        self.stopping = False  # the server is ending it (tab closed, idle, server stopping)
        self._stop_lock = asyncio.Lock()

    def touch(self) -> None:
        """The player did something (a key, a click, a resize): not idle."""
        self.last_input = time.monotonic()

    def idle_for(self) -> float:
        """Seconds without input; 0 while the editor is still loading (within
        :data:`START_SECONDS`), so a slow start on a busy host is never taken for idleness."""
        now = time.monotonic()
        if not self._drawn:
            waited = now - self.started
            return 0.0 if waited < START_SECONDS else waited
        return now - self.last_input

    async def on_data(self, payload: bytes) -> None:
        if not self._drawn:  # the idle clock starts once the editor is on screen, not while it loads
            self._drawn = True
            self.touch()
        await super().on_data(payload)

    async def run(self) -> None:
        _running.set(self)  # this task's own context: what _NoFalseAlarm looks at
        await super().run()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment[WORKSPACE_ENV] = str(self.workspace)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "armybuilder.tui.served",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            cwd=self.workspace,
            start_new_session=True,  # its own process group: stopping it ends its workers too
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def _signal_group(self, signum: int) -> None:
        process = self._process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signum)

    async def stop(self) -> None:
        """End the editor (its unsaved lists go to their recovery copies); idempotent."""
        async with self._stop_lock:
            task = self._task
            if task is None:
                return
            self.stopping = True
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
            self._signal_group(signal.SIGTERM)
            try:
                await asyncio.wait_for(asyncio.shield(task), GRACE_SECONDS)
            except TimeoutError:
                self._signal_group(signal.SIGKILL)
                await task
            self._signal_group(signal.SIGKILL)  # workers the editor left behind
            if self._process is not None:
                with contextlib.suppress(ProcessLookupError):
                    await self._process.wait()
            self._task = None


class Sessions:
    """The running editors: at most ``limit`` at once, each closed after ``idle`` seconds
    without input from its browser."""

    def __init__(self, limit: int, idle: float) -> None:
        self.limit = limit
        self.idle = idle
        self.live: set[EditorProcess] = set()

    def has_room(self) -> bool:
        return len(self.live) < self.limit

    def add(self, process: EditorProcess) -> None:
        self.live.add(process)

    def discard(self, process: EditorProcess) -> None:
        self.live.discard(process)

    async def close_when_idle(self, process: EditorProcess, close: Callable[[], Awaitable[object]]) -> None:
        """Watch one session; stop it and close its websocket once idle for too long."""
        step = max(0.5, min(self.idle / 4, 30.0))
        while process.running:
            await asyncio.sleep(step)
            if process.running and process.idle_for() >= self.idle:
                await process.stop()
                await close()
                return

    async def stop_all(self) -> None:
        await asyncio.gather(*(p.stop() for p in list(self.live)), return_exceptions=True)
