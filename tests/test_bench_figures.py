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


def test_the_bench_finds_what_it_measures_through_the_systems(tmp_path):
    """The bench names no system: each workload beyond the protocol is the first registered
    system's that offers it (GameSystem.bench_module), and a workload nobody offers is an error."""
    import pytest

    from armybuilder import bench_figures as bf
    from armybuilder.core.registry import bench_workload
    from armybuilder.meta.bench import ten_lists
    from armybuilder.tui.bench import _sample_path

    measured, _ = bench_workload("WHOLE_PROCESS_LINES")
    fray_system, fray = bench_workload("exact_fray")
    assert fray_system is measured and callable(fray) and fray_system.has_fray_odds()
    assert len(bench_workload("FRAY_SAMPLES")[1]) == 2 and 0.5 < bench_workload("cut_target")[1]() < 1
    system, tables = bench_workload("odds_tables")
    assert system is measured and tables(system.catalogue()) == system.odds_tables(system.catalogue())
    assert callable(bf.calculator_of(measured).columns_of)
    planted, (sample, edits, opponent, games) = bench_workload("SUGGEST_PLANT")
    names = {name.removesuffix(".yaml") for name, _ in planted.source.samples()}
    assert {sample, opponent} <= names and edits and games > 0
    assert _sample_path(tmp_path).parent == tmp_path
    assert {entry.system.id for entry in ten_lists(count=3)} == {measured.id}
    with pytest.raises(LookupError, match="no game system offers the bench workload 'nothing'"):
        bench_workload("nothing")
