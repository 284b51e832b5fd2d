"""Shooting: volleys by range band, shooting into the fray, morale under fire."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from .base import BattleBase
from .narration import count, name
from .state import Fighting, Group
from .tables import _BAND_LABELS, _band, _contest_cdf, _test_p, aim_difficulty_of

if TYPE_CHECKING:
    from .battle import Battle  # noqa



@trait
class ShootingRules(BattleBase):
    __slots__ = ()

    # -- shooting -------------------------------------------------------------

    def shoot(self, u: Fighting, moved: bool = False) -> None:
        """Support (shooting): one volley per range band, nearest band first."""
        if u.engaged or u.state == "rout":
            return
        shooters = self.shooters(u)
        if not shooters:
            return
        target = self.best_shooting_target(u, shooters)
        if target is None:
            return
        start = target.count
        d = abs(target.pos - u.pos)
        # A close unit shoots with its two front ranks: 2 x front() >= its numbers, so all of
        # its fighters (as for a scattered unit); the count, as min(u.count, 2 * u.front()) was.
        shooting_fighters = u.count
        if len(shooters) == 1:
            # One group of marksmen (the usual case): its band only, no band loop.
            g = shooters[0]
            band = _band(g.profile.ranged, d)
            if band is not None:
                if band != "short" and self.field_effects.get("downpour"):
                    if self.logging:
                        self.say(f"{u.name}: the downpour stops the {band}-range shots")
                else:
                    n = g.count if g.count < shooting_fighters else shooting_fighters
                    difficulty = aim_difficulty_of(self.table, self.data, band, target.troops.size, moved)
                    self.volley(u, g, target, n, difficulty, _BAND_LABELS[band])
            self.shooting_morale(target, start)
            return
        g_bands = [(g, _band(g.profile.ranged, d)) for g in shooters]  # the distance does not change
        for band in ("short", "medium", "long"):
            for g, g_band in g_bands:
                if g_band != band or not target.alive:
                    continue
                if band != "short" and self.field_effects.get("downpour"):
                    if self.logging:
                        self.say(f"{u.name}: the downpour stops the {band}-range shots")
                    continue
                n = min(g.count, shooting_fighters)
                shooting_fighters -= n
                difficulty = aim_difficulty_of(self.table, self.data, band, target.troops.size, moved)
                self.volley(u, g, target, n, difficulty, _BAND_LABELS[band])
        self.shooting_morale(target, start)

    def volley(
        self, u: Fighting, g: Group, target: Fighting, shooters: int, difficulty: int, label: str
    ) -> int:
        """One volley: Aim tests, one Wound roll per hit, losses at most the fighters targeted."""
        profile = g.profile
        weapon, aim = profile.ranged, profile.aim
        assert weapon is not None and aim is not None
        hits = self.dice.binomial(shooters, _test_p(aim, difficulty, 1))
        if not hits:
            if self.logging:
                self.say(
                f"{name(self, u)} ({g.profile.name}) shoots {name(self, target)} ({label}, difficulty {difficulty}): no hit"
            )
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
                        _contest_cdf(
                            self.table,
                            weapon.strength - friend.stat("res"),
                            share,
                            self.wound_shift_against(friend),
                        )
                    )
                    self.deal(None, friend, w, friend.count, True)
                    if self.logging:
                        self.say(f"  {count(share, 'hit')} on {name(self, friend)} in the fray: {count(w, 'Wound', none='no Wound')}")
        hits = self.survival_thinning(target, hits)
        # wound_shift_against(target) and target.stat("res"), inlined
        tactic, effects = target.tactic, target.round_effects
        res = target.troops.base["res"]
        if tactic:
            shift = target.base_wound_shift - tactic.get("toughness_shift", 0)
            res += tactic.get("resistance", 0)
        else:
            shift = target.base_wound_shift
        if effects:
            res += effects.get("res", 0)
        wounds = self.dice.from_cdf(_contest_cdf(self.table, weapon.strength - res, hits, shift))
        killed = self.deal(u, target, wounds, target.count, True)
        if self.logging:
            who = name(self, u) if g.profile.name == u.name else f"{name(self, u)} ({g.profile.name})"
            self.say(
                f"{who} shoots {name(self, target)} ({label}, difficulty {difficulty}): {count(hits, 'hit')}, "
                f"{count(wounds, 'Wound', none='no Wound')}, {count(killed, 'fighter', none='no loss')}{' eliminated' if killed else ''}"
            )
        return killed

    def shooting_morale(self, target: Fighting, start: int) -> None:
        """Losses >= half the unit's numbers: COU (8), or DIS (8) for a close unit; failure routs."""
        if (
            not target.alive
            or not start
            or start - target.count < (start + 1) // 2
            or target.state == "rout"
        ):
            return
        if target.all_have("auto_morale"):
            return
        value = target.cou_value + target.cou_bonus + target.tactic.get("courage", 0)
        if target.formation == "close" and target.count >= 5:  # current_formation == "close" (not routed here)
            value = max(
                value, target.dis_value + target.dis_bonus + target.tactic.get("discipline", 0)
            )
        if not self.test(value, 8, target.best_of, not target.all_have("morale_no_auto_fail")):
            target.state = "rout"
            if self.logging:
                self.say(f"{name(self, target)} fails its morale roll under fire and is in Rout")

