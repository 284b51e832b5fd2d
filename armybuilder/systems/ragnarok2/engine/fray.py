"""The fray's pure pieces: who touches whom, how combat dice are shared, and every chance step
of a combat written as an explicit outcome distribution.

Shape (after OpenSpiel's Python games): the rules never roll a die themselves. Each chance step
is a function returning ``[(probability, outcome), ...]`` (summing to 1), and the caller decides
what to do with it: the battle engine samples one outcome (:func:`sample`, one uniform from the
game's :class:`~.chance.Dice`), an exact calculator enumerates them all and weights the branches.
The distributions come from the exact dice of :mod:`.dice` (the same ones ``armybuilder odds``
prints), cached by value (catalogue hash and integers), never by object identity.

The contact model (seed: Picking the fray and the combat; Resolving a combat)
---------------------------------------------------------------------------
On the one-axis battlefield a unit's *front* is the fighters that can touch an enemy: every
fighter of a scattered unit, two ranks (``max(5, ⌈n/2⌉)``) of a close one. Independents
(Characters, leaders, musicians, standard bearers) stand first in that front. A unit engaged by
several enemy units splits its front between them in enemy order (each fighter faces one
enemy), or, when it has fewer front fighters than enemies, each fighter faces several. In a pair
of units each side brings at most twice the other's fighters plus one (a base touches two or
three enemy bases). Inside a pair, fighter *p* of *cA* and fighter *q* of *cB* touch when their
shares of the common line overlap (``p·cB < (q+1)·cA`` and ``q·cA < (p+1)·cB``): equal numbers
touch one to one, a lone fighter touches everyone in front of it.

A *combat* is one fighter type of a unit against one fighter type of an enemy unit; a fighter
touching several types (or several units) shares its combat dice between those combats, round
robin in the order its player prefers (:func:`share_dice`), so no die is ever rolled twice.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from .tables import _column, _contest_cdf, _fear_result_p, _opposed_p, _test_p

# A chance step: (probability, outcome) pairs summing to 1.
Distribution = list[tuple[float, object]]


# --------------------------------------------------------------------------- chance steps


@lru_cache(maxsize=8192)
def _pairs(cdf: tuple[float, ...]) -> tuple[tuple[float, int], ...]:
    previous = 0.0
    out = []
    for k, c in enumerate(cdf):
        if c > previous:
            out.append((c - previous, k))
        previous = c
    return tuple(out)


def contest_distribution(table: str, difference: int, dice: int, shift: int = 0, reroll: str = "") -> Distribution:
    """Successes of *dice* contest dice (attacks, or Wound rolls) on the column of *difference*
    (R2-D1: re-rolls, advantaged re-rolls, the halved threshold of impossible)."""
    if dice <= 0:
        return [(1.0, 0)]
    return list(_pairs(_contest_cdf(table, difference, dice, shift, reroll)))


def initiative_distribution(ini_a: int, ini_b: int, a_wins_ties: bool) -> Distribution:
    """Opposed Initiative test (R2-D2): outcome True when side A strikes first."""
    p = _opposed_p(ini_a, ini_b, a_wins_ties)
    return [(p, True), (1.0 - p, False)]


def test_distribution(value: int, difficulty: int, best_of: int = 1, ones_fail: bool = True, reroll_ones: bool = False) -> Distribution:
    """A characteristic test (morale roll, rallying, DIS retry of Fanaticism): True on success.

    *reroll_ones*: a natural 1 is rolled again once (Bravery on morale rolls)."""
    if not reroll_ones:
        p = _test_p(value, difficulty, best_of, ones_fail)
    else:
        single = _test_p(value, difficulty, 1, ones_fail)
        one_ok = 1.0 / 6.0 if not ones_fail and value + 1 >= difficulty else 0.0
        # A first natural 1 that fails is rolled again (once); any other first die stands.
        single = single + (0.0 if one_ok else single / 6.0)
        p = 1.0 - (1.0 - single) ** best_of
    return [(p, True), (1.0 - p, False)]


def fear_distribution(table: str, cou_minus_fear: int, bonus: int = 0, best_of: int = 1) -> Distribution:
    """Courage test against Fear on the contest table (seed: Repelling), *bonus* added to the
    die's final result (standard bearer, war staff: seed "on the final result"): True on success."""
    p = _fear_result_p(table, cou_minus_fear, bonus)
    if best_of > 1:
        p = 1.0 - (1.0 - p) ** best_of
    return [(p, True), (1.0 - p, False)]


def sample(dist: Sequence[tuple[float, object]], u: float) -> object:
    """The outcome of *dist* at uniform *u* in [0, 1) (inverse CDF; the last outcome absorbs rounding)."""
    total = 0.0
    for p, outcome in dist:
        total += p
        if u < total:
            return outcome
    return dist[-1][1]


def sample_cdf(cdf: tuple[float, ...], u: float) -> int:
    """Inverse-CDF draw of an integer outcome from a cached CDF (the hot path of :func:`sample`)."""
    k = bisect_right(cdf, u)
    last = len(cdf) - 1
    return k if k < last else last


def cdf_of(dist: Distribution) -> tuple[float, ...]:
    """The CDF of an integer distribution whose outcomes are 0..n (for :func:`sample_cdf`)."""
    pmf = [0.0] * (max(int(o) for _, o in dist) + 1)  # type: ignore[call-overload]
    for p, o in dist:
        pmf[int(o)] += p  # type: ignore[call-overload]
    return tuple(accumulate(pmf))


def column_of(table: str, difference: int, shift: int = 0, reroll: str = ""):
    """The contest column read (for the log and for the counter-attack's die by die roll)."""
    return _column(table, difference, shift, reroll)


# --------------------------------------------------------------------------- contact


# The dice of a fighter in no combat (never written: build_contact() gives touching fighters their own).
_NO_DICE: dict[tuple[int, int, int, int], int] = {}


class Fighter:
    """One fighter in a fray's contact: its unit, its type (group index) and the combats it joins.

    ``per``: the enemy fighters it is in base contact with, by combat (None: it touches nobody);
    ``dice``: its combat dice by combat key, shared once for the whole fray;
    ``combats``: every combat it joins, with or without dice; ``fierce``: eliminated but still
    striking, ATT 0, until maintenance (Fierce, Possessed).

    A plain slotted class, not a dataclass: a fray builds one per fighter of every unit in it
    (about ninety a game), and a five-argument ``__init__`` that sets the empty fields itself
    is the cheapest way to make them. Fighters compare by identity (nothing compares two)."""

    __slots__ = ("unit", "pos", "group", "per", "dice", "combats", "alive", "fierce")

    def __init__(self, unit: int, pos: int, group: int, alive: bool = True, fierce: bool = False) -> None:
        self.unit = unit  # unit key: side * 1000 + index
        self.pos = pos
        self.group = group
        self.per: dict[tuple[int, int, int, int], list[Fighter]] | None = None
        self.dice: dict[tuple[int, int, int, int], int] = _NO_DICE
        self.combats: tuple[tuple[int, int, int, int], ...] = ()
        self.alive = alive
        self.fierce = fierce

    @property
    def touches(self) -> list[tuple[int, int]]:
        """(enemy unit key, enemy fighter position) of every enemy fighter it touches, combat by
        combat (read where the order does not matter: rout, disengagement). Derived from
        ``per`` rather than kept: the fray's hot path never reads it."""
        per = self.per
        if per is None:
            return []
        return [(e.unit, e.pos) for touched in per.values() for e in touched]

    def __repr__(self) -> str:
        return (
            f"Fighter(unit={self.unit}, pos={self.pos}, group={self.group}, touches={self.touches},"
            f" dice={self.dice}, combats={self.combats}, alive={self.alive}, fierce={self.fierce})"
        )


CombatKey = tuple[int, int, int, int]  # (unit key, group, unit key, group), the lower unit key first
# One fighter in one combat: (the fighter, the enemy fighters it touches there, its dice there).
Member = tuple[Fighter, list[Fighter], int]


class Contact(dict[int, list[Fighter]]):
    """A fray's contact: unit key -> its fighters in contact order (a plain dict for callers),
    with ``members``, the index of every combat's fighters.

    Why an index: a combat reads "the fighters of this type touching a live fighter of that
    type" several times per exchange; scanning every fighter of the unit and every touch each
    time was the largest cost of a fray. ``members[(combat key, unit key)]`` lists, once, the
    unit's fighters in that combat (position order) with the enemy fighters each touches there
    and its combat dice there; only the ``alive`` flags change during the fray."""

    __slots__ = ("members", "keys_sorted")

    def __init__(self) -> None:
        super().__init__()
        self.members: dict[tuple[CombatKey, int], list[Member]] = {}
        self.keys_sorted: list[CombatKey] | None = None  # every combat key, sorted (combats_of())

    def release(self) -> None:
        """Forget who touches whom once the fray is over (every fighter's ``per``).

        Why: fighters in contact name each other (A touches B, B touches A), a cycle that
        reference counting alone cannot free, so every finished contact waited for the cyclic
        garbage collector, whose passes were most of its runs during a playtest. Without
        ``per`` nothing in a contact points back, and it is freed as soon as it is dropped."""
        for row in self.values():
            for f in row:
                f.per = None


def unit_key(side: int, index: int) -> int:
    return side * 1000 + index


@lru_cache(maxsize=4096)
def _split_front(front: int, enemies: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(x) for x in _split_front_lists(front, enemies))


def split_front(front: int, enemies: int) -> list[list[int]]:
    return [list(x) for x in _split_front(front, enemies)]


def _split_front_lists(front: int, enemies: int) -> list[list[int]]:
    """Front positions facing each of *enemies* units, in enemy order.

    Enough fighters: consecutive blocks as even as possible (the first enemies get the odd
    ones). Fewer fighters than enemies: enemy *k* is faced by fighter ``k·front // enemies``."""
    if enemies <= 0 or front <= 0:
        return [[] for _ in range(max(enemies, 0))]
    if front >= enemies:
        base, extra = divmod(front, enemies)
        out, start = [], 0
        for k in range(enemies):
            size = base + (1 if k < extra else 0)
            out.append(list(range(start, start + size)))
            start += size
        return out
    return [[k * front // enemies] for k in range(enemies)]


@lru_cache(maxsize=4096)
def pair_touches(ca: int, cb: int) -> tuple[tuple[int, int], ...]:
    """(p, q) pairs of touching fighters when *ca* fighters face *cb* along a common line."""
    return tuple((p, q) for p in range(ca) for q in range(cb) if p * cb < (q + 1) * ca and q * ca < (p + 1) * cb)


def pair_widths(front_a: int, front_b: int) -> tuple[int, int]:
    """Fighters each side brings to a pair: at most twice the other's plus one."""
    ca = min(front_a, 2 * max(front_b, 1) + 1) if front_b else 0
    cb = min(front_b, 2 * max(front_a, 1) + 1) if front_a else 0
    return ca, cb


def share_dice(dice: int, combats: Sequence[tuple[int, int, int, int]]) -> dict[tuple[int, int, int, int], int]:
    """A fighter's combat dice shared between its combats, round robin in the given (preferred)
    order: every combat gets a die before any gets two; a fighter with fewer dice than combats
    leaves the last ones without (its DEF there is 0, seed: Combat dice)."""
    out: dict[tuple[int, int, int, int], int] = {}
    if not combats:
        return out
    for k in range(dice):
        key = combats[k % len(combats)]
        out[key] = out.get(key, 0) + 1
    return out
