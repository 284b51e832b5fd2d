"""``python -m armybuilder.core.prepare`` (run by scripts/_setup.sh after an install) leaves every
bundled catalogue version in the install's prepared cache, so a first start with an empty user
cache reads it from there instead of parsing YAML."""

from __future__ import annotations

import os
import subprocess
import sys

from armybuilder.core.registry import BUNDLED_SYSTEMS, get_system


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "armybuilder.core.prepare"], env=env, capture_output=True, text=True, timeout=300)


# A process that resolves a catalogue with the slow path (YAML parsed and validated) refused:
# what it resolves must come from a cache.
_RESOLVE_CACHED_ONLY = """
import sys
from armybuilder.core.catalog import CatalogueSource
from armybuilder.core.registry import get_system

def refused(self, *args, **kwargs):
    raise SystemExit("parsed the catalogue's YAML")

CatalogueSource._merged_base = refused
cat = get_system(sys.argv[1]).catalogue()
print(cat.version, cat.hash)
"""


def _names(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def _env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    return env | {"ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"), "ARMYBUILDER_PREPARED_DIR": str(tmp_path / "prepared")}


def test_every_bundled_catalogue_version_is_prepared(tmp_path):
    done = _run(_env(tmp_path))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert str(tmp_path / "prepared") in done.stderr
    assert _names(tmp_path / "cache") == []  # the user's cache is left alone
    names = _names(tmp_path / "prepared")
    for system_id in BUNDLED_SYSTEMS:
        for version in get_system(system_id).source.versions():
            prefix = f"{system_id}-{version.version}-"
            assert any(n.startswith(prefix) and "-fields" in n for n in names), (prefix, names)
            assert any(n.startswith(prefix) and "-fields" not in n for n in names), (prefix, names)


def test_an_empty_user_cache_reads_the_prepared_catalogue_and_never_an_edited_one(tmp_path):
    env = _env(tmp_path)
    assert _run(env).returncode == 0
    system_id = next(iter(BUNDLED_SYSTEMS))
    argv = [sys.executable, "-c", _RESOLVE_CACHED_ONLY, system_id]
    first = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split()[0] == get_system(system_id).source.latest
    assert not [n for n in _names(tmp_path / "cache") if n.startswith(system_id)]  # nothing copied over
    for entry in (tmp_path / "prepared").glob(f"{system_id}-*-fields*"):  # one byte changed: not believed
        data = bytearray(entry.read_bytes())
        data[-1] ^= 1
        entry.write_bytes(bytes(data))
    edited = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert edited.returncode != 0 and "parsed the catalogue's YAML" in edited.stderr


def test_an_install_it_cannot_write_leaves_the_versions_in_the_users_cache(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    env = _env(tmp_path) | {"ARMYBUILDER_PREPARED_DIR": str(tmp_path / "file" / "prepared")}
    done = _run(env)
    assert done.returncode == 0 and "using the user's cache" in done.stderr
    assert any(n.startswith(f"{next(iter(BUNDLED_SYSTEMS))}-") and "-fields" in n for n in _names(tmp_path / "cache"))


def test_with_the_cache_off_it_writes_nothing(tmp_path):
    env = _env(tmp_path) | {"ARMYBUILDER_NO_CACHE": "1"}
    done = _run(env)
    assert done.returncode == 0 and "cache is off" in done.stderr
    assert not (tmp_path / "cache").exists() and not (tmp_path / "prepared").exists()
