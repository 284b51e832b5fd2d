"""God powers bought with Godspark: their effects, and the AI's choice of when to call one."""

from __future__ import annotations

import math

from ..catalog import GodPower, ability_args, ability_id
from .fighters import Fighter, Weapon, bump
from .geometry import dist, gap
from .movement import MovementRules


class GodPowers(MovementRules):
    """God powers of :class:`battle.Battle`."""

    __slots__ = ()

    def power_cost(self, f: Fighter, p: GodPower) -> int:
        return max(0, p.godspark - (1 if ("godspark-attuned" in f.abilities or "godspark-attuned" in f.temp) else 0))

    def power_kind(self, p: GodPower) -> str:
        """What the AI uses a power for; read from its abilities once per battle (by id)."""
        kind = self.power_kinds.get(p.id)
        if kind is None:
            kind = self.power_kinds[p.id] = self._power_kind(p)
        return kind

    def _power_kind(self, p: GodPower) -> str:
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

    def use_power(self, f: Fighter, p: GodPower, target: Fighter | None = None) -> None:
        cost = self.power_cost(f, p)
        self.godspark[f.side] -= cost
        self.powers_used[f.side].add(p.id)
        f.ap_left -= 1
        extra = 0
        for b in p.boosts:  # buy a boost of "+1 additional ..." when Godspark is left
            if b.effect.lower().startswith("+1") and self.godspark[f.side] >= b.cost:
                self.godspark[f.side] -= b.cost
                extra += 1
                break
        if self.logging:
            self.say(f"  {f.name} calls on {p.name} ({cost + extra} Godspark, {self.godspark[f.side]} left)")
        for ref in p.grants:
            aid, args = ability_id(ref), ability_args(bump(ref, extra))
            if aid in ("fire",):
                f.next_attack.append("/".join([aid, *args]))
            elif aid == "ice":
                f.next_melee.append("/".join([aid, *args]))
            elif aid == "immunity":
                f.temp.setdefault("immunity", []).extend(args)
            else:
                f.temp[aid] = args
        if p.id == "stride-of-1000-leagues":
            f.sp_bonus += 5
        if p.id == "fly-true":
            f.range_override = 30
        if p.id in ("steel-your-mind", "wise-queens-foresight", "war-gods-prowess"):
            f.temp[p.id] = []
        if p.id == "senses-beyond":
            for e in self.enemies(f):
                e.spotted = True
        if p.attack is not None:
            abilities = [a for a in p.attack.abilities if ability_id(a) not in ("point-blank", "self")]
            if extra:
                abilities = [bump(a, extra) for a in abilities]
            w = Weapon(p.name, p.attack.st, p.attack.range, False, tuple(abilities), power=p.id)
            who = target or f
            if who.side == f.side:
                self.resolve(f, who, w, auto_hit=True, label="channels into")
            elif "spray" in w._ids or "line" in w._ids or "blast" in w._ids:
                self.area_attack(f, who, w)
            else:
                self.resolve(f, who, w, label="strikes with")

    def maybe_power(self, f: Fighter, foes: list[Fighter] | None = None) -> bool:
        """The AI's choice of a God power at this moment; True when one was used.  ``foes``:
        :meth:`engaged_with` of f when the caller has it already."""
        if f.ap_left < 1 or not self.powers[f.side]:
            return False
        used, spark = self.powers_used[f.side], self.godspark[f.side]
        if spark < self.cheapest[f.side]:
            return False  # not even the cheapest power (less the Attuned rebate) is affordable
        attuned = 1 if ("godspark-attuned" in f.abilities or "godspark-attuned" in f.temp) else 0
        rows = self.power_rows[f.side]  # (power, id, cost): no catalogue attribute read per step
        for _, pid, price in rows:  # any power unused this Round and affordable? (power_cost)
            cost = price - attuned
            if pid not in used and spark >= (cost if cost > 0 else 0):
                break
        else:
            return False
        enemies = self.enemies(f)
        if not enemies:
            return False
        nearest, near = enemies[0], math.inf
        fx, fy, hypot = f.x, f.y, math.hypot
        for e in enemies:  # min(enemies, key=dist): the first of the nearest
            d = hypot(fx - e.x, fy - e.y)
            if d < near:
                nearest, near = e, d
        engaged = bool(self.engaged_with(f) if foes is None else foes)
        can_charge = gap(f, nearest) <= f.speed() + 3 + f.reach() and f.ap_left >= 3
        for p, pid, price in rows:
            cost = price - attuned  # power_cost(f, p): nothing below changes Attuned before a return
            if pid in self.powers_used[f.side] or self.godspark[f.side] < (cost if cost > 0 else 0):
                continue
            kind = self.power_kinds.get(pid)  # power_kind(p), its memo read by the id at hand
            if kind is None:
                kind = self.power_kind(p)
            if kind == "heal":
                assert p.attack is not None  # a power kinded heal or attack has one
                wounded = [o for o in [f, *self.friends(f)] if o.hp < o.hp_max and dist(f, o) <= p.attack.range]
                if wounded:
                    self.use_power(f, p, min(wounded, key=lambda o: o.hp))
                    return True
            elif kind == "attack":
                assert p.attack is not None
                if not engaged and dist(f, nearest) <= p.attack.range and self.los(f, nearest):
                    self.use_power(f, p, nearest)
                    return True
            elif kind in ("buff", "fight"):
                if (engaged and f.ap_left >= 2) or can_charge:
                    self.use_power(f, p)
                    return True
            elif kind == "guard":
                if engaged or gap(f, nearest) <= 8:
                    self.use_power(f, p)
                    return True
            elif kind == "move":
                if not engaged and f.speed() + 3 + f.reach() < gap(f, nearest) <= f.speed() + 8 + f.reach() and f.ap_left >= 3:
                    self.use_power(f, p)
                    return True
            elif kind == "shoot" and f.ranged_weapons() and not engaged and dist(f, nearest) <= 30:
                self.use_power(f, p)
                return True
        return False
