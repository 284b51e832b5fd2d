"""The exact outcome of one fray between two units: every chance step enumerated, not sampled.

Why: a player asking "if my Knights charge their Zombies?" wants the distribution of what
happens, not a noisy estimate. The battle engine plays a fray by rolling each chance step once;
this module walks the same steps with every outcome, weighting the branches, and merges the
branches that reach the same state, so the work grows with the number of distinct states, not
of dice sequences.

One rules code: the steps are the battle engine's own. The contact and the sharing of combat
dice (:meth:`~.combat.CombatRules.build_contact`), the order of the combats
(:meth:`~.combat.CombatRules.combat_sequence`), each exchange's dice and columns
(:meth:`~.combat.CombatRules.exchange_terms`, abilities that change attacks included), the
Initiative test, the allocation of Wounds to the fighters in contact
(:meth:`~.combat.CombatRules.wound_type`), the counter-attack's terms and losses
(:meth:`~.combat.CombatRules.counter_terms`, :meth:`~.combat.CombatRules.counter_deal`), the
morale roll's difficulty and value and the rout (:mod:`.outcome`) are called on a real
:class:`~.battle.Battle` whose units are set to each state in turn. Only the dice differ: the
battle samples them, this module enumerates their distributions (contest table, R2-D1; tests,
R2-D2; the counter-attack's die-by-die attack roll; Survival instinct's thinning).

How it stays fast (the design, not tricks):

* A state is a *core* (each fighter type's count, Wounds on its wounded fighter and fallen Fierce
  fighters still striking; which fighters of the contact stand and which fallen ones still
  strike, bit masks per unit) and the difference of Wounds dealt. The difference only matters
  through its sign at the end, and an exchange only shifts it, so each core holds a vector over
  the difference: one numpy row per core, and an exchange is a few vector operations per core.
* An exchange reads and changes only the two fighter types of its combat (and two facts of each
  unit: in close formation, which types are alive). Its outcomes (the Wound-difference shifts and
  the new counts and masks of those types) are computed once per *local* key and applied to every
  core that shares it; the cores then differ only elsewhere (say, the losses of another combat).
  The wound distributions are cached by value (table, column differences, dice), never by
  object identity.
* Cells below 1e-12 of mass are dropped after every exchange; their total is reported.

Push on and Implacable (:mod:`.exact_implacable`): after the outcome, the units still in contact
whose Implacable/X fighters caused a loss (removed an opponent) fight new combats against the same opponent, up to X
rounds, on a new contact, without the charge bonus or a morale roll, as the battle's
:meth:`~.outcome.OutcomeRules.implacable_combat` decides; push on itself moves nothing in a fray of
two units (a unit is free of opponents only once the other fled or fell). Their losses are in
every figure; :attr:`FrayOdds.implacable` gives how often each round is fought.

Not modelled exactly (refused with the reason, rather than answered wrongly): tactics and mystic
effects of the round (the fray is asked about before them).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .battle import Battle
from .chance import Dice
from .combat import earns_charge_bonus, engage
from .exact_dice import counter_pmf, exchange_pmf
from .exact_implacable import implacable_combats
from .exact_layer import Layer
from .field_ai import FieldPolicy
from .formation import FRONT
from .fray import (
    Contact,
    initiative_distribution,
    test_distribution,
    unit_key,
)
from .state import Fighting

PRUNE = 1e-12

# A core: ((count, damage, fierce_left) per group of A then B, alive mask A, alive mask B,
# fierce mask A, fierce mask B). The masks hold the fighters of the contact by position.
Core = tuple


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
    states: int = 0  # most states (core, Wound difference) held at once (a measure of the work)
    outcomes: dict[tuple[int, int, bool, bool], float] = field(default_factory=dict)  # (lost A, lost B, A routs, B routs) -> p
    implacable: tuple[float, ...] = ()  # P(the r-th Implacable combats are fought), r = 1, 2... (Implacable units only)

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


# --------------------------------------------------------------------------- refusals


def unsupported(bt: Battle, units: Iterable[Fighting]) -> list[str]:
    """Why this fray cannot be enumerated exactly (empty when it can)."""
    out = []
    for u in units:
        if u.tactic or u.round_effects or u.no_attack:
            out.append(f"{u.name}: a tactic or a mystic effect this round")
    return out


# --------------------------------------------------------------------------- the fray


class ExactFray:
    """One fray between unit *a* (side 0) and unit *b* (side 1) of a battle, enumerated.

    *local*: share each exchange's outcomes between the cores with the same local key (False:
    one computation per core; tests compare the two)."""

    def __init__(self, bt: Battle, a: Fighting, b: Fighting, local: bool = True) -> None:
        reasons = unsupported(bt, (a, b))
        if reasons:
            raise ExactFrayUnsupported("the exact fray does not enumerate: " + "; ".join(reasons))
        self.bt, self.a, self.b = bt, a, b
        self.local = local
        self.ka, self.kb = unit_key(a.side, a.index), unit_key(b.side, b.index)
        if b.index not in a.engaged:
            face_off(a, b, False)
        self.groups = [*a.groups, *b.groups]
        self.na = len(a.groups)
        self.states = {a: a.state, b: b.state}
        self.first_states = dict(self.states)
        # Sides whose "caused a loss in these combats" is tracked in the core (bit 1: A, 2: B):
        # the Implacable units' (:mod:`.exact_implacable`); nobody's otherwise (no extra states).
        self.track = (1 if a.implacable else 0) | (2 if b.implacable else 0)
        self.diff = True  # track the difference of Wounds dealt (the outcome of the fray reads its sign)
        self.implacable_fought: list[float] = []  # P(the r-th Implacable combats are fought)
        # Where each unit stands (a rout moves the loser: :meth:`~.movement.MovementRules.flee`).
        self.places = {u: (u.x, u.y, u.ux, u.uy, u.loose, dict(u.faces), set(u.new_foes), set(u.assailed_by_me), set(u.withstood)) for u in (a, b)}
        self.start = tuple(g.count for g in self.groups)
        self.pruned = 0.0
        self.most = 1
        self.facts_memo: dict[tuple, tuple] = {}
        self.morale_memo: dict[tuple, tuple[float, float]] = {}
        self.use_contact(bt.build_contact(sorted((a, b), key=lambda u: (u.side, u.index))))

    def use_contact(self, fighters: Contact) -> None:
        """Enumerate the combats of *fighters* from now on (the fray's contact, then each
        Implacable combat's new one): the bits of its fighters, and a memo of exchange outcomes
        of its own (the masks of a state name this contact's fighters by position)."""
        self.fighters = fighters
        # Bits of the contact's fighters of each group, per unit (0: A, 1: B), and all of them.
        self.gbits: list[list[int]] = []
        self.all_bits: list[int] = []
        for u, k in ((self.a, self.ka), (self.b, self.kb)):
            bits = [0] * len(u.groups)
            for pos, gi in enumerate(fighters.groups.get(k, ())):
                bits[gi] |= 1 << pos
            self.gbits.append(bits)
            self.all_bits.append(sum(bits))
        self.memo: dict[tuple, tuple[list[tuple[tuple | None, tuple[tuple[int, float], ...]]], float]] = {}
        self.held: Core | None = None  # the state the units and the contact hold now, when known
        self.moved = False  # a unit's state, place or contact changed beyond *held* (a rout)

    # -- the state ------------------------------------------------------------

    def snapshot(self) -> Core:
        masks = [0, 0, 0, 0]
        for s, k in ((0, self.ka), (1, self.kb)):
            alive = fierce = 0
            for pos, (up, fallen) in enumerate(zip(self.fighters.alive.get(k, ()), self.fighters.fierce.get(k, ()), strict=True)):
                if up:
                    alive |= 1 << pos
                if fallen:
                    fierce |= 1 << pos
            masks[s], masks[2 + s] = alive, fierce
        return (tuple((g.count, g.damage, g.fierce_left) for g in self.groups), *masks)

    def restore(self, core: Core) -> None:
        """Set the battle's units and contact to *core*. Only what differs from the state the
        objects hold (:attr:`held`, None when unknown: after a rout) is written."""
        held = self.held
        if held is core:
            return
        a, b = self.a, self.b
        counts = core[0]
        regroup = [held is None, held is None]
        if held is None or counts != held[0]:
            for i, g in enumerate(self.groups):
                new = counts[i]
                if held is None or new != held[0][i]:
                    g.count, g.damage, g.fierce_left = new
                    regroup[0 if i < self.na else 1] = True
        for u, again in ((a, regroup[0]), (b, regroup[1])):
            if again:
                u.recount()
        if held is None or self.moved or regroup[0] or regroup[1]:
            for u in (a, b):
                gone = not u.count and not any(g.fierce_left for g in u.groups)
                u.state = "gone" if gone else self.states[u]
                x, y, ux, uy, u.loose, faces, fresh, mine, withstood = self.places[u]
                if (u.x, u.y, u.ux, u.uy) != (x, y, ux, uy):
                    u.place(x, y, ux, uy)
                u.faces, u.new_foes, u.assailed_by_me, u.withstood = dict(faces), set(fresh), set(mine), set(withstood)
            a.engaged = {b.index} if a.state != "gone" and b.state != "gone" else set()
            b.engaged = {a.index} if a.engaged else set()
            if not a.engaged:
                a.faces, b.faces = {}, {}
            self.moved = False
        for s, k in ((0, self.ka), (1, self.kb)):
            up_row, fallen_row = self.fighters.alive.get(k), self.fighters.fierce.get(k)
            if up_row is None or fallen_row is None:
                continue
            alive, fierce = core[1 + s], core[3 + s]
            if held is None:
                for pos in range(len(up_row)):
                    up_row[pos] = bool(alive >> pos & 1)
                    fallen_row[pos] = bool(fierce >> pos & 1)
                continue
            flip = alive ^ held[1 + s]
            while flip:
                low = flip & -flip
                pos = low.bit_length() - 1
                up_row[pos] = not up_row[pos]
                flip ^= low
            flip = fierce ^ held[3 + s]
            while flip:
                low = flip & -flip
                pos = low.bit_length() - 1
                fallen_row[pos] = not fallen_row[pos]
                flip ^= low
        self.held = core

    def _facts(self, counts: tuple) -> tuple:
        """What an exchange reads of each whole unit: which groups are alive (unit-wide traits,
        being alive), at least five fighters (close formation) and fallen Fierce fighters left."""
        facts = self.facts_memo.get(counts)
        if facts is None:
            out = []
            for lo, hi in ((0, self.na), (self.na, len(counts))):
                pattern = total = 0
                fierce = False
                for i in range(lo, hi):
                    c = counts[i]
                    if c[0] > 0:
                        pattern |= 1 << i
                        total += c[0]
                    if c[2]:
                        fierce = True
                out.append((pattern, total >= 5, fierce))
            facts = self.facts_memo[counts] = tuple(out)
        return facts

    def _apply(self, core: Core, info: tuple) -> Core:
        """*core* with an exchange's local outcome *info* (see :meth:`_outcomes`)."""
        ix, nx, iy, ny, sx, touch_x, alive_x, touch_y, alive_y, fierce_x, fierce_y, hit = info
        counts = list(core[0])
        counts[ix], counts[iy] = nx, ny
        sy = 1 - sx
        masks = [core[1], core[2], core[3], core[4]]
        gx, gy = self.gbits_of(ix), self.gbits_of(iy)
        masks[sx] = (masks[sx] & ~touch_x) | alive_x
        masks[sy] = (masks[sy] & ~touch_y) | alive_y
        masks[2 + sx] = (masks[2 + sx] & ~gx) | fierce_x
        masks[2 + sy] = (masks[2 + sy] & ~gy) | fierce_y
        return (tuple(counts), *masks, core[5] | hit)

    def gbits_of(self, i: int) -> int:
        return self.gbits[0][i] if i < self.na else self.gbits[1][i - self.na]

    # -- one exchange ------------------------------------------------------------

    def _local_key(self, core: Core, sx: int, ix: int, iy: int, extra_round: int, ckey: tuple) -> tuple:
        if not self.local:
            return (ckey, sx, extra_round, core)
        counts = core[0]
        bx, by = self.gbits_of(ix), self.gbits_of(iy)
        sy = 1 - sx
        return (
            ckey, sx, extra_round, counts[ix], counts[iy], core[1 + sx] & bx, core[3 + sx] & bx,
            core[1 + sy] & by, core[3 + sy] & by, self._facts(counts),
        )  # fmt: skip

    def _outcomes(self, core: Core, striker: tuple, target: tuple, ckey: tuple, extra_round: int, lowered: dict[int, bool]) -> tuple[list[tuple[tuple | None, tuple[tuple[int, float], ...]]], float]:
        """One side's attacks (:meth:`~.combat.CombatRules.exchange` with every outcome) from
        *core*: ([(local outcome or None when nothing changes, ((Wound difference shift, p), ...))],
        the probability of the branches pruned: under 1e-12, they are under 1e-12 of any state)."""
        bt = self.bt
        self.restore(core)
        terms = bt.exchange_terms(striker, target, ckey, self.fighters, lowered, extra_round)
        if terms is None:
            return [(None, ((0, 1.0),))], 0.0
        x, gx, kx = striker
        y, gy, ky = target
        GX, GY = x.groups[gx], y.groups[gy]
        counter = bool(GY.traits.counter_attack_face) and not extra_round
        pmf = exchange_pmf(
            bt.table, terms.att - terms.d_def, terms.dice, terms.a_shift, terms.reroll, terms.fierce_dice,
            0 - terms.d_def, counter, GY.traits.survival_face, terms.strength - terms.d_res, terms.w_shift, terms.grace,
        )  # fmt: skip
        sx = 0 if x is self.a else 1
        sign = 1 if sx == 0 else -1
        hit = self.track & (1 << sx)  # the striker's "caused a loss", when tracked (Implacable)
        hit_back = self.track & (1 << (1 - sx))  # the same for a counter-attack's losses
        ix = gx if sx == 0 else self.na + gx
        iy = gy if sx == 1 else self.na + gy
        c_terms = bt.counter_terms(y, GY, x, GX) if counter else None
        out: dict[tuple | None, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        dropped = 0.0
        for (dealt, ones), p in pmf:
            cws = counter_pmf(bt.table, c_terms[0], ones, c_terms[1], c_terms[2]) if ones and c_terms else ((0, 1.0),)
            for cw, q in cws:
                if p * q < PRUNE:  # a branch under 1e-12 of any state's mass: pruned (and counted)
                    dropped += p * q
                    continue
                if not dealt and not cw:
                    out[None][0] += p * q
                    continue
                self.restore(core)
                killed = bt.wound_type(x, y, gy, dealt, terms.fy, ckey, self.fighters) if dealt else 0
                countered = 0
                if cw and y.alive and x.alive:
                    countered = bt.counter_deal(y, x, GX, cw, bt.combatants(self.fighters, ckey, kx, gx, ky, gy))
                after = self.held = self.snapshot()
                touch_y = self.all_bits[1 - sx] if y.state == "gone" else self.gbits_of(iy)
                touch_x = self.gbits_of(ix)
                info = (
                    ix, after[0][ix], iy, after[0][iy], sx, touch_x, after[1 + sx] & touch_x,
                    touch_y, after[2 - sx] & touch_y, after[3 + sx] & touch_x, after[4 - sx] & self.gbits_of(iy),
                    (hit if killed else 0) | (hit_back if countered else 0),
                )  # fmt: skip
                if self._apply(core, info)[:5] != after:  # the exchange changed more than its two types
                    raise AssertionError(f"exact fray: an exchange changed the state outside its combat {ckey}")
                out[info if info[-1] or after != core[:5] else None][sign * dealt * self.diff] += p * q
        return [(info, tuple(sorted(shifts.items()))) for info, shifts in out.items()], dropped

    def _exchange_step(self, layer: Layer, combat: tuple, first_strikes: bool, extra_round: int) -> Layer:
        """Every state's exchange of this step (rows whose side does not strike pass through)."""
        ckey, sa, sb, na, nb, lowered = combat
        ia, ib = self._index(sa), self._index(sb)
        rows_of: dict[tuple, list[int]] = {}
        outcomes_of: dict[tuple, list] = {}
        passing: list[int] = []
        dropped_of: dict[tuple, float] = {}
        for i, (core, a_first) in enumerate(layer.keys):
            if a_first is None:
                passing.append(i)
                continue
            a_strikes = a_first == first_strikes
            if extra_round and (na if a_strikes else nb) < extra_round:
                passing.append(i)
                continue
            sx, ix, iy = (0, ia, ib) if a_strikes else (1, ib, ia)
            lk = self._local_key(core, sx, ix, iy, extra_round, ckey)
            rows = rows_of.get(lk)
            if rows is None:
                rows_of[lk] = [i]
                found = self.memo.get(lk)
                if found is None:
                    striker, target = (sa, sb) if a_strikes else (sb, sa)
                    found = self.memo[lk] = self._outcomes(core, striker, target, ckey, extra_round, lowered)
                outcomes_of[lk] = found[0]
                if found[1]:
                    dropped_of[lk] = found[1]
            else:
                rows.append(i)
        lo_d, hi_d = 0, 0
        for outs in outcomes_of.values():
            for _, shifts in outs:
                lo_d = min(lo_d, shifts[0][0])
                hi_d = max(hi_d, shifts[-1][0])
        m, width = layer.m, layer.m.shape[1]
        new_width = width + hi_d - lo_d
        index: dict[tuple, int] = {}
        blocks: list[tuple[list[int], np.ndarray]] = []

        def place(dst: list[tuple], block: np.ndarray) -> None:
            idx = []
            for k in dst:
                j = index.get(k)
                if j is None:
                    j = index[k] = len(index)
                idx.append(j)
            blocks.append((idx, block))

        if passing:
            block = np.zeros((len(passing), new_width))
            block[:, -lo_d : -lo_d + width] = m[passing]
            place([layer.keys[i] for i in passing], block)
        for lk, rows in rows_of.items():
            sub = m[rows]
            if lk in dropped_of:
                self.pruned += dropped_of[lk] * float(sub.sum())
            for info, shifts in outcomes_of[lk]:
                block = np.zeros((len(rows), new_width))
                for d, q in shifts:
                    block[:, d - lo_d : d - lo_d + width] += q * sub
                if info is None:
                    dst = [layer.keys[i] for i in rows]
                else:
                    dst = [(self._apply(layer.keys[i][0], info), layer.keys[i][1]) for i in rows]
                place(dst, block)
        return self._gather(index, blocks, new_width, layer.lo + lo_d)

    def _index(self, side_group: tuple) -> int:
        u, g, _ = side_group
        return g if u is self.a else self.na + g

    def _gather(self, index: dict[tuple, int], blocks: list[tuple[list[int], np.ndarray]], width: int, lo: int) -> Layer:
        """Merge the blocks into one row per key, then drop the cells under PRUNE."""
        m = np.zeros((len(index), width))
        for idx, block in blocks:
            if len(set(idx)) == len(idx):
                m[idx] += block
            else:
                np.add.at(m, idx, block)
        small = m < PRUNE
        if small.any():
            self.pruned += float(m[small].sum())
            m[small] = 0.0
        keep: Any = m.any(axis=1)
        keys = list(index)
        if not keep.all():
            keys = [k for k, on in zip(keys, keep.tolist(), strict=True) if on]
            m = m[keep]
        cols = np.flatnonzero(m.any(axis=0))
        if len(cols):
            m = m[:, cols[0] : cols[-1] + 1]
            lo += int(cols[0])
        self.most = max(self.most, int(np.count_nonzero(m)))
        return Layer(keys, m, lo)

    # -- one combat ---------------------------------------------------------------

    def combat(self, layer: Layer, ckey: tuple, charge: bool = True) -> Layer:
        """One combat (:meth:`~.combat.CombatRules.resolve_combat`): Initiative test (*charge*: with
        the charge bonus; not in the Implacable combats), the exchange both ways, the extra
        exchanges; states merged after every exchange."""
        bt = self.bt
        ka, ga, kb, gb = ckey
        a, b = bt.unit_of(ka), bt.unit_of(kb)
        GA, GB = a.groups[ga], b.groups[gb]
        index: dict[tuple, int] = {}
        rows: list[tuple[int, float]] = []
        ini_a, ini_b = bt.combat_ini(a, GA, charge), bt.combat_ini(b, GB, charge)
        initiative: list[tuple[float, bool | None]] = [(q, bool(first)) for q, first in initiative_distribution(ini_a, ini_b, a.side == bt.winner_of_roll) if q > 0]
        for i, (core, _) in enumerate(layer.keys):
            self.restore(core)
            if not (a.alive and b.alive) or not bt.combatants(self.fighters, ckey, ka, ga, kb, gb) or not bt.combatants(self.fighters, ckey, kb, gb, ka, ga):
                choices: list[tuple[float, bool | None]] = [(1.0, None)]
            else:
                choices = initiative
            for q, a_first in choices:
                index[(core, a_first)] = len(index)
                rows.append((i, q))
        src = [i for i, _ in rows]
        weights = np.array([q for _, q in rows])
        layer = Layer(list(index), layer.m[src] * weights[:, None], layer.lo)
        # Extra exchanges by fighter type (its traits and whether its unit charged: fixed in a fray).
        na, nb = bt.extra_exchanges(a, GA), bt.extra_exchanges(b, GB)
        lowered = {ka: bt.lowers_def(a, GA), kb: bt.lowers_def(b, GB)}  # as resolve_combat() decides it
        combat = (ckey, (a, ga, ka), (b, gb, kb), na, nb, lowered)
        if any(k[1] is not None for k in layer.keys):
            steps: list[tuple[bool, int]] = [(True, 0), (False, 0)]  # (the first striker strikes?, extra round)
            for r in range(1, max(na, nb) + 1):
                steps += [(True, r), (False, r)]
            for first_strikes, r in steps:
                layer = self._exchange_step(layer, combat, first_strikes, r)
        # Who struck first no longer matters: merge.
        merged: dict[tuple, int] = {}
        idx = []
        for core, _ in layer.keys:
            j = merged.get((core, None))
            if j is None:
                j = merged[(core, None)] = len(merged)
            idx.append(j)
        return self._gather(merged, [(idx, layer.m)], layer.m.shape[1], layer.lo)

    # -- the outcome -----------------------------------------------------------------

    def outcome(self, core: Core, signs: dict[int, float]) -> list[tuple[float, tuple, bool]]:
        """Outcome of the fray (:meth:`~.outcome.OutcomeRules.fray_outcome` for one pair) from
        *core*, with P(A dealt more Wounds) at *signs*[1], fewer at [-1], as many at [0]: the unit
        that dealt fewer rolls a morale roll; a failure routs it (its fighters in contact fall,
        :meth:`~.outcome.OutcomeRules.rout`), or leaves it routed in place (Fanaticism).

        [(p, (counts, A routs, B routs), the units still in contact)]: in contact, the state is
        *core* itself (nobody fled); a unit that fled broke the contact (no Implacable combat)."""
        bt = self.bt
        self.restore(core)
        a, b = self.a, self.b
        counts = core[0]
        total = sum(signs.values())
        if not (a.alive and b.alive) or a.state == "rout" or b.state == "rout":
            return [(total, (tuple(c[0] for c in counts), False, False), False)]
        by_loser: dict[int, float] = defaultdict(float)  # side of the loser -> probability
        for sign, p in signs.items():
            if sign:
                by_loser[1 if sign > 0 else 0] += p
            else:
                by_loser[1 if a.side == bt.winner_of_roll else 0] += p
        out: list[tuple[float, tuple, bool]] = []
        restored = True
        for side, p in by_loser.items():
            if not restored:
                self.restore(core)  # (a rout for the other loser changed the units: the roll reads them)
                restored = True
            hold, in_place = self._morale(core, side)
            routs = (side == 0, side == 1)
            out.append((p * hold, (tuple(c[0] for c in counts), False, False), True))
            fail = p * (1.0 - hold)
            if fail * in_place > 0:
                out.append((fail * in_place, (tuple(c[0] for c in counts), *routs), True))
            if fail * (1.0 - in_place) > 0:
                loser, winner = (a, b) if side == 0 else (b, a)
                bt.rout(loser, winner, self.fighters)
                self.held, self.moved = self.snapshot(), True  # (a rout also moves the loser, breaks the contact)
                restored = False
                out.append((fail * (1.0 - in_place), (tuple(g.count for g in self.groups), *routs), False))
        return out

    def _morale(self, core: Core, side: int) -> tuple[float, float]:
        """(P(the loser *side* holds), P(Fanaticism keeps it in place after a failure)) as
        :meth:`~.outcome.OutcomeRules.morale` rolls them; the units are at *core* (restored). They
        read the counts only (Power, formation, live fighter types): cached by them."""
        key = (core[0], side)
        found = self.morale_memo.get(key)
        if found is None:
            bt = self.bt
            loser, winner = (self.a, self.b) if side == 0 else (self.b, self.a)
            if loser.all_have("auto_morale"):
                found = (1.0, 0.0)
            else:
                difficulty = bt.morale_difficulty(winner, loser)
                value, _ = bt.morale_value(loser)
                hold = test_distribution(value, difficulty, loser.best_of, not loser.all_have("morale_no_auto_fail"), loser.all_have("morale_reroll_ones"))[0][0]
                in_place = 0.0
                if loser.all_have("fanaticism"):
                    in_place = test_distribution(loser.dis_value + loser.dis_bonus, difficulty, loser.best_of)[0][0]
                found = (hold, in_place)
            self.morale_memo[key] = found
        return found

    def run(self) -> dict[tuple, float]:
        """Final states (counts per group, A routs, B routs) -> probability."""
        bt = self.bt
        layer = Layer([((*self.snapshot(), 0), None)], np.ones((1, 1)), 0)
        for ckey in bt.combat_sequence(self.fighters):
            layer = self.combat(layer, ckey)
        final: dict[tuple, float] = defaultdict(float)
        on: dict[tuple, float] = defaultdict(float)  # (core, A routs, B routs) still in contact, if Implacable
        diffs = np.arange(layer.lo, layer.lo + layer.m.shape[1])
        by_sign = np.stack([layer.m[:, diffs > 0].sum(axis=1), layer.m[:, diffs < 0].sum(axis=1), layer.m[:, diffs == 0].sum(axis=1)], axis=1)
        for (core, _), probs in zip(layer.keys, by_sign.tolist(), strict=True):
            signs = {sign: p for sign, p in zip((1, -1, 0), probs, strict=True) if p > 0}
            for q, end, contact in self.outcome(core, signs):
                if q > 0:
                    if contact and self.track:
                        on[(core, end[1], end[2])] += q
                    else:
                        final[end] += q
        if on:
            for end, q in implacable_combats(self, on).items():
                final[end] += q
        return dict(final)

#: The field player's deployment of each pairing :func:`prepare` has set up, as unit indices per
#: (catalogue hash, both lists' contents, side, sides already deployed). The battle is built the
#: same way whatever the seed, so the deployment is too; weighing it (the field player answers
#: the enemy's line) was four fifths of setting up a fray, which a sampled fray or a brute-force
#: enumeration does thousands of times.
_DEPLOYMENTS: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _list_key(army: Any) -> str:
    return json.dumps(army.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


class _RememberedDeployment(FieldPolicy):
    """The field player, its deployment of this pairing worked out once (:data:`_DEPLOYMENTS`)."""

    def __init__(self, pairing: tuple[Any, ...]) -> None:
        super().__init__()
        self.pairing = pairing

    def deployment(self, b: Battle, side: int) -> tuple[list[Fighting], list[Fighting]]:
        key = (*self.pairing, side, tuple(b.deployed))
        known = _DEPLOYMENTS.get(key)
        if known is None:
            line, back = super().deployment(b, side)
            if len(_DEPLOYMENTS) >= 256:
                _DEPLOYMENTS.clear()
            _DEPLOYMENTS[key] = (tuple(u.index for u in line), tuple(u.index for u in back))
            return line, back
        units = b.sides[side]
        return [units[i] for i in known[0]], [units[i] for i in known[1]]


def prepare(cat, first, index_a: int, second, index_b: int, charge: bool, seed: int = 0) -> tuple[Battle, Fighting, Fighting]:
    """A battle of the two lists with unit *index_a* of the first facing unit *index_b* of the
    second (0-based), the first charging if *charge*; leadership as at the start of a game."""
    # The table as the exact calculator sets it whatever the seed (the deployment roll decides
    # who deploys first, so where the other units stand), then the fray's own dice.
    pairing = (cat.hash, _list_key(first), _list_key(second))
    players = (_RememberedDeployment(pairing), _RememberedDeployment(pairing))
    bt = Battle(cat, first, second, np.random.default_rng(0), table="open", policies=players)
    bt.dice = Dice(np.random.default_rng(seed))
    bt.update_leadership()
    a, b = bt.sides[0][index_a], bt.sides[1][index_b]
    if charge:
        a.charged = True
        b.was_charged = True
        a.charge_bonus = earns_charge_bonus(a, b)
    face_off(a, b, charge)
    return bt, a, b


def face_off(a: Fighting, b: Fighting, charge: bool) -> None:
    """*a* against *b*'s front in the middle of the table, front to front; a charge is fresh (the
    assailant's ranks all come round: it charged from close by), else the fray goes on."""
    b.place(90.0, 60.0, 0.0, -1.0)
    a.place(90.0, 60.0, 0.0, 1.0)
    engage(a, b, FRONT, FRONT)
    if charge:
        a.new_foes.add(b.index)
        b.new_foes.add(a.index)
        a.assailed_by_me.add(b.index)
        a.slack = a.mov * 2.0


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
        implacable=tuple(ex.implacable_fought),
    )  # fmt: skip


def sampled_fray(cat, first, index_a: int, second, index_b: int, charge: bool, seed: int, dice=None) -> tuple[int, int, bool, bool]:
    """One fray played by the battle engine with its dice (build_contact, resolve_combats,
    fray_outcome, push_on and the Implacable combats, as in a game's combat phase):
    (fighters lost by A, by B, A routs, B routs).
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
    bt.push_on(units, wounds)  # (a unit eliminated by the Implacable combats after it did not rout)
    return before[0] - a.count, before[1] - b.count, routs[0], routs[1]
