"""An activation: its start and end effects and the AI's policy for spending the model's AP
(fight, shoot, charge, heal, taunt, spot, disengage) and which model activates next."""

from __future__ import annotations

import math

from .fighters import BASES, FISTS, Fighter, Weapon
from .geometry import dist, gap
from .powers import GodPowers

_CONTACT2 = BASES ** 2  # squared centre distance of two bases in contact


class Activation(GodPowers):
    """Activations of :class:`battle.Battle` (the AI's policy)."""

    __slots__ = ()

    def start_activation(self, f: Fighter) -> None:
        f.activated = True
        f.weapon_master_used = False
        f.ap_left = 0 if f.incapacitated else f.ap - (1 if f.berserk_penalty else 0) - (1 if f.shocked else 0)
        f.berserk_penalty = False
        if f.ice is not None and not f.removed:
            ok, stages = self.roll(f.ice, f.stat("rs"))[:2]
            if ok:
                f.ap_left = max(0, f.ap_left - max(1, stages))
                if self.logging:
                    self.say(f"  {f.name} is frozen: -{max(1, stages)} AP")
            else:
                f.ice = None
                f.ice_sp = True
        if f.delusional and not self.test(f, f.stat("mn"), 2, "mn")[0]:
            if self.logging:
                self.say(f"  {f.name} is delusional and attacks the nearest model")
            others = [o for o in self.sides[0] + self.sides[1] if not o.removed and o is not f]
            if others:
                t = min(others, key=lambda o: dist(f, o))
                self.close_and_fight(f, t, allow_charge=False)
            f.ap_left = 0
        scary = self.terror[1 - f.side]  # the enemies that can be Terrifying, in index order
        for e in self.enemies(f) if scary is None else scary:  # Terrifying: within its melee range
            if e.removed or ("terrifying" not in e.abilities and "terrifying" not in e.temp):
                continue
            x = e.value("terrifying")
            if x is not None and not f.terrified and not ("steel-your-mind" in f.abilities or "steel-your-mind" in f.temp) and gap(f, e) <= e._reach:
                if not self.test(f, f.stat("mn"), x, "mn")[0]:
                    f.terrified = True
                    if self.logging:
                        self.say(f"  {f.name} is terrified by {e.name}")

    def end_activation(self, f: Fighter) -> None:
        if f.fire is not None and not f.removed:
            if not self.roll(self.status_rs(f, False), f.fire)[0]:
                self.wound(f, 1, None, "fire")
        f.ap_left = 0

    def best_target(self, f: Fighter, candidates: list[Fighter]) -> Fighter:
        if f.taunt_forced and f.taunted_by in candidates:
            return f.taunted_by
        if "berserker" in f.abilities or "berserker" in f.temp:
            best, near, fx, fy = candidates[0], math.inf, f.x, f.y
            for e in candidates:  # min(key=dist): the first of the nearest
                d = math.hypot(fx - e.x, fy - e.y)
                if d < near:
                    best, near = e, d
            return best
        if len(candidates) == 1:  # usually one foe in reach: nothing to weigh
            return candidates[0]
        return max(candidates, key=lambda e: (max(self.attack_value(f, e, w) for w in f.melee_weapons()) / max(1, e.hp), e.cost, -e.index))

    def close_and_fight(self, f: Fighter, t: Fighter, allow_charge: bool = True, unengaged: bool = False,
                        low: float | None = None) -> bool:  # fmt: skip
        """Move into melee with t (Charge when the rules allow it), then attack; False (having done
        nothing) if blocked.  ``unengaged``: the caller knows f is engaged with no one; ``low``:
        min(f.d2), when the caller has it."""
        w = self.choose_melee(f, t, charge=True) or FISTS
        g = math.hypot(f.x - t.x, f.y - t.y) - BASES  # in_reach()
        if (g if g > 0.0 else 0.0) <= w._touch:
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
            and (unengaged or not self.engaged_with(f))
        )  # fmt: skip
        if can_charge:
            if self.logging:
                self.say(f"  {f.name} charges {t.name}")
            if self.move_towards(f, spot[0], spot[1], speed + 3, 0.0, target=t, penalty=penalty, near=low) <= 0.0:
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
                if not self.test(a, a.stat("mn"), x, "mn")[0]:
                    a.terrified = True
                    if self.logging:
                        self.say(f"  {a.name} is terrified by {b.name}")

    def spend_attack(self, f: Fighter, t: Fighter) -> None:
        w = self.choose_melee(f, t)
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

    def heal_someone(self, f: Fighter) -> bool:
        if not ("healer" in f.abilities or "healer" in f.temp):
            return False
        patients = [o for o in self.friends(f) + [f] if o.hp < o.hp_max or o.incapacitated]
        if not patients:
            return False
        p = min(patients, key=lambda o: (not o.incapacitated, dist(f, o)))
        if p is f or gap(f, p) <= 0.05:
            f.ap_left -= 1
            p.hp += 1
            if p.incapacitated:
                p.incapacitated = False
            if self.logging:
                self.say(f"  {f.name} heals {p.name} to {p.hp} HP")
            return True
        if self.engaged_with(f) or gap(f, p) > f.speed() * f.ap_left:
            return False
        f.ap_left -= 1
        self.move_towards(f, p.x, p.y, f.speed(), BASES)
        return True

    def best_ranged(self, f: Fighter, t: Fighter, engaged: bool | None = None) -> Weapon | None:
        found = self.best_shot(f, t, engaged)
        return found[1] if found is not None else None

    def best_shot(self, f: Fighter, t: Fighter, engaged: bool | None = None) -> tuple[float, Weapon] | None:
        """(expected Damage, weapon) of f's best shot at t, or None: the value comes back with
        the weapon so the AI weighs each shot once per decision, not three times."""
        best: tuple[float, Weapon] | None = None
        if engaged is None:
            engaged = bool(self.engaged_with(f))
        d = math.hypot(f.x - t.x, f.y - t.y)  # dist()
        override = f.range_override
        for w in f._ranged:
            reach = w.reach  # max(w.reach, f.range_override or 0)
            if override is not None and override > reach:
                reach = override
            if d - BASES > reach or (engaged and "point-blank" not in w._ids):
                continue
            if f.blind and d > 6:
                continue
            value = self.attack_value(f, t, w)
            if best is None or value > best[0]:  # the first of the highest, as max() picks it
                best = (value, w)
        return best

    def activate(self, f: Fighter) -> None:
        if self.logging:
            self.say(f"{f.name} activates ({f.ap} AP)")
        self.start_activation(f)
        guard = 0
        living, foe_side, my_side = self.living, 1 - f.side, f.side
        powers, godspark, cheapest = self.powers, self.godspark, self.cheapest
        abilities = f.abilities  # has() inlined below: the profile's, then the Round's (temp)
        while f.ap_left > 0 and (not f.removed and not f.incapacitated) and living[foe_side] and guard < 20:
            guard += 1
            if f.prone:
                if not ("acrobatics" in abilities or "acrobatics" in f.temp):
                    f.ap_left -= 1
                f.prone = False
                if self.logging:
                    self.say(f"  {f.name} stands up")
                continue
            if f.restrain is not None:
                f.ap_left -= 1
                if self.test(f, f.stat("dr"), f.restrain, "dr")[0]:
                    f.restrain = None
                continue
            # f's foes in melee: nothing below changes them before an action, and every action
            # ends the iteration, so they are looked up once and handed down
            # the least kept distance to a foe, read by engaged_with(), nearest() and a move's
            # Free Strike test: nothing moves between here and them (every action ends the step)
            row = f.d2
            low = min(row) if row else math.inf
            engaged = self.engaged_with(f, low)
            if f.fire is not None and f.ap_left >= 2 and not engaged:
                f.ap_left -= 1
                if self.roll(self.status_rs(f, False) + 2, f.fire)[0]:
                    f.fire = None
                    if self.logging:
                        self.say(f"  {f.name} puts out the fire")
                continue
            # maybe_power()'s first test inlined: most steps find no power affordable
            if powers[my_side] and godspark[my_side] >= cheapest[my_side] and self.maybe_power(f, engaged):
                continue
            if ("healer" in abilities or "healer" in f.temp) and self.heal_someone(f):
                continue
            if engaged:
                ranged_only = bool(f.ranged_weapons()) and max(w.st or 0 for w in f.melee_weapons()) < 1
                if ranged_only and not ("berserker" in abilities or "berserker" in f.temp):
                    self.disengage(f, engaged)
                    continue
                if not f.focus and f.ap_left >= 3:
                    f.ap_left -= 1
                    f.focus = {"ma": 1, "st": 1}
                    if self.logging:
                        self.say(f"  {f.name} focuses")
                    continue
                reachable = [e for e in engaged if self.choose_melee(f, e) is not None]
                if not reachable:
                    if f.ap_left >= 2:
                        self.disengage(f, engaged, toward=min(engaged, key=lambda e: (gap(f, e), e.index)))
                        continue
                    if f.focus:
                        break
                    f.ap_left -= 1
                    f.focus = {"ma": 1, "df": 1}
                    continue
                self.spend_attack(f, self.best_target(f, reachable))
                continue
            enemies = living[foe_side]
            engaged_now = False  # f is not engaged here (that branch ended the iteration)
            shots: list[tuple[float, Fighter, Weapon]] = []  # (value, target, weapon): weighed once
            berserker = "berserker" in abilities or "berserker" in f.temp
            ranged = f._ranged
            if ranged:
                # an enemy whose kept squared distance is past the longest shot (bases, a hair
                # more) is surely out of range: best_shot() would find nothing
                far = float(f._max_range)  # the same float as int + BASES gave, in both builds
                if f.range_override is not None and f.range_override > far:
                    far = float(f.range_override)
                far += BASES
                far = far * far * (1 + 1e-9) + 1e-9
                row = f.d2
                for e in enemies:
                    if row[e.slot] > far:
                        continue
                    found = self.best_shot(f, e, engaged_now)
                    if found is not None and self.los(f, e) and not self.shot_blocked_by_models(f, e) and (not self.engaged_with(e) or found[0] >= 0.3):
                        shots.append((found[0], e, found[1]))
            if shots and (("concealment" in abilities or "concealment" in f.temp) or not berserker):
                # max() by (value, -distance) as a plain loop (no closure, no key tuples): the
                # first of the highest value, then of the nearest
                value, e, w = shots[0]
                near = dist(f, e)
                for other_value, other, weapon in shots:
                    d = dist(f, other)
                    if other_value > value or (other_value == value and d < near):
                        value, e, w, near = other_value, other, weapon, d
                melee_better = gap(f, e) <= f.speed() + 3 and max(self.attack_value(f, e, m, True) for m in f.melee_weapons()) > 1.5 * value
                if not melee_better:
                    f.ap_left -= 1
                    self.ranged_attack(f, e, w)
                    continue
            target = self.best_target(f, enemies) if berserker else self.nearest(f, enemies, low)
            if f.taunt_forced and f.taunted_by is not None and not f.taunted_by.removed:
                target = f.taunted_by  # a Taunt with 3+ stages: it must come at the taunter
            if ("taunt" in abilities or "taunt" in f.temp) and self.taunt(f, enemies):
                continue
            if not target.spotted and ("concealment" in target.abilities or "concealment" in target.temp) and f.ap_left >= 2:
                f.ap_left -= 1
                target.spotted = self.test(f, f.stat("mn"), target.stat("dr"), "mn")[0]
                if self.logging:
                    self.say(f"  {f.name} {'spots' if target.spotted else 'fails to spot'} {target.name}")
                continue
            if ranged and not berserker and gap(f, target) > f._max_range:
                if self.move_towards(f, target.x, target.y, f.speed(), f._max_range * 0.9) > 0.0:
                    f.ap_left -= 1
                    continue
            # f is engaged with no one here, nor after a close_and_fight() that failed (it acts on success only)
            if not self.close_and_fight(f, target, unengaged=True, low=low):
                others = [e for e in enemies if e is not target]
                if not others or not self.close_and_fight(f, min(others, key=lambda e: (gap(f, e), e.index)), unengaged=True, low=low):
                    break
        self.end_activation(f)

    def taunt(self, f: Fighter, enemies: list[Fighter]) -> bool:
        x = f.value("taunt")
        if x is None or f.ap_left < 1:
            return False
        fresh = [e for e in enemies if not e.activated and e.taunted_by is None and self.los(f, e) and dist(f, e) <= 18]
        if not fresh:
            return False
        e = max(fresh, key=lambda o: (o.cost, -o.index))
        f.ap_left -= 1
        ok, stages = self.test(e, x, e.stat("mn"))
        if ok:
            e.taunted_by = f
            e.taunt_forced = stages >= 3
            if self.logging:
                self.say(f"  {f.name} taunts {e.name}" + (" into coming at it" if e.taunt_forced else ""))
        return True

    def nearest(self, f: Fighter, enemies: list[Fighter], low: float | None = None) -> Fighter:
        """The enemy whose base is nearest to f's (then the lowest index), among ``enemies``:
        all of f's living enemies.  Gaps are worked out (with hypot, as gap()) only for the
        enemies whose kept squared distance is within a hair of the least one, or of base
        contact (every base in contact has gap 0): the others are surely farther.  ``low``:
        min(f.d2) when the caller has it already."""
        fx, fy, contact = f.x, f.y, BASES
        hypot = math.hypot
        row = f.d2
        cut = min(row) if low is None else low
        cut = (cut if cut > _CONTACT2 else _CONTACT2) * (1 + 1e-9) + 1e-12
        best, best_gap = enemies[0], math.inf
        for e in enemies:  # gap() inlined; (gap, index) compared without building tuples
            if row[e.slot] > cut:
                continue
            g = hypot(fx - e.x, fy - e.y) - contact
            if g < 0.0:
                g = 0.0
            if g < best_gap or (g == best_gap and e.index < best.index):
                best, best_gap = e, g
        return best

    def pick_next(self, side: int) -> Fighter | None:
        """The ready model nearest to an enemy (squared centre distance), then the lowest index:
        each model's distances to the enemies are kept as they move (:meth:`place`); the list
        is in index order, so the first of equal distances is the lowest index."""
        if not self.living[1 - side]:
            for f in self.living[side]:
                if not f.activated:
                    return f
            return None
        best: Fighter | None = None
        best_near = math.inf
        for f in self.living[side]:
            if not f.activated:
                near = min(f.d2)
                if best is None or near < best_near:
                    best, best_near = f, near
        return best
