"""Rituals, communions, counter-magic and censure: the mystic phase (the effects it casts: :mod:`.mystic_effects`)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from ..catalog import Profile
from .base import BattleBase
from .mystic_effects import COMMUNION_EFFECTS, RITUAL_EFFECTS
from .mystics import (
    DEFAULT_FAITH_RECOVERY,
    MANA_SUCCESS,
    ROUT_FAITH_LOSS,
    ROUT_MANA_PENALTY,
    best_mastery,
    counter_succeeds,
    parse_range,
    roll_mystic_test,
)
from .narration import count
from .state import Fighting, Group
from .tables import MYSTIC_FIT, contest_cdf

if TYPE_CHECKING:
    from .battle import Battle  # noqa

def _knows_ritual(p: Profile, ritual) -> bool:
    """Element and path of the magician fit the ritual (memoised: profiles and rituals are immutable)."""
    key = ("ritual", p.id, tuple(p.elements), p.path, ritual.id, ritual.element, ritual.path)  # by value
    known = MYSTIC_FIT.get(key)
    if known is None:
        fits = ritual.element.lower() in (e.lower() for e in p.elements) and (
            p.path is None or p.path.lower() == ritual.path.lower()
        )
        if len(MYSTIC_FIT) > 4096:
            MYSTIC_FIT.clear()
        known = MYSTIC_FIT[key] = (p, ritual, fits)
    return known[2]


def _may_call(p: Profile, communion) -> bool:
    """Cult and aspects of the faithful fit the communion (memoised like _knows_ritual)."""
    aspects = p.aspects  # (its three values, not str() of the model: that cost more than the test it saves)
    values = (aspects.alteration, aspects.creation, aspects.destruction) if aspects is not None else None
    key = ("communion", p.id, p.cult, values, communion.id, communion.cult, tuple(communion.aspects))  # by value
    known = MYSTIC_FIT.get(key)
    if known is None:
        fits = (
            communion.cult.lower() == "universal" or (p.cult or "").lower() == communion.cult.lower()
        ) and any(getattr(p.aspects, a.lower(), 0) >= 1 for a in communion.aspects)
        if len(MYSTIC_FIT) > 4096:
            MYSTIC_FIT.clear()
        known = MYSTIC_FIT[key] = (p, communion, fits)
    return known[2]


def _caster(
    u: Fighting, power: str, trait: str | None, fits: Callable[[Profile, Any], bool], entry: Any
) -> Group | None:
    """The unit's group that performs *entry* (a ritual or a communion), or None if none can.

    Of the live groups with some *power* ("magician_pow" or "faith"), having *trait* when one
    is named (under an Assault order only warrior mages and monks act) and that *fits* the
    entry (``_knows_ritual``, ``_may_call``): the one with the most power, the first on a tie.
    """
    able = [
        g for g in u.groups
        if g.count and getattr(g, power) and (trait is None or getattr(g.traits, trait)) and fits(g.profile, entry)
    ]  # fmt: skip
    return max(able, key=attrgetter(power)) if able else None




@trait
class MysticRules(BattleBase):
    __slots__ = ()

    # -- mystics --------------------------------------------------------------

    def cast_rituals(self, u: Fighting, warriors_only: bool = False) -> None:
        """Rituals with a magister of the unit, mastery gems, counter-magic (mystics seed)."""
        if u.state == "rout" or u.mana <= 0:
            return
        arcane = None  # some live fighter has Arcane mastery (found when a ritual costs too much)
        for ritual in self.info[u.side]["rituals"]:
            effect = RITUAL_EFFECTS.get(ritual.id)
            if effect is None:
                continue
            if ritual.mana > u.mana:
                # Unaffordable without Arcane mastery: no need to look for the magister.
                if arcane is None:
                    arcane = any(g.count and g.traits.arcane_mastery for g in u.groups)
                if not arcane:
                    continue
            g = _caster(u, "magician_pow", "warrior_mage" if warriors_only else None, _knows_ritual, ritual)
            if g is None:
                continue
            missing = ritual.mana - u.mana
            if missing > 0 and not (g.traits.arcane_mastery and g.magician_pow - missing >= 1):
                continue
            target = effect.choose(self, u, parse_range(ritual.range), g)
            if target is None:
                continue
            if missing > 0:
                # Arcane mastery: the magister lowers its POW (not below 1) to pay the missing mana.
                g.magician_pow -= missing
                self._mystic_sums.pop(u, None)  # (the mystic phase's sums of the unit include its POW)
                u.mana += missing
                if self.logging:
                    self.say(f"{g.profile.name} lowers its POW by {missing} (arcane mastery)")
            u.mana -= ritual.mana
            success, extra = self._mystic_attempt(
                u, "mana", g.magician_pow, ritual.difficulty, ritual.mana,
                not u.engaged or g.traits.warrior_mage,
                ritual.element.lower() not in g.traits.spirit_of, g.traits.focus,
            )  # fmt: skip
            if success is None:
                if self.logging:
                    self.say(f"{u.name}: {ritual.name} is countered")
                continue
            if success:
                if self.logging:
                    self.say(f"{g.profile.name} casts {ritual.name} ({count(extra, 'mastery die', 'mastery dice')})")
                effect.apply(self, u, target)
            else:
                if self.logging:
                    self.say(f"{g.profile.name} fails to cast {ritual.name} ({count(extra, 'mastery die', 'mastery dice')})")

    def call_communions(self, u: Fighting, warriors_only: bool = False) -> None:
        """Communions with an eminence of the unit, extra T.F. dice, censure (mystics seed)."""
        if u.state == "rout" or u.faith < self.info[u.side]["min_fervor"]:
            return
        for communion in self.info[u.side]["communions"]:
            effect = COMMUNION_EFFECTS.get(communion.id)
            if effect is None or u.faith < communion.fervor:
                continue
            g = _caster(u, "faith", "warrior_monk" if warriors_only else None, _may_call, communion)
            if g is None:
                continue
            target = effect.choose(self, u, parse_range(communion.range), g)
            if target is None:
                continue
            u.faith -= communion.fervor
            success, extra = self._mystic_attempt(
                u, "faith", g.faith, communion.difficulty if communion.difficulty is not None else 8,
                communion.fervor, not u.engaged or g.traits.warrior_monk,
                not g.traits.exalted, g.traits.illuminated,
            )  # fmt: skip
            if success is None:
                if self.logging:
                    self.say(f"{u.name}: {communion.name} is censured")
                continue
            if success:
                if self.logging:
                    self.say(f"{g.profile.name} calls {communion.name} ({count(extra, 'extra die', 'extra dice')})")
                effect.apply(self, u, target)
            else:
                if self.logging:
                    self.say(f"{g.profile.name} fails to call {communion.name}")

    def _mystic_attempt(
        self, u: Fighting, reserve: str, value: int, difficulty: int, spent: int, can_add: bool,
        ones_fail: bool, reroll_fives: bool,
    ) -> tuple[bool | None, int]:  # fmt: skip
        """The shared part of a ritual and a communion, once its base cost is paid from *reserve*
        ("mana" or "faith"): extra dice bought from what is left (mastery gems, bonds of T.F.),
        the enemy's counter-magic or censure, then the test. Returns (None if countered, else the
        test's success; the extra dice)."""
        extra = best_mastery(
            value, difficulty, getattr(u, reserve) if can_add else 0, ones_fail=ones_fail, reroll_fives=reroll_fives
        )
        setattr(u, reserve, getattr(u, reserve) - extra)
        if self.countered(u, spent + extra, reserve, "counter-magic" if reserve == "mana" else "censure"):
            return None, extra
        return roll_mystic_test(self.dice.d6, value, difficulty, 1 + extra, ones_fail, reroll_fives), extra

    def countered(self, caster: Fighting, spent: int, reserve: str, label: str) -> bool:
        """An enemy unit under a Reaction order matches the spending and cancels the effect."""
        for e in self.sides[1 - caster.side]:
            if (
                e.alive
                and e.state != "rout"
                and e.order == "reaction"
                and not e.engaged
                and getattr(e, reserve) >= spent
                and self.sees(e, caster)  # (mystics seed: a line of sight on the caster)
            ):
                setattr(e, reserve, getattr(e, reserve) - spent)
                if self.logging:
                    self.say(f"{e.name} answers with {label} ({spent} spent)")
                return counter_succeeds(spent, spent)
        return False

    def mystic_phase(self) -> None:
        """Mana recovery and Temporary Faith recovery (mystics seed)."""
        faith_table = self.data.tables.faith_recovery or None
        bonuses = faith_table or DEFAULT_FAITH_RECOVERY
        rank_bonus: dict[str | None, int] = {}  # faith_recovery_counts()'s bonus per rank, looked up once
        d6 = self.dice.d6
        memo = self._mystic_sums
        for side in (0, 1):
            for u in self.mystic_units[side]:
                if not u.alive:
                    continue
                routed = u.state == "rout"
                # The members' sums, kept while the unit's counts stay the same: every change of a count
                # gives the unit a new damage_memo dict (recount(), deal()), the only other input, a
                # magician's POW, changes in cast_rituals() only, which drops the entry.
                sums = memo.get(u)
                if sums is None or sums[0] is not u.damage_memo:
                    powers: list[int] = []
                    faithful = devoted = False
                    extra = loyal = piety = ranked_bonus = 0
                    for g in u.groups:
                        n = g.count
                        if not n:
                            continue
                        if g.magician_pow:
                            powers += [g.magician_pow] * n
                        if g.faith:
                            faithful = True
                            r = g.profile.faith_rank
                            b = rank_bonus.get(r)
                            if b is None:
                                b = rank_bonus[r] = bonuses.get((r or "").lower(), 0)
                            ranked_bonus += b * n
                        t = g.traits
                        if t.recuperation:
                            extra += t.recuperation * n
                        if t.loyal:
                            loyal += t.loyal * n
                        if t.piety > piety:
                            piety = t.piety
                        if t.devotion or t.martyr:
                            devoted = True
                    ranked = sorted(powers, reverse=True)
                    cap = 2 * sum(ranked)  # (integers: the same sum in any order)
                    sums = memo[u] = (u.damage_memo, ranked, cap, faithful, devoted, extra, loyal, piety, ranked_bonus)
                else:
                    _, ranked, cap, faithful, devoted, extra, loyal, piety, ranked_bonus = sums
                if ranked:
                    # mana_recovery(), inlined: the same dice in the same order, integer sums.
                    need = MANA_SUCCESS + (ROUT_MANA_PENALTY if routed else 0)
                    successes = 0
                    for _ in range(len(ranked) + extra):
                        if d6() >= need:
                            successes += 1
                    gained = 0
                    if successes:
                        # Dice beyond one per magician go to the most powerful one again.
                        if successes <= len(ranked):
                            gained = sum(ranked[:successes])
                        else:
                            gained = cap // 2 + (successes - len(ranked)) * ranked[0]
                    mana = u.mana + gained
                    u.mana = mana if mana < cap else cap
                if faithful:
                    # faith_recovery_counts(), inlined: one T.F. per member, rank bonuses, Loyal, Piety.
                    total = u.count + ranked_bonus + loyal + min(u.faith, piety)
                    if routed:
                        total -= ROUT_FAITH_LOSS
                    u.faith = total if total > 0 else 0
                # Devotion/X and Martyr/X: gems and T.F. given at the price of a Wound roll (STR X vs RES = DIS).
                if routed or not devoted:  # (devoted: some live fighter has either, seen above)
                    continue
                for g in u.groups:
                    if not g.count:
                        continue
                    t = g.traits
                    if not (t.devotion or t.martyr):
                        continue
                    for x, reserve in ((t.devotion, "mana"), (t.martyr, "faith")):
                        if x and (u.mana if reserve == "mana" else u.faith) < 2 * x:
                            setattr(u, reserve, getattr(u, reserve) + x)
                            wounds = self.dice.from_cdf(contest_cdf(self.table, x - g.profile.dis, 1, 0))
                            if wounds:
                                self.deal(None, u, wounds, in_contact=u.count, scattered=True, victims=[g])
