"""The AI's yardsticks and choices (orders, charge and shooting targets, tactics)."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from .base import BattleBase
from .state import Fighting, Group
from .tables import _die_mean, _effect_weight, _mean_per_die, _test_p, aim_difficulty

if TYPE_CHECKING:
    from .battle import Battle  # noqa


# The order questions every player asks the same way (the classic order and the line player's).


def nearest_gap(spots: list[float], pos: float) -> float:
    """The distance to the nearest of the sorted foe positions *spots* (1e18 when none).

    It answers "some foe within X" at once: the nearest is one of the two positions around
    the unit's (the same |e.pos - pos| values: subtraction is monotonic)."""
    i = bisect.bisect_left(spots, pos)
    nearest = spots[i] - pos if i < len(spots) else 1e18
    if i and pos - spots[i - 1] < nearest:
        nearest = pos - spots[i - 1]
    return nearest


def fires_after_marching(unit: Fighting, nearest: float, mov: float) -> bool:
    """Some marksman of the unit would reach the nearest foe after a march of *mov*."""
    longest = None
    for g in unit.shooting_groups:
        if g.count and (longest is None or g.profile.ranged.long > longest):  # type: ignore[union-attr]
            longest = g.profile.ranged.long  # type: ignore[union-attr]
    return longest is not None and nearest <= longest + mov


def casts_its_own(info: list[dict], unit: Fighting) -> bool:
    """The unit has mana for its side's rituals or faith for its side's communions."""
    mine = info[unit.side]
    return bool((unit.mana > 0 and mine["rituals"]) or (unit.faith > 0 and mine["communions"]))


def answers_enemy_mystics(info: list[dict], unit: Fighting, foes: list[Fighting]) -> bool:
    """A Reaction would let it counter the foes' magic (counter-magic) or miracles (censure)."""
    theirs = info[1 - unit.side]
    if unit.mana > 0 and theirs["rituals"] and any(e.mana > 0 for e in foes):
        return True
    return bool(unit.faith > 0 and theirs["communions"] and any(e.faith > 0 for e in foes))


@trait
class AIRules(BattleBase):
    __slots__ = ()

    # The AI's yardstick, the mean Wounds of one exchange, depends on the attacker's counts and
    # the defender's troops profile only: it is kept in the attacker's damage_memo by profile id
    # (recount() gives a unit a new memo; a fresh() copy shares its template's until then, so the
    # values at full strength serve every game of a playtest). Every answer is the value of the
    # moment, whoever asked first: the AI's choices never depend on the order of its questions.

    def expected_damage(self, attacker: Fighting, defender: Fighting) -> float:
        """Mean Wounds of one exchange (the AI's yardstick for charges and targets).

        Characteristics as printed (tactics and effects of the round are left out).
        """
        troops = defender.troops
        mean = attacker.damage_memo.get(troops.pid)
        return mean if mean is not None else self._mean_damage(attacker, troops)

    def _mean_damage(self, attacker: Fighting, troops: Group) -> float:
        """expected_damage() computed (and kept in the attacker's damage_memo)."""
        target = troops.profile
        tid = target.id
        total = 0.0
        for g in attacker.groups:
            if g.count:
                # Per template group (shared by the games of a playtest; one catalogue per template).
                per_die = g.per_die
                m = per_die.get(tid)
                if m is None:
                    m = per_die[tid] = g.dice_each * _mean_per_die(
                        self.table, g.profile.att - target.def_, g.profile.str_ - target.res, 0, 0
                    )
                total += g.count * m
        attacker.damage_memo[tid] = total
        return total

    def value_of_wounds(self, unit: Fighting, wounds: float) -> float:
        g = unit.troops
        return wounds / max(g.wound_levels, 1) * g.cost

    def exchange_gain(self, unit: Fighting, foe: Fighting) -> float:
        """A.P. value of what *unit* expects to inflict minus what it expects to suffer."""
        mine, theirs = self._exchange_values(unit, foe)
        return mine - theirs

    def _exchange_values(self, unit: Fighting, foe: Fighting) -> tuple[float, float]:
        """A.P. worth of the Wounds *unit* expects to inflict on *foe* in an exchange, and to suffer.

        value_of_wounds() and expected_damage() inlined (the AI asks this for every unit and
        foe in reach): the attackers' damage_memo, else _mean_damage().
        """
        g, h = foe.troops, unit.troops
        mine = unit.damage_memo.get(g.pid)
        if mine is None:
            mine = self._mean_damage(unit, g)
        theirs = foe.damage_memo.get(h.pid)
        if theirs is None:
            theirs = self._mean_damage(foe, h)
        gl, hl = g.wound_levels, h.wound_levels  # max(levels, 1) without the calls
        return mine / (gl if gl > 1 else 1) * g.cost, theirs / (hl if hl > 1 else 1) * h.cost

    def tactic_score(self, effects: dict[str, int], unit: Fighting) -> float:
        """How much a unit is expected to gain from these effects this round (AI)."""
        fighting = unit.order == "assault" or bool(unit.engaged)
        moving = unit.order in ("assault", "progress")
        weight = _effect_weight(tuple(effects.items()), fighting, moving, unit.state != "valiant")
        return weight * (1.0 + unit.points_alive() / 500.0)

    def choose_order(
        self, unit: Fighting, foes: list[Fighting] | None = None, spots: list[float] | None = None,
        best_charge: Callable[[Fighting, list[Fighting], float], float] | None = None,
    ) -> str:
        """Assault a target it can reach and beat, shoot what is in range, cast, or close in.

        *foes*: the live enemies; *spots*: their positions, sorted (both found once for a
        series of calls by give_orders()). *best_charge*: the best exchange among the foes in
        reach (best_charge_target()'s score unless given: a player that weighs those foes
        anyway answers it from its own weighing).
        """
        if unit.engaged:
            return "assault"
        if foes is None:
            foes = [e for e in self.sides[1 - unit.side] if e.alive]
        if not foes:
            return ""
        if spots is None:
            spots = sorted([e.pos for e in foes])
        pos = unit.pos
        tactic = unit.tactic
        mov = unit._mov + tactic.get("movement", 0) if tactic else unit._mov  # unit.mov, inlined
        reach = mov * 2.0  # (a float bound: see update_leadership())
        nearest = nearest_gap(spots, pos)
        best_score = -1e9
        if nearest <= reach:
            best_score = self.best_charge_target(unit, foes, reach)[1] if best_charge is None else best_charge(unit, foes, reach)
            if best_score > 0.0:
                return "assault"
        reachable = best_score > -1e9  # best_charge_target() found a target (a bad one)
        if fires_after_marching(unit, nearest, mov):
            return "support"  # Support (dynamic): march, then shoot
        info = self.info
        if casts_its_own(info, unit):
            return "support"
        if answers_enemy_mystics(info, unit, foes):
            return "reaction"  # counter-magic or censure
        if reachable:
            return "assault"  # reachable but not favourable: will close in at its activation
        # Threatened by an enemy that can reach it while it cannot reach anyone: counter-charge.
        return "reaction" if self.threatened(pos, nearest, foes, spots) else "progress"

    def threatened(self, pos: float, nearest: float, foes: list[Fighting], spots: list[float]) -> bool:
        """Some foe able to charge (neither routed nor destroyed) reaches *pos* (MOV × 2);
        *nearest*: the nearest foe's distance. *foes* and *spots* as choose_order() reads them."""
        bound = self._charge_bound
        if bound[0] is not spots:
            # The foes that can charge (e.fighting), each as (position, MOV × 2), and their longest
            # charge, found once for these spots (give_orders(): one list per side, and nothing
            # moves, changes state or loses a tactic among the foes while that side's orders are given).
            longest: Any = -1
            chargers = []
            for e in foes:
                if e.count > 0 and e.state in ("valiant", "disorganized"):
                    tactic = e.tactic
                    reach = (e._mov + tactic.get("movement", 0) if tactic else e._mov) * 2.0
                    chargers.append((e.pos, reach))
                    if reach > longest:
                        longest = reach
            bound = (spots, longest, chargers)
            self._charge_bound = bound
        if nearest > bound[1]:
            return False  # no foe's charge reaches this far
        for e_pos, reach in bound[2]:
            if -reach <= e_pos - pos <= reach:
                return True
        return False

    def best_charge_target(
        self, unit: Fighting, foes: list[Fighting], reach: float
    ) -> tuple[Fighting | None, float]:
        best, best_score = None, -1e9
        pos = unit.pos
        low = -reach  # |e.pos - pos| <= reach, without a call per foe (the same test)
        for e in foes:
            if not low <= e.pos - pos <= reach or e.state == "gone":
                continue
            mine, theirs = self._exchange_values(unit, e)
            gain = mine - theirs
            if e.state == "rout":
                gain += e.points
            if e.engaged:
                gain += 0.25 * e.points  # ganging up on a fray
            if gain > best_score:
                best, best_score = e, gain
        return best, best_score

    def best_shooting_target(self, u: Fighting, shooters: list[Group]) -> Fighting | None:
        best, best_value = None, 0.0
        pos = u.pos
        reach: Any = 0
        for g in shooters:
            weapon = g.profile.ranged
            if weapon is not None and weapon.long > reach:  # (marksmen have a weapon: see shooting_groups)
                reach = weapon.long
        reach = float(reach)  # (a float bound: see update_leadership())
        single = shooters[0] if len(shooters) == 1 else None  # one group of marksmen: the usual case
        if single is not None:
            # (read once: attributes of the pydantic profile and weapon cost more than locals)
            w = single.profile.ranged
            assert w is not None  # (marksmen have a weapon)
            short, medium = float(w.short), float(w.medium)  # (float bounds: exact, and the fast comparison)
            memo, count = single.shot_value, single.count
        for e in self.sides[1 - u.side]:
            if not e.alive:
                continue
            d = abs(e.pos - pos)
            if d > reach:
                continue  # no shooter in range: worth 0, never better than best_value (>= 0)
            troops = e.troops
            size = troops.size
            res = troops.base["res"]  # e.stat("res"), inlined
            if e.tactic:
                res += e.tactic.get("resistance", 0)
            if e.round_effects:
                res += e.round_effects.get("res", 0)
            if single is not None:
                # The loop below for one group (in range: d <= reach); 0.0 + x == x, the same float.
                band = "short" if d <= short else ("medium" if d <= medium else "long")
                shot = memo.get((band, size, res))
                if shot is None:
                    shot = self._shot_value(single, band, size, res)
                value = count * shot[0] * shot[1]
            else:
                value = 0.0
                for g in shooters:
                    w = g.profile.ranged
                    # _band(w, d), inlined
                    if w is None:
                        continue  # (never: marksmen have a weapon)
                    if d <= w.short:
                        band = "short"
                    elif d <= w.medium:
                        band = "medium"
                    elif d <= w.long:
                        band = "long"
                    else:
                        continue
                    shot = g.shot_value.get((band, size, res))
                    if shot is None:
                        shot = self._shot_value(g, band, size, res)
                    value += g.count * shot[0] * shot[1]
            wl = troops.wound_levels  # value_of_wounds(), inlined
            value = value / (wl if wl > 1 else 1) * troops.cost
            if e.engaged:
                # Shooting into the fray: half the hits go to the friends in contact.
                friend = self.enemy_unit(e, next(iter(e.engaged)))
                value = 0.5 * value - 0.5 * self.value_of_wounds(
                    friend, value / max(e.troops.cost, 1) * e.troops.wound_levels
                )
            if value > best_value:
                best, best_value = e, value
        return best

    def _shot_value(self, g: Group, band: str, size: str, res: int) -> tuple[float, float]:
        """(hit chance, mean Wounds) of one shot of *g*, memoised per template group (one catalogue per template)."""
        weapon = g.profile.ranged
        assert weapon is not None  # (marksmen have a weapon)
        shot = g.shot_value[(band, size, res)] = (
            _test_p(g.profile.aim or 0, aim_difficulty(self.data, band, size), 1),
            _die_mean(self.table, weapon.strength - res),
        )
        return shot

