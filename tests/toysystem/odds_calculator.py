"""Pit Fighters' exact odds: how many enemies ``blows`` blows put out, and the chance step of
one blow, which the engine samples (:mod:`toysystem.engine`) and this module enumerates.

Like every system's calculator it imports nothing of its system (``armybuilder odds`` runs
this file on remembered tables without loading the system): the tables are the catalogue's
fighter types as plain rows, ``{"fighters": {id: [name, attack, guard]}}``, so
``--striker gull-captain --target crab-shell`` reads the fighters' own numbers.
"""

from __future__ import annotations

import math
from typing import Any

from armybuilder.core.engine import Chance, expectation
from armybuilder.core.odds_params import Spec, int_param

PARAMETERS: tuple[Spec, ...] = (
    Spec("attack", "Attack", "int", default=3, minimum=0, maximum=99, help="the striker's attack (or --striker)"),
    Spec("guard", "Guard", "int", default=3, minimum=0, maximum=99, help="the target's guard (or --target)"),
    Spec("blows", "Blows", "int", default=1, minimum=1, maximum=12, help="blows struck, each at a standing enemy"),
    Spec("striker", "Striker", "text", default="", help="a fighter type whose attack is used"),
    Spec("target", "Target", "text", default="", help="a fighter type whose guard is used"),
)


def blow(attack: int, guard: int) -> Chance[bool]:
    """The chance step of a blow: True (the target is out) with probability attack / (attack + guard)."""
    p = attack / (attack + guard) if attack + guard else 0.0
    return [(p, True), (1.0 - p, False)]


def expected_blow(attack: int, guard: int) -> float:
    """The same step enumerated: the chance that a blow puts its target out."""
    return expectation(blow(attack, guard), float)


def _fighter(tables: dict[str, Any], fighter_id: str, flag: str) -> list[Any]:
    fighters = tables.get("fighters", {})
    if fighter_id not in fighters:
        raise ValueError(f"{flag} {fighter_id!r}: no such fighter type (known: {', '.join(sorted(fighters))})")
    row: list[Any] = fighters[fighter_id]
    return row


def compute(tables: dict[str, Any], values: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(payload, lines): the chance of each number of enemies put out by ``blows`` blows."""
    attack, guard, blows = int_param(values, "attack", 3), int_param(values, "guard", 3), int_param(values, "blows", 1)
    striker, target = values.get("striker") or "", values.get("target") or ""
    names = ["striker", "target"]
    if striker:
        names[0], attack, _ = _fighter(tables, striker, "--striker")
    if target:
        names[1], _, guard = _fighter(tables, target, "--target")
    step = blow(attack, guard)
    put_out = [1.0]  # put_out[k]: the chance that k blows of those struck so far put a target out
    for _ in range(blows):
        following = [0.0] * (len(put_out) + 1)
        for k, p_k in enumerate(put_out):
            for p, out in step:
                following[k + out] += p_k * p
        put_out = following
    mean = math.fsum(k * p for k, p in enumerate(put_out))
    payload = {"attack": attack, "guard": guard, "blows": blows, "p_blow": step[0][0], "put_out": put_out, "mean": mean}
    lines = [f"{names[0]} (attack {attack}) against {names[1]} (guard {guard}), {blows} blow{'s' if blows != 1 else ''}",
             f"one blow puts the target out: {step[0][0]:.1%}"]  # fmt: skip
    lines += [f"  {k} out: {p:.1%}" for k, p in enumerate(put_out)]
    lines.append(f"mean put out: {mean:.2f}")
    return payload, lines
