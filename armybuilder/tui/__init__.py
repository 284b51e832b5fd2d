"""The terminal editor: home screen, list editor and the engine screens, on Textual.

:func:`run` is what ``armybuilder`` and ``armybuilder edit LIST`` call. It keeps Python's
cyclic garbage collector off while the program starts: importing Textual and the
catalogue and building the first screen create some 130,000 long-lived objects, and the
collections they set off walked that growing heap again and again (about a tenth of the
start-up's CPU). Once the editor has drawn its list, ``memory.settle_memory`` freezes what
exists and turns the collector back on (``memory.resume_collector`` when another screen
comes first). Nothing here imports Textual, so the pause begins before it loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

def run(path: Path | None) -> int:
    """Open the editor on ``path`` (the home screen without one); the exit code."""
    from .memory import pause_collector, resume_collector

    pause_collector()
    try:
        from .app import run as run_app

        return run_app(path)
    finally:
        resume_collector()  # left before a screen was drawn (an unreadable list)
