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

How a contact is held (:class:`Contact`): as arrays, not fighter objects. Each unit's row is
the group of each position and a standing flag and a fallen-Fierce flag per position; each
combat's fighters (its *members*) are (position, enemy positions touched there, dice there),
in position order. Who touches whom between two fronts depends only on the groups facing each
other and their dice, so a pair's members are computed once per such layout
(:func:`pair_contact`, cached by value) and shared by every contact that meets it; a contact
adds its flags and the dice its players share. Readers that take fighters one at a time (rout,
disengagement, the scenario tests) get :class:`Fighter` views onto those arrays.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from .tables import contest_cdf, fear_result_p, opposed_chance, pass_chance, table_column

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
    return list(_pairs(contest_cdf(table, difference, dice, shift, reroll)))


def initiative_distribution(ini_a: int, ini_b: int, a_wins_ties: bool) -> Distribution:
    """Opposed Initiative test (R2-D2): outcome True when side A strikes first."""
    p = opposed_chance(ini_a, ini_b, a_wins_ties)
    return [(p, True), (1.0 - p, False)]


def test_distribution(value: int, difficulty: int, best_of: int = 1, ones_fail: bool = True, reroll_ones: bool = False) -> Distribution:
    """A characteristic test (morale roll, rallying, DIS retry of Fanaticism): True on success.

    *reroll_ones*: a natural 1 is rolled again once (Bravery on morale rolls)."""
    if not reroll_ones:
        p = pass_chance(value, difficulty, best_of, ones_fail)
    else:
        single = pass_chance(value, difficulty, 1, ones_fail)
        one_ok = 1.0 / 6.0 if not ones_fail and value + 1 >= difficulty else 0.0
        # A first natural 1 that fails is rolled again (once); any other first die stands.
        single = single + (0.0 if one_ok else single / 6.0)
        p = 1.0 - (1.0 - single) ** best_of
    return [(p, True), (1.0 - p, False)]


def fear_distribution(table: str, cou_minus_fear: int, bonus: int = 0, best_of: int = 1) -> Distribution:
    """Courage test against Fear on the contest table (seed: Repelling), *bonus* added to the
    die's final result (standard bearer, war staff: seed "on the final result"): True on success."""
    p = fear_result_p(table, cou_minus_fear, bonus)
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
    return table_column(table, difference, shift, reroll)


# --------------------------------------------------------------------------- contact


CombatKey = tuple[int, int, int, int]  # (unit key, group, unit key, group), the lower unit key first
# One fighter in one combat: (its position in its unit's row, the enemy positions it touches
# there, its dice there).
Member = tuple[int, tuple[int, ...], int]


class Fighter:
    """One fighter of a contact, as a view: the contact's arrays hold its state.

    For the readers that take fighters one by one (the exact fray's tests, rout, disengagement,
    scenarios): ``group``; ``alive`` and ``fierce`` (read and written through to the contact);
    ``dice``, its combat dice by combat key; ``combats``; ``touches``. The combat kernel never
    makes one: it reads the arrays by position."""

    __slots__ = ("contact", "unit", "pos")

    def __init__(self, contact: Contact, unit: int, pos: int) -> None:
        self.contact = contact
        self.unit = unit  # unit key: side * 1000 + index
        self.pos = pos

    @property
    def group(self) -> int:
        return self.contact.groups[self.unit][self.pos]

    @property
    def alive(self) -> bool:
        return self.contact.alive[self.unit][self.pos]

    @alive.setter
    def alive(self, value: bool) -> None:
        self.contact.alive[self.unit][self.pos] = value

    @property
    def fierce(self) -> bool:
        """Eliminated but still striking, ATT 0, until maintenance (Fierce, Possessed)."""
        return self.contact.fierce[self.unit][self.pos]

    @fierce.setter
    def fierce(self, value: bool) -> None:
        self.contact.fierce[self.unit][self.pos] = value

    @property
    def combats(self) -> tuple[CombatKey, ...]:
        per = self.contact.per[self.unit][self.pos]
        return tuple(per) if per else ()

    @property
    def dice(self) -> dict[CombatKey, int]:
        """Its combat dice by combat (only the combats where it kept some)."""
        out = {}
        for key in self.combats:
            for pos, _touched, d in self.contact.members[(key, self.unit)]:
                if pos == self.pos and d > 0:
                    out[key] = d
        return out

    @property
    def touches(self) -> list[tuple[int, int]]:
        """(enemy unit key, enemy fighter position) of every enemy fighter it touches, combat by
        combat."""
        per = self.contact.per[self.unit][self.pos]
        if not per:
            return []
        me = self.unit
        return [(key[2] if key[0] == me else key[0], q) for key, touched in per.items() for q in touched]

    def __repr__(self) -> str:
        return (
            f"Fighter(unit={self.unit}, pos={self.pos}, group={self.group}, touches={self.touches},"
            f" dice={self.dice}, combats={self.combats}, alive={self.alive}, fierce={self.fierce})"
        )


class PairContact(NamedTuple):
    """Who touches whom between two units facing each other (:func:`pair_contact`)."""

    # (group of A, group of B, 0 for A's fighters or 1 for B's, those fighters in position
    # order with the enemy positions each touches and its dice there)
    members: tuple[tuple[int, int, int, tuple[Member, ...]], ...]
    # (0 for A or 1 for B, position, the (group of A, group of B) combats it joins): fighters in
    # several combats, whose dice the player shares (their dice in *members* are 0 until then)
    shared: tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]


@lru_cache(maxsize=8192)
def pair_contact(
    pos_a: tuple[int, ...], grp_a: tuple[int, ...], each_a: tuple[int, ...],
    pos_b: tuple[int, ...], grp_b: tuple[int, ...], each_b: tuple[int, ...],
) -> PairContact:  # fmt: skip
    """The touches of a pair of units whose fronts face each other at positions *pos_a* and
    *pos_b* of their rows (the fighters there of groups *grp_a*, *grp_b*; *each_a*, *each_b*:
    every group's combat dice), as the combats' members (see the module doc).

    Cached by value: the same few pairs of fronts come back game after game, while whole frays
    (chains of up to nine units) rarely repeat. Read-only: contacts share it."""
    ca, cb = pair_widths(len(pos_a), len(pos_b))
    per_a: dict[int, dict[tuple[int, int], list[int]]] = {}
    per_b: dict[int, dict[tuple[int, int], list[int]]] = {}
    for i, k in pair_touches(ca, cb):
        combo = (grp_a[i], grp_b[k])
        pa, pb = pos_a[i], pos_b[k]
        per_a.setdefault(pa, {}).setdefault(combo, []).append(pb)
        per_b.setdefault(pb, {}).setdefault(combo, []).append(pa)
    members: dict[tuple[int, int, int], list[Member]] = {}
    shared = []
    for side, per, each, pos, grp in ((0, per_a, each_a, pos_a, grp_a), (1, per_b, each_b, pos_b, grp_b)):
        group_at = dict(zip(pos, grp, strict=True))
        for p in sorted(per):
            combos = per[p]
            if len(combos) > 1:
                shared.append((side, p, tuple(combos)))
                d = 0
            else:
                d = each[group_at[p]]
                d = d if d > 0 else 0
            for (ga, gb), touched in combos.items():
                members.setdefault((ga, gb, side), []).append((p, tuple(touched), d))
    return PairContact(tuple((ga, gb, side, tuple(m)) for (ga, gb, side), m in members.items()), tuple(shared))


class Contact(Mapping[int, list[Fighter]]):
    """A fray's contact as arrays: per unit key, the group, ``alive`` and ``fierce`` flags of
    each position of its row (independents first, fallen Fierce fighters last); ``members``,
    the index of every combat's fighters by (combat, unit key), with the enemy positions each
    touches there and its dice there.

    Why arrays: a fray built about ninety fighter objects with a dictionary each, and the
    combats read them one attribute at a time; the layout part (who touches whom, and most
    dice) is the same in many frays and is shared (:func:`static_contact`), so a contact is
    only its flags. Read as a mapping, unit key -> its fighters (:class:`Fighter` views, made
    on demand), for the readers that take fighters one by one."""

    __slots__ = ("groups", "alive", "fierce", "members", "_keys", "_per")

    def __init__(self) -> None:
        self.groups: dict[int, tuple[int, ...]] = {}
        self.alive: dict[int, list[bool]] = {}
        self.fierce: dict[int, list[bool]] = {}
        self.members: dict[tuple[CombatKey, int], tuple[Member, ...]] = {}
        self._keys: list[CombatKey] | None = None
        self._per: dict[int, list[dict[CombatKey, tuple[int, ...]] | None]] | None = None

    @property
    def keys_sorted(self) -> list[CombatKey]:
        """Every combat key, sorted (once: a contact's combats never change)."""
        keys = self._keys
        if keys is None:
            keys = self._keys = sorted({key for key, _uk in self.members})
        return keys

    @property
    def per(self) -> dict[int, list[dict[CombatKey, tuple[int, ...]] | None]]:
        """Unit key -> by position, the enemy positions it touches by combat (None: nobody);
        derived from ``members`` when first read (rout, the views)."""
        per = self._per
        if per is None:
            per = self._per = {uk: [None] * len(grp) for uk, grp in self.groups.items()}
            for (key, uk), listed in self.members.items():
                row = per[uk]
                for p, touched, _d in listed:
                    combats = row[p]
                    if combats is None:
                        row[p] = {key: touched}
                    else:
                        combats[key] = touched
        return per

    def __getitem__(self, uk: int) -> list[Fighter]:
        return [Fighter(self, uk, p) for p in range(len(self.groups[uk]))]

    def __iter__(self) -> Iterator[int]:
        return iter(self.groups)

    def __len__(self) -> int:
        return len(self.groups)

    def release(self) -> None:
        """Nothing to free: a contact's arrays hold no reference back to it (kept for callers)."""


def unit_key(side: int, index: int) -> int:
    return side * 1000 + index


@lru_cache(maxsize=4096)
def front_split(front: int, enemies: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(x) for x in _split_front_lists(front, enemies))


def split_front(front: int, enemies: int) -> list[list[int]]:
    return [list(x) for x in front_split(front, enemies)]


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


@lru_cache(maxsize=4096)
def _touching(pos_a: tuple[int, ...], pos_b: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The touching (position in A's row, position in B's row) pairs of a pair of units whose
    fronts face each other at *pos_a* and *pos_b* (:func:`pair_widths` and :func:`pair_touches`
    read through the positions, cached by value)."""
    ca, cb = pair_widths(len(pos_a), len(pos_b))
    return tuple((pos_a[p], pos_b[q]) for p, q in pair_touches(ca, cb))


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
