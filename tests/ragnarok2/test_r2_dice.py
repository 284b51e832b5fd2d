"""Rag'Narok 2 dice engine: contest table (R2-D1) and characteristic tests (R2-D2)."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.dice import CHAIN_TAIL, Distribution
from armybuilder.systems.ragnarok2.engine import dice as r2
from armybuilder.systems.ragnarok2.engine.dice import (
    R2_D1_COLUMNS as COLS,
)
from armybuilder.systems.ragnarok2.engine.dice import (
    ContestColumn,
    attack_then_wounds,
    characteristic_test_total,
    column_index,
    contest_column,
    contest_successes,
    die_successes,
    fear_test_success,
    mastery_test_success,
    opposed_test_win_probability,
    score_faces,
)
from armybuilder.systems.ragnarok2.engine.dice import test_success_probability as success_p

# A difference that falls in each column of the R2-D1 table.
DIFFS = [-20, -10, -5, -2, 0, 2, 5, 10, 20]


def chi_square_ok(samples: np.ndarray, dist: Distribution) -> None:
    """Pearson chi-square of integer samples against *dist* (bins with expected < 5 merged)."""
    n = len(samples)
    probs = dist.normalized().pmf
    counts = np.bincount(np.asarray(samples), minlength=len(probs))
    assert len(counts) == len(probs), "sampled a value outside the support"
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(counts, probs * n, strict=True):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    if exp_bins:
        obs_bins[-1] += acc_o
        exp_bins[-1] += acc_e
    obs, exp = np.array(obs_bins), np.array(exp_bins)
    dof = max(len(obs) - 1, 1)
    stat = float(((obs - exp) ** 2 / exp).sum())
    assert stat < dof + 6 * math.sqrt(2 * dof), (stat, dof)


def proportion_ok(hits: np.ndarray, p: float) -> None:
    n = len(hits)
    sd = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(hits.mean() - p) < 5 * sd + 1e-12, (hits.mean(), p)


# ---------------------------------------------------------------------------
# Independent brute force (exact fractions, bounded re-roll depth)
# ---------------------------------------------------------------------------
@cache
def brute_die(
    success: int, reroll_from: int, depth: int, exact: bool = True
) -> tuple[tuple[int, Fraction], ...]:
    """Enumerate the six faces of one die and, recursively, of its re-rolls.

    After *depth* re-rolls the chain is cut (the last die is not re-rolled).
    Exact fractions by default; ``exact=False`` runs the same enumeration in floats
    (used for the very long chains of arbitrary column data).
    """
    sixth = Fraction(1, 6) if exact else 1 / 6
    zero = Fraction(0) if exact else 0.0
    out: dict = {}
    for face in range(1, 7):
        hit = int(face != 1 and face >= success)
        if face != 1 and face >= reroll_from and depth > 0:
            for k, p in brute_die(success, reroll_from, depth - 1, exact):
                out[k + hit] = out.get(k + hit, zero) + p * sixth
        else:
            out[hit] = out.get(hit, zero) + sixth
    return tuple(sorted(out.items()))


def brute_depth(column: ContestColumn) -> int:
    # Re-roll chance q per roll: the cut mass after d re-rolls is q**d < 1e-12.
    q = (7 - column.reroll_from) / 6
    return 1 if q <= 0 else math.ceil(math.log(1e-12) / math.log(q))


@cache
def _brute_contest(
    column: ContestColumn, dice: int, exact: bool = True
) -> tuple[tuple[int, float], ...]:
    one = dict(brute_die(column.success, column.reroll_from, brute_depth(column), exact))
    total = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        total = nxt
    if column.halved:
        halved: dict[int, Fraction] = {}
        for k, p in total.items():
            halved[(k + 1) // 2] = halved.get((k + 1) // 2, Fraction(0)) + p
        total = halved
    # Exact tail sums, converted to floats only at the end.
    tails: list[tuple[int, float]] = []
    acc = Fraction(0)
    for k in sorted(total, reverse=True):
        acc += total[k]
        tails.append((k, float(acc)))
    return tuple(sorted(tails))


def brute_contest(column: ContestColumn, dice: int, exact: bool = True) -> dict[int, float]:
    """Brute-force P(successes >= k) for every reachable k, as {k: tail}."""
    return dict(_brute_contest(column, dice, exact))


def brute_at_least(tails: dict[int, float], k: int) -> float:
    above = [v for v in tails if v >= k]
    return tails[min(above)] if above else 0.0


# ---------------------------------------------------------------------------
# Table reading
# ---------------------------------------------------------------------------
def test_r2_d1_table_shape_and_notation():
    assert [c.notation for c in COLS] == ["6*", "6", "5+", "4+", "3+", "2+", "2+/5", "2+/4", "2+/3"]
    assert [c.label for c in COLS] == [
        "≤-13",
        "-12..-8",
        "-7..-4",
        "-3..-2",
        "-1..+1",
        "+2..+3",
        "+4..+7",
        "+8..+12",
        "≥+13",
    ]
    for d in range(-40, 41):  # every difference falls in exactly one column
        assert sum(c.contains(d) for c in COLS) == 1


def test_column_index_and_shifts_clamped():
    assert column_index(COLS, 0) == 4
    assert column_index(COLS, 0, shift=2) == 6
    assert column_index(COLS, 0, shift=-1) == 3
    assert column_index(COLS, -30, shift=-1) == 0
    assert column_index(COLS, 30, shift=3) == len(COLS) - 1
    assert column_index(COLS, -13) == 0 and column_index(COLS, -12) == 1
    assert column_index(COLS, 13) == 8 and column_index(COLS, 12) == 7
    gappy = (ContestColumn("low", None, -1, 4), ContestColumn("high", 1, None, 3))
    with pytest.raises(ValueError):
        column_index(gappy, 0)


def test_column_validation():
    with pytest.raises(ValueError):
        ContestColumn("x", 0, 0, 3, reroll_from=1)
    with pytest.raises(ValueError):
        ContestColumn("x", 3, 1, 3)


def test_worked_example_griffin_conscripts():
    # Six conscripts (ATT 2) against morbid puppets (DEF 0): the "2+" column.
    column = contest_column(COLS, 2 - 0)
    assert column.label == "+2..+3" and column.notation == "2+"
    # Glyphs reconstructed: 1, 3, 4, 5, 6, 6; the sixes re-roll 1 and 6; that 6 re-rolls a 3.
    first, rerolls, again = [1, 3, 4, 5, 6, 6], [1, 6], [3]
    assert sum(f >= column.reroll_from for f in first) == len(rerolls)
    assert sum(f >= column.reroll_from for f in rerolls) == len(again)
    assert score_faces(column, first + rerolls + again) == 7  # seven Wound rolls


def test_worked_example_tyrant_of_vile_tis():
    # Tyrant STR 11 against orc brutes RES 6: column "+4..+7", result "2+/5".
    column = contest_column(COLS, 11 - 6)
    assert column.label == "+4..+7" and column.notation == "2+/5"
    assert (column.success, column.reroll_from) == (2, 5)
    # Two Wound rolls: a 3 and a 5; the 5 is re-rolled and gives a 2: three Wounds.
    assert score_faces(column, [3, 5, 2]) == 3
    assert sum(f >= column.reroll_from for f in [3, 5]) == 1


def test_threshold_of_impossible_halves_rounding_up():
    column = COLS[0]
    assert score_faces(column, [6, 6, 6]) == 2
    assert score_faces(column, [5, 4, 1]) == 0
    one_die = contest_successes(COLS, -20, 1)
    # One die at 6*: any success count >= 1 halves to >= 1.
    assert one_die.at_least(1) == pytest.approx(die_successes(column).at_least(1))


# ---------------------------------------------------------------------------
# Exact distributions against brute force
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(COLS)))
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_contest_matches_brute_force(index, dice):
    column = COLS[index]
    got = contest_successes(COLS, DIFFS[index], dice)
    ref = brute_contest(column, dice)
    for k in range(max(ref) + 2):
        assert got.at_least(k) == pytest.approx(brute_at_least(ref, k), abs=1e-9), k
    assert got.total() == pytest.approx(1.0, abs=1e-12)


def test_single_die_closed_values():
    # 3+: success 4/6, six re-rolled: mean = (4/6) / (1 - 1/6) = 0.8.
    assert die_successes(COLS[4]).mean() == pytest.approx(0.8, abs=1e-12)
    # 2+/3: every success re-rolls; mean = (5/6 ... ) geometric: (5/6 - 4/6 ... )
    d = die_successes(COLS[8])
    # K = M + Bernoulli(b), M geometric with ratio 4/6, b = (1/6) / (2/6) = 1/2.
    assert d.mean() == pytest.approx((4 / 6) / (2 / 6) + 0.5, abs=1e-12)
    assert d.at_least(1) == pytest.approx(5 / 6)


@pytest.mark.parametrize("ai", range(len(COLS)))
@pytest.mark.parametrize("dice", [1, 2])
def test_attack_then_wounds_matches_brute_force(ai, dice):
    attack = COLS[ai]
    attack_tails = brute_contest(attack, dice)
    top = max(attack_tails)
    attacks_pmf = np.array(
        [
            brute_at_least(attack_tails, a) - brute_at_least(attack_tails, a + 1)
            for a in range(top + 1)
        ]
    )
    for wi in range(len(COLS)):
        wound = COLS[wi]
        one = np.array(
            [
                float(p)
                for _, p in sorted(brute_die(wound.success, wound.reroll_from, brute_depth(wound)))
            ]
        )
        wounds_ref = np.zeros(1)
        power = np.array([1.0])  # successes of a Wound rolls, a = 0, 1, 2...
        for pa in attacks_pmf:
            dist = power
            if wound.halved:
                dist = np.bincount((np.arange(len(power)) + 1) // 2, weights=power)
            if len(dist) > len(wounds_ref):
                wounds_ref = np.pad(wounds_ref, (0, len(dist) - len(wounds_ref)))
            wounds_ref[: len(dist)] += pa * dist
            power = np.convolve(power, one)
        ref_tails = np.cumsum(wounds_ref[::-1])[::-1]
        attacks, wounds = attack_then_wounds(COLS, DIFFS[ai], DIFFS[wi], dice)
        for k in range(top + 2):
            assert attacks.at_least(k) == pytest.approx(brute_at_least(attack_tails, k), abs=1e-9)
        for k in range(len(ref_tails) + 1):
            expected = ref_tails[k] if k < len(ref_tails) else 0.0
            assert wounds.at_least(k) == pytest.approx(expected, abs=1e-9), (wi, k)


def test_attack_then_wounds_mean_is_product_when_not_halved():
    for ai in range(1, len(COLS)):
        for wi in range(1, len(COLS)):
            attacks, wounds = attack_then_wounds(COLS, DIFFS[ai], DIFFS[wi], 20)
            assert attacks.mean() == pytest.approx(20 * die_successes(COLS[ai]).mean(), rel=1e-9)
            assert wounds.mean() == pytest.approx(
                attacks.mean() * die_successes(COLS[wi]).mean(), rel=1e-9
            )


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(
    st.integers(-20, 20),
    st.integers(-20, 20),
    st.integers(0, 30),
    st.integers(-3, 3),
    st.integers(-3, 3),
)
def test_every_distribution_sums_to_one(att, wnd, dice, shift_a, shift_w):
    dist = contest_successes(COLS, att, dice, shift_a)
    assert dist.total() == pytest.approx(1.0, abs=1e-9)
    attacks, wounds = attack_then_wounds(COLS, att, wnd, dice, shift_a, shift_w)
    assert attacks.total() == pytest.approx(1.0, abs=1e-9)
    assert wounds.total() == pytest.approx(1.0, abs=1e-9)
    assert np.all(wounds.pmf >= 0)


columns_st = st.builds(
    ContestColumn,
    label=st.just("custom"),
    low=st.none(),
    high=st.none(),
    success=st.integers(1, 7),
    reroll_from=st.integers(2, 7),
    halved=st.booleans(),
)


@settings(max_examples=80, deadline=None)
@given(columns_st, st.integers(0, 30))
def test_any_column_data_gives_a_distribution(column, dice):
    dist = contest_successes((column,), 0, dice)
    assert dist.total() == pytest.approx(1.0, abs=1e-9)
    ref = brute_contest(column, 1, exact=column.reroll_from >= 3)
    one = contest_successes((column,), 0, 1)
    for k in range(max(ref) + 2):
        assert one.at_least(k) == pytest.approx(brute_at_least(ref, k), abs=1e-9)


@pytest.mark.parametrize("dice", [1, 2, 3, 5, 8, 13, 20, 30])
def test_column_further_right_never_lowers_at_least(dice):
    tables = [contest_successes(COLS, d, dice) for d in DIFFS]
    for left, right in zip(tables, tables[1:], strict=False):
        for k in range(len(right) + 1):
            assert right.at_least(k) >= left.at_least(k) - 1e-12, k


def test_wounds_monotone_in_both_columns():
    grid = [[attack_then_wounds(COLS, a, w, 10)[1] for w in DIFFS] for a in DIFFS]
    for i in range(len(DIFFS)):
        for j in range(len(DIFFS)):
            here = grid[i][j]
            for other in ([grid[i + 1][j]] if i + 1 < len(DIFFS) else []) + (
                [grid[i][j + 1]] if j + 1 < len(DIFFS) else []
            ):
                for k in range(len(other) + 1):
                    assert other.at_least(k) >= here.at_least(k) - 1e-12


@pytest.mark.parametrize("success", [2, 3, 4, 5, 6])
def test_rerolls_never_lower_a_success_chance(success):
    previous = None
    for reroll_from in (7, 6, 5, 4, 3, 2):  # 7 = no re-roll at all
        column = ContestColumn("c", None, None, success, reroll_from)
        dist = contest_successes((column,), 0, 4)
        if previous is not None:
            for k in range(len(dist) + 1):
                assert dist.at_least(k) >= previous.at_least(k) - 1e-12
        previous = dist
    assert die_successes(ContestColumn("c", None, None, success, 6)).at_least(1) == pytest.approx(
        (7 - success) / 6
    )


# ---------------------------------------------------------------------------
# Characteristic tests (R2-D2)
# ---------------------------------------------------------------------------
def brute_test_outcomes(depth: int = 16) -> list[tuple[int | None, Fraction]]:
    """Every (open-ended result, probability); None = natural 1 on the first die."""

    def chain(level: int) -> list[tuple[int, Fraction]]:
        out = []
        for face in range(1, 7):
            if face == 6 and level > 0:
                out += [(6 + t, p / 6) for t, p in chain(level - 1)]
            else:
                out.append((face, Fraction(1, 6)))
        return out

    result: list[tuple[int | None, Fraction]] = []
    for face in range(1, 7):
        if face == 1:
            result.append((None, Fraction(1, 6)))
        elif face == 6:
            result += [(6 + t, p / 6) for t, p in chain(depth - 1)]
        else:
            result.append((face, Fraction(1, 6)))
    return result


OUTCOMES = brute_test_outcomes()
# Floats for the pairwise enumerations (the cut mass 6**-16 ~ 4e-13 is far below 1e-9).
FLOAT_OUTCOMES = [(x, float(p)) for x, p in OUTCOMES]


def brute_success(value: int, difficulty: int, best_of: int) -> float:
    single = float(sum(p for x, p in OUTCOMES if x is not None and value + x >= difficulty))
    if best_of == 1:
        return single
    if best_of == 2:  # enumerate the pairs of dice, keep the best
        ok = [(x is not None and value + x >= difficulty, p) for x, p in FLOAT_OUTCOMES]
        return sum(pa * pb for oka, pa in ok for okb, pb in ok if oka or okb)
    raise AssertionError


@pytest.mark.parametrize("value", [0, 1, 3, 5, 8])
def test_characteristic_test_matches_enumeration(value):
    for difficulty in range(-2, 26):
        for best_of in (1, 2):
            assert success_p(value, difficulty, best_of) == pytest.approx(
                brute_success(value, difficulty, best_of), abs=1e-9
            ), (difficulty, best_of)


def test_characteristic_examples():
    assert success_p(0, 1) == pytest.approx(5 / 6)  # only the natural 1 fails
    assert success_p(0, 1, auto_fail_on_one=False) == 1.0
    assert success_p(2, 8) == pytest.approx(1 / 6)  # 6 then anything
    assert success_p(2, 9) == pytest.approx(1 / 6)  # 6 then anything: 2 + 6 + 1 = 9
    assert success_p(2, 10) == pytest.approx(1 / 6 * 5 / 6)  # 6 then 2 or more
    assert success_p(4, 6, best_of=2) == pytest.approx(1 - (1 / 6) ** 2)  # 2+ on either die
    assert mastery_test_success(3, 8, 3) == pytest.approx(1 - (1 - success_p(3, 8)) ** 3)


def test_characteristic_total_distribution_encoding():
    for value in (-3, -1, 0, 2, 6):
        for best_of in (1, 2, 3):
            dist = characteristic_test_total(value, best_of)
            assert dist.total() == pytest.approx(1.0, abs=1e-12)
            for difficulty in range(1, 30):
                assert dist.at_least(difficulty) == pytest.approx(
                    success_p(value, difficulty, best_of), abs=1e-12
                )


@pytest.mark.parametrize("value", [0, 2, 5])
def test_best_of_more_dice_never_worse(value):
    for difficulty in range(-2, 25):
        one, two, three = (success_p(value, difficulty, n) for n in (1, 2, 3))
        assert two >= one - 1e-15 and three >= two - 1e-15
        assert success_p(value, difficulty, auto_fail_on_one=False) >= one


def test_opposed_test_matches_enumeration():
    for a, b in [(0, 0), (3, 2), (2, 5), (4, 4), (-1, 2)]:
        for ties in (True, False):
            win = 0.0
            for xa, pa in FLOAT_OUTCOMES:
                for xb, pb in FLOAT_OUTCOMES:
                    ra = -math.inf if xa is None else a + xa
                    rb = -math.inf if xb is None else b + xb
                    if ra > rb or (ra == rb and ties):
                        win += pa * pb
            assert opposed_test_win_probability(a, b, ties) == pytest.approx(win, abs=1e-9)
    # Symmetry: A wins with ties + B wins without ties = 1.
    assert opposed_test_win_probability(3, 1, True) + opposed_test_win_probability(
        1, 3, False
    ) == pytest.approx(1.0)
    assert opposed_test_win_probability(3, 3, True, a_best_of=2) >= opposed_test_win_probability(
        3, 3, True
    )


def test_fear_test_first_number_only():
    expected = [0.0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 5 / 6, 5 / 6, 5 / 6]
    assert [fear_test_success(COLS, d) for d in DIFFS] == pytest.approx(expected)
    assert fear_test_success(COLS, -10, shift=-1) == 0.0  # 6* fails automatically
    assert fear_test_success(COLS, 20, shift=5) == pytest.approx(5 / 6)


# ---------------------------------------------------------------------------
# Samplers: physical dice and fast cached sampling agree with the exact odds
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("index", [0, 2, 4, 6, 8])
def test_physical_and_fast_contest_samplers(index):
    rng = np.random.default_rng(1234 + index)
    exact = contest_successes(COLS, DIFFS[index], 4)
    chi_square_ok(r2.roll_contest_successes(rng, COLS, DIFFS[index], 4, size=60_000), exact)
    chi_square_ok(r2.sample_contest_successes(rng, COLS, DIFFS[index], 4, size=60_000), exact)
    assert isinstance(r2.sample_contest_successes(rng, COLS, DIFFS[index], 4), int)
    assert isinstance(r2.roll_contest_successes(rng, COLS, DIFFS[index], 4), int)


def test_single_die_physical_sampler():
    rng = np.random.default_rng(7)
    for column in COLS:
        chi_square_ok(r2.roll_die_successes(rng, column, size=40_000), die_successes(column))


@pytest.mark.parametrize("pair", [(0, 0), (2, 5), (-20, 10), (20, -20), (10, 20)])
def test_attack_then_wounds_samplers(pair):
    rng = np.random.default_rng(99)
    att, wnd = pair
    attacks, wounds = attack_then_wounds(COLS, att, wnd, 6)
    for sampler in (r2.roll_attack_then_wounds, r2.sample_attack_then_wounds):
        a, w = sampler(rng, COLS, att, wnd, 6, size=40_000)
        chi_square_ok(a, attacks)
        chi_square_ok(w, wounds)
    a1, w1 = r2.sample_attack_then_wounds(rng, COLS, att, wnd, 6)
    assert isinstance(a1, int) and isinstance(w1, int)


def test_characteristic_samplers():
    rng = np.random.default_rng(5)
    for value, best_of in [(0, 1), (3, 2), (-2, 1)]:
        exact = characteristic_test_total(value, best_of)
        chi_square_ok(r2.roll_characteristic_test(rng, value, best_of, size=60_000), exact)
        chi_square_ok(r2.sample_characteristic_test(rng, value, best_of, size=60_000), exact)
    for sampler in (r2.roll_test_success, r2.sample_test_success):
        proportion_ok(sampler(rng, 2, 7, 2, size=60_000), success_p(2, 7, 2))
    for sampler in (r2.roll_opposed_test, r2.sample_opposed_test):
        proportion_ok(
            sampler(rng, r2.OpposedTest(3, 4, True), size=60_000), opposed_test_win_probability(3, 4, True)
        )
    for sampler in (r2.roll_fear_test, r2.sample_fear_test):
        proportion_ok(sampler(rng, COLS, -5, 0, size=60_000), fear_test_success(COLS, -5))
        assert not sampler(rng, COLS, -20, 0, size=1000).any()
    for sampler in (r2.roll_mastery_test, r2.sample_mastery_test):
        proportion_ok(sampler(rng, 2, 9, 3, size=60_000), mastery_test_success(2, 9, 3))
    assert isinstance(r2.roll_test_success(rng, 2, 7), bool)
    assert isinstance(r2.sample_fear_test(rng, COLS, 0), bool)


def test_fast_sampler_throughput_is_reasonable():
    """Not a timing assertion: just exercises the scalar path many times."""
    rng = np.random.default_rng(0)
    total = 0
    for i in range(2000):
        a, w = r2.sample_attack_then_wounds(rng, COLS, i % 7 - 3, i % 5, 1 + i % 12)
        total += w
    assert total > 0


def test_tail_bound_constant():
    assert CHAIN_TAIL == 1e-15
    for column in COLS:
        assert 1 - die_successes(column).total() < CHAIN_TAIL


# ---------------------------------------------------------------------------
# Every difference and every shift against an independent reading of R2-D1
# ---------------------------------------------------------------------------
# The R2-D1 table written out independently: (upper bound of the difference, success,
# re-roll from, halved), and the shift rule (clamp to the ends) re-implemented here.
_R2_D1 = [(-13, 6, 6, True), (-8, 6, 6, False), (-4, 5, 6, False), (-2, 4, 6, False), (1, 3, 6, False),
          (3, 2, 6, False), (7, 2, 5, False), (12, 2, 4, False), (10**9, 2, 3, False)]  # fmt: skip


def _independent_column(difference: int, shift: int) -> tuple[int, int, bool]:
    index = next(i for i, row in enumerate(_R2_D1) if difference <= row[0])
    index = min(max(index + shift, 0), len(_R2_D1) - 1)
    return _R2_D1[index][1:]


@pytest.mark.parametrize("shift", range(-9, 10))
def test_every_difference_and_shift_matches_brute_force(shift):
    for difference in range(-16, 17):
        success, reroll_from, halved = _independent_column(difference, shift)
        column = contest_column(COLS, difference, shift)
        assert (column.success, column.reroll_from, column.halved) == (success, reroll_from, halved)
        ref = brute_contest(ContestColumn("ref", None, None, success, reroll_from, halved), 2)
        got = contest_successes(COLS, difference, 2, shift)
        for k in range(max(ref) + 2):
            assert got.at_least(k) == pytest.approx(brute_at_least(ref, k), abs=1e-9)


def _brute_reroll_die(column: ContestColumn, kind: str) -> dict[int, Fraction]:
    """One die with a one-off second chance, enumerated face by face (exact fractions)."""
    plain = dict(brute_die(column.success, column.reroll_from, brute_depth(column)))
    out: dict[int, Fraction] = {}
    sixth = Fraction(1, 6)
    for face in range(1, 7):
        hit = int(face != 1 and face >= column.success)
        chains = face != 1 and face >= column.reroll_from
        again = face == 1 if kind == "ones" else (not hit and not chains)
        if again:
            for k, p in plain.items():
                out[k] = out.get(k, Fraction(0)) + sixth * p
        elif chains:
            for k, p in brute_die(column.success, column.reroll_from, brute_depth(column) - 1):
                out[k + hit] = out.get(k + hit, Fraction(0)) + sixth * p
        else:
            out[hit] = out.get(hit, Fraction(0)) + sixth
    return out


@pytest.mark.parametrize("kind", ["ones", "failures"])
@pytest.mark.parametrize("index", range(len(COLS)))
def test_one_off_rerolls_match_enumeration_and_dice(kind, index):
    column = COLS[index].with_reroll(kind)
    exact = die_successes(column)
    ref = _brute_reroll_die(COLS[index], kind)
    for k in range(max(ref) + 1):
        assert exact.pmf[k] == pytest.approx(float(ref.get(k, 0)), abs=1e-9)
    assert exact.total() == pytest.approx(1.0, abs=1e-12)
    # A second chance never lowers any "at least k".
    base = die_successes(COLS[index])
    for k in range(len(exact) + 1):
        assert exact.at_least(k) >= base.at_least(k) - 1e-12
    rng = np.random.default_rng(400 + index)
    chi_square_ok(r2.roll_die_successes(rng, column, size=30_000), exact)
