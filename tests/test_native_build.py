"""The compiled engines' switch (armybuilder._native): compiled modules only when they match
their sources, the sources when asked or when in doubt."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder import _native

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def fake_engine(tmp_path, monkeypatch):
    """A package laid out like a compiled engine: a module, a stand-in binary, a manifest."""
    package = tmp_path / "fakeengine"
    package.mkdir()
    (package / "__init__.py").write_text("from armybuilder._native import choose\nchoose(__name__, __path__)\n")
    source = package / "rules.py"
    source.write_text("VALUE = 'from the source'\n")
    (package / f"rules{SUFFIX}").write_bytes(b"not really a shared library")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv(_native.PURE_ENV, raising=False)
    for name in ("fakeengine", "fakeengine.rules"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delitem(_native._CHOSEN, "fakeengine", raising=False)

    def manifest(digest: str | None = None) -> None:
        digest = digest or hashlib.sha256(source.read_bytes()).hexdigest()
        (package / _native.MANIFEST).write_text(json.dumps({"compiler": "mypyc", "modules": {"rules": digest}}))

    return package, manifest


def test_a_build_that_matches_its_sources_is_used(fake_engine):
    _, manifest = fake_engine
    manifest()
    assert _native.build_of("fakeengine") == "compiled (mypyc)"


def test_a_source_changed_after_the_build_is_run_from_the_source(fake_engine):
    package, manifest = fake_engine
    manifest()
    (package / "rules.py").write_text("VALUE = 'edited after the build'\n")
    assert _native.build_of("fakeengine").startswith("pure Python (rules.py changed after the build")
    import fakeengine.rules  # the stand-in binary would fail to load: the source must be found first

    assert fakeengine.rules.VALUE == "edited after the build"


def test_a_module_missing_from_the_build_means_pure_python(fake_engine):
    package, manifest = fake_engine
    manifest()
    (package / f"rules{SUFFIX}").unlink()
    assert _native.build_of("fakeengine") == "pure Python (rules was not compiled)"


def test_the_environment_variable_asks_for_the_sources(fake_engine, monkeypatch):
    _, manifest = fake_engine
    manifest()
    monkeypatch.setenv(_native.PURE_ENV, "1")
    assert _native.build_of("fakeengine") == f"pure Python ({_native.PURE_ENV} is set)"
    import fakeengine.rules

    assert fakeengine.rules.VALUE == "from the source"


@pytest.mark.parametrize("damage", ["{not json", json.dumps({"modules": 3}), json.dumps([1, 2])])
def test_a_damaged_manifest_means_pure_python(fake_engine, damage):
    package, _ = fake_engine
    (package / _native.MANIFEST).write_text(damage)
    assert _native.build_of("fakeengine") == "pure Python (not compiled)"


def test_no_manifest_means_pure_python(fake_engine):
    assert _native.build_of("fakeengine") == "pure Python (not compiled)"


def test_the_real_engine_runs_its_sources_when_asked():
    """In a fresh process, the switch loads every module of the Rag'Narok 2 engine from .py."""
    code = (
        "from armybuilder import _native; import armybuilder.systems.ragnarok2.engine.battle as b;"
        "import armybuilder.systems.ragnarok2.engine.state as s; print(_native.build_of('ragnarok2')); print(b.__file__); print(s.__file__)"
    )
    env = {**os.environ, _native.PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("pure Python")
    assert out[1].endswith("battle.py") and out[2].endswith("state.py")


def _compiled_engines() -> list[str]:
    """The engine packages setup.py compiles (read from its table, which stays the one list)."""
    return re.findall(r'"armybuilder/systems/(\w+)/engine": \[', (ROOT / "setup.py").read_text())


def test_setup_lists_the_three_engines():
    """The table the next test reads: an empty match would leave it with nothing to check."""
    assert sorted(_compiled_engines()) == ["morpheus", "ragnarok2", "rattle_and_rend"]


@pytest.mark.parametrize("system", _compiled_engines())
def test_the_build_compiled_the_engines_where_it_is_expected(system):
    """CI (.ci/run) expects the compiled engines: a build that fell back to pure Python there
    (a type error mypyc refuses, a module left out) must fail loudly, not just run slower."""
    if not os.environ.get("ARMYBUILDER_EXPECT_COMPILED"):
        pytest.skip("set ARMYBUILDER_EXPECT_COMPILED=1 to require the compiled engines (CI does)")
    assert _native.build_of(f"armybuilder.systems.{system}.engine") == "compiled (mypyc)"
