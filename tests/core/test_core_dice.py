"""armybuilder.core.dice: game-agnostic discrete distributions."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.dice import CHAIN_TAIL, Distribution, chained_successes, compound

D6 = Distribution.uniform(1, 6)


def chi_square_ok(samples: np.ndarray, dist: Distribution) -> None:
    """Pearson chi-square against *dist*; bins with expected < 5 are merged."""
    n = len(samples)
    probs = dist.normalized().pmf
    counts = np.bincount(samples, minlength=len(probs))
    assert len(counts) == len(probs), "sampled a value outside the support"
    expected = probs * n
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(counts, expected, strict=True):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 and exp_bins:
        obs_bins[-1] += acc_o
        exp_bins[-1] += acc_e
    obs = np.array(obs_bins)
    exp = np.array(exp_bins)
    dof = max(len(obs) - 1, 1)
    stat = float(((obs - exp) ** 2 / exp).sum())
    assert stat < dof + 6 * math.sqrt(2 * dof), (stat, dof)


def binomial(n: int, p: float) -> np.ndarray:
    return np.array([math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


# -- construction and immutability ------------------------------------------------
def test_constructor_validates():
    with pytest.raises(ValueError):
        Distribution([])
    with pytest.raises(ValueError):
        Distribution([0.5, -0.1, 0.6])
    with pytest.raises(ValueError):
        Distribution([0.7, 0.7])
    with pytest.raises(ValueError):
        Distribution([[0.5, 0.5]])
    with pytest.raises(ValueError):
        Distribution([float("nan"), 1.0])


def test_immutable_and_trimmed():
    d = Distribution([0.25, 0.75, 0.0, 0.0])
    assert len(d) == 2 and d.max_value == 1
    with pytest.raises(ValueError):
        d.pmf[0] = 1.0
    with pytest.raises(AttributeError):
        d.foo = 1  # type: ignore[attr-defined]
    source = np.array([0.5, 0.5])
    e = Distribution(source)
    source[0] = 0.0
    assert e.pmf[0] == 0.5


def test_basic_statistics_of_a_d6():
    assert D6.mean() == pytest.approx(3.5)
    assert D6.variance() == pytest.approx(35 / 12)
    assert D6.at_least(5) == pytest.approx(2 / 6)
    assert D6.at_least(0) == pytest.approx(1.0)
    assert D6.at_least(-3) == pytest.approx(1.0)
    assert D6.at_least(7) == 0.0
    assert D6.at_most(2) == pytest.approx(2 / 6)
    table = D6.at_least_table()
    assert table.tolist() == pytest.approx([1, 1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6])
    assert Distribution.point(3).mean() == 3
    assert Distribution.from_mapping({0: 0.5, 2: 0.5}).pmf.tolist() == [0.5, 0.0, 0.5]


def test_two_d6_and_shift_and_maximum():
    two = D6.convolve(D6)
    assert two.pmf[7] == pytest.approx(6 / 36)
    assert two.pmf[2] == pytest.approx(1 / 36)
    assert D6.shift(2).at_least(8) == pytest.approx(1 / 6)
    assert D6.shift(-1).mean() == pytest.approx(2.5)
    with pytest.raises(ValueError):
        D6.shift(-2)
    best = D6.maximum(D6)
    assert best.pmf[6] == pytest.approx(11 / 36)
    assert best.pmf[1] == pytest.approx(1 / 36)


def test_power_matches_repeated_convolution_small_and_fft_paths():
    d = Distribution([0.1, 0.2, 0.3, 0.4])
    assert d.power(0).pmf.tolist() == [1.0]
    assert d.power(1) is d
    ref = np.array([1.0])
    for n in range(1, 41):
        ref = np.convolve(ref, d.pmf)
        got = d.power(n)
        assert got.isclose(Distribution(ref), atol=1e-13), n
    # A long geometric-like item forces the spectral path.
    geo = Distribution(0.5 ** np.arange(1, 80))
    ref = np.array([1.0])
    for _ in range(30):
        ref = np.convolve(ref, geo.pmf)
    assert geo.power(30).isclose(Distribution(ref / max(1.0, ref.sum())), atol=1e-13)


def test_map_halving_rounds_up():
    halved = D6.map(lambda k: (k + 1) // 2, vectorized=True)
    assert halved.pmf.tolist() == pytest.approx([0, 2 / 6, 2 / 6, 2 / 6])
    same = D6.map(lambda k: (k + 1) // 2)
    assert same.isclose(halved)
    with pytest.raises(ValueError):
        D6.map(lambda k: k - 3)


def test_truncate_drops_only_a_small_tail():
    geo = Distribution(0.5 ** np.arange(1, 60))
    cut = geo.truncate(1e-6)
    assert geo.total() - cut.total() < 1e-6
    # Minimal: one value fewer would drop at least eps.
    assert geo.at_least(len(cut)) < 1e-6 <= geo.at_least(len(cut) - 1)
    assert D6.truncate(1e-12) is D6  # the tail 1/6 is far above eps
    assert D6.truncate(0.16).max_value == 6 and D6.truncate(0.17).max_value == 5
    assert D6.truncate(0.34).max_value == 4


def test_compound_matches_brute_force_and_thinning():
    count = Distribution([0.2, 0.3, 0.5])
    item = Distribution([0.1, 0.6, 0.3])
    ref = np.zeros(5)
    powers = [np.array([1.0])]
    for _ in range(2):
        powers.append(np.convolve(powers[-1], item.pmf))
    for n, p in enumerate(count.pmf):
        ref[: len(powers[n])] += p * powers[n]
    assert compound(count, item).isclose(Distribution(ref), atol=1e-15)
    # Binomial thinning: Bin(n, p) trials each kept with q is Bin(n, pq);
    # n = 200 is long enough for the spectral path.
    n, p, q = 200, 0.7, 0.4
    thinned = compound(Distribution(binomial(n, p)), Distribution([1 - q, q]))
    assert thinned.isclose(Distribution(binomial(n, p * q)), atol=1e-12)
    # A point count is a plain power.
    assert compound(Distribution.point(5), item).isclose(item.power(5), atol=1e-15)
    assert compound(Distribution.point(0), item).pmf.tolist() == [1.0]


def test_compound_geometric_count_of_geometric_items_long_tails():
    # N geometric on 0.. with ratio r, items geometric on 1.. with ratio s:
    # S is 0 w.p. 1 - r, else geometric on 1.. with ratio 1 - (1 - s)(1 - r).
    r, s = 0.8, 0.7
    k = np.arange(200)
    count = Distribution((1 - r) * r**k).truncate(1e-17)
    item = Distribution(np.concatenate([[0.0], (1 - s) * s ** k[:-1]])).truncate(1e-17)
    got = compound(count, item)
    ratio = 1 - (1 - s) * (1 - r)
    exact_tail = lambda m: 1.0 if m <= 0 else r * ratio ** (m - 1)  # noqa: E731
    for m in range(0, 120):
        assert got.at_least(m) == pytest.approx(exact_tail(m), abs=1e-11)


def brute_chain(
    probs: tuple[Fraction, Fraction, Fraction, Fraction], depth: int
) -> dict[int, Fraction]:
    """Successes of a re-roll chain cut after *depth* re-rolls (exact fractions)."""
    sr, fr, ss, fs = probs
    if depth == 0:
        return {0: fr + fs, 1: sr + ss}
    below = brute_chain(probs, depth - 1)
    out: dict[int, Fraction] = {0: fs, 1: ss}
    for k, p in below.items():
        out[k + 1] = out.get(k + 1, Fraction(0)) + sr * p
        out[k] = out.get(k, Fraction(0)) + fr * p
    return out


@pytest.mark.parametrize(
    "sixths",
    [
        (1, 0, 4, 1),
        (1, 0, 2, 3),
        (4, 0, 1, 1),
        (2, 1, 1, 2),
        (0, 0, 3, 3),
        (0, 2, 0, 4),
        (3, 0, 0, 3),
    ],
)
def test_chained_successes_matches_enumeration_and_bound(sixths):
    probs = tuple(Fraction(x, 6) for x in sixths)
    dist = chained_successes(*(float(p) for p in probs))
    ref = brute_chain(probs, 90)  # cut mass <= (5/6)**90 ~ 7e-8 for the worst case here
    ratio = float(probs[0] / (1 - probs[1])) if probs[1] < 1 else 0.0
    cut = ratio**90
    for k in range(len(dist) + 2):
        exact = float(sum(p for v, p in ref.items() if v >= k))
        assert dist.at_least(k) == pytest.approx(exact, abs=max(1e-14, cut) + CHAIN_TAIL)
    assert 1 - CHAIN_TAIL <= dist.total() <= 1 + 1e-12


def test_chained_successes_rejects_bad_input():
    with pytest.raises(ValueError):
        chained_successes(0.5, 0.5, 0.0, 0.0)
    with pytest.raises(ValueError):
        chained_successes(0.5, 0.1, 0.1, 0.1)


def test_sampling_agrees_with_pmf():
    rng = np.random.default_rng(20240601)
    dist = D6.power(3).convolve(Distribution([0.3, 0.7]))
    chi_square_ok(dist.sample(rng, 200_000), dist)
    value = dist.sample(rng)
    assert isinstance(value, int) and 3 <= value <= 19
    geo = chained_successes(4 / 6, 0.0, 1 / 6, 1 / 6)
    chi_square_ok(geo.sample(rng, 200_000), geo)


small_pmfs = (
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12)
    .filter(lambda xs: sum(xs) > 1e-3)
    .map(lambda xs: Distribution(np.array(xs) / sum(xs)))
)


@settings(max_examples=60, deadline=None)
@given(small_pmfs, small_pmfs, st.integers(0, 25))
def test_algebra_properties(a, b, n):
    ab = a.convolve(b)
    assert ab.total() == pytest.approx(1.0, abs=1e-12)
    assert ab.mean() == pytest.approx(a.mean() + b.mean(), abs=1e-9)
    an = a.power(n)
    assert an.total() == pytest.approx(1.0, abs=1e-9)
    assert an.mean() == pytest.approx(n * a.mean(), abs=1e-7)
    comp = compound(a, b)
    assert comp.total() == pytest.approx(1.0, abs=1e-9)
    assert comp.mean() == pytest.approx(a.mean() * b.mean(), abs=1e-7)
    best = a.maximum(b)
    for k in range(len(best) + 1):
        assert best.at_least(k) >= max(a.at_least(k), b.at_least(k)) - 1e-12
