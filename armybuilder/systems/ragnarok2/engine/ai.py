"""The AI's yardsticks and choices (orders, charge and shooting targets, tactics)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from .base import BattleBase
from .state import Fighting, Group
from .tables import aim_difficulty, die_mean, effect_weight, mean_per_die, pass_chance

if TYPE_CHECKING:
    from .battle import Battle  # noqa


# The order questions every player asks the same way (the classic order and the line player's).


def longest_range(unit: Fighting) -> float:
    """The longest range of the unit's marksmen (0 when it has none left)."""
    longest = 0.0
    for g in unit.shooting_groups:
        if g.count and g.profile.ranged is not None and g.profile.ranged.long > longest:
            longest = float(g.profile.ranged.long)
    return longest


def fires_after_marching(unit: Fighting, nearest: float, mov: float) -> bool:
    """Some marksman of the unit would reach the nearest foe (*nearest* cm away) after a march of *mov*."""
    longest = longest_range(unit)
    return longest > 0.0 and nearest <= longest + mov


def casts_its_own(info: list[dict], unit: Fighting) -> bool:
    """The unit has mana for its side's rituals or faith for its side's communions."""
    mine = info[unit.side]
    return bool((unit.mana > 0 and mine["rituals"]) or (unit.faith > 0 and mine["communions"]))


def answers_enemy_mystics(info: list[dict], unit: Fighting, foes: list[Fighting]) -> bool:
    """A Reaction would let it counter the foes' magic (counter-magic) or miracles (censure).

    Mystics seed (Reaction (Counter-magic), Reaction (Censure)): the effect is cancelled only
    when the gems or T.F. points spent against it match what the caster spent, so a unit whose
    reserve cannot match the cheapest ritual or communion the enemy can cast, or whose enemies
    have no caster able to pay for one, would spend its order on nothing (the Forge guardians'
    3 T.F. against a communion of fervor 10)."""
    theirs = info[1 - unit.side]
    rituals = theirs["rituals"]
    if rituals and unit.mana > 0:
        cheapest = min(r.mana for r in rituals)
        if unit.mana >= cheapest and any(e.mana >= cheapest for e in foes):
            return True
    cheapest = theirs["min_fervor"]
    return bool(theirs["communions"] and unit.faith >= cheapest and any(e.faith >= cheapest for e in foes))


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
                    m = per_die[tid] = g.dice_each * mean_per_die(
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

    def engaged_exchange_values(self, unit: Fighting) -> tuple[float, float]:
        """:meth:`_exchange_values` summed over the live enemies in contact with *unit*: the
        A.P. it expects to inflict in an exchange of its frays, and to suffer."""
        mine = theirs = 0.0
        for j in sorted(unit.engaged):
            e = self.sides[1 - unit.side][j]
            if e.alive:
                m, t = self._exchange_values(unit, e)
                mine, theirs = mine + m, theirs + t
        return mine, theirs

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
        weight = effect_weight(tuple(effects.items()), fighting, moving, unit.state != "valiant")
        return weight * (1.0 + unit.points_alive() / 500.0)

    def nearest_foe(self, unit: Fighting, foes: list[Fighting] | None = None) -> tuple[Fighting | None, float]:
        """The nearest live foe (edge to edge; routed foes count) and its distance (1e18: none)."""
        best, best_d = None, 1e18
        for e in self.sides[1 - unit.side] if foes is None else foes:
            if e.alive and e.state != "gone":
                d = self.gap(unit, e)
                if d < best_d:
                    best, best_d = e, d
        return best, best_d

    def choose_order(self, unit: Fighting, foes: list[Fighting] | None = None) -> str:
        """Assault a target it can reach and beat, shoot what is in range, cast, or close in."""
        if unit.engaged:
            return "assault"
        if foes is None:
            foes = [e for e in self.sides[1 - unit.side] if e.alive]
        if not foes:
            return ""
        options = self.assault_options(unit)
        best_score = -1e9
        if options:
            best_score = self.best_charge_target(unit, options)[1]
            if best_score > 0.0:
                return "assault"
        _nearest, gap = self.nearest_foe(unit, foes)
        if fires_after_marching(unit, gap, unit.mov):
            return "support"  # Support (dynamic): march, then shoot
        info = self.info
        if casts_its_own(info, unit):
            return "support"
        if answers_enemy_mystics(info, unit, foes):
            return "reaction"  # counter-magic or censure
        if options:
            return "assault"  # reachable but not favourable: will close in at its activation
        # Threatened by an enemy that can reach it while it cannot reach anyone: a Reaction.
        return "reaction" if self.threatened(unit) else "progress"

    def threatened(self, unit: Fighting) -> bool:
        """Some foe able to charge (neither routed nor destroyed) has the unit within its reach
        (MOV × 2, edge to edge) and in its field of view."""
        for e in self.sides[1 - unit.side]:
            if e.count > 0 and e.state in ("valiant", "disorganized") and not e.engaged:
                if self.gap(e, unit) <= e.mov * 2.0 and self.in_view(e, unit):
                    return True
        return False

    def best_charge_target(self, unit: Fighting, options: list) -> tuple[Any, float]:
        """The assault option with the best exchange (a routed foe's A.P. and a quarter of an
        engaged one's count as a gain), and that gain."""
        best, best_score = None, -1e9
        for option in options:
            e = option.foe
            mine, theirs = self._exchange_values(unit, e)
            gain = mine - theirs
            if e.state == "rout":
                gain += e.points
            if e.engaged:
                gain += 0.25 * e.points  # ganging up on a fray
            if option.kind == "charge":
                gain += 0.1 * mine  # the charge's +3 Initiative: a first strike more often
            if gain > best_score:
                best, best_score = option, gain
        return best, best_score

    def shooting_candidates(self, u: Fighting, shooters: list[Group]) -> list[tuple[Fighting, float]]:
        """The foes the unit's marksmen can shoot now: in range of one of them (edge to edge),
        seen by the unit (template weapons need no sight), not hidden; with their distance."""
        reach = 0.0
        template = False
        for g in shooters:
            weapon = g.profile.ranged
            if weapon is not None and weapon.long > reach:
                reach = float(weapon.long)
            if g.traits.template:
                template = True
        return [(e, d) for e, d in self.foes_within(u, reach) if template or self.sees(u, e)]

    def best_shooting_target(self, u: Fighting, shooters: list[Group]) -> Fighting | None:
        """The foe whose loss in A.P. the volley is expected to make largest (by the range band
        of its distance, Aim against its Size, STR against its RES); into a fray, half the hits
        are the friends'."""
        best, best_value = None, 0.0
        for e, d in self.shooting_candidates(u, shooters):
            value = self.volley_value(u, shooters, e, d)
            if value > best_value:
                best, best_value = e, value
        return best

    def volley_value(self, u: Fighting, shooters: list[Group], e: Fighting, d: float) -> float:
        """The A.P. a volley of *shooters* at *e*, *d* cm away, is expected to destroy (see
        :meth:`best_shooting_target`)."""
        troops = e.troops
        size = troops.size
        res = troops.base["res"]
        if e.tactic:
            res += e.tactic.get("resistance", 0)
        if e.round_effects:
            res += e.round_effects.get("res", 0)
        value = 0.0
        for g in shooters:
            w = g.profile.ranged
            if w is None:
                continue
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
        wl = troops.wound_levels
        value = value / (wl if wl > 1 else 1) * troops.cost
        if e.engaged:
            friend = self.enemy_unit(e, next(iter(e.engaged)))
            value = 0.5 * value - 0.5 * self.value_of_wounds(friend, value / max(e.troops.cost, 1) * e.troops.wound_levels)
        return value

    def _shot_value(self, g: Group, band: str, size: str, res: int) -> tuple[float, float]:
        """(hit chance, mean Wounds) of one shot of *g*, memoised per template group (one catalogue per template)."""
        weapon = g.profile.ranged
        assert weapon is not None  # (marksmen have a weapon)
        shot = g.shot_value[(band, size, res)] = (
            pass_chance(g.profile.aim or 0, aim_difficulty(self.data, band, size), 1),
            die_mean(self.table, weapon.strength - res),
        )
        return shot

