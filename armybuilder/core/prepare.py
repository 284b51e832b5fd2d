"""Prepare the bundled catalogues in the install's own cache, so that the editor's first start
reads them from there instead of parsing their YAML, whatever the user's cache holds.

    python -m armybuilder.core.prepare

``./scripts/run`` and ``./scripts/test`` run it once after installing (``scripts/_setup.sh``):
the first screen a new user sees then comes as fast as any later one. Every version of every
bundled system is resolved (a list may pin an older one) into a new folder, which then takes the
place of :func:`armybuilder.core.catalog_cache.prepared_folder` (so entries of catalogues since
changed do not pile up). When that folder cannot be written (an install the user does not own),
the versions go to the user's cache instead. A cache turned off (``ARMYBUILDER_NO_CACHE``)
leaves it nothing to do.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from . import catalog_cache
from .registry import BUNDLED_SYSTEMS, get_system


def prepare() -> int:
    """Resolve every version of every bundled system's catalogue into the cache being written;
    the number resolved."""
    done = 0
    for system_id in BUNDLED_SYSTEMS:
        source = get_system(system_id).source
        for version in source.versions():
            source.resolve(version.version)
            done += 1
    return done


def prepare_install(folder: Path) -> int:
    """Fill ``folder`` afresh with every bundled catalogue version; the number resolved.

    Written beside it first, then renamed into place; its files are made readable to every user
    (the key among them: it vouches for the files' integrity, not for who wrote them, which the
    folder's permissions decide as they do for the installed code). Raises OSError when the
    folder cannot be made."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    fresh = folder.with_name(f".{folder.name}.{os.getpid()}.new")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    try:
        with catalog_cache.preparing(fresh):
            count = prepare()
        if not (fresh / "cache-key").is_file():
            raise OSError(f"nothing could be written in {fresh}")
        for path in [fresh, *fresh.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
        if folder.exists():
            folder.rename(old)
        fresh.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
        return count
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def main() -> int:
    if catalog_cache.disabled() or catalog_cache.cache_folder() is None:
        print("armybuilder: no catalogue cache to prepare (the cache is off)", file=sys.stderr)
        return 0
    start = time.perf_counter()
    folder = catalog_cache.prepared_folder()
    where = "the user's cache"
    count = None
    if folder is not None:
        try:
            count = prepare_install(folder)
            where = str(folder)
        except OSError as exc:
            print(f"armybuilder: cannot prepare {folder} ({exc.strerror or exc}); using the user's cache", file=sys.stderr)
    if count is None:
        count = prepare()
    print(f"armybuilder: {count} bundled catalogue versions ready in {where} ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
