"""A small synthetic Rag'Narok 2 catalogue, so each rule can be broken on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic_r2 import CATALOGUE as BASE_CATALOGUE
from synthetic_r2 import ERRATA_1_1_0, legal_army, write_catalogue

from armybuilder.core.catalog import CatalogueSource
from armybuilder.systems.ragnarok2.army import R2List

#: the shared catalogue (tests/synthetic_r2.py) with its 1.1.0 errata
CATALOGUE = {**BASE_CATALOGUE, "errata/1.1.0.yaml": ERRATA_1_1_0}


@pytest.fixture(scope="session")
def source(tmp_path_factory) -> CatalogueSource:
    folder: Path = tmp_path_factory.mktemp("r2cat")
    return write_catalogue(folder, CATALOGUE)


@pytest.fixture(scope="session")
def cat(source):
    return source.resolve("1.0.0")


@pytest.fixture
def legal() -> R2List:
    """490 A.P.: two army-corps units (one with a complete war staff) and one of shock troops."""
    return legal_army("Base")
