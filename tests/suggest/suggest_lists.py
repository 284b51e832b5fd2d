"""Lists with planted weaknesses, built from the bundled samples by editor edits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from armybuilder.core.lists import ListFile, load_list
from armybuilder.core.registry import get_system


def sample(system_id: str, name: str) -> Path:
    return Path(str(dict(get_system(system_id).source.samples())[f"{name}.yaml"]))


def planted(system_id: str, name: str, edits: list[tuple[str, str, dict[str, Any]]], folder: Path) -> Path:
    """The sample *name* with *edits* applied (the editor's), saved in *folder* with its comments."""
    lf = load_list(sample(system_id, name))
    cat = lf.system.catalogue_for(lf.army)
    army = lf.army
    for path, action, args in edits:
        army, _ = lf.system.apply(army, cat, path, action, args)
    target = folder / f"{name}-planted.yaml"
    ListFile(None, lf.doc, lf.system, army).save(target)
    return target
