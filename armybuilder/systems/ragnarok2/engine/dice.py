"""Rag'Narok 2 dice: contest-table rolls and characteristic tests.

Exact odds (as :class:`~armybuilder.core.dice.Distribution` objects or
probabilities) and their sampling twins.  Two kinds of sampler exist for every
roll, both driven by an injected ``numpy.random.Generator``:

* ``roll_*``: simulates the physical dice (every die and every re-roll), for
  tests and for checking the exact maths;
* ``sample_*``: fast, draws from the exact distribution (cached per column and
  number of dice), for the battle simulator.

The contest table is data: every contest function takes the table as a sequence
of :class:`ContestColumn`.  :data:`R2_D1_COLUMNS` is the reconstruction of
decision R2-D1 (provisional), kept here only as a default and for tests; the
catalogue holds the authoritative copy.

Rules (see docs R2-D1, R2-D2):

* contest die (attack or Wound roll): a natural 1 always fails; the die succeeds
  on its column's number or more; a natural result >= the column's re-roll
  threshold (6, or X on a ``2+/X`` column) gives a free extra roll of the same
  die, read on the same column, chained as long as re-rolls keep reaching the
  threshold; a 1 on a re-roll does not cancel earlier successes;
* ``6*`` column (threshold of impossible): only a 6 succeeds and the total of the
  roll is halved, rounded up; a Courage (Fear) test read there fails;
* Fear tests use the column's first number only (no re-roll);
* characteristic test: 1d6 + value, a natural 1 fails automatically, a 6 is
  rolled again and added, repeatedly; "two dice, keep the best" keeps the better.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from armybuilder.core.dice import CHAIN_TAIL, Distribution, chained_successes, compound

__all__ = [
    "ContestColumn",
    "R2_D1_COLUMNS",
    "column_index",
    "contest_column",
    "score_faces",
    "die_successes",
    "contest_successes",
    "attack_then_wounds",
    "characteristic_test_total",
    "test_success_probability",
    "opposed_test_win_probability",
    "fear_test_success",
    "mastery_test_success",
    "roll_die_successes",
    "roll_contest_successes",
    "sample_contest_successes",
    "roll_attack_then_wounds",
    "sample_attack_then_wounds",
    "roll_characteristic_test",
    "sample_characteristic_test",
    "roll_test_success",
    "sample_test_success",
    "OpposedTest",
    "roll_opposed_test",
    "sample_opposed_test",
    "roll_fear_test",
    "sample_fear_test",
    "roll_mastery_test",
    "sample_mastery_test",
    "clear_caches",
]

_FACES = np.arange(1, 7)


# ---------------------------------------------------------------------------
# The contest table
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ContestColumn:
    """One column of the contest table.

    ``low``/``high``: inclusive bounds of (initiator's value - target's value),
    ``None`` for an open end.  ``success``: a die succeeds on this natural result
    or more.  ``reroll_from``: natural results from this one up give a free extra
    roll (6 normally; 7 would mean never).  ``halved``: threshold of impossible
    (``6*``), the roll's total is halved rounded up.  ``reroll``: a one-off
    second chance granted by a game effect, not by the table: ``"ones"`` (a
    first roll showing a natural 1 is rolled again once: Brutal on attacks) or
    ``"failures"`` (a die that scored nothing is rolled again once: Divine
    grace).  The second roll is a whole new die, chain included.
    """

    label: str
    low: int | None
    high: int | None
    success: int
    reroll_from: int = 6
    halved: bool = False
    reroll: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.success <= 7:
            raise ValueError(f"{self.label}: success must be 1..7")
        if not 2 <= self.reroll_from <= 7:
            # A natural 1 always fails and is never re-rolled; below 2 is meaningless.
            raise ValueError(f"{self.label}: reroll_from must be 2..7")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"{self.label}: low > high")
        if self.reroll not in ("", "ones", "failures"):
            raise ValueError(f"{self.label}: reroll must be '', 'ones' or 'failures'")
        if self.reroll == "failures" and self.reroll_from < self.success:
            # A failed first roll that chains could still score later; "scored
            # nothing" would then not be decidable on the first roll.
            raise ValueError(f"{self.label}: reroll of failures needs reroll_from >= success")

    def with_reroll(self, kind: str) -> ContestColumn:
        """The same column read with a one-off re-roll (see ``reroll``)."""
        return replace(self, reroll=kind) if kind != self.reroll else self

    def contains(self, difference: int) -> bool:
        return (self.low is None or difference >= self.low) and (
            self.high is None or difference <= self.high
        )

    @property
    def notation(self) -> str:
        """The result as printed in the table: ``6*``, ``6``, ``4+``, ``2+/5``..."""
        if self.halved:
            return f"{self.success}*"
        if self.success >= 6:
            return str(self.success)
        text = f"{self.success}+"
        return text + (f"/{self.reroll_from}" if self.reroll_from < 6 else "")


#: R2-D1 (provisional) reconstruction of the contest table.  Default and tests
#: only: the catalogue carries the authoritative table as data.
R2_D1_COLUMNS: tuple[ContestColumn, ...] = (
    ContestColumn("≤-13", None, -13, 6, 6, halved=True),
    ContestColumn("-12..-8", -12, -8, 6),
    ContestColumn("-7..-4", -7, -4, 5),
    ContestColumn("-3..-2", -3, -2, 4),
    ContestColumn("-1..+1", -1, 1, 3),
    ContestColumn("+2..+3", 2, 3, 2),
    ContestColumn("+4..+7", 4, 7, 2, 5),
    ContestColumn("+8..+12", 8, 12, 2, 4),
    ContestColumn("≥+13", 13, None, 2, 3),
)


def column_index(columns: Sequence[ContestColumn], difference: int, shift: int = 0) -> int:
    """Index of the column read for *difference*, moved by *shift* columns.

    Positive shifts move right (better for the roller), negative left; the caller
    passes the net shift (left and right shifts cancel one for one, R2-D1).  The
    result is clamped to the table's ends.
    """
    for i, column in enumerate(columns):
        if column.contains(difference):
            return min(max(i + shift, 0), len(columns) - 1)
    raise ValueError(f"no contest column covers the difference {difference}")


def contest_column(
    columns: Sequence[ContestColumn], difference: int, shift: int = 0
) -> ContestColumn:
    """The column read for *difference* after *shift* (see :func:`column_index`)."""
    return columns[column_index(columns, difference, shift)]


# ---------------------------------------------------------------------------
# Rules of one contest die (shared by the exact maths and the dice simulators)
# ---------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _face_rules(column: ContestColumn) -> tuple[np.ndarray, np.ndarray]:
    """For natural results 1..6: (succeeds?, gives a free re-roll?)."""
    not_one = _FACES != 1  # a natural 1 always fails and is never re-rolled
    succeeds = not_one & (_FACES >= column.success)
    rerolls = not_one & (_FACES >= column.reroll_from)
    succeeds.flags.writeable = False
    rerolls.flags.writeable = False
    return succeeds, rerolls


def _halve_up(total: Any) -> Any:
    return (total + 1) // 2


def score_faces(column: ContestColumn, faces: Sequence[int]) -> int:
    """Successes scored by a list of natural results (first rolls and re-rolls
    together) on *column*, halved rounded up on a ``6*`` column.

    Checks that the number of re-rolls is consistent is left to the caller; this
    only applies the reading rules (used by the worked-example tests).
    """
    succeeds, _ = _face_rules(column)
    total = sum(int(succeeds[f - 1]) for f in faces)
    return _halve_up(total) if column.halved else total


# ---------------------------------------------------------------------------
# Exact distributions
# ---------------------------------------------------------------------------
@lru_cache(maxsize=256)
def die_successes(column: ContestColumn) -> Distribution:
    """Successes of ONE die of a contest roll (attack or Wound roll), re-rolls
    included and before any halving.

    The re-roll chain is unbounded; it is tabulated in closed form up to the point
    where the remaining mass is below 1e-15 (see
    :func:`armybuilder.core.dice.chained_successes`).
    """
    succeeds, rerolls = _face_rules(column)
    sixth = 1.0 / 6.0
    base = chained_successes(
        success_reroll=float(np.sum(succeeds & rerolls)) * sixth,
        fail_reroll=float(np.sum(~succeeds & rerolls)) * sixth,
        success_stop=float(np.sum(succeeds & ~rerolls)) * sixth,
        fail_stop=float(np.sum(~succeeds & ~rerolls)) * sixth,
        tail=CHAIN_TAIL,
    )
    if not column.reroll:
        return base
    # One-off second chance on an event E of probability q whose outcome is 0
    # successes (a first natural 1, or a die that scored nothing): the die is
    # then replaced by a fresh one, so law = base - q*point(0) + q*base.
    q = sixth if column.reroll == "ones" else float(base.pmf[0])
    pmf = base.pmf * (1.0 + q)
    pmf[0] -= q
    return Distribution(pmf)


@lru_cache(maxsize=4096)
def contest_dist(column: ContestColumn, dice: int) -> Distribution:
    if dice < 0:
        raise ValueError("dice must be >= 0")
    dist = die_successes(column).power(dice).truncate(CHAIN_TAIL)
    return dist.map(_halve_up, vectorized=True) if column.halved else dist


def contest_successes(
    columns: Sequence[ContestColumn], difference: int, dice: int, shift: int = 0
) -> Distribution:
    """Total successes of *dice* contest dice for (initiator - target) =
    *difference*, read *shift* columns right (+) or left (-).

    On a ``6*`` column the total is halved, rounded up.  Results are cached per
    (column, dice) and shared (distributions are immutable).
    """
    return contest_dist(contest_column(columns, difference, shift), dice)


@lru_cache(maxsize=1024)
def _wounds_per_attack_die(attack: ContestColumn, wound: ContestColumn) -> Distribution:
    # Wound rolls produced by ONE attack die (before any halving of the wounds).
    return compound(die_successes(attack), die_successes(wound)).truncate(CHAIN_TAIL)


@lru_cache(maxsize=4096)
def _attack_then_wounds(
    attack: ContestColumn, wound: ContestColumn, dice: int
) -> tuple[Distribution, Distribution]:
    attacks = contest_dist(attack, dice)
    if attack.halved:
        # Halving acts on the total of successful attacks: compound on it.
        raw = compound(attacks, die_successes(wound))
    else:
        # Sum over dice of (wound rolls produced by each die): iid per die.
        raw = _wounds_per_attack_die(attack, wound).power(dice)
    raw = raw.truncate(CHAIN_TAIL)
    wounds = raw.map(_halve_up, vectorized=True) if wound.halved else raw
    return attacks, wounds


def attack_then_wounds(
    columns: Sequence[ContestColumn],
    att_minus_def: int,
    str_minus_res: int,
    dice: int,
    attack_shift: int = 0,
    wound_shift: int = 0,
) -> tuple[Distribution, Distribution]:
    """(successful attacks, wounds) of a combat roll of *dice* attack dice.

    Every successful attack (after halving on a ``6*`` column) gives one Wound
    roll on the STR - RES column; the wounds are the successes of all those Wound
    rolls (halved on a ``6*`` column), before any allocation to victims.
    """
    return _attack_then_wounds(
        contest_column(columns, att_minus_def, attack_shift),
        contest_column(columns, str_minus_res, wound_shift),
        dice,
    )


def fear_test_success(
    columns: Sequence[ContestColumn], cou_minus_fear: int, shift: int = 0
) -> float:
    """Probability that a Courage test against Fear succeeds (R2-D1).

    Read on the contest table with COU - Fear; only the column's first number
    counts (no re-roll), a natural 1 fails, and a ``6*`` column fails
    automatically.
    """
    column = contest_column(columns, cou_minus_fear, shift)
    if column.halved:
        return 0.0
    succeeds, _ = _face_rules(column)
    return float(np.count_nonzero(succeeds)) / 6.0


# ---------------------------------------------------------------------------
# Characteristic tests (R2-D2)
# ---------------------------------------------------------------------------
def open_ended_at_least(t: int) -> float:
    """P(X >= t) for X = 1d6 where each 6 is rolled again and added (no auto-fail).

    X = 6j + g with j sixes then a final g in 1..5.  Writing t = 6j + u with
    u in 1..6: X >= t needs j sixes first, then a result >= u (a 6 always
    qualifies since it adds more), so P = 6**-j * (7 - u) / 6 for u >= 2, and
    6**-j for u = 1.
    """
    if t <= 1:
        return 1.0
    j, u = divmod(t - 1, 6)
    u += 1
    return 6.0**-j * ((7 - u) / 6.0 if u >= 2 else 1.0)


def _single_test_success(value: int, difficulty: int, auto_fail_on_one: bool) -> float:
    threshold = difficulty - value
    if auto_fail_on_one:
        threshold = max(threshold, 2)  # a natural 1 never succeeds
    return open_ended_at_least(threshold)


def test_success_probability(
    value: int, difficulty: int, best_of: int = 1, auto_fail_on_one: bool = True
) -> float:
    """P(a characteristic test succeeds): 1d6 + *value* >= *difficulty* (R2-D2).

    A natural 1 fails automatically (unless *auto_fail_on_one* is False); a 6 is
    rolled again and added, repeatedly (a re-roll showing 1 simply adds 1).
    *best_of* dice are rolled and the best kept (2 for Leadership/X on the
    tactical roll or the Commander-in-Chief's privilege).  Exact closed form.
    """
    if best_of < 1:
        raise ValueError("best_of must be >= 1")
    p = _single_test_success(value, difficulty, auto_fail_on_one)
    return 1.0 - (1.0 - p) ** best_of


try:
    test_success_probability.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
except AttributeError:
    pass


@lru_cache(maxsize=1024)
def encoded_test_result(offset_value: int, best_of: int, auto_fail_on_one: bool) -> Distribution:
    """Encoded results of a test with value >= 0: index 0 = failure, else the final result."""
    # X = 6j + g (j sixes, then g in 1..5) has probability 6**-(j+1).
    sixes = 1
    while 6.0**-sixes >= CHAIN_TAIL:
        sixes += 1
    x = np.arange(1, 6 * sixes + 1)
    px = 6.0 ** -((x - 1) // 6 + 1)
    px[x % 6 == 0] = 0.0  # X is never a multiple of 6 (a 6 is always followed by more)
    results = x + offset_value
    pmf = np.zeros(int(results.max()) + 1)
    pmf[results] = px
    if auto_fail_on_one:
        pmf[0] += pmf[1 + offset_value]
        pmf[1 + offset_value] = 0.0
    single = Distribution(pmf)
    best = single
    for _ in range(best_of - 1):
        best = best.maximum(single)
    return best


def characteristic_test_total(
    value: int, best_of: int = 1, auto_fail_on_one: bool = True
) -> Distribution:
    """Distribution of the final result of a characteristic test (R2-D2).

    Encoding: value 0 stands for a failed test (natural 1, or a final result of 0
    or less); any other value k is a final result of k.  So for a difficulty
    D >= 1, ``at_least(D)`` is the probability of success.  With *best_of* dice
    the best result is kept (a natural 1 on one die does not spoil the other).
    The open-ended tail is cut where less than 1e-15 of mass remains.
    """
    if best_of < 1:
        raise ValueError("best_of must be >= 1")
    if value >= 0:
        return encoded_test_result(value, best_of, auto_fail_on_one)
    # Negative value: results <= 0 fail any positive difficulty; fold them into 0.
    dist = encoded_test_result(0, best_of, auto_fail_on_one)
    return dist.map(lambda k: np.maximum(k + value, 0) * (k > 0), vectorized=True)


def opposed_test_win_probability(
    a: int,
    b: int,
    a_wins_ties: bool,
    *,
    a_best_of: int = 1,
    b_best_of: int = 1,
    auto_fail_on_one: bool = True,
) -> float:
    """P(side A wins an opposed test, e.g. Initiative: 1d6 + a against 1d6 + b).

    Higher final result wins; ties go to A iff *a_wins_ties* (the winner of the
    tactical roll, R2-D2).  An automatic failure (natural 1) loses to any result;
    two automatic failures are a tie (R2-D2 is silent; our reading).
    """
    offset = max(0, -min(a, b))
    da = encoded_test_result(a + offset, a_best_of, auto_fail_on_one).pmf
    db = encoded_test_result(b + offset, b_best_of, auto_fail_on_one).pmf
    n = max(len(da), len(db))
    pa = np.pad(da, (0, n - len(da)))
    pb = np.pad(db, (0, n - len(db)))
    b_below = np.concatenate([[0.0], np.cumsum(pb)[:-1]])  # P(B < k)
    win = float(np.dot(pa, b_below))
    if a_wins_ties:
        win += float(np.dot(pa, pb))
    return min(max(win, 0.0), 1.0)


@dataclass(frozen=True)
class OpposedTest:
    """One opposed test, as its two samplers (:func:`roll_opposed_test`, physical, and
    :func:`sample_opposed_test`, from the exact law) take it; the arguments of
    :func:`opposed_test_win_probability`."""

    a: int
    b: int
    a_wins_ties: bool
    a_best_of: int = 1
    b_best_of: int = 1
    auto_fail_on_one: bool = True

    def win_probability(self) -> float:
        """P(side A wins): :func:`opposed_test_win_probability`."""
        return opposed_test_win_probability(
            self.a, self.b, self.a_wins_ties, a_best_of=self.a_best_of, b_best_of=self.b_best_of, auto_fail_on_one=self.auto_fail_on_one
        )


def mastery_test_success(power: int, difficulty: int, dice: int) -> float:
    """P(a Power/Faith test with several dice succeeds) for rituals and communions.

    "Rolls 1d6 and an extra 1d6 per gem" is read as: roll *dice* dice (1 + gems)
    and keep the best, each die following R2-D2 (natural 1 fails, 6 re-rolled and
    added); success if power + kept result >= difficulty.  Interpretation of the
    mystics seed under R2-D2.
    """
    if dice < 1:
        raise ValueError("dice must be >= 1")
    return test_success_probability(power, difficulty, best_of=dice)


# ---------------------------------------------------------------------------
# Physical-dice simulators (every die and re-roll is rolled)
# ---------------------------------------------------------------------------
def _roll_contest_dice(
    rng: np.random.Generator, column: ContestColumn, dice: np.ndarray
) -> np.ndarray:
    """Successes (before halving) of dice[i] contest dice for each row i."""
    succeeds, rerolls = _face_rules(column)
    dice = np.asarray(dice, dtype=np.int64)
    rows = np.arange(dice.size)
    totals = np.zeros(dice.size, dtype=np.int64)
    pending = dice.copy()
    first = True
    while True:
        count = int(pending.sum())
        if count == 0:
            return totals
        owner = np.repeat(rows, pending)
        faces = rng.integers(1, 7, size=count)
        if first and column.reroll:
            # The one-off second chance applies to the first roll of each die.
            if column.reroll == "ones":
                again = faces == 1
            else:
                again = ~succeeds[faces - 1] & ~rerolls[faces - 1]
            faces[again] = rng.integers(1, 7, size=int(again.sum()))
        first = False
        totals += np.bincount(owner, weights=succeeds[faces - 1], minlength=dice.size).astype(
            np.int64
        )
        pending = np.bincount(owner, weights=rerolls[faces - 1], minlength=dice.size).astype(
            np.int64
        )


def _shape_out(values: np.ndarray, size: int | None, scalar: type = int) -> Any:
    """The simulators' answer: one plain ``scalar`` when no *size* was asked for, else the array."""
    return scalar(values[0]) if size is None else values


def _roll_contest(rng: np.random.Generator, column: ContestColumn, dice: np.ndarray) -> np.ndarray:
    """Successes of dice[i] contest dice for each row i, halved (rounded up) if the column says so."""
    totals = _roll_contest_dice(rng, column, dice)
    return _halve_up(totals) if column.halved else totals


def roll_die_successes(
    rng: np.random.Generator, column: ContestColumn, size: int | None = None
) -> Any:
    """Physical simulation of one contest die (re-rolls included, no halving)."""
    n = 1 if size is None else size
    return _shape_out(_roll_contest_dice(rng, column, np.ones(n, dtype=np.int64)), size)


def roll_contest_successes(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    difference: int,
    dice: int,
    shift: int = 0,
    size: int | None = None,
) -> Any:
    """Physical twin of :func:`contest_successes` (an int, or an array of *size*)."""
    column = contest_column(columns, difference, shift)
    n = 1 if size is None else size
    return _shape_out(_roll_contest(rng, column, np.full(n, dice, dtype=np.int64)), size)


def roll_attack_then_wounds(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    att_minus_def: int,
    str_minus_res: int,
    dice: int,
    attack_shift: int = 0,
    wound_shift: int = 0,
    size: int | None = None,
) -> tuple[Any, Any]:
    """Physical twin of :func:`attack_then_wounds`: (attacks, wounds)."""
    attack = contest_column(columns, att_minus_def, attack_shift)
    wound = contest_column(columns, str_minus_res, wound_shift)
    n = 1 if size is None else size
    attacks = _roll_contest(rng, attack, np.full(n, dice, dtype=np.int64))
    wounds = _roll_contest(rng, wound, attacks)
    return _shape_out(attacks, size), _shape_out(wounds, size)


def _roll_test_dice(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """*count* characteristic-test dice: (open-ended totals, first result was a 1)."""
    first = rng.integers(1, 7, size=count)
    totals = first.astype(np.int64)
    live = np.flatnonzero(first == 6)
    while live.size:
        again = rng.integers(1, 7, size=live.size)
        totals[live] += again
        live = live[again == 6]
    return totals, first == 1


def _roll_test_results(
    rng: np.random.Generator, value: int, best_of: int, n: int, auto_fail_on_one: bool
) -> tuple[np.ndarray, Any]:
    """Per trial: (best final result, all dice failed automatically)."""
    totals, ones = _roll_test_dice(rng, n * best_of)
    results = (totals + value).reshape(n, best_of)
    failed = ones.reshape(n, best_of) if auto_fail_on_one else np.zeros((n, best_of), dtype=bool)
    # A failed die ranks below every other result.
    ranked = np.where(failed, np.iinfo(np.int64).min, results)
    best = ranked.max(axis=1)
    return best, failed.all(axis=1)


def roll_characteristic_test(
    rng: np.random.Generator,
    value: int,
    best_of: int = 1,
    size: int | None = None,
    auto_fail_on_one: bool = True,
) -> Any:
    """Physical twin of :func:`characteristic_test_total` (same encoding: 0 = failure)."""
    n = 1 if size is None else size
    best, failed = _roll_test_results(rng, value, best_of, n, auto_fail_on_one)
    encoded = np.where(failed | (best <= 0), 0, best)
    return _shape_out(encoded, size)


def roll_test_success(
    rng: np.random.Generator,
    value: int,
    difficulty: int,
    best_of: int = 1,
    size: int | None = None,
    auto_fail_on_one: bool = True,
) -> Any:
    """Physical twin of :func:`test_success_probability` (bool or bool array)."""
    n = 1 if size is None else size
    best, failed = _roll_test_results(rng, value, best_of, n, auto_fail_on_one)
    ok = ~failed & (best >= difficulty)
    return _shape_out(ok, size, bool)


def roll_opposed_test(rng: np.random.Generator, test: OpposedTest, size: int | None = None) -> Any:
    """Physical twin of :meth:`OpposedTest.win_probability`: does A win?"""
    n = 1 if size is None else size
    ra, fa = _roll_test_results(rng, test.a, test.a_best_of, n, test.auto_fail_on_one)
    rb, fb = _roll_test_results(rng, test.b, test.b_best_of, n, test.auto_fail_on_one)
    low = np.iinfo(np.int64).min
    ra = np.where(fa, low, ra)
    rb = np.where(fb, low, rb)
    wins = (ra > rb) | ((ra == rb) & test.a_wins_ties)
    return _shape_out(wins, size, bool)


def roll_fear_test(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    cou_minus_fear: int,
    shift: int = 0,
    size: int | None = None,
) -> Any:
    """Physical twin of :func:`fear_test_success`: one die, first number only."""
    column = contest_column(columns, cou_minus_fear, shift)
    n = 1 if size is None else size
    faces = rng.integers(1, 7, size=n)
    succeeds, _ = _face_rules(column)
    ok = succeeds[faces - 1] & (not column.halved)
    return _shape_out(ok, size, bool)


def roll_mastery_test(
    rng: np.random.Generator, power: int, difficulty: int, dice: int, size: int | None = None
) -> Any:
    """Physical twin of :func:`mastery_test_success` (keep the best of *dice*)."""
    return roll_test_success(rng, power, difficulty, best_of=dice, size=size)


# ---------------------------------------------------------------------------
# Fast samplers (draw from the exact, cached distributions)
# ---------------------------------------------------------------------------
def sample_contest_successes(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    difference: int,
    dice: int,
    shift: int = 0,
    size: int | None = None,
) -> Any:
    """Fast twin of :func:`contest_successes`: draws from the cached exact distribution."""
    return contest_dist(contest_column(columns, difference, shift), dice).sample(rng, size)


def sample_attack_then_wounds(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    att_minus_def: int,
    str_minus_res: int,
    dice: int,
    attack_shift: int = 0,
    wound_shift: int = 0,
    size: int | None = None,
) -> tuple[Any, Any]:
    """Fast twin of :func:`attack_then_wounds`: (attacks, wounds).

    Attacks come from the cached contest distribution; given A attacks the wounds
    are a contest of A Wound dice on the Wound column (halving included), also
    cached, so the pair keeps its exact joint law.
    """
    attack = contest_column(columns, att_minus_def, attack_shift)
    wound = contest_column(columns, str_minus_res, wound_shift)
    attacks = contest_dist(attack, dice).sample(rng, size)
    if size is None:
        return attacks, contest_dist(wound, attacks).sample(rng)
    wounds = np.empty_like(attacks)
    for count in np.unique(attacks):
        where = attacks == count
        wounds[where] = contest_dist(wound, int(count)).sample(rng, int(where.sum()))
    return attacks, wounds


def sample_characteristic_test(
    rng: np.random.Generator,
    value: int,
    best_of: int = 1,
    size: int | None = None,
    auto_fail_on_one: bool = True,
) -> Any:
    """Fast twin of :func:`characteristic_test_total` (0 = failure)."""
    return characteristic_test_total(value, best_of, auto_fail_on_one).sample(rng, size)


def _bernoulli(rng: np.random.Generator, p: float, size: int | None) -> Any:
    if size is None:
        return bool(rng.random() < p)
    return rng.random(size) < p


def sample_test_success(
    rng: np.random.Generator,
    value: int,
    difficulty: int,
    best_of: int = 1,
    size: int | None = None,
    auto_fail_on_one: bool = True,
) -> Any:
    """Fast twin of :func:`test_success_probability`."""
    return _bernoulli(
        rng, test_success_probability(value, difficulty, best_of, auto_fail_on_one), size
    )


def sample_opposed_test(rng: np.random.Generator, test: OpposedTest, size: int | None = None) -> Any:
    """Fast twin of :meth:`OpposedTest.win_probability`: does A win?"""
    return _bernoulli(rng, test.win_probability(), size)


def sample_fear_test(
    rng: np.random.Generator,
    columns: Sequence[ContestColumn],
    cou_minus_fear: int,
    shift: int = 0,
    size: int | None = None,
) -> Any:
    """Fast twin of :func:`fear_test_success`."""
    return _bernoulli(rng, fear_test_success(columns, cou_minus_fear, shift), size)


def sample_mastery_test(
    rng: np.random.Generator, power: int, difficulty: int, dice: int, size: int | None = None
) -> Any:
    """Fast twin of :func:`mastery_test_success`."""
    return _bernoulli(rng, mastery_test_success(power, difficulty, dice), size)


def clear_caches(*, keep_single_die: bool = False) -> None:
    """Empty the memoised distributions.

    With *keep_single_die* the per-die tables survive: the successes of one die
    per column and the Wound rolls produced by one attack die per column pair.
    """
    for cached in (contest_dist, _attack_then_wounds, encoded_test_result):
        cached.cache_clear()
    if not keep_single_die:
        _wounds_per_attack_die.cache_clear()
        die_successes.cache_clear()
        _face_rules.cache_clear()
