"""``python -m armybuilder.core.prepare`` (run by scripts/_setup.sh after an install) leaves every
bundled catalogue version in the user's cache, so a first start reads it from there."""

from __future__ import annotations

import os
import subprocess
import sys

from armybuilder.core.registry import BUNDLED_SYSTEMS, get_system


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "armybuilder.core.prepare"], env=env, capture_output=True, text=True, timeout=300)


def test_every_bundled_catalogue_version_is_cached(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    env["ARMYBUILDER_CACHE_DIR"] = str(tmp_path / "cache")
    done = _run(env)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    names = [p.name for p in (tmp_path / "cache").iterdir()]
    for system_id in BUNDLED_SYSTEMS:
        for version in get_system(system_id).source.versions():
            prefix = f"{system_id}-{version.version}-"
            assert any(n.startswith(prefix) and "-fields" in n for n in names), (prefix, names)
            assert any(n.startswith(prefix) and "-fields" not in n for n in names), (prefix, names)


def test_with_the_cache_off_it_writes_nothing(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    env |= {"ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"), "ARMYBUILDER_NO_CACHE": "1"}
    done = _run(env)
    assert done.returncode == 0 and "cache is off" in done.stderr
    assert not (tmp_path / "cache").exists()
