"""What a fray is worth to the field player: the A.P. a unit expects from an assault, the share
of a target its marksmen see, the chance of a Courage test or a morale roll failing.

Both the field player's choices in a round (:mod:`.field_ai`) and its deployment
(:mod:`.field_deploy`) weigh matchups with these, so they sit below both.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .fray import fear_distribution
from .tables import balance_of_power, memo_row_value, opposed_chance, pass_chance

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


def _in_contact(u: Fighting, other: Fighting, assailant: bool) -> float:
    """The share of *u*'s fighters the first exchange of a fray brings into contact: an
    assailant wraps round the other's front (twice its front rank and one more), an assailed
    close unit meets it with its front rank, a scattered one with all its fighters after push on."""
    n = u.count if u.count > 0 else 1
    if assailant:
        return min(1.0, (2 * other.front() + 1) / n)
    if u.close:
        return min(1.0, (u.front() + 2) / n)
    return min(1.0, (other.count + 1) / n) if other.count < n else 1.0


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
    mine_w = b.expected_damage(unit, foe) * _in_contact(unit, foe, True)
    theirs_w = b.expected_damage(foe, unit) * _in_contact(foe, unit, False)
    g, h = foe.troops, unit.troops
    if g.traits.counter_attack_face:
        theirs_w += COUNTER_SHARE * mine_w
    bonus = charge and unit.power(True, False) >= foe.power(False, True)
    if bonus and not (g.traits.fierce or g.traits.possessed):
        ini_u, ini_f = unit.stat("ini") + 3, foe.stat("ini")
        first = opposed_chance(ini_u, ini_f, True) if ini_u >= ini_f else 0.5
        hit = min(1.0, mine_w / max(g.wound_levels, 1) / max(foe.front() + 1, 1))
        theirs_w *= 1.0 - first * hit
    mine_ap = mine_w / max(g.wound_levels, 1) * g.cost
    theirs_ap = theirs_w / max(h.wound_levels, 1) * h.cost
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
