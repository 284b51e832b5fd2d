"""The documentation: the docs site builds strictly, and no page or docstring tells history.

The site is built with MkDocs in strict mode (mkdocs.yml turns every link, anchor and
nav check into a warning, and strict turns a warning into a failure), so a broken link, a
missing page or a page left out of the nav fails here. The second half reads README.md,
docs/ and the package for the wording of a lab notebook (numbered rounds of work,
"before this change"): the docs say what is, git keeps what was.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(site)],
        capture_output=True, text=True, cwd=root,
    )


def test_the_docs_site_builds_strictly(tmp_path):
    out = _build(ROOT, tmp_path / "site")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "WARNING" not in out.stderr, out.stderr
    for page in ("index", "getting-started", "commands", "editor", "performance", "architecture"):
        assert (tmp_path / "site" / f"{page}.html").is_file(), page
    assert (tmp_path / "site" / "images" / "editor.svg").is_file()


def _copy_docs(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


BREAKAGES = {
    "a link to a page that does not exist": lambda docs: _append(docs / "commands.md", "\nSee [the lost page](lost.md).\n"),
    "a link to an anchor that does not exist": lambda docs: _append(docs / "commands.md", "\nSee [here](editor.md#no-such-heading).\n"),
    "a page left out of the nav": lambda docs: (docs / "orphan.md").write_text("# Orphan\n", encoding="utf-8"),
    "a missing picture": lambda docs: (docs / "images" / "editor.svg").unlink(),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_a_broken_docs_site_fails_the_strict_build(tmp_path, breakage):
    """The check above can fail: each of these breakages makes the strict build fail."""
    root = _copy_docs(tmp_path)
    BREAKAGES[breakage](root / "docs")
    out = _build(root, tmp_path / "site")
    assert out.returncode != 0, f"{breakage}: the strict build passed\n{out.stderr}"


#: Phrases of a lab notebook: numbered rounds or sessions of work, comparisons with the code
#: as it was. Game rounds ("this round", "the second round of Implacable combats") are rules
#: words and stay allowed.
HISTORY = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:session|speed\s+round)\b"
    r"|\b(?:this|the\s+last|the\s+previous|the\s+next)\s+session\b(?!'s)"
    r"|\bspeed\s+round\b|\bcheaper\s+round\b|\bkernel's\s+(?:\w+\s+)?round\b|\bAI's\s+(?:\w+\s+)?round\b"
    r"|\bbefore\s+this\s+change\b|\bmain\s+before\b|\bthe\s+code\s+before\s+it\b"
    r"|\bwhile\s+they\s+are\s+being\s+rebuilt\b|\bused\s+to\s+(?:give|say|be|take|cost|fail)\b",
    re.IGNORECASE,
)


def _documented_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted(p for p in (ROOT / "armybuilder").rglob("*.py") if "__pycache__" not in p.parts)
    return files


def test_no_history_prose_in_the_readme_the_docs_or_the_package():
    found = []
    for path in _documented_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = HISTORY.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}: {line.strip()}")
    assert not found, "say what is, not what was (git keeps history):\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text, history",
    [
        ("Re-measured after the AI's fourth speed round", True),
        ("the line player as it played before its cheaper round", True),
        ("Sixth session (2026-11-25): the engines are compiled", True),
        ("main before → this change: 998 M → 516 M", True),
        ("the engines while they are being rebuilt", True),
        ("the unit adds 3 to its Initiative tests this round", False),
        ("Implacable/2's second round is fought only after a loss", False),
        ("Write the unsaved state to this session's recovery copy", False),
        ("a tactic no unit can use is only a warning", False),
    ],
)
def test_the_history_check_tells_notebook_wording_from_rules_wording(text, history):
    assert bool(HISTORY.search(text)) is history
