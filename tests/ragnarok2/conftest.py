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


@pytest.fixture(scope="session")
def r2_extra(tmp_path_factory):
    """The synthetic catalogue plus Acolyte, a magician that is not a Character (a troop),
    and Lord, a second Character commander."""
    data = BASE_CATALOGUE["data.yaml"]
    stats = data.split("{id: spearman", 1)[1].split("cost: 10, ", 1)[1].split("}\n", 1)[0]
    extra = (
        "          - {id: acolyte, name: Acolyte, people: lions, rank: regular, size: medium, cost: 18, "
        f"roles: [magician], power: 1, elements: [Light], initiation_rank: 1, {stats}}}\n"
        "          - {id: lord, name: Lord, people: lions, rank: living-legend, size: medium, cost: 100, "
        f"roles: [character, commander], abilities: [leadership/15], {stats}}}\n"
    )
    marker = "        profiles:\n"
    files = {**CATALOGUE, "data.yaml": data.replace(marker, marker + extra, 1)}
    return write_catalogue(tmp_path_factory.mktemp("r2mage"), files).resolve("1.0.0")
