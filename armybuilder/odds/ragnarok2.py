"""Exact odds of one Rag'Narok 2 combat roll: attacks, then the Wounds they cause.

The contest table is data (R2-D1 is provisional): :func:`compute` takes it as plain rows
``[label, low, high, success, reroll_from, halved]`` read from the catalogue the player uses
(``systems/ragnarok2/engine/odds.py`` reads them; :mod:`.tables` remembers them), so a
corrected table in a later catalogue version changes the odds without a code change.

The dice, as the engine rolls them (R2-D1, R2-D2): a natural 1 fails and is never rolled
again; a die succeeds on its column's number or more; a natural result at or above the
column's re-roll threshold is rolled again, as long as it keeps reaching it; on a ``6*``
column the roll's total is halved, rounded up.  Every successful attack makes one Wound
roll on the STR - RES column.  The laws are exact (:mod:`.exact`); each float is the
correctly rounded value of an exact ratio.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from armybuilder.core.odds_params import Spec, int_param

from . import exact

PARAMETERS: tuple[Spec, ...] = (
    Spec("attack", "Attacker's ATT", "int", minimum=0, maximum=30, help="ATT of the attacking fighters"),
    Spec("defense", "Defender's DEF", "int", minimum=0, maximum=30, help="DEF of the attacked fighters"),
    Spec("strength", "Attacker's STR", "int", minimum=0, maximum=30, help="STR of the attacking fighters"),
    Spec("resistance", "Defender's RES", "int", minimum=0, maximum=30, help="RES of the attacked fighters"),
    Spec("dice", "Combat dice", "int", minimum=0, maximum=200, help="number of attack dice rolled"),
    Spec("attack_shift", "Attack column shift", "int", default=0, minimum=-30, maximum=30, help="columns right (+) or left (-) for the attacks"),
    Spec("wound_shift", "Wound column shift", "int", default=0, minimum=-30, maximum=30, help="columns right (+) or left (-) for the Wound rolls"),
)

#: a pmf in a payload stops where what remains is below this mass (design.md's contract)
PMF_TAIL = (1, 10**12)
#: mass a halved attack total may leave out before its successes roll to wound: far below
#: what a float of the result can show
_COUNT_TAIL = (1, 2**160)


class Column(NamedTuple):
    """One column of the contest table (the plain row, named)."""

    label: str
    low: int | None
    high: int | None
    success: int
    reroll_from: int = 6
    halved: bool = False

    @property
    def notation(self) -> str:
        """The result as printed in the table: ``6*``, ``6``, ``4+``, ``2+/5``..."""
        if self.halved:
            return f"{self.success}*"
        if self.success >= 6:
            return str(self.success)
        return f"{self.success}+" + (f"/{self.reroll_from}" if self.reroll_from < 6 else "")

    def die(self) -> exact.Chain:
        """Successes of one die, re-rolls included, before any halving."""
        kinds = [0, 0, 0, 0]  # success again, failure again, success stops, failure stops
        for face in range(1, 7):
            succeeds = face != 1 and face >= self.success
            again = face != 1 and face >= self.reroll_from
            kinds[(0 if again else 2) + (0 if succeeds else 1)] += 1
        return exact.chain(*kinds)


def column(columns: tuple[Column, ...], difference: int, shift: int = 0) -> Column:
    """The column read for ``difference``, moved ``shift`` columns (clamped to the table)."""
    for i, col in enumerate(columns):
        if (col.low is None or difference >= col.low) and (col.high is None or difference <= col.high):
            return columns[min(max(i + shift, 0), len(columns) - 1)]
    raise ValueError(f"no contest column covers the difference {difference}")


class Law(NamedTuple):
    """A total's pmf (cut at 1e-12), its ``P(X >= k)`` and its exact mean."""

    pmf: list[float]
    at_least: list[float]
    mean: float


def combat(attack: Column, wound: Column, dice: int) -> tuple[Law, Law]:
    """(successful attacks, Wounds) of ``dice`` attack dice, before any allocation."""
    a_die, w_die = attack.die(), wound.die()
    n_mean, n_den = a_die.mean()
    attacks_mean: exact.Ratio = (dice * n_mean, n_den)
    if attack.halved:
        attacks_mean = exact.halved_mean(attacks_mean, exact.chain_power_at(a_die, dice, (-1, 1)))
        count = exact.take(exact.halved(exact.power(a_die, dice)), _COUNT_TAIL)
        raw = exact.compound_prefix(count, w_die)
        raw_mean = exact.mul(attacks_mean, w_die.mean())
        if wound.halved:  # E[(-1)**R] = E[u**Y] with u = E[(-1)**W]
            raw_sign = exact.expectation_of_power(count, w_die.at((-1, 1)))
    else:
        per_die = exact.compound(a_die, w_die)
        raw = exact.power(per_die, dice)
        h_mean, h_den = per_die.mean()
        raw_mean = (dice * h_mean, h_den)
        if wound.halved:
            raw_sign = exact.chain_power_at(per_die, dice, (-1, 1))
    attacks_stream = exact.power(a_die, dice)
    if attack.halved:
        attacks_stream = exact.halved(attacks_stream)
    if wound.halved:
        raw = exact.halved(raw)
        raw_mean = exact.halved_mean(raw_mean, raw_sign)
    a = exact.take(attacks_stream, PMF_TAIL)
    w = exact.take(raw, PMF_TAIL)
    return Law(a.pmf, a.at_least, attacks_mean[0] / attacks_mean[1]), Law(w.pmf, w.at_least, raw_mean[0] / raw_mean[1])


def columns_of(rows: Any) -> tuple[Column, ...]:
    """The plain rows of a contest table as :class:`Column` objects."""
    return tuple(Column(str(r[0]), r[1], r[2], int(r[3]), int(r[4]), bool(r[5])) for r in rows)


def compute(rows: Any, params: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The payload (the JSON contract) and the text of one combat roll, for table ``rows``."""
    att, defense = int_param(params, "attack"), int_param(params, "defense")
    strength, res = int_param(params, "strength"), int_param(params, "resistance")
    dice = int_param(params, "dice")
    if not 0 <= dice <= 200:
        raise ValueError("--dice must be between 0 and 200")
    a_shift, w_shift = int_param(params, "attack_shift", 0), int_param(params, "wound_shift", 0)
    columns = columns_of(rows)
    a_col = column(columns, att - defense, a_shift)
    w_col = column(columns, strength - res, w_shift)
    attacks, wounds = combat(a_col, w_col, dice)
    # Exactly the JSON contract of the issue: column label, pmf (cut only where the
    # remaining mass is below 1e-12) and mean, for the attacks and for the Wounds.
    payload = {
        "attacks": {"column": a_col.label, "pmf": attacks.pmf, "mean": attacks.mean},
        "wounds": {"column": w_col.label, "pmf": wounds.pmf, "mean": wounds.mean},
    }
    lines = [
        f"{dice} combat dice, ATT {att} vs DEF {defense}: column {a_col.label} ({a_col.notation})"
        + (f", shifted {a_shift:+d}" if a_shift else ""),
        f"Wound rolls STR {strength} vs RES {res}: column {w_col.label} ({w_col.notation})"
        + (f", shifted {w_shift:+d}" if w_shift else ""),
        f"mean successful attacks {attacks.mean:.3f}, mean Wounds {wounds.mean:.3f} (before allocation)",
        "",
        f"{'k':>3} {'P(attacks = k)':>15} {'P(attacks >= k)':>16} {'P(wounds = k)':>14} {'P(wounds >= k)':>15}",
    ]
    a_pmf, w_pmf = attacks.pmf, wounds.pmf
    shown = [
        k
        for k in range(max(len(a_pmf), len(w_pmf)))
        if (k < len(a_pmf) and a_pmf[k] >= 5e-5) or (k < len(w_pmf) and w_pmf[k] >= 5e-5)
    ]
    for k in range(shown[0], shown[-1] + 1) if shown else ():
        cells = []
        for law in (attacks, wounds):
            p = law.pmf[k] if k < len(law.pmf) else 0.0
            q = law.at_least[k] if k < len(law.at_least) else 0.0
            cells.append((p, q))
        lines.append(f"{k:>3} {cells[0][0]:>15.4%} {cells[0][1]:>16.4%} {cells[1][0]:>14.4%} {cells[1][1]:>15.4%}")
    lines.append("")
    lines.append("Contest table R2-D1 is provisional (reconstructed; see the reference sheets).")
    return payload, tuple(lines)
