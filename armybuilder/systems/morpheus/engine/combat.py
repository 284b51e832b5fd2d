"""Attacks [Attacks, Clash, Overwhelm, status effects]: hit and damage rolls, statuses, area attacks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from .dice import expected_damage
from .fighters import BASE_RADIUS, BASES, CONTACT, Fighter, Weapon, ability_args, ability_id
from .geometry import Geometry, dist, gap

if TYPE_CHECKING:
    from .battle import Battle

# attack abilities a God power can grant for the Round, in the order an attack lists them
_GRANTED = ("shock", "fire", "ice", "restrain", "push", "deceptive", "knockdown")


class CombatRules(Geometry):
    """The attack rules of :class:`battle.Battle`."""

    __slots__ = ()

    def wound(self, target: Fighter, damage: int, by: Fighter | None, why: str) -> None:
        if damage <= 0 or target.removed:
            return
        if target.incapacitated:
            self.remove(target, by, f"{why} (while incapacitated)")
            return
        target.hp -= damage
        if self.logging:
            self.say(f"  {target.name} loses {damage} HP ({why}), {max(target.hp, 0)} left")
        if target.hp <= 0:
            # no model of the side can ever be a Healer (profile or God power): no one to look for
            healers = [o for o in self.friends(target) if (not o.removed and not o.incapacitated) and ("healer" in o.abilities or "healer" in o.temp)] if self.healers[target.side] else None
            if healers:
                target.hp = 0
                target.incapacitated = True
                target.prone = True
                if self.logging:
                    self.say(f"  {target.name} is incapacitated")
            else:
                self.remove(target, by, why)

    def remove(self, target: Fighter, by: Fighter | None, why: str) -> None:
        self.unindex(target)
        target.removed = True
        target.hp = 0
        for e in self.sides[1 - target.side]:  # no longer anyone's nearest or engaged foe
            e.d2[target.slot] = math.inf
        self.living[target.side] = [f for f in self.living[target.side] if f is not target]
        self.scores[1 - target.side] += target.cost
        if by is not None and by.side != target.side:
            by.kills += target.cost
        if self.logging:
            self.say(f"  {target.name} is removed ({why})")

    def st_hit(self, target: Fighter, st: int, by: Fighter | None, why: str) -> None:
        """An automatic ST (x) hit (hazardous terrain, collisions, fire)."""
        ok, stages, natural = self.roll(st, target.stat("rs"))
        if self.logging:
            self.say(f"  {target.name} suffers a ST {st} hit ({why}): {self.told('ST vs RS', st, target.stat('rs'), natural, ok)}")
        if ok:
            self.wound(target, 1 + stages // self.rules.step_normal, by, why)

    def rolled(self, f: Fighter, what: str, x: int, y: int) -> tuple[bool, int]:
        """A roll that concerns ``f``, written to the log: (success, stages)."""
        ok, stages, natural = self.roll(x, y)
        if self.logging:
            self.say(f"  {f.name}: {self.told(what, x, y, natural, ok)}")
        return ok, stages

    def status_rs(self, target: Fighter, psi: bool) -> int:
        base = target.stat("dr") if psi else target.stat("rs")
        return base + (2 if ("high-pain-threshold" in target.abilities or "high-pain-threshold" in target.temp) else 0)

    def immune(self, target: Fighter, status: str) -> bool:
        return status in target.temp.get("immunity", []) + target.abilities.get("immunity", [])

    def apply_statuses(self, attacker: Fighter, target: Fighter, refs: list[str], psi: bool) -> None:
        """Attack abilities that act on a hit, before damage (seed: Knockdown, Shock...)."""
        for ref in refs:
            aid, args = ability_id(ref), ability_args(ref)
            x = next((int(a) for a in reversed(args) if a.lstrip("-").isdigit()), 0)
            if aid in ("fire", "ice", "shock", "blind", "restrain") and self.immune(target, aid):
                continue
            if aid == "knockdown":
                size = target.size - (1 if target.prone else 0) + (2 if ("steady" in target.abilities or "steady" in target.temp) else 0)
                if self.rolled(target, "Knockdown vs Size", x, size)[0]:
                    target.prone = True
                    if self.logging:
                        self.say(f"  {target.name} is knocked down")
            elif aid == "shock":
                if self.rolled(target, "Shock vs RS", x, self.status_rs(target, psi))[0]:
                    if not target.shocked:
                        target.ap_left = max(0, target.ap_left - 1)
                    target.shocked = True
                    if self.logging:
                        self.say(f"  {target.name} is shocked")
            elif aid == "stun":
                ok, stages = self.rolled(target, "Stun vs RS", x, self.status_rs(target, psi))
                if ok:
                    target.ap_left = max(0, target.ap_left - 1 - stages // 2)
            elif aid == "blind":
                if self.rolled(target, "Blind vs MN", x, target.stat("mn"))[0]:
                    target.blind = True
                    if self.logging:
                        self.say(f"  {target.name} is blinded")
            elif aid == "fire":
                target.fire = max(x, target.fire or 0)
                if self.logging:
                    self.say(f"  {target.name} catches fire")
            elif aid == "ice":
                target.ice = max(x, target.ice or 0)
                if self.logging:
                    self.say(f"  {target.name} is covered in ice")
            elif aid == "restrain":
                target.restrain = max(x, target.restrain or 0)
                if self.logging:
                    self.say(f"  {target.name} is restrained")
            elif aid in ("push", "pull"):
                size = target.size + (2 if ("steady" in target.abilities or "steady" in target.temp) else 0)
                ok, stages = self.rolled(target, f"{aid.capitalize()} vs Size", x, size)
                if ok:
                    self.shove(attacker, target, 2.0 * max(1, stages), away=aid == "push")
            elif aid == "drain" and args:
                stat = args[0]
                if not self.rolled(target, "RS vs Drain", target.stat("rs"), x)[0]:
                    target.drain[stat] = target.drain.get(stat, 0) + max(1, x)
                    if self.logging:
                        self.say(f"  {target.name} is drained of {stat.upper()}")
            elif aid == "delusional":
                if not ("steel-your-mind" in target.abilities or "steel-your-mind" in target.temp):
                    target.delusional = True
                    if self.logging:
                        self.say(f"  {target.name} becomes delusional")

    def shove(self, attacker: Fighter, target: Fighter, inches: float, away: bool) -> None:
        dx, dy = target.x - attacker.x, target.y - attacker.y
        d = math.hypot(dx, dy) or 1.0
        ux, uy = (dx / d, dy / d) if away else (-dx / d, -dy / d)
        if not away:
            inches = min(inches, max(0.0, gap(attacker, target)))
        moved = 0.0
        step = 0.25
        while moved + step <= inches + 1e-9:
            nx, ny = target.x + ux * step, target.y + uy * step
            blocker = next(
                (o for o in self.sides[0] + self.sides[1] if not o.removed and o is not target and math.hypot(o.x - nx, o.y - ny) < BASES),
                None,
            )
            if blocker is not None or not (0 <= nx <= self.board and 0 <= ny <= self.board):
                left = int(round(inches - moved))
                if left > 0:
                    if self.logging:
                        self.say(f"  {target.name} is slammed into {'the edge' if blocker is None else blocker.name}")
                    self.st_hit(target, left, attacker, "collision")
                    if blocker is not None:
                        self.st_hit(blocker, left, attacker, "collision")
                return
            self.place(target, nx, ny)
            moved += step
        if self.logging:
            self.say(f"  {target.name} is {'pushed' if away else 'pulled'} {moved:.0f}\"")

    def attack_refs(self, f: Fighter, w: Weapon) -> list[str]:
        """Attack abilities of this attack: the weapon's, plus those granted by God powers."""
        refs = list(w.abilities)
        for granted in _GRANTED if f.temp else ():  # nothing granted this Round: the usual case
            if granted in f.temp and (granted not in ("restrain", "push") or w.melee):
                refs.append("/".join([granted, *f.temp[granted]]))
        refs += f.next_attack
        if w.melee:
            refs += f.next_melee
        return refs

    def hit_value(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False, over: int | None = None,
                  cover: str | bool | None = False) -> tuple[int, int, str]:  # fmt: skip
        """(attack value, defence value, damage kind) before the roll; ``over`` is
        :meth:`overwhelm` of f on t, and ``cover`` :meth:`cover` (False: not known) when the
        caller has it already.  (``has()`` is inlined as
        the profile's abilities, then the Round's: this is asked for every attack weighed.)"""
        t_concealed = not t.spotted and ("concealment" in t.abilities or "concealment" in t.temp)
        if w.melee:
            att = f.stat("ma")
            if t.prone:
                att += 1
            if over is None:
                over = self.overwhelm(f, t)
            att += over
            if f.berserk:
                att += 1
            if not over and ("coward" in f.abilities or "coward" in f.temp):
                att -= 1
            if t_concealed:
                att -= 2
            if f.taunted_by is not None and f.taunted_by is not t:
                att -= 2
        else:
            att = f.stat("ra")
            d = math.hypot(f.x - t.x, f.y - t.y)  # dist()
            if d > (w.reach / 2) and d > 6 and not w._spray:
                att -= 1
            if t.prone:
                att -= 1
            if self.engaged_with(t):
                att -= 1
            c = self.cover(f, t) if cover is False else cover
            if c:
                att -= 1
            if t_concealed:
                att -= 2
            if f.taunted_by is not None and f.taunted_by is not t:
                att -= 2
        defence = t.stat("mn") if w._psi else t.stat("df")
        # Deceptive from the weapon, f itself, a God power or a "next attack" grant: the
        # abilities attack_refs() would list, without building the list
        if (
            w._deceptive
            or "deceptive" in f.abilities
            or "deceptive" in f.temp
            or (f.next_attack and any(ability_id(r) == "deceptive" for r in f.next_attack))
            or (w.melee and f.next_melee and any(ability_id(r) == "deceptive" for r in f.next_melee))
        ):
            defence -= 1
        return att, defence, w._kind

    def strength(self, f: Fighter, t: Fighter, w: Weapon, charge: bool, over: int | None = None, cover: str | bool | None = False) -> int:
        st = (w.st or 0) + f.stat("st")
        if w.melee:
            st += self.overwhelm(f, t) if over is None else over
            if f.berserk:
                st += 1
            if charge and not ("brace" in t.abilities or "brace" in t.temp):
                st += 1 + (1 if ("heavy-charge" in f.abilities or "heavy-charge" in f.temp) else 0)
        elif (self.cover(f, t) if cover is False else cover) == "heavy":
            st -= 1
        return st

    def overwhelm(self, f: Fighter, t: Fighter) -> int:
        tx, ty, t_reach = t.x, t.y, t._reach
        hypot = math.hypot
        others = []
        # a friend's kept squared distance to t past a hair over its engagement distance (the
        # same reach, bases and contact) is surely out of reach; t is on the table here
        slot, limits, kept = t.slot, self.engage_loose[f.side], not t.removed
        if kept and t.side != f.side:
            # t's own row holds the same squared distances to f's side (place() keeps both),
            # and no friend is engaged with t beyond t's longest engagement distance: when at
            # most one friend is that near, and that one is f, no friend but f touches t
            row = t.d2
            if len(row) < 2:
                return 0
            near = sorted(row)
            if near[1] > t._engage_hair and row[f.slot] == near[0]:
                return 0
            # the same test from t's side: its row and its widened limits (the limit of a pair
            # is the same both ways), by slot; a removed friend is infinitely far from t (three
            # lists of one length, by construction: no strict= keyword to parse on every call)
            for o, d, cap in zip(self.sides[f.side], row, self.engage_loose[t.side][t.index]):  # noqa: B905
                if d > cap or o is f or o.incapacitated:
                    continue
                reach = o._reach if o._reach > t_reach else t_reach
                edge = hypot(o.x - tx, o.y - ty) - BASES
                if (edge if edge > 0.0 else 0.0) <= reach + CONTACT:
                    others.append(o)
        else:
            for o in self.living[f.side]:  # friends whose reach (or t's) touches t
                if o is f or o.incapacitated:
                    continue
                if kept and o.d2[slot] > limits[o.index][slot]:
                    continue
                reach = o._reach if o._reach > t_reach else t_reach
                edge = hypot(o.x - tx, o.y - ty) - BASES
                if (edge if edge > 0.0 else 0.0) <= reach + CONTACT:
                    others.append(o)
        if not others:
            return 0
        size = f.size - (1 if f.prone else 0) + sum(o.size - (1 if o.prone else 0) for o in others)
        # a shield counts unless t fights with a weapon marked "no shield when in use" (ME-D3)
        held = t.in_hand
        shield = t.shield and (held is None or not held.no_shield)
        target = t.size - (1 if t.prone else 0) + (2 if shield else 0) + (2 if ("stalwart" in t.abilities or "stalwart" in t.temp) else 0)
        if size <= target:
            return 0
        return 1 + (1 if ("teamwork" in f.abilities or "teamwork" in f.temp) else 0)

    def choose_melee(self, f: Fighter, t: Fighter, charge: bool = False) -> Weapon | None:
        """The melee weapon ``f``'s player strikes ``t`` with (None: none reaches)."""
        return self.policies[f.side].melee_weapon(cast("Battle", self), f, t, charge)

    def attack_value(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False) -> float:
        # nothing changes between the two: the friends round t are counted once
        cover: str | bool | None  # False: a melee attack, no cover to look at
        if w.melee:
            over, cover = self.overwhelm(f, t), False
        else:
            over, cover = None, self.cover(f, t)  # the terrain between them, for the hit and the Strength
        att, defence, kind = self.hit_value(f, t, w, charge, over, cover)
        st = self.strength(f, t, w, charge, over, cover)
        resist = t.stat("dr") if w._psi else t.stat("rs")
        key = (att - defence, st - resist, kind)
        value = self.damage_memo.get(key)
        if value is None:
            rules = self.rules
            value = self.damage_memo[key] = expected_damage(rules, rules.tn(att, defence), rules.tn(st, resist), kind)
        return value

    def melee_attack(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False, clash_allowed: bool = True,
                     att_mod: int = 0, label: str = "attacks") -> None:  # fmt: skip
        """One melee Attack, with the target's chance to Clash first."""
        if (f.removed or f.incapacitated) or t.removed:
            return
        if "cumbersome" in w._ids:
            f.used_weapons.add(w.name)
        df_mod = 0
        strike_back = False
        if clash_allowed and (not t.removed and not t.incapacitated) and t.clashes < math.ceil(t.ap / 2) and self.policies[t.side].clash(cast("Battle", self), t, f):
            answer = self.choose_melee(t, f)
            if answer is None and ("hip-shot" in t.abilities or "hip-shot" in t.temp):
                answer = next((r for r in t.ranged_weapons() if dist(t, f) <= r.reach), None)
            if answer is not None:
                t.clashes += 1
                self.note(t.side, "clash")
                if self.logging:
                    self.say(f"  {t.name} clashes with {answer.name} as {f.name} attacks with {w.name}")
                ok, _ = self.test(t, t.stat("dr"), f.stat("dr") + (1 if charge and not ("brace" in t.abilities or "brace" in t.temp) else 0) + (1 if charge and ("heavy-charge" in f.abilities or "heavy-charge" in f.temp) else 0), "dr", "Clash: DR vs DR")
                if not ok and ("reactive" in t.abilities or "reactive" in t.temp):
                    ok, _ = self.test(t, t.stat("dr"), f.stat("dr"), "dr", "Clash again (Reactive): DR vs DR")
                df_mod = -1
                if ok:
                    self.resolve(t, f, answer, charge=False)
                else:
                    strike_back = answer.melee
                if f.removed or f.incapacitated:
                    return
        self.resolve(f, t, w, charge=charge, df_mod=df_mod, att_mod=att_mod, label=label)
        if strike_back and (not t.removed and not t.incapacitated) and not f.removed:
            w2 = self.choose_melee(t, f)
            if w2 is not None:
                self.resolve(t, f, w2, att_mod=-1, label="strikes back")

    def resolve(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False, df_mod: int = 0, att_mod: int = 0,
                label: str = "attacks", auto_hit: bool = False) -> bool:  # fmt: skip
        """Hit roll, statuses, damage roll.  Returns whether the attack hit."""
        if f.removed or t.removed:
            return False
        # Overwhelm (melee) or cover (a shot), for the hit and, unless a status intervenes, the damage
        cover: str | bool | None  # False: a melee attack, no cover to look at
        if w.melee:
            over, cover = self.overwhelm(f, t), False
        else:
            over, cover = None, self.cover(f, t)
        att, defence, kind = self.hit_value(f, t, w, charge, over, cover)
        att += att_mod
        defence += df_mod
        refs = self.attack_refs(f, w)
        f.next_attack = []
        if w.melee:
            f.next_melee = []
        f.spotted = True  # attacking reveals a concealed model
        natural = 0
        if auto_hit or t.side == f.side:
            ok = True
        else:
            ok, _, natural = self.roll(att, defence)
            again = ""
            if not ok and w.melee and ("weapon-master" in f.abilities or "weapon-master" in f.temp) and not f.weapon_master_used:
                f.weapon_master_used = True
                again = f"{f.name} rolls {natural}, a miss, and rolls again (Weapon Master); "
                ok, _, natural = self.roll(att, defence)
            if not ok and w.melee and ("war-gods-prowess" in f.abilities or "war-gods-prowess" in f.temp) and not f.war_god_used:
                f.war_god_used = True
                again += f"{f.name} rolls {natural}, a miss, and rolls again (War God's Prowess); "
                ok, _, natural = self.roll(att, defence)
            if ok and ("wise-queens-foresight" in t.abilities or "wise-queens-foresight" in t.temp) and not t.foresight_used:
                t.foresight_used = True
                again += f"{f.name} rolls {natural}, a hit, and {t.name} has it rolled again (Wise Queen's Foresight); "
                ok, _, natural = self.roll(att, defence)
            if again and self.logging:
                self.say(f"  {again.strip().rstrip(';')}")
        if w.melee:
            f.in_hand = w  # the weapon he fights with (ME-D3: a no-shield weapon in hand, no shield)
        if self.logging:
            stat = "MN" if w._psi else "DF"
            roll = "automatic hit" if auto_hit or t.side == f.side else self.told(f"{'MA' if w.melee else 'RA'} vs {stat}", att, defence, natural, ok)
            self.say(f"  {f.name} {label} {t.name} with {w.name}: {roll}" + ("" if auto_hit or t.side == f.side else (", hit" if ok else ", miss")))
        if not ok:
            return False
        if ("berserker" in f.abilities or "berserker" in f.temp) and w.melee:
            f.berserk = True
            f.berserk_hit_this_round = True
        psi = "psi" in w._ids
        self.apply_statuses(f, t, refs, psi)
        if t.side == f.side:
            for ref in refs:  # Aid on a friend (or oneself)
                aid, args = ability_id(ref), ability_args(ref)
                if aid == "aid" and args:
                    t.aid[args[0]] = t.aid.get(args[0], 0) + int(args[-1])
            # Healer heals the living, Patch the non-living: every warrior is living, so 1 HP once
            if any(ability_id(r) == "healer" for r in refs) and t.hp < t.hp_max:
                t.hp += 1
                t.incapacitated = False
                if self.logging:
                    self.say(f"  {t.name} is healed to {t.hp} HP")
            return True
        if w.st is None:
            return True
        # the statuses may knock t down or move it (Overwhelm then counts again); nothing else
        # between the hit and the damage changes who surrounds t
        st = self.strength(f, t, w, charge, None, False) if refs else self.strength(f, t, w, charge, over, cover)
        resist = t.stat("dr") if psi else t.stat("rs")
        ok, stages, natural = self.roll(st, resist)
        if self.logging:
            self.say(f"  damage: {self.told('ST vs ' + ('DR' if psi else 'RS'), st, resist, natural, ok)}" + ("" if ok else ", no damage"))
        if ok:
            self.wound(t, 1 + stages // self.steps[kind], f, w.name)
        return True

    def area_targets(self, f: Fighter, t: Fighter, w: Weapon, ox: float | None = None, oy: float | None = None) -> list[Fighter]:
        everyone = [o for o in self.sides[0] + self.sides[1] if not o.removed and o is not f]
        if "blast" in w._ids:
            radius = (w.value("blast") or 0) + BASE_RADIUS
            cx, cy = (t.x, t.y) if ox is None or oy is None else (ox, oy)
            return [o for o in everyone if math.hypot(o.x - cx, o.y - cy) <= radius]
        length = float(w.reach if f.range_override is None else max(w.reach, f.range_override))
        dx, dy = t.x - f.x, t.y - f.y
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        width = float(w.value("spray") or 0)
        out = []
        for o in everyone:
            along = (o.x - f.x) * ux + (o.y - f.y) * uy
            lateral = abs(-(o.x - f.x) * uy + (o.y - f.y) * ux)
            if along <= 0 or along > length + BASE_RADIUS:
                continue
            allowed = (width * along / d if "spray" in w._ids else 0.0) + BASE_RADIUS
            if lateral <= allowed:
                out.append(o)
        return out

    def area_attack(self, f: Fighter, t: Fighter, w: Weapon) -> None:
        """Blast, Spray or Line: roll to hit the target, then every model in the area is hit."""
        hit = self.resolve(f, t, w, label="fires at")
        if "blast" in w._ids:
            ox, oy = t.x, t.y
            if not hit:
                ox, oy = self.scatter(f, t.x, t.y)
            victims = self.area_targets(f, t, w, ox, oy)
        elif hit:
            victims = [o for o in self.area_targets(f, t, w) if o is not t]
        else:
            victims = []
        for o in victims:
            if o is t and hit:
                continue
            self.resolve(f, o, w, auto_hit=True, label="also hits")

    def scatter(self, f: Fighter, x: float, y: float) -> tuple[float, float]:
        """1d6 + 1d8 inches in the direction of the d8, at most half the distance shot."""
        d6 = self.dice.die(6)
        d8 = self.dice.die(8)
        distance = min(float(d6 + d8), math.hypot(x - f.x, y - f.y) / 2)
        angle = (d8 - 1) * math.pi / 4
        nx = min(self.board, max(0.0, x + distance * math.cos(angle)))
        ny = min(self.board, max(0.0, y + distance * math.sin(angle)))
        if self.logging:
            self.say(f"  the blast scatters {distance:.0f}\" (d6 {d6} + d8 {d8}, at most half the distance; direction {d8})")
        return nx, ny

    def ranged_attack(self, f: Fighter, t: Fighter, w: Weapon) -> None:
        if "blast" in w._ids or "spray" in w._ids or "line" in w._ids or ("line" in f.abilities or "line" in f.temp):
            if ("line" in f.abilities or "line" in f.temp) and "line" not in w._ids:
                w = Weapon(w.name, w.st, max(w.reach, f.range_override or 0), False, w.abilities + ("line",), w.no_shield, w.power)
            self.area_attack(f, t, w)
            return
        if t.side != f.side and ("deflection" in t.abilities or "deflection" in t.temp) and w.power is None:
            ok, _ = self.test(t, t.stat("dr"), f.stat("ra"), "dr", "Deflection: DR vs RA")
            if ok:
                if self.logging:
                    self.say(f"  {t.name} deflects the shot")
                return
        engaged_friends = [o for o in self.engaged_with(t) if o.side == f.side]
        hit = self.resolve(f, t, w, label="shoots")
        if not hit and engaged_friends and t.side != f.side:
            friend = min(engaged_friends, key=lambda o: dist(o, t))
            if len([e for e in self.engaged_with(friend)]) > 1 and self.test(friend, friend.stat("dr"), 4, "dr", "DR (D4)")[0]:
                return
            if self.logging:
                self.say(f"  the miss hits {friend.name}")
            self.resolve(f, friend, w, auto_hit=True, label="hits")
