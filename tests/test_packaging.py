"""Every package folder is listed in pyproject.toml (packages are explicit on purpose)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "armybuilder").rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to pyproject.toml"
    assert "armybuilder.catalog" in listed
