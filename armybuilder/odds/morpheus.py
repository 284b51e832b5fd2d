"""Exact odds of one Morpheus Engine attack: the hit roll, then the Damage it causes.

``armybuilder odds morpheus-ragnarok --attack 3 --defense 2 --strength 3 --resistance 3``.
"X versus Y" is rolled on 2d6 against TN = base - (X - Y); a roll of TN or more succeeds and
the success stages are the points above TN; Damage is 1 + stages // step (step 3, Savage 2,
Lethal 1).  The base, the dice and the steps come from the catalogue as plain tables
(``systems/morpheus/engine/odds.py`` reads ``tables.opposed`` and ``tables.damage``; ME-D1
is provisional data), so a corrected table changes the odds without a code change.  Every
chance is a ratio of whole numbers (powers of the dice's faces), rounded once.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from armybuilder.core.odds_params import Option, Spec, int_param

from . import exact

PARAMETERS: tuple[Spec, ...] = (
    Spec("attack", "Attacker's MA or RA", "int", minimum=0, maximum=30, help="MA (melee) or RA (ranged) of the attacker"),
    Spec("defense", "Target's DF", "int", minimum=0, maximum=30, help="DF of the target (MN for a Psi attack)"),
    Spec("strength", "Attack ST", "int", minimum=0, maximum=30, help="ST of the weapon or attack"),
    Spec("resistance", "Target's RS", "int", minimum=0, maximum=30, help="RS of the target, armour included (DR for Psi)"),
    Spec("attacks", "Number of attacks", "int", default=1, minimum=1, maximum=60, help="e.g. 3 for Rapid Attack"),
    Spec(
        "damage",
        "Damage ability",
        "choice",
        (Option("normal", "normal", "+1 Damage per 3 stages"), Option("savage", "Savage", "per 2 stages"), Option("lethal", "Lethal", "per stage")),
        default="normal",
        help="normal, savage or lethal",
    ),
    Spec("charge", "Charge", "bool", default=False, help="Charge: +1 ST"),
    Spec("overwhelm", "Overwhelm", "bool", default=False, help="Overwhelm: +1 MA and +1 ST"),
    Spec("attack_bonus", "Other attack modifier", "int", default=0, minimum=-30, maximum=30, help="cover, prone, focus, distance... (+/-)"),
    Spec("strength_bonus", "Other ST modifier", "int", default=0, minimum=-30, maximum=30, help="heavy cover, focus... (+/-)"),
    Spec("hp", "Target's HP", "int", default=0, minimum=0, maximum=99, help="if given, the chance to remove the target"),
)

PMF_TAIL = (1, 10**12)


class Rules(NamedTuple):
    """The opposed-roll and damage tables (ME-D1 by default)."""

    dice: int = 2
    sides: int = 6
    base: int = 7
    step_normal: int = 3
    step_savage: int = 2
    step_lethal: int = 1

    def tn(self, x: int, y: int) -> int:
        """Target number of 'X versus Y'."""
        return self.base - (x - y)

    def step(self, savage: bool = False, lethal: bool = False) -> int:
        return self.step_lethal if lethal else self.step_savage if savage else self.step_normal

    def roll(self) -> list[int]:
        """Ways to roll each total 0 .. dice * sides (out of sides ** dice)."""
        return exact.poly_power([0] + [1] * self.sides, self.dice)


def _success(roll: list[int], tn: int) -> int:
    return sum(roll[max(tn, 0) :])


def _damage_weights(roll: list[int], tn: int, step: int) -> list[int]:
    """Ways of each Damage (0 when the damage roll fails) of one successful hit."""
    low = max(tn, 0)
    out = [sum(roll[:low])]
    for value in range(low, len(roll)):
        d = 1 + (value - tn) // step
        out.extend([0] * (d + 1 - len(out)))
        out[d] += roll[value]
    return out


def _cut(weights: list[int]) -> list[float]:
    return exact.take(exact.weights_stream(weights), PMF_TAIL).pmf


def compute(tables: dict[str, Any] | None, params: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The payload and the text of ``attacks`` attacks, for the catalogue's ``tables``."""
    tables = tables or {}
    rules = Rules(*tables["rules"]) if tables.get("rules") else Rules()
    att, df = int_param(params, "attack"), int_param(params, "defense")
    st, rs = int_param(params, "strength"), int_param(params, "resistance")
    attacks = int_param(params, "attacks", 1)
    if not 1 <= attacks <= 60:
        raise ValueError("--attacks must be between 1 and 60")
    hp = int_param(params, "hp", 0)
    if not 0 <= hp <= 99:
        raise ValueError("--hp must be between 0 and 99")
    kind = str(params.get("damage") or "normal")
    if kind not in ("normal", "savage", "lethal"):
        raise ValueError("--damage must be normal, savage or lethal")
    charge, overwhelm = bool(params.get("charge")), bool(params.get("overwhelm"))
    att_total = att + int_param(params, "attack_bonus", 0) + (1 if overwhelm else 0)
    st_total = st + int_param(params, "strength_bonus", 0) + (1 if charge else 0) + (1 if overwhelm else 0)
    hit_tn = rules.tn(att_total, df)
    dmg_tn = rules.tn(st_total, rs)
    savage, lethal = kind == "savage", kind == "lethal"
    step = rules.step(savage, lethal)
    roll = rules.roll()
    outcomes = sum(roll)
    hit_ways, dmg_ways = _success(roll, hit_tn), _success(roll, dmg_tn)
    p_hit, p_dmg = hit_ways / outcomes, dmg_ways / outcomes
    per_hit = _damage_weights(roll, dmg_tn, step)
    # one attack: a miss (weight: misses x all damage rolls) or a hit followed by its damage roll
    one_attack = [hit_ways * w for w in per_hit]
    one_attack[0] += (outcomes - hit_ways) * outcomes
    hits = exact.poly_power([outcomes - hit_ways, hit_ways], attacks)
    damage = exact.poly_power(one_attack, attacks)
    damage_total = outcomes ** (2 * attacks)
    hits_mean = attacks * hit_ways / outcomes
    damage_mean = attacks * sum(d * w for d, w in enumerate(one_attack)) / outcomes**2
    low = max(dmg_tn, 0)
    stages = [0] * max(0, low - dmg_tn) + roll[low:] if dmg_ways else []
    d_tail, rest = [], damage_total
    for w in damage:
        d_tail.append(rest / damage_total)
        rest -= w
    payload: dict[str, Any] = {
        "hit": {"tn": hit_tn, "probability": p_hit, "pmf": _cut(hits), "mean": hits_mean},
        "damage_roll": {
            "tn": dmg_tn,
            "probability": p_dmg,
            "stages_given_success": _cut(stages) if stages else [],
            "per_hit_pmf": _cut(per_hit),
        },
        "damage": {"pmf": _cut(damage), "mean": damage_mean},
        "input": {
            "attack": att,
            "defense": df,
            "strength": st,
            "resistance": rs,
            "attacks": attacks,
            "damage": kind,
            "charge": charge,
            "overwhelm": overwhelm,
            "attack_bonus": int_param(params, "attack_bonus", 0),
            "strength_bonus": int_param(params, "strength_bonus", 0),
            "hp": hp,
            "catalogue": tables.get("version"),
        },
        "provisional": "ME-D1",
    }
    if hp:
        payload["removed"] = sum(damage[hp:]) / damage_total
    lines = [
        f"{attacks} attack{'s' if attacks > 1 else ''}: {att_total} versus DF {df} → hit on {hit_tn}+ on 2d6 ({p_hit:.2%})",
        f"damage roll: ST {st_total} versus RS {rs} → {dmg_tn}+ ({p_dmg:.2%}), "
        f"+1 Damage every {step} success stage{'s' if step > 1 else ''}"
        + (f" (+1 on {dmg_tn + step}+)" if dmg_tn + step <= rules.dice * rules.sides else ""),
        f"mean hits {hits_mean:.3f}, mean Damage {damage_mean:.3f}",
        "",
        f"{'k':>3} {'P(hits = k)':>12} {'P(Damage = k)':>14} {'P(Damage >= k)':>15}",
    ]
    h_pmf, d_pmf = payload["hit"]["pmf"], payload["damage"]["pmf"]
    for k in range(max(len(h_pmf), len(d_pmf))):
        hp_k = h_pmf[k] if k < len(h_pmf) else 0.0
        dp_k = d_pmf[k] if k < len(d_pmf) else 0.0
        tail = d_tail[k] if k < len(d_tail) else 0.0
        if hp_k < 5e-5 and dp_k < 5e-5 and k > 0:
            continue
        lines.append(f"{k:>3} {hp_k:>12.4%} {dp_k:>14.4%} {tail:>15.4%}")
    if hp:
        lines.append(f"chance to remove a target with {hp} HP: {payload['removed']:.2%}")
    lines += ["", "Opposed rolls follow ME-D1, a provisional reading (see the reference sheets)."]
    return payload, tuple(lines)
