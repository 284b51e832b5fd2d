"""What a fray is worth to the field player: the A.P. a unit expects from an assault, the share
of a target its marksmen see, the chance of a Courage test or a morale roll failing.

A fray is weighed as the table will fight it: with the fighters an assault brings into contact
(:func:`contact_counts`: the assailant's front rank and the ranks its spare reach brings round,
the target's fighters before them), no more fighters falling than stand in contact, and blows
read against the foe's own armour (:func:`melee_damage`).

Both the field player's choices in a round (:mod:`.field_ai`) and its deployment
(:mod:`.field_deploy`) weigh matchups with these, so they sit below both.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .contact import assailed_per_base
from .formation import face_toward
from .fray import fear_distribution
from .geometry import box_gap
from .tables import balance_of_power, mean_per_die, memo_row_value, opposed_chance, pass_chance

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Fighting, Group

VISIBLE_SHOTS = 3.0  # marksmen a fighter seen is worth at most (a third of the shots wound: the rest find no other target)
COUNTER_SHARE = 0.25  # Wounds a Counter-attack returns, as a share of those dealt (a natural 1 in six, half of them hitting)
ROUTED_WORTH = 0.6  # share of its A.P. an enemy routed by a failed Courage test is worth (it may rally)
DISORGANIZED_COST = 0.15  # share of its A.P. a failed Courage test costs an assailant (Disorganized, in reach)
_FEAR_MODIFIERS = {3: 3, 2: 2, 1: 0, -2: -2, -3: -3}  # (the catalogue's fear rows, when it has none)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def contact_counts(a: Fighting, d: Fighting, gap: float = -1.0) -> tuple[int, int]:
    """The fighters of assailant *a* and of assailed *d* the first exchange of a fray brings into
    contact, as the table places them (:mod:`.contact`): the assailant's front rank and the
    ranks behind as far as the reach it has to spare after the *gap* between the two (a rank's
    depth each: -1 reads the gap from the table), as many as the target's face and ends hold for
    its bases; a close target meets them with the fighters before their frontage (and the ends
    of its ranks behind when they are more), a scattered one with all the fighters they can
    reach; neither side brings more than twice the other's fighters plus one (the fray's model).
    A player counts these, not the whole unit: a charge is no better than the fighters it brings,
    and a charge from close by brings more of them than one at the edge of its reach."""
    gap_w = a.troops.base_w if a.troops.base_w > 0 else 2.5
    base_a = gap_w + (0.0 if a.close else a.open_gap)
    room = int(d.width / base_a) + 2 * max(1, int(d.depth / base_a))
    step = a.troops.base_d + (0.0 if a.close else a.open_gap)
    if gap < 0.0:
        gap = box_gap(a.box(), d.box())
    slack = a.mov * 2.0 - gap  # (the reach left, as the assault reads it)
    ranks_in = 1 + int(slack / step) if step > 0.0 and slack > 0.0 else 1
    coming = min(a.files * ranks_in, room, a.count)
    frontage = a.width if coming >= a.files else coming * base_a
    opposite = coming * assailed_per_base(a.troops.assails, d, face_toward(d, a.x, a.y))
    if d.close:
        base_d = d.troops.base_w if d.troops.base_w > 0 else 2.5
        met = min(d.front(), max(int(frontage / base_d + 0.999) + 1, opposite))
        if opposite > met:
            met = opposite
    else:
        met = opposite + 1
    met = min(met, d.count, 2 * coming + 1)
    coming = min(coming, 2 * max(met, 1) + 1)
    return max(coming, 1), max(met, 1)


def melee_damage(b: Battle, attacker: Fighting, defender: Fighting) -> float:
    """Mean Wounds of one exchange of *attacker*'s fighters against *defender* (the AI's
    yardstick, :meth:`.ai.AIRules.expected_damage`), with the defender's own armour read as the
    Wound rolls will read it (Hard boiled: one column to the left): a player knows what his
    blows can do against troops he can see are hard to wound."""
    troops = defender.troops
    shift = troops.traits.wound_shift_against
    if not shift:
        return b.expected_damage(attacker, defender)
    key = troops.pid + "|wounds" + str(shift)
    mean = attacker.damage_memo.get(key)
    if mean is None:
        target = troops.profile
        mean = 0.0
        for g in attacker.groups:
            if g.count:
                mean += g.count * g.dice_each * mean_per_die(b.table, g.profile.att - target.def_, g.profile.str_ - target.res, 0, shift)
        attacker.damage_memo[key] = mean
    return mean


def fray_value(b: Battle, unit: Fighting, foe: Fighting, charge: bool) -> float:
    """The A.P. *unit* expects to gain from a fray with *foe* it starts by an assault (a charge
    when *charge*): the A.P. of the Wounds each side deals in the first exchange, with the
    fighters each brings into contact and the charge's first strike (+3 Initiative when its Power
    allows it: the foe's reply thinned by the losses it takes first, unless its fallen still
    strike: Fierce, Possessed), the foe's Counter-attack (about a quarter of the Wounds dealt
    come back), and the outcome of the fray: the chance each side inflicts more Wounds (a normal
    reading of the two totals) times the chance its loser fails the morale roll the balance of
    Power sets (the rout takes its whole A.P.). Courage tests come first (seed: Courage tests):
    an assailant that fails stays Disorganized, an assailed unit that fails routs."""
    coming, met = contact_counts(unit, foe, b.gap(unit, foe))
    mine_w = melee_damage(b, unit, foe) * min(1.0, coming / max(unit.count, 1))
    theirs_w = melee_damage(b, foe, unit) * min(1.0, met / max(foe.count, 1))
    g, h = foe.troops, unit.troops
    if g.traits.counter_attack_face:
        theirs_w += COUNTER_SHARE * mine_w
    bonus = charge and unit.power(True, False) >= foe.power(False, True)
    if bonus and not (g.traits.fierce or g.traits.possessed):
        ini_u, ini_f = unit.stat("ini") + 3, foe.stat("ini")
        first = opposed_chance(ini_u, ini_f, True) if ini_u >= ini_f else 0.5
        hit = min(1.0, mine_w / max(g.wound_levels, 1) / max(foe.front() + 1, 1))
        theirs_w *= 1.0 - first * hit
    # The Wounds count whole in the outcome, but no more fighters fall than stand in contact.
    mine_ap = min(mine_w / max(g.wound_levels, 1), float(met)) * g.cost
    theirs_ap = min(theirs_w / max(h.wound_levels, 1), float(coming)) * h.cost
    p_win = _phi((mine_w - theirs_w) / math.sqrt(mine_w + theirs_w + 0.25))
    power_u = unit.power(charge, False)
    power_f = foe.power(False, charge)
    fray = (
        mine_ap - theirs_ap
        + p_win * _rout_chance(b, foe, power_f, power_u, unit) * foe.points
        - (1.0 - p_win) * _rout_chance(b, unit, power_u, power_f, foe) * unit.points
    )
    go = courage_p(b, unit, foe, True)
    stand = courage_p(b, foe, unit, False)
    return go * (stand * fray + (1.0 - stand) * ROUTED_WORTH * foe.points) - (1.0 - go) * DISORGANIZED_COST * unit.points


def seen_share(b: Battle, unit: Fighting, shooters: list[Group], target: Fighting) -> float:
    """The share of a volley at *target* its marksmen can shoot (seed: only the marksmen with a
    line of sight shoot, and a volley eliminates no more fighters than they see): per group, the
    marksmen that see a fighter of the type they would aim at (the troops when some are seen,
    else an independent: :meth:`.shooting.ShootingRules.target_group`), and at most the fighters seen over the Wounds the
    group's shots are expected to deal; template weapons need no sight."""
    if not b.sight_obstacles(unit, target):
        return 1.0  # nothing between the two units: every marksman in its ranks sees (R2-D10)
    total = seen = 0.0
    for g in shooters:
        if not g.count:
            continue
        total += g.count
        if g.traits.template:
            seen += g.count
            continue
        ti = b.target_group(target, unit, g)  # the troops when seen, else an independent seen
        if ti is None:
            continue
        found = b.aims_now(unit, unit.groups.index(g), target, ti, g.traits.consciousness)
        if not found:
            continue
        visible = len({k for a in found for k in a.seen})
        seen += min(float(len(found)), VISIBLE_SHOTS * visible * max(target.groups[ti].wound_levels, 1))
    return seen / total if total else 0.0


def courage_p(b: Battle, unit: Fighting, frightening: Fighting, charging: bool) -> float:
    """The chance *unit* passes the Courage test *frightening* asks of it in an assault (1: no
    test), as the assault rules roll it (seed: Courage tests; Repelling)."""
    if not b.needs_courage_test(unit, frightening):
        return 1.0
    fear = frightening.troops.profile.fear or 0
    balance = balance_of_power(frightening.power(not charging, charging), unit.power(charging, not charging))
    modifier = memo_row_value(b.fear_rows, balance) if b.fear_rows else _FEAR_MODIFIERS[balance]
    cou = unit.cou_value + (unit.tactic.get("courage", 0) if unit.tactic else 0)
    if fear + modifier - cou - unit.cou_bonus <= unit.immune_fear:
        return 1.0
    return fear_distribution(b.table, cou - (fear + modifier), unit.cou_bonus, unit.best_of)[0][0]


def _rout_chance(b: Battle, loser: Fighting, mine: int, theirs: int, winner: Fighting) -> float:
    """The chance *loser* fails its morale roll after losing a fray (seed: Outcome of the fray)."""
    if loser.all_have("auto_morale"):
        return 0.0
    lower = 1 if winner.troops.profile.fear is not None and loser.troops.profile.fear is None else 0
    balance = balance_of_power(mine, theirs)
    difficulty = memo_row_value(b.outcome_rows, balance, lower) if b.outcome_rows else 8
    value, _dis = b.morale_value(loser)
    return 1.0 - pass_chance(value, difficulty, loser.best_of, not loser.all_have("morale_no_auto_fail"))
