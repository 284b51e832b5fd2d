"""Prepare the bundled catalogues in the user's cache, so that the editor's first start reads
them from the cache instead of parsing their YAML.

    python -m armybuilder.core.prepare

``./scripts/run`` and ``./scripts/test`` run it once after installing (``scripts/_setup.sh``):
the first screen a player sees then comes as fast as any later one. Every version of every
bundled system is resolved (a list may pin an older one); what is cached already costs a read.
It writes only to the cache folder (:func:`armybuilder.core.catalog_cache.cache_folder`), and a
cache turned off (``ARMYBUILDER_NO_CACHE``) leaves it nothing to do.
"""

from __future__ import annotations

import sys
import time

from .registry import BUNDLED_SYSTEMS, get_system


def prepare() -> int:
    """Resolve every version of every bundled system's catalogue; the number resolved."""
    done = 0
    for system_id in BUNDLED_SYSTEMS:
        source = get_system(system_id).source
        for version in source.versions():
            source.resolve(version.version)
            done += 1
    return done


def main() -> int:
    from . import catalog_cache

    if catalog_cache.disabled() or catalog_cache.cache_folder() is None:
        print("armybuilder: no catalogue cache to prepare (the cache is off)", file=sys.stderr)
        return 0
    start = time.perf_counter()
    count = prepare()
    print(f"armybuilder: {count} bundled catalogue versions ready in the cache ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
