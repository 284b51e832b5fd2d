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


def test_wheel_carries_the_catalogue_and_runs_outside_the_checkout(tmp_path):
    """Build the wheel, unpack it elsewhere and run the CLI from another directory."""
    import os
    import subprocess
    import sys
    import zipfile

    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheel_dir), str(ROOT)],
        check=True,
        capture_output=True,
        # The pure-Python wheel: what is checked here is the packaging, and compiling the
        # engines would take minutes (the editable install of ./scripts/test compiles them).
        env={**os.environ, "ARMYBUILDER_NO_COMPILE": "1"},
    )
    (wheel,) = wheel_dir.glob("armybuilder-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "armybuilder/catalog/ragnarok2/catalogue.yaml" in names
    assert any(n.startswith("armybuilder/catalog/rattle-and-rend/") for n in names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    code = "import armybuilder.core.catalog as c, sys; print(c.catalog_root()); sys.exit(__import__('armybuilder.cli').cli.main(['catalog', 'list']))"
    out = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert str(site) in out.stdout.splitlines()[0]
    assert "ragnarok2" in out.stdout and "rattle-and-rend" in out.stdout
