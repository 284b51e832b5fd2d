"""Shooting: volleys by range band, only at the fighters the marksmen see; into the fray; morale.

Seed (Shooting): the player points out a target unit and a type of target in it (its troops,
or one independent), the marksmen that shoot at them (only those with a line of sight, each at
a fighter it sees: :mod:`.sight`), and resolves one volley per range band, short, medium, then
long; each marksman's band is the distance from it to its target, and its difficulty the
band's, +1 if it moved, +1 if its target is only partially visible, -1 or -2 against Large or
Very large targets. A volley cannot cause more losses than the fighters it targets: only the
visible fighters can be eliminated, and surplus Wounds are lost (the nine crossbowmen that see
two mountaineers kill two at most). After a volley that eliminated some, the marksmen that
have not shot yet aim at newly visible fighters (the next rank of a close unit). A unit that
loses half its numbers to the shots rolls a morale test (COU 8, or DIS 8 for a close unit); a
failure routs it. Template weapons (artillery) ignore sight lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mypy_extensions import trait

from .base import BattleBase
from .narration import count, name, test_words
from .sight import Aim, aims
from .state import Fighting, Group
from .tables import (
    BAND_LABELS,
    TEMPLATE_FIGHTERS,
    aim_difficulty_of,
    contest_cdf,
    pass_chance,
    range_band,
)

if TYPE_CHECKING:
    from .battle import Battle  # noqa

_BANDS = ("short", "medium", "long")


@trait
class ShootingRules(BattleBase):
    __slots__ = ()

    def shoot(self, u: Fighting, moved: bool = False) -> None:
        """Support (shooting): the player's target, then each group of marksmen's volleys."""
        if u.engaged or u.state == "rout":
            return
        shooters = self.shooters(u)
        if not shooters:
            return
        target = self.policies[u.side].shooting_target(cast("Battle", self), u, shooters)
        if target is None:
            return
        self.phase = "shooting"
        start = target.count
        fired = False
        for g in shooters:
            if not target.alive:
                break
            fired = self.group_volleys(u, g, target, moved) or fired
        if fired:
            self.shooting_morale(target, start)
        self.phase = "activation"

    def target_group(self, target: Fighting, shooter: Fighting, g: Group) -> int | None:
        """The type of target the marksmen aim at (seed: Choosing the type of target): the troops
        when some are seen, else an independent that is (the azure hunters see only Shaka)."""
        found = self.target_aims(target, shooter, g)
        return found[0] if found is not None else None

    def aims_now(self, shooter: Fighting, group: int, target: Fighting, target_group: int, conscious: bool) -> list[Aim]:
        """:func:`.sight.aims`, kept for the table as it stands (``plans_now()``: every unit's place,
        shape, state and hiding, which is all a sight line reads): the player weighs a volley
        (its target, then its share of marksmen that see) before the volley reads it again."""
        memo = self.plans_now()
        key = ("aims", shooter.side, shooter.index, group, target.side, target.index, target_group, conscious)
        found = memo.get(key)
        if found is None:
            found = memo[key] = aims(self, shooter, group, target, target_group, conscious)
        return cast("list[Aim]", found)

    def target_aims(self, target: Fighting, shooter: Fighting, g: Group) -> tuple[int, list[Aim]] | None:
        """:meth:`target_group` and the marksmen's aims at it (read once for the volleys)."""
        gi = shooter.groups.index(g)
        order = [target.groups.index(target.troops)] + [i for i, h in enumerate(target.groups) if h is not target.troops]
        conscious = g.traits.consciousness
        for ti in order:
            if target.groups[ti].count > 0:
                seen = self.aims_now(shooter, gi, target, ti, conscious)
                if seen:
                    return ti, seen
        return None

    def group_volleys(self, u: Fighting, g: Group, target: Fighting, moved: bool) -> bool:
        """One group of marksmen's volleys at the target, band by band. Returns True when it shot."""
        weapon = g.profile.ranged
        if weapon is None or g.profile.aim is None:
            return False
        if g.traits.template:
            return self.template_volley(u, g, target, moved)
        gi = u.groups.index(g)
        found = self.target_aims(target, u, g)
        if found is None:
            if self.logging:
                self.say(f"{name(self, u)} ({g.profile.name}): no marksman sees {name(self, target)}")
            return False
        ti, seen = found
        # Who sees whom is read before the first volley, and the losses are capped by the
        # fighters seen then (seed: the nine crossbowmen's three Wounds eliminate the two visible
        # mountaineers, the third is lost). Once a volley has eliminated some, the marksmen who
        # have not shot yet look again: "if the targets previously aimed at have been eliminated
        # by a previous volley, the marksmen can aim at newly visible fighters" (the next rank of
        # a close unit). Each marksman shoots once.
        conscious = g.traits.consciousness
        left = len({k for a in seen for k in a.seen})
        fired = False
        shot: set[int] = set()  # the marksmen (positions in their unit) that have shot
        look_again = False
        for band in _BANDS:
            if not target.alive or target.groups[ti].count == 0:
                break
            if look_again:
                seen = [a for a in self.aims_now(u, gi, target, ti, conscious) if a.marksman not in shot]
                left = len({k for a in seen for k in a.seen})
                look_again = False
            if left <= 0:
                break
            in_band = [a for a in seen if a.marksman not in shot and range_band(weapon, a.distance) == band]
            if not in_band:
                continue
            if band != "short" and self.field_effects.get("downpour"):
                if self.logging:
                    self.say(f"{u.name}: the downpour stops the {band}-range shots")
                continue
            by_difficulty: dict[int, list] = {}
            for a in in_band:
                d = aim_difficulty_of(self.table, self.data, band, target.groups[ti].size, moved, a.partial)
                by_difficulty.setdefault(d, []).append(a)
            for difficulty in sorted(by_difficulty):
                if left <= 0:
                    break
                volley = by_difficulty[difficulty]
                targets = min(left, len({k for a in volley for k in a.seen}))
                far = max(a.distance for a in volley)
                near = min(a.distance for a in volley)
                span = f"{near:.1f} cm" if far - near < 0.05 else f"{near:.1f}-{far:.1f} cm"
                label = f"{BAND_LABELS[band]}, {span}" + (", partly visible" if volley[0].partial else "")
                killed = self.volley(u, g, target, len(volley), difficulty, label, victims=ti, visible=targets)
                left -= killed
                shot.update(a.marksman for a in volley)
                if killed:
                    look_again = True
                fired = True
                if not target.alive:
                    break
        return fired

    def template_volley(self, u: Fighting, g: Group, target: Fighting, moved: bool) -> bool:
        """A template weapon (zone artillery): no sight line needed; each hit puts a template on
        the target and every fighter under it suffers a Wound roll, seen or not (seed: Template
        weapons; how many stand under it: four of a close unit, two of a scattered one)."""
        weapon, aim = g.profile.ranged, g.profile.aim
        assert weapon is not None and aim is not None
        d = self.gap(u, target)
        band = range_band(weapon, d)
        if band is None:
            return False
        difficulty = aim_difficulty_of(self.table, self.data, band, target.troops.size, moved)
        hits = self.dice.binomial(g.count, pass_chance(aim, difficulty, 1))
        under = min(target.count, TEMPLATE_FIGHTERS[target.current_formation]) * hits
        wounds = self.dice.from_cdf(contest_cdf(self.table, weapon.strength - target.stat("res"), under, self.wound_shift_against(target))) if under else 0
        killed = self.deal(u, target, wounds, under, True) if wounds else 0
        if self.logging:
            self.say(f"{name(self, u)} ({g.profile.name}) fires a template at {name(self, target)} ({BAND_LABELS[band]}, {d:.1f} cm, "
                     f"difficulty {difficulty}, no line of sight needed): {count(hits, 'hit')}, {count(under, 'fighter')} under the template, "
                     f"{count(wounds, 'Wound', none='no Wound')}, {count(killed, 'fighter', none='no loss')}{' eliminated' if killed else ''}")  # fmt: skip
        return True

    def volley(
        self, u: Fighting, g: Group, target: Fighting, shooters: int, difficulty: int, label: str,
        victims: int | None = None, visible: int | None = None,
    ) -> int:  # fmt: skip
        """One volley: Aim tests, one Wound roll per hit, losses at most the *visible* fighters
        of the type *victims* (None: the whole unit, as assault fire and templates take it)."""
        profile = g.profile
        weapon, aim = profile.ranged, profile.aim
        assert weapon is not None and aim is not None
        hits = self.dice.binomial(shooters, pass_chance(aim, difficulty, 1))
        who = name(self, u) if g.profile.name == u.name else f"{name(self, u)} ({g.profile.name})"
        sighted = "" if visible is None else f", {count(shooters, 'marksman', 'marksmen')} seeing {count(visible, 'fighter')}"
        if not hits:
            if self.logging:
                self.say(f"{who} shoots {name(self, target)} ({label}{sighted}, difficulty {difficulty}): no hit")
            return 0
        if target.engaged:
            # Shooting into the fray: hits shared as equally as possible, the odd one on the enemy.
            friends = [self.enemy_unit(target, j) for j in sorted(target.engaged)]
            to_friends = hits // 2
            hits -= to_friends
            for i, friend in enumerate(friends):
                share = to_friends // len(friends) + (1 if i < to_friends % len(friends) else 0)
                if share and friend.alive:
                    w = self.dice.from_cdf(
                        contest_cdf(self.table, weapon.strength - friend.stat("res"), share, self.wound_shift_against(friend))
                    )
                    self.deal(None, friend, w, friend.count, True)
                    if self.logging:
                        self.say(f"  {count(share, 'hit')} on {name(self, friend)} in the fray: {count(w, 'Wound', none='no Wound')}")
        hits = self.survival_thinning(target, hits)
        tactic, effects = target.tactic, target.round_effects
        res = target.troops.base["res"] if victims is None else target.groups[victims].base["res"]
        if tactic:
            shift = target.base_wound_shift - tactic.get("toughness_shift", 0)
            res += tactic.get("resistance", 0)
        else:
            shift = target.base_wound_shift
        if effects:
            res += effects.get("res", 0)
        wounds = self.dice.from_cdf(contest_cdf(self.table, weapon.strength - res, hits, shift))
        if victims is None:
            killed = self.deal(u, target, wounds, target.count, True)
        else:
            group = target.groups[victims]
            killed = self.deal(u, target, wounds, visible if visible is not None else group.count, False, victims=[group])
        if self.logging:
            lost = ""
            if victims is not None and visible is not None and killed >= visible and wounds > killed * target.groups[victims].wound_levels:
                lost = " (the other Wounds are lost: no other target is visible)"
            self.say(
                f"{who} shoots {name(self, target)} ({label}{sighted}, difficulty {difficulty}): {count(hits, 'hit')}, "
                f"{count(wounds, 'Wound', none='no Wound')}, {count(killed, 'fighter', none='no loss')}{' eliminated' if killed else ''}{lost}"
            )
        return killed

    def shooting_morale(self, target: Fighting, start: int) -> None:
        """Losses >= half the unit's numbers: COU (8), or DIS (8) for a close unit; failure routs."""
        if not target.alive or not start or start - target.count < (start + 1) // 2 or target.state == "rout":
            return
        if target.all_have("auto_morale"):
            if self.logging:
                self.say(f"{name(self, target)} lost half its numbers but passes its morale roll automatically")
            return
        value = target.cou_value + target.cou_bonus + target.tactic.get("courage", 0)
        label = "COU"
        if target.formation == "close" and target.count >= 5:  # current_formation == "close" (not routed here)
            dis = target.dis_value + target.dis_bonus + target.tactic.get("discipline", 0)
            if dis > value:
                value, label = dis, "DIS"
        ones_fail = not target.all_have("morale_no_auto_fail")
        ok = self.test(value, 8, target.best_of, ones_fail)
        if self.logging:
            self.say(f"{name(self, target)} lost half its numbers to the shots: morale roll, {test_words(self, label, value, 8, target.best_of, ok, ones_fail)}")
        if not ok:
            target.state = "rout"
            if self.logging:
                self.say(f"  {name(self, target)} is in Rout")
