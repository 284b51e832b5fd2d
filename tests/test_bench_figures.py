"""How `armybuilder bench` prints its figures."""

from __future__ import annotations

import pytest

from armybuilder.bench import _three_digits


@pytest.mark.parametrize(
    ("value", "shown"),
    [(1143.7, "1,140"), (1026.2, "1,030"), (87.44, "87.4"), (0.159, "0.159"), (12345.6, "12,300")],
)
def test_figures_keep_three_digits_without_scientific_notation(value, shown):
    assert _three_digits(value) == shown
