"""The list files a user names: files, folders and globs, expanded the same way everywhere.

The command line, the meta matrix and the TUI's meta screen all take "these lists"; they share
this one expansion so a folder means the same set of files to each (and the TUI need not import
the command-line module, which would pull every system in behind the protocol's back).
"""

from __future__ import annotations

import glob
from collections.abc import Iterator, Sequence
from pathlib import Path


def expand_paths(items: Sequence[str]) -> Iterator[Path]:
    """Files, folders (their *.yaml / *.yml, recursively, hidden parts skipped) and globs, in a
    stable order; a glob matching nothing yields itself so the caller reports "no such file"."""
    for item in items:
        p = Path(item)
        if p.is_dir():
            found = sorted({*p.rglob("*.yaml"), *p.rglob("*.yml")})
            yield from (f for f in found if not any(part.startswith(".") for part in f.relative_to(p).parts))
        elif not p.exists() and glob.has_magic(item):
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                yield p
            yield from (Path(m) for m in matches)
        else:
            yield p
