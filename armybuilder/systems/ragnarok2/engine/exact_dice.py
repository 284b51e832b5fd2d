"""The chance steps of one exchange as explicit outcome distributions, for the exact fray.

Why a module of its own: the battle engine rolls these steps (:meth:`~.combat.CombatRules.exchange`,
:meth:`~.combat.CombatRules.attack_roll`, :meth:`~.combat.CombatRules.counter_attack`,
Survival instinct's thinning); :mod:`.exact` needs every outcome with its probability. Each
function here mirrors one roll, is built from the same contest distributions (:mod:`.fray`,
R2-D1) and is cached by value (table name, column differences, dice), never by object identity.
The brute-force tests (tests/ragnarok2/test_r2_exact_fray_abilities.py) walk the engine's own
dice, die by die, and compare.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from math import exp, lgamma

from .fray import contest_distribution
from .tables import table_column


@lru_cache(maxsize=4096)
def attack_roll_pmf(table: str, att_diff: int, a_shift: int, reroll: str, dice: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """(successes, first natural 1s) of :meth:`~.combat.CombatRules.attack_roll` (the die by die
    roll used against a Counter-attack fighter), every die enumerated: a first natural 1 (after
    the re-roll of ones, if any) ends the die and counts; any other face scores on the column's
    number and chains on its re-roll threshold, a 1 in the chain ending it without counting."""
    col = table_column(table, att_diff, a_shift, reroll)
    faces = range(2, 7)
    # The chain after a re-roll threshold: successes of a fresh die whose 1 scores nothing.
    chain = {0: 1.0}
    for _ in range(64):  # fixed point: each pass adds one more link of the chain
        nxt: dict[int, float] = defaultdict(float)
        nxt[0] += 1 / 6
        for f in faces:
            s = 1 if f >= col.success else 0
            if f >= col.reroll_from:
                for k, p in chain.items():
                    nxt[k + s] += p / 6
            else:
                nxt[s] += 1 / 6
        if all(abs(nxt.get(k, 0.0) - chain.get(k, 0.0)) < 1e-17 for k in set(nxt) | set(chain)):
            break
        chain = {k: p for k, p in nxt.items() if p > 1e-18}
    first_one = 1 / 36 if col.reroll == "ones" else 1 / 6
    each_face = (1 / 6) * (1 + 1 / 6) if col.reroll == "ones" else 1 / 6
    die: dict[tuple[int, int], float] = defaultdict(float)
    die[(0, 1)] += first_one
    for f in faces:
        s = 1 if f >= col.success else 0
        if f >= col.reroll_from:
            for k, p in chain.items():
                die[(k + s, 0)] += each_face * p
        else:
            die[(s, 0)] += each_face
    total: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(dice):
        nxt2: dict[tuple[int, int], float] = defaultdict(float)
        for (s1, o1), p in total.items():
            for (s2, o2), q in die.items():
                if p * q > 1e-18:
                    nxt2[(s1 + s2, o1 + o2)] += p * q
        total = nxt2
    out: dict[tuple[int, int], float] = defaultdict(float)
    for (s, ones), p in total.items():
        out[((s + 1) // 2 if col.halved else s, ones)] += p
    return tuple(sorted(out.items()))


@lru_cache(maxsize=65536)
def thinned(n: int, face: int) -> tuple[tuple[int, float], ...]:
    """Survival instinct (:meth:`~.combat.CombatRules._survival`): of *n* rolls, each cancelled on
    a natural *face* or more; the rolls left."""
    cancel = (7 - face) / 6
    keep = 1.0 - cancel
    out = []
    for k in range(n + 1):  # k rolls kept
        out.append((k, exp(log_comb(n, k)) * keep**k * cancel ** (n - k)))
    return tuple((k, p) for k, p in out if p > 0)


@lru_cache(maxsize=4096)
def log_comb(n: int, k: int) -> float:
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)


@lru_cache(maxsize=65536)
def exchange_pmf(
    table: str, att_diff: int, dice: int, a_shift: int, reroll: str, fierce_dice: int, fierce_diff: int,
    counter: bool, survival_face: int, str_diff: int, w_shift: int, grace: str,
) -> tuple[tuple[tuple[int, int], float], ...]:  # fmt: skip
    """(Wounds dealt, counter-attack dice) of one side's attacks, as
    :meth:`~.combat.CombatRules.exchange` rolls them: the attack roll (die by die against a
    Counter-attack fighter), the fallen Fierce fighters' attacks at ATT 0, Survival instinct's
    cancelled rolls, then the Wound roll of each hit."""
    hits: dict[tuple[int, int], float] = defaultdict(float)
    if counter:
        for (s, ones), p in attack_roll_pmf(table, att_diff, a_shift, reroll, dice):
            hits[(s, ones)] += p
    else:
        for p, hit in contest_distribution(table, att_diff, dice, a_shift, reroll):
            hits[(int(hit), 0)] += p  # type: ignore[call-overload]
    if fierce_dice:
        extra = {int(s): p for p, s in contest_distribution(table, fierce_diff, fierce_dice, a_shift, reroll)}  # type: ignore[call-overload]
        mixed: dict[tuple[int, int], float] = defaultdict(float)
        for (s, ones), p in hits.items():
            for t, q in extra.items():
                mixed[(s + t, ones)] += p * q
        hits = mixed
    if survival_face:
        kept: dict[tuple[int, int], float] = defaultdict(float)
        for (s, ones), p in hits.items():
            for k, q in thinned(s, survival_face) if s else ((0, 1.0),):
                kept[(k, ones)] += p * q
        hits = kept
    out: dict[tuple[int, int], float] = defaultdict(float)
    for (s, ones), p in hits.items():
        if not s:
            out[(0, ones)] += p
            continue
        for q, dealt in contest_distribution(table, str_diff, s, w_shift, grace):
            out[(int(dealt), ones)] += p * q  # type: ignore[call-overload]
    return tuple(sorted(out.items()))


@lru_cache(maxsize=65536)
def counter_pmf(table: str, att_diff: int, dice: int, str_diff: int, w_shift: int) -> tuple[tuple[int, float], ...]:
    """Wounds of a counter-attack with *dice* dice (:meth:`~.combat.CombatRules.counter_attack`)."""
    out: dict[int, float] = defaultdict(float)
    for p, hits in contest_distribution(table, att_diff, dice, 0):
        if not hits:
            out[0] += p
            continue
        for q, wounds in contest_distribution(table, str_diff, int(hits), w_shift):  # type: ignore[call-overload]
            out[int(wounds)] += p * q  # type: ignore[call-overload]
    return tuple(sorted(out.items()))
