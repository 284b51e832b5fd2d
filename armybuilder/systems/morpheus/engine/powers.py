"""God powers bought with Godspark: what calling one costs and does (when to call one is the
player's choice: :mod:`ai`)."""

from __future__ import annotations

from ..catalog import GodPower
from .fighters import Fighter, Weapon, ability_args, ability_id, bump
from .movement import MovementRules


class GodPowers(MovementRules):
    """God powers of :class:`battle.Battle`."""

    __slots__ = ()

    def power_cost(self, f: Fighter, p: GodPower) -> int:
        return max(0, p.godspark - (1 if ("godspark-attuned" in f.abilities or "godspark-attuned" in f.temp) else 0))

    def use_power(self, f: Fighter, p: GodPower, target: Fighter | None = None) -> None:
        cost = self.power_cost(f, p)
        self.godspark[f.side] -= cost
        self.powers_used[f.side].add(p.id)
        self.note(f.side, p.id)
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
