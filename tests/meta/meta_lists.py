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


def variant_folder(target: Path, count: int, seed: int = 5, system: str = "ragnarok2") -> Path:
    """*count* legal variants of the bundled samples in *target*: troop counts moved by one or two
    (kept only if the list stays legal and is new), each file ``<sample>-vNN.yaml`` (many share a
    prefix), each with its own name and player: the folder an organiser gets from a club."""
    import random
    import re

    from armybuilder.meta.field import read_list

    rng = random.Random(seed)
    target.mkdir(parents=True, exist_ok=True)
    sources = [(f.stem, f.read_text(encoding="utf-8")) for f in sorted((Path(str(catalog_root())) / system / "samples").glob("*.yaml"))]
    seen: set[str] = set()
    made = tries = 0
    while made < count:
        tries += 1
        if tries > count * 50:
            raise RuntimeError(f"only {made} legal variants found")
        stem, text = sources[made % len(sources)]
        number = made // len(sources) + 1

        def nudge(m: re.Match[str]) -> str:
            return f"count: {max(1, int(m.group(1)) + rng.choice((-2, -1, 0, 0, 1)))}"

        body = re.sub(r"count: (\d+)", nudge, text)
        body = re.sub(r"^name: (.*)$", lambda m, number=number: f"name: {m.group(1)} v{number}", body, count=1, flags=re.M)
        body = body.replace("\nunits:", f"\nplayer: Player {made + 1:03d}\nunits:", 1)
        path = target / f"{stem}-v{number:02d}.yaml"
        path.write_text(body, encoding="utf-8")
        item = read_list(path)
        if not item.legal or item.fingerprint in seen:
            path.unlink()
            continue
        seen.add(item.fingerprint)
        made += 1
    return target
