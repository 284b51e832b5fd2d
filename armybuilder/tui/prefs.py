"""The editor's remembered choices (playtest settings, export folder), kept between runs.

A small JSON file in the user data folder (beside the recent lists).  Reading never
fails — a missing or damaged file means "no preferences yet" — and writing is
best-effort: a preference that cannot be saved must never stop the editor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from armybuilder.core.atomic import atomic_write_text

from . import workspace
from .storage import data_dir

FILE = "preferences.json"


def _file(root: Path | None) -> Path:
    return (Path(root) if root is not None else data_dir()) / FILE


def load(root: Path | None = None) -> dict[str, Any]:
    """Every remembered preference ({} when none or unreadable)."""
    try:
        value = json.loads(_file(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def get(key: str, default: Any = None, root: Path | None = None) -> Any:
    return load(root).get(key, default)


def put(key: str, value: Any, root: Path | None = None) -> None:
    """Remember ``key`` (best-effort)."""
    values = load(root)
    values[key] = value
    target = _file(root)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, json.dumps(values, indent=1, ensure_ascii=False))
    except Exception:  # noqa: BLE001 - a preference is never worth an error
        pass


def program_folder() -> Path:
    """The folder the program runs from (its source checkout): never a place for the user's files."""
    return Path(__file__).resolve().parents[2]


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder)
    except ValueError:
        return False
    return True


def lists_dir(root: Path | None = None) -> Path:
    """Where a new list or a saved copy of a sample goes when the player names no folder.

    The folder last saved into; else the current folder, unless that is the program's
    own folder (``./scripts/run`` starts there); then the user's documents folder
    (platformdirs), ``armybuilder`` inside it.
    """
    remembered = get("lists_dir", None, root)
    confined = workspace.active()
    if confined is not None:  # a served session: the folder last saved into if inside, else its root
        return Path(remembered) if isinstance(remembered, str) and workspace.allowed(remembered) and Path(remembered).is_dir() else confined
    if isinstance(remembered, str) and Path(remembered).is_dir():
        return Path(remembered)
    cwd = Path.cwd()
    if not _inside(cwd, program_folder()):
        return cwd
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "armybuilder"


def export_dir(default: Path, root: Path | None = None) -> Path:
    """Where exports go: the folder chosen last time, else ``default`` (``exports/``)."""
    remembered = get("export_dir", None, root)
    if isinstance(remembered, str) and remembered and workspace.allowed(remembered):
        return Path(remembered)
    return default.resolve() if not default.is_absolute() else default
