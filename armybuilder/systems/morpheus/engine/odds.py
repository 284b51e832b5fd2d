"""Exact odds of one Morpheus Engine attack: the hit roll, then the Damage it causes.

``armybuilder odds morpheus-ragnarok --attack 3 --defense 2 --strength 3 --resistance 3``
The opposed-roll base and damage steps come from the catalogue (ME-D1 is
provisional data), so a corrected table changes the odds without a code change.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.odds import int_param, pmf_list
from armybuilder.core.system import Choice, OddsResult, Param

from .dice import (
    attack_distribution,
    damage_distribution,
    rules_from,
    stages_distribution,
    success_probability,
)

PARAMETERS: tuple[Param, ...] = (
    Param("attack", "Attacker's MA or RA", "int", minimum=0, maximum=30, help="MA (melee) or RA (ranged) of the attacker"),
    Param("defense", "Target's DF", "int", minimum=0, maximum=30, help="DF of the target (MN for a Psi attack)"),
    Param("strength", "Attack ST", "int", minimum=0, maximum=30, help="ST of the weapon or attack"),
    Param("resistance", "Target's RS", "int", minimum=0, maximum=30, help="RS of the target, armour included (DR for Psi)"),
    Param("attacks", "Number of attacks", "int", default=1, minimum=1, maximum=60, help="e.g. 3 for Rapid Attack"),
    Param(
        "damage",
        "Damage ability",
        "choice",
        (Choice("normal", "normal", "+1 Damage per 3 stages"), Choice("savage", "Savage", "per 2 stages"), Choice("lethal", "Lethal", "per stage")),
        default="normal",
        help="normal, savage or lethal",
    ),
    Param("charge", "Charge", "bool", default=False, help="Charge: +1 ST"),
    Param("overwhelm", "Overwhelm", "bool", default=False, help="Overwhelm: +1 MA and +1 ST"),
    Param("attack_bonus", "Other attack modifier", "int", default=0, minimum=-30, maximum=30, help="cover, prone, focus, distance... (+/-)"),
    Param("strength_bonus", "Other ST modifier", "int", default=0, minimum=-30, maximum=30, help="heavy cover, focus... (+/-)"),
    Param("hp", "Target's HP", "int", default=0, minimum=0, maximum=99, help="if given, the chance to remove the target"),
)


def attack_odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    rules = rules_from(cat)
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
    hits, damage = attack_distribution(rules, hit_tn, dmg_tn, savage, lethal, attacks)
    per_hit = damage_distribution(rules, dmg_tn, savage, lethal)
    p_hit = success_probability(rules, hit_tn)
    _, stages = stages_distribution(rules, dmg_tn)
    payload: dict[str, Any] = {
        "hit": {"tn": hit_tn, "probability": p_hit, "pmf": pmf_list(hits), "mean": hits.mean()},
        "damage_roll": {
            "tn": dmg_tn,
            "probability": success_probability(rules, dmg_tn),
            "stages_given_success": pmf_list(stages) if stages is not None else [],
            "per_hit_pmf": pmf_list(per_hit),
        },
        "damage": {"pmf": pmf_list(damage), "mean": damage.mean()},
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
            "catalogue": getattr(cat, "version", None),
        },
        "provisional": "ME-D1",
    }
    if hp:
        payload["removed"] = damage.at_least(hp)
    step = rules.step(savage, lethal)
    lines = [
        f"{attacks} attack{'s' if attacks > 1 else ''}: {att_total} versus DF {df} → hit on {hit_tn}+ on 2d6 ({p_hit:.2%})",
        f"damage roll: ST {st_total} versus RS {rs} → {dmg_tn}+ ({success_probability(rules, dmg_tn):.2%}), "
        f"+1 Damage every {step} success stage{'s' if step > 1 else ''}"
        + (f" (+1 on {dmg_tn + step}+)" if dmg_tn + step <= rules.dice * rules.sides else ""),
        f"mean hits {hits.mean():.3f}, mean Damage {damage.mean():.3f}",
        "",
        f"{'k':>3} {'P(hits = k)':>12} {'P(Damage = k)':>14} {'P(Damage >= k)':>15}",
    ]
    h_pmf, d_pmf, d_tail = pmf_list(hits), pmf_list(damage), damage.at_least_table()
    for k in range(max(len(h_pmf), len(d_pmf))):
        hp_k = h_pmf[k] if k < len(h_pmf) else 0.0
        dp_k = d_pmf[k] if k < len(d_pmf) else 0.0
        tail = float(d_tail[k]) if k < len(d_tail) else 0.0
        if hp_k < 5e-5 and dp_k < 5e-5 and k > 0:
            continue
        lines.append(f"{k:>3} {hp_k:>12.4%} {dp_k:>14.4%} {tail:>15.4%}")
    if hp:
        lines.append(f"chance to remove a target with {hp} HP: {payload['removed']:.2%}")
    lines += ["", "Opposed rolls follow ME-D1, a provisional reading (see the reference sheets)."]
    return OddsResult(payload, tuple(lines))


# --------------------------------------------------------------------------- warrior against warrior


def unit_choices(army, cat: Catalogue) -> list[tuple[int, str]]:
    """(index, label) of every warrior of a clan whose type the catalogue knows."""
    from ..army import warrior_name, warrior_type

    return [(i, f"{i + 1}. {warrior_name(cat, w)}") for i, w in enumerate(army.warriors) if warrior_type(cat, w.type) is not None]


def unit_odds_params(army, index: int, other, other_index: int, cat: Catalogue) -> dict[str, Any]:
    """Parameters of :func:`attack_odds` for warrior ``index`` of ``army`` attacking ``other_index`` of ``other``.

    The attacker uses its melee weapon with the best expected Damage (fists, ST 0, if
    it has none); the target's RS includes its armour.
    """
    from ..army import warrior_type
    from .dice import expected_damage, rules_from

    me, them = army.warriors[index], other.warriors[other_index]
    t_me, t_them = warrior_type(cat, me.type), warrior_type(cat, them.type)
    if t_me is None or t_them is None:
        raise KeyError("a warrior type is missing from the catalogue")
    rs = t_them.rs + sum(a.rs for e in them.equipment if (a := cat.get("armour", e)) is not None)
    weapons = [w for e in me.equipment if (w := cat.get("weapons", e)) is not None and w.kind == "melee"]
    rules = rules_from(cat)

    def value(w) -> float:
        kind = "lethal" if "lethal" in w.abilities else "savage" if "savage" in w.abilities else "normal"
        return expected_damage(rules, rules.tn(t_me.ma, t_them.df), rules.tn(w.st, rs), kind)

    best = max(weapons, key=value) if weapons else None
    kind = "normal"
    if best is not None:
        kind = "lethal" if "lethal" in best.abilities else "savage" if "savage" in best.abilities else "normal"
    return {
        "attack": t_me.ma,
        "defense": t_them.df,
        "strength": best.st if best is not None else 0,
        "resistance": rs,
        "attacks": 3 if any(a.startswith("rapid-attack") for a in t_me.abilities) else 1,
        "damage": kind,
        "charge": False,
        "overwhelm": False,
        "attack_bonus": 0,
        "strength_bonus": 0,
        "hp": t_them.hp,
    }


#: the name every odds module gives its calculator (PackagedSystem.odds calls it)
odds = attack_odds
