"""The child process of the TUI start-up figure (``armybuilder bench``).

Kept apart from :mod:`armybuilder.tui.bench`, whose timing helpers (statistics,
temporary folders, subprocesses) a player's editor never loads: the figure times
what ``armybuilder edit LIST`` does, not the harness.
"""

from __future__ import annotations

import sys
from pathlib import Path


def probe(path: str) -> None:
    """Open the editor on ``path`` headless and exit once the list is drawn.

    As :func:`armybuilder.tui.run` does, the garbage collector pauses before anything loads.
    """
    from armybuilder.tui.memory import pause_collector

    pause_collector()
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file
    from armybuilder.tui.storage import Store

    store = Store()
    session = open_file(Path(path), store, remember=False)  # as armybuilder.tui.app.run opens it

    class Probe(ArmyBuilderApp):
        def editor_ready(self, editor) -> None:
            self.exit()

    app = Probe(session, store=store, offer_recovery=False)
    app.run(headless=True, size=(160, 48))


if __name__ == "__main__":
    probe(sys.argv[1])
