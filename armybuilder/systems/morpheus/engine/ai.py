"""The default player of a Ragnarok (Morpheus Engine) battle: how a model spends each AP.

In order: stand up when prone; put out a fire when free to; a God power when it is worth the AP
it costs (:meth:`WarlordPolicy.power_choice`); heal a friend; in melee, Focus before a long
exchange, strike the foe it hurts most, or disengage when it cannot strike; out of melee, the
best shot unless a charge would do much more, else close with the nearest enemy (taunting or
spotting first where that helps), moving round Hazardous terrain.

A God power costs an AP (an engine assumption, ``tables.engine.notes``), and most powers give
less than the attack that AP would make: a power is called when its estimated worth beats the
use the player has for that AP, or when the AP would be spent on nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from ..catalog import GodPower
from .dice import success_probability
from .fighters import BASES, Fighter, Weapon, ability_args, ability_id
from .geometry import dist, gap
from .policy import END, Act, Policy

if TYPE_CHECKING:
    from .battle import Battle

_CONTACT2 = BASES**2
#: what a status an attack may inflict is worth, in expected Damage (a round of hindrance)
STATUS_WORTH = {"shock": 0.5, "knockdown": 0.4, "blind": 0.4, "delusional": 0.6, "restrain": 0.4, "push": 0.2, "pull": 0.2,
                "fire": 0.3, "ice": 0.4, "drain": 0.3}  # fmt: skip


@mypyc_attr(allow_interpreted_subclasses=True)
class WarlordPolicy(Policy):
    """The default player (``warlord``); ``forbid`` names options it must not use (the option
    checks play a clan with and without one)."""

    name = "warlord"

    def __init__(self, forbid: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.forbid = forbid
        self.power_weapons: dict[str, Weapon] = {}  # an attack power's attack, built once a game

    # ------------------------------------------------------------------ an AP at a time

    def step(self, g: Battle, f: Fighter, engaged: list[Fighter], low: float) -> Act:
        if f.prone:
            return Act("stand")
        if f.fire is not None and f.ap_left >= 2 and not engaged:
            return Act("douse")
        usual = self.usual(g, f, engaged, low)
        if g.powers[f.side] and g.godspark[f.side] >= g.cheapest[f.side] and f.ap_left >= 1:
            chosen = self.power_choice(g, f, engaged, usual)
            if chosen is not None:
                return Act("power", chosen[1], power=chosen[0], fallback=usual)
        return usual

    def usual(self, g: Battle, f: Fighter, engaged: list[Fighter], low: float) -> Act:
        """The AP's use without a God power."""
        abilities = f.abilities
        if ("healer" in abilities or "healer" in f.temp) and "healer" not in self.forbid:
            patients = [o for o in g.friends(f) + [f] if o.hp < o.hp_max or o.incapacitated]
            if patients:
                p = min(patients, key=lambda o: (not o.incapacitated, dist(f, o), o.index))
                if p is f or gap(f, p) <= 0.05 or (not engaged and gap(f, p) <= f.speed() * f.ap_left):
                    return Act("heal", p, fallback=self.fighting(g, f, engaged, low))
        return self.fighting(g, f, engaged, low)

    def fighting(self, g: Battle, f: Fighter, engaged: list[Fighter], low: float) -> Act:
        abilities = f.abilities
        berserker = "berserker" in abilities or "berserker" in f.temp
        if engaged:
            ranged_only = bool(f._ranged) and max(w.st or 0 for w in f._melee) < 1
            if ranged_only and not berserker:
                return Act("disengage")
            if not f.focus and f.ap_left >= 3 and "focus" not in self.forbid:
                return Act("focus", focus={"ma": 1, "st": 1})
            reachable = [e for e in engaged if self.melee_weapon(g, f, e) is not None]
            if not reachable:
                if f.ap_left >= 2:
                    return Act("disengage", min(engaged, key=lambda e: (gap(f, e), e.index)))
                if f.focus or "focus" in self.forbid:
                    return END
                return Act("focus", focus={"ma": 1, "df": 1})
            return Act("attack", self.best_target(g, f, reachable))
        enemies = g.living[1 - f.side]
        if not enemies:
            return END
        shot = self.best_shot(g, f, enemies)
        if shot is not None and (("concealment" in abilities or "concealment" in f.temp) or not berserker):
            value, e, w = shot
            melee_better = gap(f, e) <= f.speed() + 3 and max(g.attack_value(f, e, m, True) for m in f._melee) > 1.5 * value
            if not melee_better:
                return Act("shoot", e, w)
        target = self.best_target(g, f, enemies) if berserker else self.gang_target(g, f, enemies, self.nearest(g, f, enemies, low))
        if f.taunt_forced and f.taunted_by is not None and not f.taunted_by.removed:
            target = f.taunted_by  # a Taunt with 3+ stages: it must come at the taunter
        elif f._ranged and not berserker and max(w.st or 0 for w in f._melee) < 1:
            # a shooter with nothing to fight with (fists) does not walk into melee: out of
            # range it comes within range; in range with no shot (no line of sight, a friend
            # in the way) it comes closer, but stays out of its target's reach
            if gap(f, target) > f._max_range:
                return Act("advance", target, stop_at=f._max_range * 0.9, fallback=END)
            keep = target._reach + target.speed() * 0.5 + BASES
            return Act("advance", target, stop_at=max(keep, 0.6 * dist(f, target)), fallback=END)
        # the other enemy nearest f's base (then the lowest index): gap() inlined, the same arithmetic
        other: Fighter | None = None
        other_gap = math.inf
        fx, fy = f.x, f.y
        for e in enemies:
            if e is target:
                continue
            gp = math.hypot(fx - e.x, fy - e.y) - BASES
            if gp < 0.0:
                gp = 0.0
            if other is None or gp < other_gap or (gp == other_gap and e.index < other.index):
                other, other_gap = e, gp
        close = Act("close", target, others=[other] if other is not None else [])
        act = close
        if f._ranged and not berserker and gap(f, target) > f._max_range:
            act = Act("advance", target, stop_at=f._max_range * 0.9, fallback=close)
        if not target.spotted and ("concealment" in target.abilities or "concealment" in target.temp) and f.ap_left >= 2:
            act = Act("spot", target, fallback=act)
        if ("taunt" in abilities or "taunt" in f.temp) and "taunt" not in self.forbid:
            act = Act("taunt", fallback=act)
        return act

    def directed(self, g: Battle, tactician: Fighter, helpers: list[Fighter]) -> Fighter | None:
        return None if "tactician" in self.forbid else Policy.directed(self, g, tactician, helpers)

    def clash(self, g: Battle, t: Fighter, f: Fighter) -> bool:
        return "clash" not in self.forbid

    # ------------------------------------------------------------------ targets and shots

    def best_target(self, g: Battle, f: Fighter, candidates: list[Fighter]) -> Fighter:
        if f.taunt_forced and f.taunted_by in candidates:
            return f.taunted_by
        if "berserker" in f.abilities or "berserker" in f.temp:
            best, near = candidates[0], math.inf
            for e in candidates:  # the first of the nearest
                d = math.hypot(f.x - e.x, f.y - e.y)
                if d < near:
                    best, near = e, d
            return best
        if len(candidates) == 1:
            return candidates[0]
        return max(candidates, key=lambda e: (max(g.attack_value(f, e, w) for w in f._melee) / max(1, e.hp), e.cost, -e.index))

    def best_shot(self, g: Battle, f: Fighter, enemies: list[Fighter]) -> tuple[float, Fighter, Weapon] | None:
        """(expected Damage, target, weapon) of the best shot f may take now, or None: the first of
        the highest value, then of the nearest."""
        if not f._ranged:
            return None
        far = float(f._max_range)
        if f.range_override is not None and f.range_override > far:
            far = float(f.range_override)
        far += BASES
        far = far * far * (1 + 1e-9) + 1e-9
        best: tuple[float, Fighter, Weapon] | None = None
        near = math.inf
        for e in enemies:
            if f.d2[e.slot] > far:
                continue  # surely out of range
            found = g.best_shot(f, e, False)
            if found is None or not g.los(f, e) or g.shot_blocked_by_models(f, e) or (g.engaged_with(e) and found[0] < 0.3):
                continue
            d = dist(f, e)
            if best is None or found[0] > best[0] or (found[0] == best[0] and d < near):
                best, near = (found[0], e, found[1]), d
        return best

    def gang_target(self, g: Battle, f: Fighter, enemies: list[Fighter], nearest: Fighter) -> Fighter:
        """The enemy to close with: of those at most 2" further than the nearest, the one the most
        friends are already engaged with (joining them brings Overwhelm's +1 MA and +1 ST, and
        takes a foe out sooner), else the nearest."""
        fx, fy, row = f.x, f.y, f.d2
        near_gap = math.hypot(fx - nearest.x, fy - nearest.y) - BASES  # gap(), inlined
        if near_gap < 0.0:
            near_gap = 0.0
        limit = near_gap + 2.0
        # an enemy whose kept squared distance (Fighter.d2) is past a hair over (limit + bases)
        # squared is surely farther than limit: its gap is not worked out
        cut = (limit + BASES) * (limit + BASES) * (1 + 1e-9) + 1e-12
        best, best_count, best_gap = nearest, len(g.engaged_with(nearest)), near_gap
        for e in enemies:
            if e is nearest or e.incapacitated or row[e.slot] > cut:
                continue
            d = math.hypot(fx - e.x, fy - e.y) - BASES
            if d < 0.0:
                d = 0.0
            if d > limit:
                continue
            count = len(g.engaged_with(e))
            if count > best_count or (count == best_count and count > 0 and d < best_gap):
                best, best_count, best_gap = e, count, d
        return best

    def nearest(self, g: Battle, f: Fighter, enemies: list[Fighter], low: float) -> Fighter:
        """The enemy whose base is nearest to f's (then the lowest index); gaps are worked out only
        for the enemies whose kept squared distance is within a hair of the least one."""
        fx, fy, row = f.x, f.y, f.d2
        cut = (low if low > _CONTACT2 else _CONTACT2) * (1 + 1e-9) + 1e-12
        best, best_gap = enemies[0], math.inf
        for e in enemies:
            if row[e.slot] > cut:
                continue
            gp = math.hypot(fx - e.x, fy - e.y) - BASES
            if gp < 0.0:
                gp = 0.0
            if gp < best_gap or (gp == best_gap and e.index < best.index):
                best, best_gap = e, gp
        return best

    # ------------------------------------------------------------------ God powers

    def power_kind(self, g: Battle, p: GodPower) -> str:
        """What a power is for, read from its abilities once per battle (by id)."""
        kind = g.power_kinds.get(p.id)
        if kind is None:
            kind = g.power_kinds[p.id] = _power_kind(p)
        return kind

    def act_worth(self, g: Battle, f: Fighter, act: Act) -> float:
        """What the player expects of the AP its usual act spends (expected Damage)."""
        kind, t = act.kind, act.target
        if kind == "attack" and t is not None:
            w = self.melee_weapon(g, f, t)
            return g.attack_value(f, t, w) if w is not None else 0.0
        if kind == "shoot" and t is not None and act.weapon is not None:
            return g.attack_value(f, t, act.weapon)
        if kind in ("close", "advance", "heal", "focus", "spot", "taunt", "disengage"):
            return 0.4
        return 0.0

    def power_choice(self, g: Battle, f: Fighter, engaged: list[Fighter], usual: Act) -> tuple[GodPower, Fighter | None] | None:
        """The God power worth this AP most, and its target, or None. Its worth: the Damage an
        attack power expects (statuses counted at :data:`STATUS_WORTH`), the extra Damage of the
        attacks left this activation (a power granting attack abilities or Aid to ST), the HP a
        heal restores, the charge a move power makes possible; a guard power only when the AP
        would be wasted. The power must beat what the AP would do otherwise: an attack, heal or
        shooting power against the worth of the usual act; a power that changes the rest of the
        activation (buff, fight, move) is weighed by :meth:`_activation_gain`, which already
        counts the AP it takes from the model's own strikes."""
        used, spark = g.powers_used[f.side], g.godspark[f.side]
        enemies = g.living[1 - f.side]
        if not enemies:
            return None
        # the worth of the usual act and the nearest enemy: worked out at the first power that
        # passes the checks below (often none does: each power is called once a Round)
        alternative = 0.0
        nearest: Fighter | None = None
        best: tuple[GodPower, Fighter | None] | None = None
        best_worth = 0.05  # what a power must add over the AP's usual use
        # the melee target and the Damage expected without a power: the same for every power
        # weighed, worked out at the first that needs them
        melee: tuple[Fighter, float] | None = None
        for p, pid, _ in g.power_rows[f.side]:
            if pid in used or spark < g.power_cost(f, p) or pid in self.forbid or "powers" in self.forbid:
                continue
            if nearest is None:
                alternative = self.act_worth(g, f, usual) if usual.kind != "end" else 0.0
                nearest = self.nearest(g, f, enemies, min(f.d2) if f.d2 else math.inf)
            kind = self.power_kind(g, p)
            worth = 0.0
            target: Fighter | None = None
            if kind == "heal":
                assert p.attack is not None
                wounded = [o for o in [f, *g.friends(f)] if (o.hp < o.hp_max or o.incapacitated) and dist(f, o) <= p.attack.range]
                if wounded:
                    target = min(wounded, key=lambda o: (o.hp - o.hp_max, o.index))
                    worth = (1.0 if target.hp * 2 <= target.hp_max or target.incapacitated else 0.5) - alternative
            elif kind == "attack":
                assert p.attack is not None
                if not engaged and dist(f, nearest) <= p.attack.range and g.los(f, nearest):
                    target = nearest
                    worth = self._attack_power_worth(g, f, nearest, p) - alternative
            elif kind in ("buff", "fight", "move"):
                if usual.kind == "close" or usual.kind == "attack":  # it pays only in the melee f is about to fight
                    if melee is None:
                        t = self.best_target(g, f, engaged) if engaged else nearest
                        melee = (t, self._strikes(g, f, t, f.ap_left, bool(engaged), 0.0))
                    worth = self._activation_gain(g, f, p, engaged, melee[0], melee[1])  # net of the AP it costs
            elif kind == "guard":
                if usual.kind == "end" and (engaged or gap(f, nearest) <= 8):
                    worth = 0.1
            elif kind == "shoot":
                shot = self.best_shot(g, f, enemies)
                if shot is None and f._ranged and not engaged and dist(f, nearest) <= 30 and f.ap_left >= 2:
                    worth = 0.5 * max(g.attack_value(f, nearest, w) for w in f._ranged) - alternative
            if worth > best_worth:
                best, best_worth = (p, target), worth
        return best

    def _attack_power_worth(self, g: Battle, f: Fighter, t: Fighter, p: GodPower) -> float:
        assert p.attack is not None
        w = self.power_weapons.get(p.id)
        if w is None:
            kept = tuple(a for a in p.attack.abilities if ability_id(a) not in ("point-blank", "self"))
            w = self.power_weapons[p.id] = Weapon(p.name, p.attack.st, p.attack.range, False, kept, power=p.id)
        att, defence, _ = g.hit_value(f, t, w)
        p_hit = success_probability(g.rules, g.rules.tn(att, defence))
        worth = g.attack_value(f, t, w) if w.st is not None else 0.0
        for ref in w.abilities:
            worth += p_hit * status_worth(g, f, t, ref)
        spray = 2 if ("spray" in w._ids or "blast" in w._ids or "line" in w._ids) else 1
        return worth * spray

    def _strikes(self, g: Battle, f: Fighter, t: Fighter, ap: int, engaged: bool, extra_sp: float) -> float:
        """The Damage (statuses counted) f expects of the melee it can make with ``ap`` AP this
        activation: attacks when engaged, else a Charge (if in reach, ``extra_sp`` added) and the
        attacks its AP leave; with the abilities and Aid f holds now."""
        if ap <= 0:
            return 0.0
        cost = 1 if f.has("bullrush") else 2
        if not engaged:  # no Charge in reach: no melee (the reach tested first, the cheapest)
            reach = f.speed() + 3 + extra_sp + f._reach + BASES
            if not (ap >= cost and dist(f, t) <= reach and (g.los(f, t) or f.has("aware"))):
                return 0.0
        rapid = f.has("rapid-attack")
        refs = f.next_attack + f.next_melee + ["/".join([k, *v]) for k, v in f.temp.items()]
        status = 0.0
        for r in refs:
            status += status_worth(g, f, t, r)
        master = f.has("weapon-master") and not f.weapon_master_used
        count = (ap // 2) * 3 + ap % 2 if rapid else ap
        if engaged:
            return count * _melee_blow(g, f, t, False, master, status)
        left = ap - cost
        return _melee_blow(g, f, t, True, master, status) + ((left // 2) * 3 + left % 2 if rapid else left) * _melee_blow(g, f, t, False, master, status)

    def _activation_gain(self, g: Battle, f: Fighter, p: GodPower, engaged: list[Fighter], t: Fighter, before: float) -> float:
        """What calling power ``p`` now adds to the rest of f's activation: the melee it expects
        on ``t`` (the foe it strikes, else the nearest) with the power's abilities, Aid or
        movement and one AP less, against ``before``, the melee without it (negative when the AP
        is worth more than the power)."""
        moves = any(ability_id(r) in ("flight", "teleport", "leap", "sure-footed") for r in p.grants)
        difficult = g.terrain_penalty(f, t.x, t.y) if moves else 0.0  # the Difficult ground on its way, before any grant
        temp, aid = dict(f.temp), dict(f.aid)
        extra_sp = 0.0
        guard = 0.0
        try:
            if p.attack is not None:
                for ref in p.attack.abilities:
                    if ability_id(ref) == "aid":
                        args = ability_args(ref)
                        f.aid[args[0]] = f.aid.get(args[0], 0) + int(args[-1])
                        if args[0] in ("df", "rs", "dr"):
                            guard += 0.1 * len(engaged)  # a blow less taken, now and then
            for ref in p.grants:
                f.temp[ability_id(ref)] = ability_args(ref)
            if p.id == "stride-of-1000-leagues":
                extra_sp = 5.0
            elif moves:
                extra_sp = difficult  # the Difficult ground it no longer pays for
            after = self._strikes(g, f, t, f.ap_left - 1, bool(engaged), extra_sp)
        finally:
            f.temp, f.aid = temp, aid
        return after + guard - before


def _melee_blow(g: Battle, f: Fighter, t: Fighter, charge: bool, master: bool, status: float) -> float:
    """The Damage (statuses counted) f expects of one melee attack on t (a module function, not a
    nested one: compiled, a nested function and its frame refer to each other, a cycle that waits
    for the cyclic garbage collector)."""
    best = max(g.attack_value(f, t, w, charge) for w in f._melee)
    att, defence, _ = g.hit_value(f, t, f._melee[0], charge)
    p_hit = success_probability(g.rules, g.rules.tn(att, defence))
    if master:
        best *= 1.0 + (1.0 - p_hit)  # one failed melee hit rolled again
    return best + status * p_hit


def status_worth(g: Battle, f: Fighter, t: Fighter, ref: str) -> float:
    """What status ``ref`` is worth on a hit of ``f`` on ``t``, in expected Damage. Shock and Ice
    take AP (Shock: 1 AP at t's activation this Round, if it is still to come; Ice: 1 AP or more
    at its next activation), each worth one of t's blows at f, when their roll against t's RS
    succeeds; the other statuses count :data:`STATUS_WORTH`."""
    aid = ability_id(ref)
    if aid == "shock" or aid == "ice":
        if t.incapacitated or g.immune(t, aid):
            return 0.0
        if aid == "shock" and t.activated:
            return 0.1  # -1 ST and -1 SP for the rest of the Round
        args = ability_args(ref)
        x = int(args[0]) if args and args[0].lstrip("-").isdigit() else 0
        p_status = success_probability(g.rules, g.rules.tn(x, g.status_rs(t, False)))
        blow = 0.3
        for w in t._melee:
            v = g.attack_value(t, f, w)
            if v > blow:
                blow = v
        return p_status * blow
    return STATUS_WORTH.get(aid, 0.0)


def _power_kind(p: GodPower) -> str:
    if p.attack is not None:
        ids = [ability_id(a) for a in p.attack.abilities]
        if "healer" in ids or "patch" in ids:
            return "heal"
        if "self" in ids:
            return "buff"
        return "attack"
    grants = {ability_id(g) for g in p.grants}
    if grants & {"flight", "teleport", "leap", "sure-footed", "acrobatics"} or p.id == "stride-of-1000-leagues":
        return "move"
    if grants & {"immunity", "deflection", "stubborn"} or p.id in ("steel-your-mind", "wise-queens-foresight", "senses-beyond"):
        return "guard"
    if grants & {"line"}:
        return "shoot"
    return "fight"
