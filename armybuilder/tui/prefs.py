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
