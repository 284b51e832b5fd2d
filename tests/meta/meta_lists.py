"""Lists the meta tests share: the bundled Rag'Narok 2 samples copied into a folder.

Imported by basename (``from meta_lists import ...``); no other test module uses the name.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from armybuilder.core.catalog import catalog_root


def sample_folder(target: Path, system: str = "ragnarok2") -> Path:
    """Copy every bundled sample of *system* into *target* (created) and return it."""
    target.mkdir(parents=True, exist_ok=True)
    for file in sorted((Path(str(catalog_root())) / system / "samples").glob("*.yaml")):
        shutil.copy(file, target / file.name)
    return target


def cells(matrix) -> dict:
    """The matrix as plain numbers, keyed by both files' names: what 'the same matrix' means."""
    return {
        (Path(matrix.rows[i].path).name, Path(matrix.cols[j].path).name): (t.wins, t.draws, t.losses)
        for (i, j), t in matrix.cells.items()
    }
