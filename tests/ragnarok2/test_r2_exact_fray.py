"""The exact fray against the battle engine's sampled fray: brute-force enumeration of every
chance step of the engine's own code on tiny units, and a G-test of many sampled frays against
the exact distribution on larger ones (fixed seeds: the verdicts cannot flake)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from r2engine_data import build_catalogue

from armybuilder.core.playtest import load_sample
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.engine.chance import Dice
from armybuilder.systems.ragnarok2.engine.exact import (
    PRUNE,
    ExactFrayUnsupported,
    exact_fray,
    sampled_fray,
)


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2exact"))


def army(people: str, profile: str, count: int, *members: str) -> R2List:
    unit = Unit(
        troops=Troops(profile=profile, count=count) if count else None,
        members=[Member(profile=m, commander_in_chief=(m == "templar")) for m in members],
    )
    return R2List(catalogue="1.0.0", format="1000-ap", name="t", people=people, units=[unit])


class _Branch(Exception):
    def __init__(self, options: list[tuple[float, object]]) -> None:
        self.options = options


class ScriptedDice(Dice):
    """Chance for the battle engine that follows a script of outcomes and stops (raising the
    options) at the first chance step past it: re-running the engine with every extension of the
    script walks the whole tree of a fray, outcome by outcome, with no merging at all. A subclass
    of the engine's Dice (every draw it makes overridden): the battle's dice field is typed Dice."""

    def __init__(self, script: list[int]) -> None:
        self.script, self.i = script, 0

    def _pick(self, options: list[tuple[float, object]]) -> object:
        if self.i < len(self.script):
            k = self.script[self.i]
            self.i += 1
            return options[k][1]
        raise _Branch(options)

    def chance(self, p: float) -> bool:
        return bool(self._pick([(p, True), (1.0 - p, False)]))

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        previous, options = 0.0, []
        for k, c in enumerate(cdf):
            options.append((c - previous, k))
            previous = c
        return int(self._pick(options))  # type: ignore[call-overload]

    def d6(self) -> int:
        return int(self._pick([(1 / 6, f) for f in range(1, 7)]))  # type: ignore[call-overload]

    def binomial(self, n: int, p: float) -> int:
        return sum(self.chance(p) for _ in range(n))

    def u(self) -> float:
        raise AssertionError("a continuous draw in a fray")


def brute_force(cat, first, second, charge: bool) -> dict[tuple, float]:
    """Every branch of the battle engine's own fray (:func:`sampled_fray`), weighted (the
    branches under 1e-13, far tails of re-rolled dice, are left out: the comparison is at 1e-9)."""
    out: Counter = Counter()
    stack: list[tuple[list[int], float]] = [([], 1.0)]
    while stack:
        script, p = stack.pop()
        try:
            result = sampled_fray(cat, first, 0, second, 0, charge, 0, dice=ScriptedDice(script))
        except _Branch as branch:
            for k, (q, _) in enumerate(branch.options):
                if p * q > 1e-13:
                    stack.append(([*script, k], p * q))
            continue
        out[result] += p
    return dict(out)


TINY = [
    (("beasts", "warrior", 1), ("griffin", "conscript", 1), False),
    (("beasts", "warrior", 2), ("griffin", "conscript", 2), True),
    (("beasts", "brute", 1), ("griffin", "conscript", 2), False),
    (("griffin", "asadar", 1), ("beasts", "tyrant", 1), True),
]


@pytest.mark.parametrize(("first", "second", "charge"), TINY)
def test_exact_fray_equals_brute_force_on_tiny_units(ecat, first, second, charge):
    a, b = army(*first), army(*second)
    exact = exact_fray(ecat, a, 0, b, 0, charge)
    brute = brute_force(ecat, a, b, charge)
    assert exact.pruned < 1e-10  # (only branches under 1e-12 each)
    assert sum(exact.outcomes.values()) + exact.pruned == pytest.approx(1.0, abs=1e-12)
    for key in set(exact.outcomes) | set(brute):
        assert exact.outcomes.get(key, 0.0) == pytest.approx(brute.get(key, 0.0), abs=1e-9), key
    # The summaries follow from the joint distribution.
    assert exact.p_rout[0] == pytest.approx(sum(p for k, p in brute.items() if k[2]), abs=1e-9)
    assert exact.p_rout[1] == pytest.approx(sum(p for k, p in brute.items() if k[3]), abs=1e-9)


def test_a_character_falls_only_when_its_side_loses_it(ecat):
    exact = exact_fray(ecat, army("griffin", "conscript", 3, "templar"), 0, army("beasts", "tyrant", 2), 0, True)
    (templar,) = exact.characters
    assert templar.side == 0 and templar.name == "Templar"
    assert 0.0 < templar.p_falls < 1.0
    # The Templar falling means at least one fighter lost.
    assert templar.p_falls <= 1.0 - exact.marginal(0)[0] + 1e-12


def g_test_p_value(observed: Counter, expected: dict, n: int) -> float:
    """G-test of *observed* counts against the *expected* probabilities, the rare outcomes pooled
    (expected count under 5); the tail of chi-square by Wilson-Hilferty's normal approximation."""
    cells: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for key, p in expected.items():
        if p * n >= 5:
            cells.append((p * n, observed.get(key, 0)))
        else:
            pool_e += p * n
            pool_o += observed.get(key, 0)
    pool_o += sum(c for k, c in observed.items() if k not in expected)
    if pool_e > 0 or pool_o:
        cells.append((max(pool_e, 1e-300), pool_o))
    g = 2.0 * sum(o * math.log(o / e) for e, o in cells if o)
    dof = len(cells) - 1
    if dof <= 0:
        return 1.0
    z = ((g / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.fixture(scope="module")
def samples():
    system = get_system("ragnarok2")
    names = ("acheron-undead-host", "alahan-lions", "akkylannie-griffin-crusade", "tir-na-bor-plains-guard")
    return system.catalogue(), {n: load_sample(system, n) for n in names}


PAIRINGS = [
    ("alahan-lions", 3, "acheron-undead-host", 4, True),  # Royal guard charge Wolfen zombies
    ("akkylannie-griffin-crusade", 2, "acheron-undead-host", 3, False),  # Templar brothers vs Armoured zombies
    ("tir-na-bor-plains-guard", 4, "alahan-lions", 3, True),  # Khor riders charge the Royal guard
]


@pytest.mark.parametrize(("la", "ia", "lb", "ib", "charge"), PAIRINGS)
def test_sampled_frays_agree_with_the_exact_distribution(samples, la, ia, lb, ib, charge):
    cat, lists = samples
    exact = exact_fray(cat, lists[la], ia, lists[lb], ib, charge)
    assert exact.pruned < 1e-6
    n = 3000
    observed = Counter(sampled_fray(cat, lists[la], ia, lists[lb], ib, charge, seed) for seed in range(n))
    p = g_test_p_value(observed, exact.outcomes, n)
    assert p > 1e-4, (p, observed.most_common(5), sorted(exact.outcomes.items(), key=lambda kv: -kv[1])[:5])


def test_the_g_test_rejects_a_wrong_distribution(samples):
    """The agreement test has power: the same samples fail against a near pairing (the Royal guard
    charging the Wolfen zombies, judged against the Royal guard charging the Zombie warriors)."""
    cat, lists = samples
    la, ia, lb, ib, _ = PAIRINGS[0]
    wrong = exact_fray(cat, lists[la], ia, lists[lb], 2, True)
    n = 3000
    observed = Counter(sampled_fray(cat, lists[la], ia, lists[lb], ib, True, seed) for seed in range(n))
    assert g_test_p_value(observed, wrong.outcomes, n) < 1e-4


def test_every_sample_unit_with_abilities_is_answered(samples):
    """Counter-attack (the Veterans of the plains) is enumerated now, not refused."""
    cat, lists = samples
    result = exact_fray(cat, lists["tir-na-bor-plains-guard"], 3, lists["acheron-undead-host"], 0)
    assert sum(result.outcomes.values()) + result.pruned == pytest.approx(1.0, abs=1e-12)
    assert PRUNE == 1e-12
    assert ExactFrayUnsupported.__mro__[1] is ValueError  # (the CLI turns it into exit 2)
