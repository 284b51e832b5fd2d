"""Labels of a field's lists: distinct, and short enough for a heat map's rows.

A club's folder often holds many versions of one list (``akkylannie-griffin-crusade-v07``,
``-v08``...): a label cut at a fixed length would make them all the same.  Labels
here are the file's stem (with its folder when two stems are equal), and the
short label keeps the head and the tail that tells a list from its neighbours
(``akkylannie-griff…-v07``).  Every label of a field is distinct; a numbered
suffix settles what nothing else does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import PurePath

ELLIPSIS = "…"
#: characters of a short label (the heat map's row labels)
SHORT = 28
_SEPARATOR = re.compile(r"[-_. ]")


def _printable(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable())


def distinct(labels: Sequence[str]) -> list[str]:
    """*labels* with a `` (2)``, `` (3)``... after the second and later copies of a label."""
    seen: Counter[str] = Counter()
    taken = set(labels)
    out = []
    for label in labels:
        seen[label] += 1
        if seen[label] == 1:
            out.append(label)
            continue
        n = seen[label]
        while f"{label} ({n})" in taken:
            n += 1
        taken.add(f"{label} ({n})")
        out.append(f"{label} ({n})")
    return out


def path_labels(paths: Sequence[str]) -> list[str]:
    """A label per file: its stem, with as many parent folders as it takes to tell equal stems apart."""
    parts = [PurePath(p).with_suffix("").parts or (p,) for p in paths]
    depth = [1] * len(paths)
    for _ in range(max((len(x) for x in parts), default=1)):
        labels = ["/".join(x[-d:]) for x, d in zip(parts, depth, strict=True)]
        counts = Counter(labels)
        clash = [k for k, label in enumerate(labels) if counts[label] > 1 and depth[k] < len(parts[k])]
        if not clash:
            break
        for k in clash:
            depth[k] += 1
    return distinct([_printable("/".join(x[-d:])) for x, d in zip(parts, depth, strict=True)])


def _tails(label: str, limit: int) -> list[str]:
    """Endings to keep after the ellipsis, shortest first: whole words, then characters."""
    room = limit - 4  # at least three characters of the head and the ellipsis
    words = [m.start() for m in _SEPARATOR.finditer(label)]
    out = [label[at:] for at in reversed(words) if 0 < len(label) - at <= room]
    out += [label[-n:] for n in range(1, room + 1) if label[-n:] not in out]
    return out


def _cut(label: str, tail: str, limit: int) -> str:
    return label[: limit - 1 - len(tail)].rstrip("-_. ") + ELLIPSIS + tail


def short_labels(labels: Sequence[str], limit: int = SHORT) -> list[str]:
    """Distinct labels of at most *limit* characters (plus a numbered suffix in the rare case
    two long labels share both their head and every ending that fits)."""
    labels = [_printable(x) for x in labels]
    tails = {k: _tails(x, limit) for k, x in enumerate(labels) if len(x) > limit}
    level = dict.fromkeys(tails, -1)  # -1: the head alone
    out = list(labels)
    for _ in range(limit + 1):
        for k, step in level.items():
            out[k] = labels[k][: limit - 1] + ELLIPSIS if step < 0 else _cut(labels[k], tails[k][min(step, len(tails[k]) - 1)], limit)
        counts = Counter(out)
        clash = [k for k in level if counts[out[k]] > 1 and level[k] < len(tails[k]) - 1]
        if not clash:
            break
        for k in clash:
            level[k] += 1
    return distinct(out)
