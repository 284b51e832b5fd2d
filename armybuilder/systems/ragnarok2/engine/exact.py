"""The exact outcome of one fray between two units: every chance step enumerated, not sampled.

Why: a player asking "if my Knights charge their Zombies?" wants the distribution of what
happens, not a noisy estimate. The battle engine plays a fray by rolling each chance step once;
this module walks the same steps with every outcome, weighting the branches, and merges the
branches that reach the same state (a dict keyed by the state), so the work grows with the
number of distinct states, not of dice sequences.

One rules code: the steps are the battle engine's own. The contact and the sharing of combat
dice (:meth:`~.combat.CombatRules.build_contact`), the order of the combats
(:meth:`~.combat.CombatRules.combat_sequence`), each exchange's dice and columns
(:meth:`~.combat.CombatRules.exchange_terms`), the Initiative test, the allocation of Wounds to
the fighters in contact (:meth:`~.combat.CombatRules.wound_type`), the morale roll's difficulty
and value and the rout (:mod:`.outcome`) are called on a real :class:`~.battle.Battle` whose units
are set to each state in turn. Only the dice differ: the battle samples the distributions of
:mod:`.fray` (contest table, R2-D1; tests, R2-D2), this module enumerates them.

The state key holds what later steps read and nothing else: each fighter type's count and the
Wounds on its wounded fighter, which fighters of the contact still stand (a bit mask per unit:
the next combats and the rout read it) and the difference of Wounds dealt (the outcome of the
fray compares them). Branches below 1e-12 of mass are dropped and their mass reported.

Not modelled exactly (refused with the reason, rather than answered wrongly): fighters whose
dice or Wounds need more than the contest distribution (Counter-attack, Survival instinct,
Fierce, Possessed, Sequence, Master strike, Concentration, Mutagenic), Implacable (new combats
after pushing on), and lowering DEF to 0 (Bravery, Righteous, Fanaticism's STR bonus).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .battle import Battle
from .combat import ExchangeTerms, earns_charge_bonus
from .fray import (
    Fighter,
    contest_distribution,
    initiative_distribution,
    test_distribution,
    unit_key,
)
from .state import Fighting

PRUNE = 1e-12

State = tuple  # ((count, damage) per group of A then B, alive mask A, alive mask B, Wounds A - Wounds B)


class ExactFrayUnsupported(ValueError):
    """The fray involves a rule the exact calculation does not enumerate (see the module's docstring)."""


@dataclass
class CharacterOdds:
    side: int  # 0: the unit asked about, 1: its opponent
    name: str
    p_falls: float


@dataclass
class FrayOdds:
    """The exact outcome of one fray."""

    names: tuple[str, str]
    fighters: tuple[int, int]  # fighters of each unit before the fray
    points: tuple[int, int]  # A.P. of each unit before the fray
    charge: bool
    losses: dict[tuple[int, int], float]  # (fighters lost by A, by B) -> probability
    p_rout: tuple[float, float]
    characters: list[CharacterOdds]
    ap_lost: tuple[float, float]  # expected A.P. eliminated of each unit
    pruned: float  # mass dropped below PRUNE
    states: int = 0  # most states held at once (a measure of the work)
    outcomes: dict[tuple[int, int, bool, bool], float] = field(default_factory=dict)  # (lost A, lost B, A routs, B routs) -> p

    def marginal(self, side: int) -> list[float]:
        """P(side loses exactly k fighters), k = 0..its fighters."""
        out = [0.0] * (self.fighters[side] + 1)
        for pair, p in self.losses.items():
            out[pair[side]] += p
        return out

    def at_least(self, side: int) -> list[float]:
        """P(side loses at least k fighters), k = 0..its fighters."""
        pmf = self.marginal(side)
        out, acc = [0.0] * len(pmf), 0.0
        for k in range(len(pmf) - 1, -1, -1):
            acc += pmf[k]
            out[k] = acc
        return out

    def expected_losses(self, side: int) -> float:
        return sum(pair[side] * p for pair, p in self.losses.items())


@lru_cache(maxsize=65536)
def _dealt_pmf(table: str, att_diff: int, dice: int, a_shift: int, reroll: str, str_diff: int, w_shift: int, grace: str) -> tuple[tuple[int, float], ...]:
    """Wounds dealt by an exchange: the attack roll, then the Wound roll of each hit (one
    distribution, merged over the number of hits: later steps only read the Wounds)."""
    pmf: dict[int, float] = defaultdict(float)
    for p, hits in contest_distribution(table, att_diff, dice, a_shift, reroll) if dice > 0 else [(1.0, 0)]:
        if not hits:
            pmf[0] += p
            continue
        for q, dealt in contest_distribution(table, str_diff, int(hits), w_shift, grace):  # type: ignore[call-overload]
            pmf[int(dealt)] += p * q  # type: ignore[call-overload]
    return tuple(sorted(pmf.items()))


def unsupported(bt: Battle, units: Iterable[Fighting]) -> list[str]:
    """Why this fray cannot be enumerated exactly (empty when it can)."""
    out = []
    for u in units:
        if u.tactic or u.round_effects or u.no_attack:
            out.append(f"{u.name}: a tactic or a mystic effect this round")
        for g in u.groups:
            t = g.traits
            why = [
                name for name, on in (
                    ("Counter-attack", t.counter_attack_face), ("Survival instinct", t.survival_face),
                    ("Fierce", t.fierce), ("Possessed", t.possessed), ("Implacable", t.implacable),
                    ("attacks changed by an ability", not g.plain), ("lowers DEF to 0", bt.lowers_def(u, g)),
                ) if on
            ]  # fmt: skip
            if why:
                out.append(f"{g.profile.name} ({u.name}): {', '.join(why)}")
    return out


class ExactFray:
    """One fray between unit *a* (side 0) and unit *b* (side 1) of a battle, enumerated."""

    def __init__(self, bt: Battle, a: Fighting, b: Fighting) -> None:
        reasons = unsupported(bt, (a, b))
        if reasons:
            raise ExactFrayUnsupported("the exact fray does not enumerate: " + "; ".join(reasons))
        self.bt, self.a, self.b = bt, a, b
        self.ka, self.kb = unit_key(a.side, a.index), unit_key(b.side, b.index)
        a.engaged.add(b.index)
        b.engaged.add(a.index)
        self.fighters: dict[int, list[Fighter]] = bt.build_contact(sorted((a, b), key=lambda u: (u.side, u.index)))
        self.groups = [*a.groups, *b.groups]
        self.states = {a: a.state, b: b.state}
        self.start = tuple(g.count for g in self.groups)
        self.pruned = 0.0
        self.most = 1
        self.memo: dict[tuple, list[tuple[float, tuple, int]]] = {}

    # -- the state ------------------------------------------------------------

    def snapshot(self, diff: int) -> State:
        masks = []
        for k in (self.ka, self.kb):
            m = 0
            for f in self.fighters[k]:
                if f.alive:
                    m |= 1 << f.pos
            masks.append(m)
        return (tuple((g.count, g.damage) for g in self.groups), masks[0], masks[1], diff)

    def restore(self, st: State) -> None:
        for g, (c, d) in zip(self.groups, st[0], strict=True):
            g.count, g.damage = c, d
        a, b = self.a, self.b
        for u in (a, b):
            u.recount()
            u.state = self.states[u] if u.count else "gone"
        both = a.alive and b.alive
        a.engaged = {b.index} if both else set()
        b.engaged = {a.index} if both else set()
        for k, mask in ((self.ka, st[1]), (self.kb, st[2])):
            for f in self.fighters[k]:
                f.alive = bool(mask >> f.pos & 1)

    def _prune(self, dist: dict[State, float]) -> dict[State, float]:
        out = {}
        for st, p in dist.items():
            if p < PRUNE:
                self.pruned += p
            else:
                out[st] = p
        self.most = max(self.most, len(out))
        return out

    # -- the steps --------------------------------------------------------------

    def exchange(self, st: State, striker: tuple, target: tuple, key: tuple, extra_round: int) -> list[tuple[float, State]]:
        """One side's attacks (:meth:`~.combat.CombatRules.exchange` with every outcome). The
        branches depend on the state but for the Wounds difference, which they only shift: they
        are found once per (counts, fighters standing) and reused for every difference."""
        core = (st[0], st[1], st[2])
        memo_key = (core, key, striker[2], extra_round)
        branches = self.memo.get(memo_key)
        if branches is None:
            branches = self.memo[memo_key] = self._branches(st, striker, target, key, extra_round)
        diff = st[3]
        return [(q, (new[0], new[1], new[2], diff + d) if d else st) for q, new, d in branches]

    def _branches(self, st: State, striker: tuple, target: tuple, key: tuple, extra_round: int) -> list[tuple[float, tuple, int]]:
        bt = self.bt
        self.restore(st)
        terms: ExchangeTerms | None = bt.exchange_terms(striker, target, key, self.fighters, {}, extra_round)
        if terms is None:
            return [(1.0, st, 0)]
        x, y, gy = striker[0], target[0], target[1]
        sign = 1 if x is self.a else -1
        out: list[tuple[float, tuple, int]] = []
        pmf = _dealt_pmf(bt.table, terms.att - terms.d_def, terms.dice, terms.a_shift, terms.reroll, terms.strength - terms.d_res, terms.w_shift, terms.grace)
        restored = True
        for dealt, q in pmf:
            if not dealt:
                out.append((q, st, 0))
                continue
            if not restored:
                self.restore(st)
            bt.wound_type(x, y, gy, dealt, terms.fy, key, self.fighters)
            restored = False
            out.append((q, self.snapshot(0), sign * dealt))
        return out

    def combat(self, dist: dict[State, float], key: tuple) -> dict[State, float]:
        """One combat (:meth:`~.combat.CombatRules.resolve_combat`): Initiative test, the exchange
        both ways, the extra exchanges; states merged after every exchange."""
        bt = self.bt
        ka, ga, kb, gb = key
        a, b = bt.unit_of(ka), bt.unit_of(kb)
        GA, GB = a.groups[ga], b.groups[gb]
        out: dict[State, float] = defaultdict(float)
        layer: dict[tuple[State, bool], float] = defaultdict(float)
        for st, p in dist.items():
            self.restore(st)
            if not (a.alive and b.alive) or not bt.combatants(self.fighters, key, ka, ga, kb, gb) or not bt.combatants(self.fighters, key, kb, gb, ka, ga):
                out[st] += p
                continue
            ini_a, ini_b = bt.combat_ini(a, GA, True), bt.combat_ini(b, GB, True)
            for q, a_first in initiative_distribution(ini_a, ini_b, a.side == bt.winner_of_roll):
                if q > 0:
                    layer[(st, bool(a_first))] += p * q
        if not layer:
            return dict(out)
        sa, sb = (a, ga, ka), (b, gb, kb)
        # Extra exchanges by fighter type (its traits and whether its unit charged: fixed in a fray).
        na, nb = bt.extra_exchanges(a, GA), bt.extra_exchanges(b, GB)
        steps: list[tuple[bool, int]] = [(True, 0), (False, 0)]  # (the first striker strikes?, extra round)
        for r in range(1, max(na, nb) + 1):
            steps += [(True, r), (False, r)]
        for first_strikes, r in steps:
            nxt: dict[tuple[State, bool], float] = defaultdict(float)
            for (st, a_first), p in layer.items():
                a_strikes = a_first == first_strikes
                if r and (na if a_strikes else nb) < r:
                    nxt[(st, a_first)] += p
                    continue
                striker, target = (sa, sb) if a_strikes else (sb, sa)
                for q, new in self.exchange(st, striker, target, key, r):
                    nxt[(new, a_first)] += p * q
            layer = nxt
        for (st, _), p in layer.items():
            out[st] += p
        return dict(out)

    def outcome(self, st: State) -> list[tuple[float, tuple]]:
        """Outcome of the fray (:meth:`~.outcome.OutcomeRules.fray_outcome` for one pair): the unit
        that dealt fewer Wounds rolls a morale roll; a failure routs it (its fighters in contact
        fall, :meth:`~.outcome.OutcomeRules.rout`), or leaves it routed in place (Fanaticism)."""
        bt = self.bt
        self.restore(st)
        a, b = self.a, self.b
        counts = tuple(g.count for g in self.groups)
        if not (a.alive and b.alive) or a.state == "rout" or b.state == "rout":
            return [(1.0, (counts, False, False))]
        diff = st[3]
        if diff:
            winner, loser = (a, b) if diff > 0 else (b, a)
        else:
            winner, loser = (a, b) if a.side == bt.winner_of_roll else (b, a)
        if loser.all_have("auto_morale"):
            return [(1.0, (counts, False, False))]
        difficulty = bt.morale_difficulty(winner, loser)
        value, _ = bt.morale_value(loser)
        hold = test_distribution(value, difficulty, loser.best_of, not loser.all_have("morale_no_auto_fail"), loser.all_have("morale_reroll_ones"))[0][0]
        in_place = 0.0
        if loser.all_have("fanaticism"):
            in_place = test_distribution(loser.dis_value + loser.dis_bonus, difficulty, loser.best_of)[0][0]
        routs = (loser is a, loser is b)
        out: list[tuple[float, tuple]] = [(hold, (counts, False, False))]
        fail = 1.0 - hold
        if fail * in_place > 0:
            out.append((fail * in_place, (counts, *routs)))
        if fail * (1.0 - in_place) > 0:
            bt.rout(loser, winner, self.fighters)
            out.append((fail * (1.0 - in_place), (tuple(g.count for g in self.groups), *routs)))
        return out

    def run(self) -> dict[tuple, float]:
        """Final states (counts per group, A routs, B routs) -> probability."""
        bt = self.bt
        dist: dict[State, float] = {self.snapshot(0): 1.0}
        for key in bt.combat_sequence(self.fighters):
            dist = self._prune(self.combat(dist, key))
        final: dict[tuple, float] = defaultdict(float)
        for st, p in dist.items():
            for q, end in self.outcome(st):
                final[end] += p * q
        return dict(final)


def prepare(cat, first, index_a: int, second, index_b: int, charge: bool, seed: int = 0) -> tuple[Battle, Fighting, Fighting]:
    """A battle of the two lists with unit *index_a* of the first facing unit *index_b* of the
    second (0-based), the first charging if *charge*; leadership as at the start of a game."""
    bt = Battle(cat, first, second, np.random.default_rng(seed))
    bt.update_leadership()
    a, b = bt.sides[0][index_a], bt.sides[1][index_b]
    if charge:
        a.charged = True
        b.was_charged = True
        a.charge_bonus = earns_charge_bonus(a, b)
    return bt, a, b


def exact_fray(cat, first, index_a: int, second, index_b: int, charge: bool = False) -> FrayOdds:
    """The exact outcome of the fray of unit *index_a* of *first* against unit *index_b* of
    *second* (0-based). The tactical roll's winner (ties of Initiative and of Wounds) is the
    first list's player. Raises :class:`ExactFrayUnsupported` for rules it cannot enumerate."""
    bt, a, b = prepare(cat, first, index_a, second, index_b, charge)
    ex = ExactFray(bt, a, b)
    start = ex.start
    total = (a.count, b.count)
    points = (a.points, b.points)
    na = len(a.groups)
    final = ex.run()
    losses: dict[tuple[int, int], float] = defaultdict(float)
    outcomes: dict[tuple[int, int, bool, bool], float] = defaultdict(float)
    rout = [0.0, 0.0]
    ap = [0.0, 0.0]
    fall = [0.0] * len(ex.groups)
    for (counts, ra, rb), p in final.items():
        lost = [s - c for s, c in zip(start, counts, strict=True)]
        losses[(sum(lost[:na]), sum(lost[na:]))] += p
        outcomes[(sum(lost[:na]), sum(lost[na:]), ra, rb)] += p
        rout[0] += p * ra
        rout[1] += p * rb
        for i, g in enumerate(ex.groups):
            ap[0 if i < na else 1] += p * lost[i] * g.cost
            if counts[i] == 0 and start[i]:
                fall[i] += p
    characters = [
        CharacterOdds(0 if i < na else 1, g.profile.name, fall[i])
        for i, g in enumerate(ex.groups) if g.character and start[i]
    ]  # fmt: skip
    return FrayOdds(
        names=(a.name, b.name), fighters=total, points=points, charge=charge, losses=dict(losses),
        p_rout=(rout[0], rout[1]), characters=characters, ap_lost=(ap[0], ap[1]), pruned=ex.pruned, states=ex.most, outcomes=dict(outcomes),
    )  # fmt: skip


def sampled_fray(cat, first, index_a: int, second, index_b: int, charge: bool, seed: int, dice=None) -> tuple[int, int, bool, bool]:
    """One fray played by the battle engine with its dice (build_contact, resolve_combats,
    fray_outcome, as in a game's combat phase): (fighters lost by A, by B, A routs, B routs).
    *dice*: another source of chance with the interface of :class:`~.chance.Dice` (tests)."""
    bt, a, b = prepare(cat, first, index_a, second, index_b, charge, seed)
    if dice is not None:
        bt.dice = dice
    before = (a.count, b.count)
    a.engaged.add(b.index)
    b.engaged.add(a.index)
    units = sorted((a, b), key=lambda u: (u.side, u.index))
    fighters = bt.build_contact(units)
    wounds: dict[tuple[int, int], int] = {}
    bt.resolve_combats(fighters, wounds, charge=True)
    pairs = sorted({(min(k), max(k)) for k in wounds} | bt.fought_pairs(fighters))
    standing = (a.alive, b.alive)
    bt.fray_outcome(pairs, wounds, fighters)
    # A unit that routs with all its fighters in contact is eliminated by its rout ("gone"): it routed.
    routs = tuple(u.state == "rout" or (was and u.state == "gone") for u, was in zip((a, b), standing, strict=True))
    return before[0] - a.count, before[1] - b.count, routs[0], routs[1]
