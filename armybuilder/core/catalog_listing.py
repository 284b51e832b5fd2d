"""``armybuilder catalog list`` without loading the game systems.

Listing the systems and their catalogue versions needs each system's name and the
versions its manifest and errata declare: a few hundred bytes.  Loading the systems
to learn them imported pydantic, every system's models and (through one of them)
numpy: ~0.3 s for a command that should answer at once.

So the listing of a system is kept in the authenticated cache
(:mod:`armybuilder.core.catalog_cache`), written by a process that did load the
system.  It is believed only while the files it was read from are unchanged: the
manifest, the errata and the source of the system's module are hashed again (a few
kilobytes, standard library only) and compared with the digest it was written
under.  Anything else (a system never listed, a changed file, a folder that is not
a plain directory, another armybuilder version) takes the slow path, which loads
the system and writes the listing again.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any

from armybuilder import __version__

from . import catalog_cache


def _digest(system_id: str, module: str, folder: Path) -> str | None:
    """A digest of what a listing is read from, or None when it cannot be computed."""
    digest = hashlib.sha256(f"{__version__}\0{system_id}\0{module}\0".encode())
    try:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        if not origin:
            return None
        digest.update(Path(origin).read_bytes())
        digest.update(b"\0manifest\0" + (folder / "catalogue.yaml").read_bytes())
        errata = folder / "errata"
        if errata.is_dir():
            for path in sorted(errata.rglob("*.yaml")):
                digest.update(f"\0{path.relative_to(errata)}\0".encode() + path.read_bytes())
    except (ImportError, ValueError, OSError):
        return None
    return digest.hexdigest()


def _name(system_id: str) -> str:
    return f"{system_id}-listing.json"


def cached_row(system_id: str, module: str) -> dict[str, Any] | None:
    """The listing row of a system from the cache, if it still describes its files."""
    cached = catalog_cache.read(_name(system_id))
    if not isinstance(cached, dict) or cached.get("module") != module or not isinstance(cached.get("folder"), str):
        return None
    row = cached.get("row")
    if not isinstance(row, dict) or cached.get("digest") != _digest(system_id, module, Path(cached["folder"])):
        return None
    return row


def remember_row(system_id: str, module: str, folder: object, row: dict[str, Any]) -> None:
    """Cache the row a loaded system gave (nothing when its folder is not a plain directory)."""
    if not isinstance(folder, Path):
        return
    digest = _digest(system_id, module, folder)
    if digest is not None:
        catalog_cache.write(_name(system_id), {"module": module, "folder": str(folder), "digest": digest, "row": row})


def catalogue_rows() -> list[dict[str, Any]]:
    """One row per registered system: id, name, latest version and every version.

    Systems are loaded only when their cached row is missing or out of date.
    """
    from .registry import KNOWN_SYSTEMS

    rows = []
    for system_id, module in list(KNOWN_SYSTEMS.items()):
        row = cached_row(system_id, module)
        if row is None:
            from .registry import get_system

            system = get_system(system_id)
            versions = system.source.versions()
            row = {"system": system.id, "name": system.name, "latest": versions[-1].version, "versions": [v.version for v in versions]}
            remember_row(system_id, module, system.source.folder, row)
        rows.append(row)
    return rows
