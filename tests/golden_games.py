"""Golden narrated games: the text ``armybuilder playtest LIST --vs SAMPLE --games 1 --seed N
--log`` prints, committed under ``tests/golden/`` so a change of rules, policy or wording shows as
a diff a reader can check against the seed. Rewrite them deliberately with
``GOLDEN_WRITE=1 pytest tests/...golden...`` and say why in the commit."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from armybuilder.cli import main

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent


def narrated(capsys, args: list[str]) -> str:
    """What the playtest command prints for ``args`` (relative paths from the repository's root)."""
    capsys.readouterr()
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        assert main(["playtest", *args, "--games", "1", "--log"]) == 0
    finally:
        os.chdir(cwd)
    return capsys.readouterr().out


def assert_golden(text: str, name: str) -> None:
    """``text`` equals ``tests/golden/<name>``; on a difference the failure shows the unified
    diff (the committed game first)."""
    path = GOLDEN / name
    if os.environ.get("GOLDEN_WRITE"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), f"golden/{name}", "this run", n=2))
        raise AssertionError(f"the narrated game changed (GOLDEN_WRITE=1 rewrites it):\n{diff[:20000]}")
