"""The editor as a browser session runs it: ``python -m armybuilder.tui.served``.

``armybuilder serve`` starts this once per browser tab, in the tab's workspace folder
(named by :data:`~armybuilder.tui.workspace.WORKSPACE_ENV`), with Textual's web driver. It is
the terminal editor with three differences, all here or in :mod:`.workspace`:

* every path it opens or writes stays inside the workspace (:func:`.workspace.confine`);
* its recent lists, preferences and recovery copies live in the workspace's state folder;
* files reach the player's device as downloads (every export, and the list file itself),
  and a list file comes in through the page's upload form (``/upload`` on the server);
* it ends with the server: a server killed outright leaves no editor behind.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from functools import partial
from pathlib import Path

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from . import workspace
from .app import ArmyBuilderApp
from .storage import Store

UPLOAD_URL = "/upload"
"""The server's upload form (the page shows it over the terminal)."""


class ServedCommands(Provider):
    """The browser's own commands in the palette: download the list, upload a list."""

    def _commands(self):
        app = self.app
        if not isinstance(app, ServedApp):
            return []
        out = [("Upload a list file…", app.action_upload, "from your device into your workspace")]
        if app.editor is not None:
            out.insert(0, ("Download the list file", app.action_download_list, "ctrl+d: saves first if needed"))
        return out

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


class ServedApp(ArmyBuilderApp):
    """The editor in one browser tab, confined to its workspace."""

    COMMANDS = ArmyBuilderApp.COMMANDS | {ServedCommands}
    BINDINGS = [
        *ArmyBuilderApp.BINDINGS,
        Binding("ctrl+d", "download_list", "Download", tooltip="download the list file (saves it first if needed)"),
    ]
    uploads = True  # the home screen offers "Upload a list file…"

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "download_list":  # offered while a list is open
            return self.editor is not None
        return super().check_action(action, parameters)

    def action_upload(self) -> None:
        """Show the page's upload form; the file lands in the workspace's top folder."""
        self.open_url(UPLOAD_URL, new_tab=False)
        self.notify("choose the file in the form the page shows; then 'Open a file…' on the home screen", timeout=8)

    def action_download_list(self) -> None:
        editor = self.editor
        if editor is None:
            self.notify("open a list first: the list being edited is the one downloaded", severity="warning")
            return
        session = editor.session
        if session.path is not None and not session.dirty:
            self._deliver_list(session.path)
            return
        self.notify("saving the list first: the download is the file as saved")
        editor.action_save(then=partial(self._deliver_list_of, editor))

    def _deliver_list_of(self, editor) -> None:
        if editor.session.path is not None:
            self._deliver_list(editor.session.path)

    def _deliver_list(self, path: Path) -> None:
        self.deliver_binary(path, mime_type="application/yaml")
        self.notify(f"{path.name}: download started", markup=False)


ORPHAN_GRACE_SECONDS = 5.0
"""Time to write the recovery copies once the server is gone, before the session is killed."""


def _end_with_the_server(server: int) -> None:
    """A thread's loop: once the server that started this editor is gone (killed outright,
    or crashed, without stopping its sessions), end the session as the server would have:
    SIGTERM to the session's process group (the editor writes its recovery copies and
    leaves, playtest workers stop), then SIGKILL for whatever is still there."""
    while os.getppid() == server:
        time.sleep(1.0)
    group = os.getpgrp()
    leader = group == os.getpid()  # the server starts each session in a process group of its own
    for signum in (signal.SIGTERM, signal.SIGKILL):
        if leader:
            os.killpg(group, signum)
        else:
            os.kill(os.getpid(), signum)
        time.sleep(ORPHAN_GRACE_SECONDS)


def main() -> int:
    """Run the editor in the workspace the server named (the browser drives it)."""
    root = workspace.from_environment()
    if root is None:
        sys.stderr.write(f"armybuilder.tui.served: set {workspace.WORKSPACE_ENV} to the session's workspace folder\n")
        return 2
    threading.Thread(target=_end_with_the_server, args=(os.getppid(),), name="server-watch", daemon=True).start()
    store = Store(root / workspace.STATE_FOLDER)
    app = ServedApp(store=store, export_dir=root / "exports")
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
