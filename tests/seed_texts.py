"""Where the seeds (the specification's texts) and the reference data are, for the tests
that read them.

Beside the checkout (``/work/main`` → ``/work/shared/seeds``), or one level higher for a
worktree (``/work/wt/<branch>``); tests that need them skip when neither holds them.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CANDIDATES = (ROOT.parent / "shared", ROOT.parent.parent / "shared")
SHARED = next((p for p in _CANDIDATES if (p / "seeds").is_dir()), _CANDIDATES[0])
SEEDS = SHARED / "seeds"
REFERENCE_DATA = SHARED / "reference-data"


def seed_text(name: str) -> str:
    """The text of seed ``name`` ("ragnarok-faq.txt"), or "" when the seeds are absent."""
    path = SEEDS / name
    return path.read_text(encoding="utf-8") if path.is_file() else ""
