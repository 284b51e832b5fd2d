"""TUI test fixtures: a private data folder and the synthetic Rag'Narok 2 catalogue.

The synthetic catalogue (tests/ragnarok2/conftest.py) is registered in place of the
bundled one, so the editor's workflows are tested on data whose rules are known.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import textwrap
from pathlib import Path

import pytest

from armybuilder.core import registry
from armybuilder.core.catalog import CatalogueSource
from armybuilder.tui.storage import DATA_ENV, Store


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run ``async def`` tests (Pilot) on a fresh event loop; no asyncio plugin needed."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None


_R2_CONFTEST = Path(__file__).resolve().parents[1] / "ragnarok2" / "conftest.py"


def _synthetic_catalogue() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("r2_synthetic_conftest", _R2_CONFTEST)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module.CATALOGUE


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    """Recent lists and recovery copies go to a temporary folder, never the user's."""
    folder = tmp_path / "userdata"
    monkeypatch.setenv(DATA_ENV, str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.fixture
def store(data_dir) -> Store:
    return Store(data_dir)


@pytest.fixture(scope="session")
def r2_folder(tmp_path_factory) -> Path:
    folder: Path = tmp_path_factory.mktemp("r2tui")
    for rel, text in _synthetic_catalogue().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


@pytest.fixture
def r2(r2_folder, monkeypatch):
    """The Rag'Narok 2 system bound to the synthetic catalogue, registered as 'ragnarok2'."""
    from armybuilder.systems.ragnarok2 import Ragnarok2
    from armybuilder.systems.ragnarok2.catalog import R2Catalog

    system = Ragnarok2()
    system.__dict__["source"] = CatalogueSource("ragnarok2", R2Catalog, r2_folder)
    monkeypatch.setitem(registry._loaded, "ragnarok2", system)
    return system


def other_system(system_id: str):
    """A registered system with a bundled sample, or skip the test cleanly."""
    try:
        system = registry.get_system(system_id)
        system.catalogue()
        samples = system.source.samples()
    except Exception as exc:  # noqa: BLE001 - the package may not exist yet
        pytest.skip(f"{system_id} is not loadable here: {type(exc).__name__}: {exc}")
    if not samples:
        pytest.skip(f"{system_id} has no bundled sample")
    return system, samples
