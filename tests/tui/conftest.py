"""TUI test fixtures: a private data folder and the synthetic Rag'Narok 2 catalogue.

The synthetic catalogue (tests/synthetic_r2.py, with its errata) is registered in place of the
bundled one, so the editor's workflows are tested on data whose rules are known.
"""

from __future__ import annotations

import asyncio
import inspect
import textwrap
from pathlib import Path

import pytest
from synthetic_r2 import CATALOGUE, ERRATA_1_1_0

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


def _synthetic_catalogue() -> dict[str, str]:
    return {**CATALOGUE, "errata/1.1.0.yaml": ERRATA_1_1_0}


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
