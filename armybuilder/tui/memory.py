"""Python's cyclic garbage collector while the editor starts (see :mod:`armybuilder.tui`).

Importing Textual and the catalogue and building the first screen create some 130,000
long-lived objects, and the collections they set off walked that growing heap again and
again (about a tenth of the start-up's CPU): :func:`pause_collector` turns the collector off
before Textual loads, :func:`settle_memory` freezes what exists once the editor has drawn its
list and turns it back on (:func:`resume_collector` when another screen comes first).
Standard library only, so the pause begins before Textual loads.
"""

from __future__ import annotations

import gc

_paused = False  # the collector was turned off by pause_collector, not by someone else
_settled = False


def pause_collector() -> None:
    """Turn the cyclic collector off until :func:`settle_memory` (start-up only)."""
    global _paused
    if gc.isenabled() and not _settled:
        gc.disable()
        _paused = True


def settle_memory() -> None:
    """Move what exists once a screen is drawn (modules, catalogue, widgets) out of the
    garbage collector's view, and end the start-up pause.

    Textual allocates many short-lived objects per key; each full collection then
    walked every long-lived object too (60-100 ms on a 2-core machine, a visible
    stall every few keys). Frozen objects are never freed, which suits what lives as
    long as the program; later garbage is collected as usual. The little cyclic garbage
    of the start (a few thousand objects) is frozen with it rather than paying a full
    collection (~50 ms) just after the first paint. Done once per process: lists opened
    later would otherwise freeze the garbage of those closed before.
    """
    global _settled
    if not _settled:
        _settled = True
        gc.freeze()
    resume_collector()


def resume_collector() -> None:
    """End the start-up pause without freezing (a screen other than the editor is up:
    the home screen, a recovery question; the editor's list freezes when drawn)."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
