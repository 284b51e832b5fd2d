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


def test_reference_workload_is_the_plain_sum_and_rates_are_normalised_by_it():
    from armybuilder.bench_engines import EngineRate, reference_workload

    assert reference_workload(1000) == sum(range(1000))
    found = EngineRate("x", "X", 600, 9, 3, cpu=2.0, wall=2.5, slowest=250.0, reference=0.4, build="pure Python (not compiled)")
    assert found.rate == 300.0  # games per CPU second of the one thread that played them
    assert found.normalised == pytest.approx(120.0)  # × the reference's seconds: games per reference-loop-second


def test_engine_rate_plays_every_ordered_sample_pairing_and_names_its_build():
    from armybuilder.bench_engines import measure_engine

    found = measure_engine("morpheus-ragnarok", 0)  # at least 20 games a pairing
    assert (found.samples, found.pairings, found.games) == (2, 4, 80)
    assert found.cpu > 0 and found.reference > 0 and found.normalised == pytest.approx(found.rate * found.reference)
    assert found.build.startswith(("compiled", "pure Python"))
