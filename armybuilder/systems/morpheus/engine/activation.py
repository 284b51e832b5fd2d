"""An activation [Action Points, Attacks, Charge, Focus, Disengage, Go Prone or Stand]: its start
and end effects, and the rules of what a model may spend its AP on. Each AP's use is its player's
choice (:meth:`~.policy.Policy.step` gives an :class:`~.policy.Act`); :meth:`Activation.perform`
checks it against the rules and plays it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from .fighters import BASES, FISTS, Fighter, Weapon
from .geometry import dist, gap
from .policy import Act
from .powers import GodPowers

if TYPE_CHECKING:
    from .battle import Battle


class Activation(GodPowers):
    """Activations of :class:`battle.Battle`."""

    __slots__ = ()

    def start_activation(self, f: Fighter) -> None:
        f.activated = True
        f.weapon_master_used = False
        f.ap_left = 0 if f.incapacitated else f.ap - (1 if f.berserk_penalty else 0) - (1 if f.shocked else 0)
        f.berserk_penalty = False
        if f.ice is not None and not f.removed:
            ok, stages, natural = self.roll(f.ice, f.stat("rs"))
            if self.logging:
                self.say(f"  {f.name}: {self.told('Ice vs RS', f.ice, f.stat('rs'), natural, ok)}")
            if ok:
                f.ap_left = max(0, f.ap_left - max(1, stages))
                if self.logging:
                    self.say(f"  {f.name} is frozen: -{max(1, stages)} AP")
            else:
                f.ice = None
                f.ice_sp = True
        if f.delusional and not self.test(f, f.stat("mn"), 2, "mn", "Delusional: MN vs 2")[0]:
            if self.logging:
                self.say(f"  {f.name} is delusional and attacks the nearest model")
            others = [o for o in self.sides[0] + self.sides[1] if not o.removed and o is not f]
            if others:
                t = min(others, key=lambda o: (dist(f, o), o.side, o.index))
                self.close_and_fight(f, t, allow_charge=False)
            f.ap_left = 0
        scary = self.terror[1 - f.side]  # the enemies that can be Terrifying, in index order
        for e in self.enemies(f) if scary is None else scary:  # Terrifying: within its melee range
            if e.removed or ("terrifying" not in e.abilities and "terrifying" not in e.temp):
                continue
            x = e.value("terrifying")
            if x is not None and not f.terrified and not ("steel-your-mind" in f.abilities or "steel-your-mind" in f.temp) and gap(f, e) <= e._reach:
                if not self.test(f, f.stat("mn"), x, "mn", f"Terrifying ({e.name}): MN vs {x}")[0]:
                    f.terrified = True
                    if self.logging:
                        self.say(f"  {f.name} is terrified by {e.name}")

    def end_activation(self, f: Fighter) -> None:
        if f.fire is not None and not f.removed:
            ok, _, natural = self.roll(self.status_rs(f, False), f.fire)
            if self.logging:
                self.say(f"  {f.name}: fire, {self.told('RS vs Fire', self.status_rs(f, False), f.fire, natural, ok)}")
            if not ok:
                self.wound(f, 1, None, "fire")
        f.ap_left = 0

    # ------------------------------------------------------------------ melee

    def close_and_fight(self, f: Fighter, t: Fighter, allow_charge: bool = True, unengaged: bool = False,
                        low: float | None = None) -> bool:  # fmt: skip
        """Move into melee with ``t`` (a Charge when the rules allow it and the player wants one),
        then attack; False (having done nothing) if blocked. A Charge takes the shortest way, so it
        is not made through hazardous terrain; an ordinary move goes round it. ``unengaged``: the
        caller knows f is engaged with no one; ``low``: min(f.d2), when the caller has it."""
        g = cast("Battle", self)
        w = self.policies[f.side].melee_weapon(g, f, t, True) or FISTS
        gp = math.hypot(f.x - t.x, f.y - t.y) - BASES
        if (gp if gp > 0.0 else 0.0) <= w._touch:
            if f.ap_left < 1:
                return False
            self.spend_attack(f, t)
            return True
        spot = self.approach_spot(f, t, w.reach)
        if spot is None:
            return False
        penalty = self.terrain_penalty(f, spot[0], spot[1])
        need = math.hypot(spot[0] - f.x, spot[1] - f.y) + penalty
        cost = 1 if ("bullrush" in f.abilities or "bullrush" in f.temp) else 2
        speed = f.speed()  # nothing below changes it before the move
        can_charge = (
            allow_charge and not f.prone and f.ap_left >= cost and need <= speed + 3
            and need >= math.ceil(f.sp / 2) and (self.los(f, t) or ("aware" in f.abilities or "aware" in f.temp))
            and (unengaged or not self.engaged_with(f)) and not self.crosses_hazard(f, spot[0], spot[1])
        )  # fmt: skip
        if can_charge:
            if self.logging:
                self.say(f"  {f.name} charges {t.name} ({need:.1f}\" away)")
            self.note(f.side, "charge")
            if self.move_towards(f, spot[0], spot[1], speed + 3, 0.0, target=t, penalty=penalty, near=low, hazards=True) <= 0.0:
                return False
            f.ap_left -= cost
            if (not f.removed and not f.incapacitated) and not t.removed and self.in_reach(f, t, w):
                self.charge_terror(f, t)
                self.melee_attack(f, t, w, charge=True)
            return True
        if self.move_towards(f, spot[0], spot[1], speed, 0.0, target=t, penalty=penalty, near=low) <= 0.0:
            return False
        f.ap_left -= 1
        return True

    def charge_terror(self, f: Fighter, t: Fighter) -> None:
        for a, b in ((f, t), (t, f)):
            x = b.value("terrifying")
            if x is not None and not a.terrified and not ("steel-your-mind" in a.abilities or "steel-your-mind" in a.temp):
                if not self.test(a, a.stat("mn"), x, "mn", f"Terrifying ({b.name}): MN vs {x}")[0]:
                    a.terrified = True
                    if self.logging:
                        self.say(f"  {a.name} is terrified by {b.name}")

    def spend_attack(self, f: Fighter, t: Fighter) -> None:
        w = self.policies[f.side].melee_weapon(cast("Battle", self), f, t, False)
        if w is None:
            f.ap_left -= 1
            return
        if ("melee-arc" in f.abilities or "melee-arc" in f.temp) and f.ap_left >= 1:
            targets = [e for e in self.enemies(f) if gap(f, e) <= 2]
            if len(targets) >= 2:
                f.ap_left -= 1
                for e in targets:
                    self.melee_attack(f, e, w, clash_allowed=False, label="sweeps")
                return
        if ("rapid-attack" in f.abilities or "rapid-attack" in f.temp) and f.ap_left >= 2 and "cumbersome" not in w._ids:
            f.ap_left -= 2
            for _ in range(3):
                if not t.removed and (not f.removed and not f.incapacitated):
                    self.melee_attack(f, t, w, label="rapidly attacks")
            return
        f.ap_left -= 1
        self.melee_attack(f, t, w)

    # ------------------------------------------------------------------ the other uses of AP

    def heal(self, f: Fighter, p: Fighter) -> bool:
        """[Healer] heal ``p`` by 1 HP for 1 AP when in base contact (or ``p`` is ``f``), else move
        towards it for 1 AP; False when neither is possible."""
        if not ("healer" in f.abilities or "healer" in f.temp) or not (p.hp < p.hp_max or p.incapacitated) or p.removed or p.side != f.side:
            return False
        if p is f or gap(f, p) <= 0.05:
            f.ap_left -= 1
            p.hp += 1
            if p.incapacitated:
                p.incapacitated = False
            self.note(f.side, "healer")
            if self.logging:
                self.say(f"  {f.name} heals {p.name} to {p.hp} HP")
            return True
        if self.engaged_with(f) or gap(f, p) > f.speed() * f.ap_left:
            return False
        if self.move_towards(f, p.x, p.y, f.speed(), BASES) <= 0.0:
            return False
        f.ap_left -= 1
        return True

    def best_shot(self, f: Fighter, t: Fighter, engaged: bool | None = None) -> tuple[float, Weapon] | None:
        """(expected Damage, weapon) of f's best shot at t that the rules allow (in range, not
        engaged unless Point Blank, 6" when blind), or None."""
        best: tuple[float, Weapon] | None = None
        if engaged is None:
            engaged = bool(self.engaged_with(f))
        d = math.hypot(f.x - t.x, f.y - t.y)
        override = f.range_override
        for w in f._ranged:
            reach = w.reach
            if override is not None and override > reach:
                reach = override
            if d - BASES > reach or (engaged and "point-blank" not in w._ids):
                continue
            if f.blind and d > 6:
                continue
            value = self.attack_value(f, t, w)
            if best is None or value > best[0]:
                best = (value, w)
        return best

    def taunt(self, f: Fighter, enemies: list[Fighter]) -> bool:
        x = f.value("taunt")
        if x is None or f.ap_left < 1:
            return False
        fresh = [e for e in enemies if not e.activated and e.taunted_by is None and self.los(f, e) and dist(f, e) <= 18]
        if not fresh:
            return False
        e = self.policies[f.side].taunted(cast("Battle", self), f, fresh)
        if e not in fresh:
            return False
        f.ap_left -= 1
        self.note(f.side, "taunt")
        ok, stages = self.test(e, x, e.stat("mn"), "", f"Taunt ({f.name}) vs MN")
        if ok:
            e.taunted_by = f
            e.taunt_forced = stages >= 3
            if self.logging:
                self.say(f"  {f.name} taunts {e.name}" + (" into coming at it" if e.taunt_forced else ""))
        return True

    def perform(self, f: Fighter, act: Act, engaged: list[Fighter], low: float) -> bool:
        """Play ``act`` for ``f`` if the rules allow it; False when it is not possible (nothing spent)."""
        kind, t = act.kind, act.target
        if kind == "stand":
            if not f.prone:
                return False
            if not ("acrobatics" in f.abilities or "acrobatics" in f.temp):
                f.ap_left -= 1
            f.prone = False
            if self.logging:
                self.say(f"  {f.name} stands up")
            return True
        if kind == "douse":
            if f.fire is None:
                return False
            f.ap_left -= 1
            ok, _, natural = self.roll(self.status_rs(f, False) + 2, f.fire)
            if self.logging:
                self.say(f"  {f.name} fights the fire: {self.told('RS + 2 vs Fire', self.status_rs(f, False) + 2, f.fire, natural, ok)}")
            if ok:
                f.fire = None
            return True
        if kind == "power" and act.power is not None:
            p = act.power
            if p.id in self.powers_used[f.side] or self.godspark[f.side] < self.power_cost(f, p) or p not in self.powers[f.side]:
                return False
            self.use_power(f, p, t)
            return True
        if kind == "heal" and t is not None:
            return self.heal(f, t)
        if kind == "disengage":
            if not engaged:
                return False
            self.disengage(f, engaged, toward=t)
            return True
        if kind == "focus":
            if f.focus or act.focus is None or sum(act.focus.values()) > 2:
                return False  # once per Round: +2 to one stat or +1 to two (seed: Focus Action)
            f.ap_left -= 1
            f.focus = dict(act.focus)
            self.note(f.side, "focus")
            if self.logging:
                self.say(f"  {f.name} focuses (" + ", ".join(f"+{v} {k.upper()}" for k, v in f.focus.items()) + ")")
            return True
        if kind == "attack" and t is not None:
            if t not in engaged or self.policies[f.side].melee_weapon(cast("Battle", self), f, t, False) is None:
                return False
            self.spend_attack(f, t)
            return True
        if kind == "shoot" and t is not None and act.weapon is not None:
            w = act.weapon
            if w not in f._ranged or (f.blind and dist(f, t) > 6) or not self.los(f, t) or self.shot_blocked_by_models(f, t):
                return False
            reach = w.reach if f.range_override is None else max(w.reach, f.range_override)
            if math.hypot(f.x - t.x, f.y - t.y) - BASES > reach or (engaged and "point-blank" not in w._ids):
                return False
            f.ap_left -= 1
            self.note(f.side, "shoot")
            self.ranged_attack(f, t, w)
            return True
        if kind == "taunt":
            return self.taunt(f, self.enemies(f))
        if kind == "spot" and t is not None:
            if t.spotted or not ("concealment" in t.abilities or "concealment" in t.temp):
                return False
            f.ap_left -= 1
            t.spotted = self.test(f, f.stat("mn"), t.stat("dr"), "mn", f"spotting {t.name}: MN vs DR")[0]
            if self.logging:
                self.say(f"  {f.name} {'spots' if t.spotted else 'fails to spot'} {t.name}")
            return True
        if kind == "advance" and t is not None:
            if engaged:
                return False
            if self.move_towards(f, t.x, t.y, f.speed(), act.stop_at) > 0.0:
                f.ap_left -= 1
                return True
            return False
        if kind == "close" and t is not None:
            if engaged:
                return False
            for o in [t, *(act.others or [])]:
                if self.close_and_fight(f, o, allow_charge=act.charge, unengaged=True, low=low):
                    return True
            return False
        return False

    def activate(self, f: Fighter) -> None:
        """Spend ``f``'s AP, one decision of its player at a time, until it ends its activation,
        runs out of AP, is taken out, or has no enemy left; a restrained model tests to break free."""
        if self.logging:
            self.say(f"{f.name} activates ({f.ap} AP)")
        self.start_activation(f)
        policy = self.policies[f.side]
        g = cast("Battle", self)
        guard = 0
        living, foe_side = self.living, 1 - f.side
        while f.ap_left > 0 and (not f.removed and not f.incapacitated) and living[foe_side] and guard < 20:
            guard += 1
            if f.restrain is not None:
                f.ap_left -= 1
                if self.test(f, f.stat("dr"), f.restrain, "dr", "Restrained: DR vs Restrain")[0]:
                    f.restrain = None
                continue
            row = f.d2
            low = min(row) if row else math.inf
            engaged = self.engaged_with(f, low)
            act: Act | None = policy.step(g, f, engaged, low)
            done = False
            while act is not None and act.kind != "end":
                if self.perform(f, act, engaged, low):
                    done = True
                    break
                act = act.fallback  # not possible: what the player would do instead
            if not done:
                break
        self.end_activation(f)
