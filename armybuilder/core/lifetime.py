"""Worker processes end with the process that started them.

``meta``, ``playtest`` and a large ``validate`` play or check on worker processes.  When
the command is killed (``kill -9``, an out-of-memory kill, a closed terminal's SIGHUP to
the parent alone), nothing tells the workers: they went on playing their tasks for
minutes, then waited on a pipe nobody reads.  Each worker therefore calls
:func:`end_with_parent` first: on Linux the kernel sends it SIGKILL when its parent dies
(``PR_SET_PDEATHSIG``); elsewhere a daemon thread notices the parent is gone (its parent
process id changes) within a second and ends the worker.
"""

from __future__ import annotations

import os
import sys
import threading
import time

#: prctl's option that asks for a signal when the parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _death_signal() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies; True if it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int, every: float) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def end_with_parent(parent: int) -> None:
    """End this worker process when ``parent`` (the pid of the process that started it) ends.

    The pool's initializer: pass ``os.getpid()`` of the parent in its arguments."""
    if _death_signal():
        if os.getppid() != parent:  # it died before the request was made
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent, 1.0), name="end-with-parent", daemon=True).start()


__all__ = ["end_with_parent"]
