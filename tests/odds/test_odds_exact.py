"""armybuilder.odds.exact against independent exact computations (Fractions, brute force).

The recurrence, the compound and second-chance formulas, halving, the cut and the
Kronecker power are each checked against a plain definition with Python's Fractions, so
an error shows as a wrong rational, not as a float a little off.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from armybuilder.odds import exact

K = 14  # values compared


def series(law: exact.Chain, count: int = K) -> list[Fraction]:
    """The first values of (p + q z) / (r - s z) by long division of power series."""
    p, q, r, s = law
    out: list[Fraction] = []
    for k in range(count):
        num = (p if k == 0 else q if k == 1 else 0) + (s * out[k - 1] if k else 0)
        out.append(Fraction(num, r))
    return out


def convolve(a: list[Fraction], b: list[Fraction], count: int = K) -> list[Fraction]:
    return [sum((a[i] * b[k - i] for i in range(k + 1) if i < len(a) and k - i < len(b)), Fraction(0)) for k in range(count)]


def values(stream, count: int = K) -> list[Fraction]:
    out = [Fraction(n, d) for n, d in itertools.islice(stream, count)]
    return out + [Fraction(0)] * (count - len(out))


faces = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)).filter(lambda f: f[2] + f[3] > 0)


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, st.integers(0, 7))
def test_the_sum_of_n_dice_is_the_n_fold_convolution(counts, n):
    law = exact.chain(*counts)
    expected = [Fraction(1)] + [Fraction(0)] * (K - 1)
    one = series(law)
    for _ in range(n):
        expected = convolve(expected, one)
    assert values(exact.power(law, n)) == expected


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces)
def test_a_chain_die_is_its_faces_rolled_again(counts):
    """First values of one die by enumerating roll sequences: a sequence of rolls that goes
    on only through re-roll faces; values below K need at most K + extra re-rolls of failures,
    so enumerate paths by their count of failed re-rolls with the closed geometric weight."""
    a, b, c, d = counts
    sides = sum(counts)
    law = exact.chain(*counts)
    # P(k successes) = sum over j successful re-rolls, any failed re-rolls between: the failed
    # re-rolls form a geometric factor 1 / (1 - b/F) per roll of the chain
    stay = Fraction(1) / (1 - Fraction(b, sides))
    got = values(exact.power(law, 1), 6)
    for k in range(6):
        # k = j successful re-rolls (chain goes on) + the last roll (success stop adds 1)
        expected = Fraction(0)
        for last_success in (0, 1):
            j = k - last_success
            if j < 0:
                continue
            weight = (Fraction(a, sides) * stay) ** j * stay * Fraction(c if last_success else d, sides)
            expected += weight
        assert got[k] == expected


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, faces)
@example((2, 0, 0, 1), (0, 0, 0, 1))  # a long count: cut at 60 terms it left an error of 2.7e-11
@example((3, 3, 0, 1), (3, 0, 0, 1))  # the slowest count of all (goes on with 3/4)
def test_compound_is_the_composition_of_generating_functions(count_faces, item_faces):
    count, item = exact.chain(*count_faces), exact.chain(*item_faces)
    both = exact.compound(count, item)
    for z in (Fraction(0), Fraction(1, 3), Fraction(-1), Fraction(1, 2), Fraction(-2, 7)):
        inner = Fraction(*item.at((z.numerator, z.denominator)))
        assert Fraction(*both.at((z.numerator, z.denominator))) == Fraction(*count.at((inner.numerator, inner.denominator)))
    # and the values: sum over m of P(count = m) * P(m items sum to k), m cut where negligible:
    # a count goes on with probability at most 3/4 per die (a <= 3 of at least 4 useful faces),
    # so the terms past 160 weigh less than (3/4) ** 160 ~ 1e-20 (at 60 they could reach 1e-8)
    terms = 160
    counts = series(count, terms)
    total = [Fraction(0)] * 6
    item_power = [Fraction(1)] + [Fraction(0)] * 5
    one = series(item, 6)
    for m in range(terms):
        total = [t + counts[m] * v for t, v in zip(total, item_power, strict=True)]
        item_power = convolve(item_power, one, 6)
    for got, expected in zip(values(exact.power(both, 1), 6), total, strict=True):
        assert abs(got - expected) < Fraction(1, 10**12)


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, st.integers(0, 6), st.integers(0, 6))
def test_second_chance_is_the_die_again_on_its_zero_event(counts, num, extra):
    law = exact.chain(*counts)
    chance = (num, num + extra) if num + extra else (0, 1)
    again = exact.second_chance(law, chance)
    c = Fraction(*chance)
    base = series(law)
    expected = [(1 + c) * v for v in base]
    expected[0] -= c
    assert series(again) == expected


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, st.integers(0, 6))
def test_halving_rounds_up_the_total(counts, n):
    law = exact.chain(*counts)
    raw = values(exact.power(law, n), 2 * K)
    expected = [raw[0]] + [raw[2 * m - 1] + raw[2 * m] for m in range(1, K)]
    assert values(exact.halved(exact.power(law, n))) == expected


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, st.integers(1, 12), st.sampled_from([(1, 10**12), (1, 1000), (1, 10)]))
def test_the_cut_keeps_all_but_less_than_eps(counts, n, eps):
    law = exact.chain(*counts)
    prefix = exact.take(exact.power(law, n), eps)
    kept = [Fraction(a, b) for a, b in zip(prefix.nums, prefix.dens, strict=True)]
    left = 1 - sum(kept)
    assert left == Fraction(prefix.rest, prefix.dens[-1])
    assert left < Fraction(*eps)
    assert left + kept[-1] >= Fraction(*eps) or len(kept) == 1
    assert prefix.pmf == [float(x) for x in kept]
    assert prefix.at_least == [float(1 - sum(kept[:k])) for k in range(len(kept))]


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, st.integers(0, 9))
def test_means_and_signs_are_exact(counts, n):
    law = exact.chain(*counts)
    many = values(exact.power(law, n), 400)  # the tail beyond 400 values is far below 1e-30
    mean = sum(k * v for k, v in enumerate(many))
    assert abs(Fraction(n) * Fraction(*law.mean()) - mean) < Fraction(1, 10**20)
    sign = sum((-1) ** k * v for k, v in enumerate(many))
    assert abs(Fraction(*exact.chain_power_at(law, n, (-1, 1))) - sign) < Fraction(1, 10**20)
    halved = sum(((k + 1) // 2) * v for k, v in enumerate(many))
    got = Fraction(*exact.halved_mean((n * law.mean()[0], law.mean()[1]), exact.chain_power_at(law, n, (-1, 1))))
    assert abs(got - halved) < Fraction(1, 10**20)


@settings(deadline=None, max_examples=60)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=8).filter(any), st.integers(0, 12))
def test_kronecker_power_is_repeated_convolution(weights, n):
    expected = [1]
    for _ in range(n):
        expected = [sum(expected[i] * weights[k - i] for i in range(len(expected)) if 0 <= k - i < len(weights)) for k in range(len(expected) + len(weights) - 1)]
    while len(expected) > 1 and expected[-1] == 0:
        expected.pop()
    assert exact.poly_power(weights, n) == expected


@settings(deadline=None)  # Fractions are slow on a loaded machine; correctness is what counts
@given(faces, faces, st.integers(0, 6))
def test_a_count_known_by_its_prefix_compounds_like_the_chain(count_faces, item_faces, n):
    """compound_prefix (used after halving) agrees with the closed compound on a plain count."""
    count, item = exact.chain(*count_faces), exact.chain(*item_faces)
    if item.p == 0:
        return
    prefix = exact.take(exact.power(count, n), (1, 2**160))
    got = values(exact.compound_prefix(prefix, item), 8)
    expected = values(exact.power(exact.compound(count, item), n), 8)
    assert all(abs(g - e) < Fraction(1, 2**150) for g, e in zip(got, expected, strict=True))
