"""Every bundled Rag'Narok 2 sample list is a legal 1000 A.P. army of the shipped catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.core.findings import Severity, is_legal
from armybuilder.core.lists import load_list

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples"
SAMPLE_FILES = sorted(SAMPLES.glob("*.yaml"))


def _check(path: Path):
    lf = load_list(path)
    cat = lf.system.catalogue_for(lf.army)
    return lf, cat, lf.system.findings(lf.army, cat), lf.system.points(lf.army, cat)


def test_three_peoples_at_least_and_the_readme_sample():
    assert (SAMPLES / "alahan-lions.yaml").is_file()  # the README's main command opens it
    peoples = {load_list(p).army.people for p in SAMPLE_FILES}
    assert len(SAMPLE_FILES) >= 3 and len(peoples) >= 3


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_is_a_legal_1000_ap_army(path):
    lf, cat, findings, points = _check(path)
    assert lf.army.system == "ragnarok2" and lf.army.format == "1000-ap"
    problems = [
        f"{f.rule}: {f.message}"
        for f in findings
        if f.severity in (Severity.ERROR, Severity.WARNING)
    ]
    assert problems == []
    assert is_legal(findings)
    assert points.limit == 1000 and 900 <= points.total <= 1000
    assert all(cat.get("profiles", u.troops.profile) for u in lf.army.units if u.troops)


def test_a_broken_sample_is_caught(tmp_path):
    """The check above can fail: one more Knight of the Lion breaks the limit."""
    text = (SAMPLES / "alahan-lions.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "too-many-knights.yaml"
    broken.write_text(
        text.replace(
            "alahan-mounted-knight-of-the-lion, count: 3",
            "alahan-mounted-knight-of-the-lion, count: 4",
        )
    )
    _, _, findings, points = _check(broken)
    assert points.total > 1000
    assert not is_legal(findings)
    assert any(f.rule == "ragnarok2.points.limit" for f in findings)
