"""The editor confined to one folder: the workspace of a browser session.

The terminal editor opens and writes wherever its player asks: it runs with the player's own
rights. Served to a browser (``armybuilder serve``), the same editor runs on the host for
someone at the other end of a network, who must reach their own folder and nothing else.
In that mode a workspace is *active*: every path the editor opens or writes (file dialogs,
the new-list form, saves, exports, the meta screen's folder, the fray's opponent file) goes
through :func:`confine`, which refuses what would leave the workspace root: ``..``, ``~``,
absolute paths elsewhere, symbolic links that lead out, and the editor's own state folder.

The recent lists, preferences and recovery copies of a served session live in that state
folder (:data:`STATE_FOLDER`) inside the workspace, so they stay there too.

Nothing is active in the terminal editor: every function here then hands the path back
unchanged, and the terminal editor behaves as it always does. This module imports no
Textual: the session code, kept free of it, calls :func:`confine` when it saves, and the web
server reads its names. The file dialog's tree is :mod:`.widgets.file_tree`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from armybuilder.core.errors import InputError

WORKSPACE_ENV = "ARMYBUILDER_WORKSPACE"
"""Set by the server for each session it starts: the workspace root of that session."""

STATE_FOLDER = ".armybuilder"
"""Inside a workspace: the editor's recent lists, preferences and recovery copies.

The file dialogs refuse it: what the editor trusts (the recent lists name files it opens)
is never something the player could write over."""

_root: Path | None = None


def activate(root: Path) -> Path:
    """Confine this process's editor to ``root`` (created if missing); its resolved path."""
    global _root
    folder = Path(root)
    folder.mkdir(parents=True, exist_ok=True)
    _root = folder.resolve()
    return _root


def deactivate() -> None:
    """Back to the terminal editor's behaviour (tests)."""
    global _root
    _root = None


def active() -> Path | None:
    """The workspace root the editor is confined to, or None (the terminal editor)."""
    return _root


def confine(path: str | Path) -> Path:
    """``path`` as the editor may use it: unchanged without a workspace; else resolved
    inside the workspace (a relative path is taken from its root), or InputError."""
    root = _root
    if root is None:
        return Path(path)
    raw = str(path)
    shown = raw or "(empty)"
    if raw.startswith("~"):
        raise InputError.at(f"{shown}: '~' is not available here; give a path inside your workspace")
    candidate = Path(raw)
    if ".." in candidate.parts:
        raise InputError.at(f"{shown}: '..' is not allowed; give a path inside your workspace")
    if not candidate.is_absolute():
        candidate = root / candidate
    try:
        resolved = candidate.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise InputError.at(f"{shown}: cannot be followed (a loop of links?)") from None
    if not resolved.is_relative_to(root):
        what = "leads out of your workspace (a link)" if candidate.is_relative_to(root) else "is outside your workspace"
        raise InputError.at(f"{shown}: {what}; only files inside it can be opened or written")
    inside = resolved.relative_to(root).parts
    if inside and inside[0] == STATE_FOLDER:
        raise InputError.at(f"{shown}: the editor's own files are not open to the dialogs")
    return resolved


def hide_root(text: str) -> str:
    """``text`` with the workspace root taken out of every path in it (``/srv/…/ab12/lists/x.yaml``
    becomes ``lists/x.yaml``), for messages that quote a path in full, such as a list's
    ``file:line:column`` errors; unchanged without a workspace."""
    root = _root
    if root is None:
        return text
    prefix = re.escape(str(root))
    text = re.sub(prefix + re.escape(os.sep), "", text)
    return re.sub(prefix + r"(?![\w.-])", ".", text)


def allowed(path: str | Path) -> bool:
    """Whether :func:`confine` accepts ``path`` (always, without a workspace)."""
    try:
        confine(path)
    except InputError:
        return False
    return True


def shown(path: str | Path) -> str:
    """How a path is shown to the player: relative to the workspace when inside one (the
    host's own folders are none of a browser user's business), else as given."""
    root = _root
    if root is None:
        return str(path)
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):
        return str(path)


def max_workers(limit: int) -> int:
    """The most worker processes a playtest or meta run may start: ``limit`` in the terminal;
    in a served session no more than the host has cores (several browsers share them)."""
    if _root is None:
        return limit
    return max(1, min(limit, os.cpu_count() or 1))


def from_environment() -> Path | None:
    """Activate the workspace named by :data:`WORKSPACE_ENV`, if set (the served editor)."""
    named = os.environ.get(WORKSPACE_ENV)
    return activate(Path(named)) if named else None
