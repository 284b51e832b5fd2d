"""The file dialog's browsable tree: the current folder, or the workspace of a served session.

In a workspace (:mod:`armybuilder.tui.workspace`) the tree starts at its root and leaves
out the editor's state folder, hidden files and links that lead out of it, so what it
offers is what :func:`~armybuilder.tui.workspace.confine` accepts.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.widgets import DirectoryTree

from .. import workspace


class WorkspaceTree(DirectoryTree):
    """A directory tree that shows only what the workspace allows, from its top: the
    workspace folder itself is not shown (its name is the server's business)."""

    def __init__(self, path: Path, **options) -> None:
        super().__init__(path, **options)
        self.show_root = False

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and workspace.allowed(p)]


def file_tree(**options) -> DirectoryTree:
    root = workspace.active()
    if root is None:
        return DirectoryTree(Path.cwd(), **options)
    return WorkspaceTree(root, **options)
