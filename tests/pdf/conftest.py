"""Fixtures of the PDF tests: the synthetic Rag'Narok 2 catalogue (tests/synthetic_r2.py).

The helpers the tests import (rosters, hostile texts, PDF text extraction) are in
pdf_samples.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic_r2 import CATALOGUE, write_catalogue

from armybuilder.core.catalog import CatalogueSource


@pytest.fixture(scope="session")
def r2_source(tmp_path_factory) -> CatalogueSource:
    folder: Path = tmp_path_factory.mktemp("pdfcat")
    return write_catalogue(folder, CATALOGUE)


@pytest.fixture(scope="session")
def r2_cat(r2_source):
    return r2_source.resolve("1.0.0")
