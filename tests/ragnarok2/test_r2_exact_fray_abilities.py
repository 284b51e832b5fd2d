"""Abilities in the exact fray: each one enumerated exactly as the battle engine plays it.

Every test gives an ability to tiny units and compares the exact fray with the brute-force
enumeration of the engine's own fray (:func:`brute_force`: every die of every chance step, no
merging), so the exact code cannot drift from the sampled one. The sample units with these
abilities, and Implacable units, are checked by a goodness-of-fit test of many sampled frays."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from r2engine_data import build_catalogue
from test_r2_exact_fray import ScriptedDice, _Branch, army, g_test_p_value

from armybuilder.core.playtest import load_sample
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine import exact
from armybuilder.systems.ragnarok2.engine.abilities import traits_of
from armybuilder.systems.ragnarok2.engine.exact import (
    ExactFray,
    exact_fray,
    sampled_fray,
)


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2exactab"))


def give(unit, groups, abilities) -> None:
    for gi in groups:
        unit.groups[gi].traits = traits_of(abilities)
    unit.__post_init__()  # the unit-wide flags (Counter-attack, Survival instinct...) again


@pytest.fixture
def with_abilities(monkeypatch):
    """Give abilities to the units of every fray built from now on (exact and sampled alike)."""

    def setup(first: tuple[str, ...] = (), second: tuple[str, ...] = (), first_groups=(0,), second_groups=(0,)):
        original = exact.prepare

        def prepare(*args, **kwargs):
            bt, a, b = original(*args, **kwargs)
            if first:
                give(a, first_groups, first)
            if second:
                give(b, second_groups, second)
            return bt, a, b

        monkeypatch.setattr(exact, "prepare", prepare)

    return setup


def brute_force(cat, first, second, charge: bool, cut: float = 1e-12) -> tuple[dict[tuple, float], float]:
    """Every branch of the battle engine's own fray, die by die (:class:`ScriptedDice`), with the
    mass of the branches left out under *cut* (far tails of chained re-rolls)."""
    out: Counter = Counter()
    dropped = 0.0
    stack: list[tuple[list[int], float]] = [([], 1.0)]
    while stack:
        script, p = stack.pop()
        try:
            result = sampled_fray(cat, first, 0, second, 0, charge, 0, dice=ScriptedDice(script))
        except _Branch as branch:
            for k, (q, _) in enumerate(branch.options):
                if p * q > cut:
                    stack.append(([*script, k], p * q))
                else:
                    dropped += p * q
            continue
        out[result] += p
    return dict(out), dropped


def agree(cat, first, second, charge: bool):
    result = exact_fray(cat, first, 0, second, 0, charge)
    brute, dropped = brute_force(cat, first, second, charge)
    assert dropped < 1e-7
    assert sum(result.outcomes.values()) + result.pruned == pytest.approx(1.0, abs=1e-12)
    for key in set(result.outcomes) | set(brute):
        assert result.outcomes.get(key, 0.0) == pytest.approx(brute.get(key, 0.0), abs=dropped + 1e-10), key
    return result


CASES = [
    # (ability given to the first unit, to the second, first unit, second unit, charge)
    pytest.param((), ("counter-attack",), ("beasts", "warrior", 1), ("griffin", "conscript", 1), True, id="counter-attack"),
    pytest.param(("counter-attack",), (), ("beasts", "brute", 1), ("griffin", "asadar", 1), False, id="counter-attack-attacked"),
    pytest.param((), ("survival-instinct",), ("beasts", "brute", 1), ("griffin", "conscript", 1), True, id="survival-instinct"),
    pytest.param(("fierce",), (), ("beasts", "warrior", 1), ("griffin", "asadar", 2), False, id="fierce"),
    pytest.param((), ("possessed",), ("griffin", "asadar", 1), ("beasts", "warrior", 1), True, id="possessed-one-level"),
    pytest.param(("possessed",), (), ("beasts", "tyrant", 1), ("griffin", "asadar", 2), False, id="possessed-several-levels"),
    pytest.param(("master-strike/1",), (), ("beasts", "brute", 1), ("griffin", "conscript", 2), True, id="master-strike"),
    pytest.param(("sequence/2",), (), ("griffin", "asadar", 1), ("beasts", "warrior", 2), False, id="sequence"),
    pytest.param(("concentration/2",), (), ("beasts", "warrior", 2), ("griffin", "asadar", 1), False, id="concentration"),
    pytest.param(("bravery",), (), ("beasts", "puppet", 2), ("griffin", "conscript", 1), True, id="bravery-lowers-def"),
    pytest.param(("fanaticism",), (), ("beasts", "puppet", 2), ("griffin", "conscript", 1), False, id="fanaticism-lowers-def"),
]


@pytest.mark.parametrize(("ab_first", "ab_second", "first", "second", "charge"), CASES)
def test_ability_in_the_exact_fray_equals_brute_force(ecat, with_abilities, ab_first, ab_second, first, second, charge):
    with_abilities(ab_first, ab_second)
    agree(ecat, army(*first), army(*second), charge)


def test_fierce_fighters_that_fell_strike_in_the_exact_fray(ecat, with_abilities):
    """Fierce makes a difference the exact fray sees: the unit without it loses fewer."""
    a, b = army("beasts", "warrior", 3), army("griffin", "asadar", 3)
    plain = exact_fray(ecat, a, 0, b, 0, False)
    with_abilities(("fierce",))
    fierce = exact_fray(ecat, a, 0, b, 0, False)
    assert fierce.expected_losses(1) > plain.expected_losses(1) + 0.01


def test_sharing_outcomes_between_cores_changes_nothing(ecat, with_abilities):
    """The exchange outcomes computed once per local key (the speed-up) give the same fray as
    computing them for every state (a key that missed something the rules read would differ)."""
    system = get_system("ragnarok2")
    cat = system.catalogue()
    first, second = (load_sample(system, n) for n in ("alahan-lions", "tir-na-bor-plains-guard"))
    results = []
    for local in (True, False):
        bt, a, b = exact.prepare(cat, first, 0, second, 3, True)  # Guards of the Lion charge the Veterans (Counter-attack)
        results.append(ExactFray(bt, a, b, local=local).run())
    shared, alone = results
    assert set(shared) == set(alone)
    for key, p in alone.items():
        assert shared[key] == pytest.approx(p, abs=1e-12)


IMPLACABLE = [
    # (abilities of the first unit, of the second, first unit, second unit, charge); every case
    # fights Implacable combats with some probability (checked below: a case that never did
    # would prove nothing). Implacable/2's second round and two Implacable units are checked by
    # the goodness-of-fit test (their brute force takes minutes).
    pytest.param(("implacable/1",), (), ("beasts", "brute", 1), ("griffin", "conscript", 2), True, id="implacable"),
    pytest.param((), ("implacable/1",), ("griffin", "conscript", 2), ("beasts", "brute", 1), False, id="implacable-defender"),
    pytest.param(("implacable/1",), ("fanaticism",), ("beasts", "brute", 1), ("griffin", "conscript", 2), True, id="implacable-vs-routed-in-place"),
]


@pytest.mark.parametrize(("ab_first", "ab_second", "first", "second", "charge"), IMPLACABLE)
def test_implacable_combats_in_the_exact_fray_equal_brute_force(ecat, with_abilities, ab_first, ab_second, first, second, charge):
    """The new combats after the outcome (Implacable/X, X rounds, either side, against a unit
    routed in place by Fanaticism) as the engine's own fray plays them (push_on, implacable)."""
    with_abilities(ab_first, ab_second)
    result = agree(ecat, army(*first), army(*second), charge)
    assert result.implacable[0] > 0.05


def test_implacable_combats_are_fought_and_cost_the_opponent(ecat, with_abilities):
    """Implacable changes the answer the way the seed says: the Implacable unit's opponent loses
    more, its rounds are fought with the probability that the unit caused a loss and both stayed
    in contact, and the second round is never likelier than the first."""
    a, b = army("beasts", "warrior", 3), army("griffin", "conscript", 4)
    plain = exact_fray(ecat, a, 0, b, 0, True)
    assert plain.implacable == ()
    with_abilities(("implacable/2",))
    result = exact_fray(ecat, a, 0, b, 0, True)
    assert len(result.implacable) == 2
    assert 0.0 < result.implacable[1] <= result.implacable[0] < 1.0
    assert result.expected_losses(1) > plain.expected_losses(1) + 0.05
    # The outcome of the fray is decided before the new combats: nobody routs more or less.
    assert result.p_rout == pytest.approx(plain.p_rout, abs=1e-12)
    assert sum(result.outcomes.values()) + result.pruned == pytest.approx(1.0, abs=1e-12)


@pytest.fixture(scope="module")
def samples():
    system = get_system("ragnarok2")
    return system.catalogue(), {n: load_sample(system, n) for n in system_sample_names(system)}


def system_sample_names(system) -> list[str]:
    from armybuilder.core.playtest import sample_names

    return sample_names(system)


SAMPLE_PAIRINGS = [
    ("alahan-lions", 4, "acheron-undead-host", 5, True),  # Knights (Master strike) charge Gravediggers (Fierce, Master strike)
    ("akkylannie-griffin-crusade", 4, "tir-na-bor-plains-guard", 3, True),  # Praetorians (Master strike) vs Veterans (Counter-attack)
    ("tir-na-bor-plains-guard", 3, "alahan-lions", 0, False),  # Veterans (Counter-attack) vs Guards of the Lion
]


@pytest.mark.parametrize(("la", "ia", "lb", "ib", "charge"), SAMPLE_PAIRINGS)
def test_sampled_frays_with_abilities_agree_with_the_exact_distribution(samples, la, ia, lb, ib, charge):
    cat, lists = samples
    result = exact_fray(cat, lists[la], ia, lists[lb], ib, charge)
    assert result.pruned < 1e-6
    n = 3000
    observed = Counter(sampled_fray(cat, lists[la], ia, lists[lb], ib, charge, seed) for seed in range(n))
    p = g_test_p_value(observed, result.outcomes, n)
    assert p > 1e-4, (p, observed.most_common(5), sorted(result.outcomes.items(), key=lambda kv: -kv[1])[:5])


THALLION = Path(__file__).parent / "data" / "thallion-implacable.yaml"

IMPLACABLE_PAIRINGS = [
    # (abilities given instead of the riders' own, instead of the opponent's, sample, unit, charge)
    ((), (), "alahan-lions", 3, True),  # Thallion riders (Implacable/1) charge the Royal guard
    ((), (), "acheron-undead-host", 3, False),  # Thallion riders vs Armoured zombies
    (("implacable/2",), (), "acheron-undead-host", 4, True),  # riders with Implacable/2: two rounds
    ((), ("implacable/1",), "alahan-lions", 3, False),  # both units Implacable
]


@pytest.mark.parametrize(("given", "given_b", "lb", "ib", "charge"), IMPLACABLE_PAIRINGS)
def test_sampled_implacable_frays_agree_with_the_exact_distribution(samples, with_abilities, given, given_b, lb, ib, charge):
    """The battle engine's fray with its push on and Implacable combats (sampled) against the
    exact fray's enumeration of them: a G-test of 3,000 frays."""
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import parse_text

    cat, lists = samples
    riders = list_from_doc(parse_text(THALLION.read_text(encoding="utf-8"), str(THALLION)), str(THALLION), None).army
    if given or given_b:
        with_abilities(given, given_b)
    result = exact_fray(cat, riders, 0, lists[lb], ib, charge)
    assert result.pruned < 1e-6
    assert result.implacable[-1] > 0.05  # the (last) Implacable round is fought often enough to be tested
    n = 3000
    observed = Counter(sampled_fray(cat, riders, 0, lists[lb], ib, charge, seed) for seed in range(n))
    p = g_test_p_value(observed, result.outcomes, n)
    assert p > 1e-4, (p, observed.most_common(5), sorted(result.outcomes.items(), key=lambda kv: -kv[1])[:5])


def test_the_g_test_sees_the_implacable_combats(samples):
    """Sampled frays with the Implacable combats fail against the exact fray without them (the
    riders' Implacable taken away): the agreement above is not blind to them."""
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import parse_text

    cat, lists = samples
    riders = list_from_doc(parse_text(THALLION.read_text(encoding="utf-8"), str(THALLION)), str(THALLION), None).army
    original = exact.prepare

    def without(*args, **kwargs):
        bt, a, b = original(*args, **kwargs)
        for g in a.groups:
            g.traits = dataclasses.replace(g.traits, implacable=0)  # (traits are shared: a copy)
        a.__post_init__()
        return bt, a, b

    exact.prepare = without
    try:
        wrong = exact_fray(cat, riders, 0, lists["alahan-lions"], 3, True)
    finally:
        exact.prepare = original
    assert wrong.implacable == ()
    n = 3000
    observed = Counter(sampled_fray(cat, riders, 0, lists["alahan-lions"], 3, True, seed) for seed in range(n))
    assert g_test_p_value(observed, wrong.outcomes, n) < 1e-4
