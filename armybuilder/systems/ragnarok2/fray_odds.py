"""The exact fray as a user sees it: unit references, the JSON payload and the text tables of
``armybuilder odds ragnarok2 --fray`` (and the editor's fray view, which reads the same payload).

Why a module of its own: the engine computes (:mod:`.engine.exact`), this module names things
for people (units by name or 1-based index, "at least k" tables) and keeps one JSON shape for
the command line and the editor.
"""

from __future__ import annotations

from typing import Any

from .engine.exact import FrayOdds, exact_fray, prepare


def unit_names(cat, army) -> list[str]:
    """The names of the list's units as the battle engine builds them (the units a fray can use)."""
    from .engine.state import build_side

    units, _ = build_side(cat, army, 0)
    return [u.name for u in units]


def largest_unit(cat) -> int | None:
    """The most fighters the army scheme lets a unit hold (R2-D3), None without a scheme."""
    scheme = cat.data.tables.army_scheme
    if scheme is None or not scheme.rows:
        return None
    return max(max(row.regiment[1], row.horde[1]) for row in scheme.rows)


def check_sizes(cat, first, index_a: int, second, index_b: int) -> None:
    """Refuse a fray of a unit larger than any the rules allow: the enumeration grows with
    the fighters in contact, and a unit of 999 fighters (a typing slip or a hostile file)
    would run for minutes and gigabytes for odds no game can ask for."""
    from .engine.exact import ExactFrayUnsupported
    from .engine.state import build_side

    most = largest_unit(cat)
    if most is None:
        return
    for army, index in ((first, index_a), (second, index_b)):
        unit = build_side(cat, army, 0)[0][index]
        if unit.count > most:
            raise ExactFrayUnsupported(
                f"{unit.name} has {unit.count} fighters; the army scheme allows at most {most} in a unit (R2-D3): "
                "the exact fray is computed for units the rules allow"
            )


def compute(cat, first, index_a: int, second, index_b: int, charge: bool) -> FrayOdds:
    check_sizes(cat, first, index_a, second, index_b)
    return exact_fray(cat, first, index_a, second, index_b, charge)


def payload(odds: FrayOdds) -> dict[str, Any]:
    """The JSON shape (documented in docs/commands.md)."""

    def side(s: int) -> dict[str, Any]:
        return {
            "unit": odds.names[s],
            "fighters": odds.fighters[s],
            "points": odds.points[s],
            "expected_losses": round(odds.expected_losses(s), 6),
            "losses": [round(p, 9) for p in odds.marginal(s)],
            "at_least": [round(p, 9) for p in odds.at_least(s)],
            "p_rout": round(odds.p_rout[s], 9),
            "expected_ap_eliminated": round(odds.ap_lost[s], 4),
            "characters": [{"name": c.name, "p_falls": round(c.p_falls, 9)} for c in odds.characters if c.side == s],
        }

    return {
        "charge": odds.charge,
        "attacker": side(0),
        "defender": side(1),
        "joint_losses": [
            {"attacker": a, "defender": b, "p": round(p, 12)} for (a, b), p in sorted(odds.losses.items()) if p >= 1e-12
        ],
        "implacable_combats": [round(p, 9) for p in odds.implacable],
        "pruned_mass": odds.pruned,
        "states": odds.states,
    }


def _pct(p: float) -> str:
    return f"{100 * p:5.1f} %"


def implacable_lines(fought: tuple[float, ...] | list[float]) -> list[str]:
    """The Implacable combats after the outcome of the fray, one line per round (none without an
    Implacable unit): how often they are fought; their losses are in every other figure."""
    out = []
    for r, p in enumerate(fought, 1):
        which = "" if len(fought) == 1 else f" (round {r} of {len(fought)})"
        out.append(f"  Implacable combat after the outcome{which}: fought {_pct(p).strip()}")
    return out


def lines(odds: FrayOdds, width: int = 30) -> list[str]:
    """Text report: headline figures, then an "at least k" table per side with bars."""
    a, b = odds.names
    out = [
        f"Fray: {a} ({odds.fighters[0]}) {'charge' if odds.charge else 'vs'} {b} ({odds.fighters[1]})",
        f"  routs: {a} {_pct(odds.p_rout[0])}, {b} {_pct(odds.p_rout[1])}",
        f"  expected losses: {a} {odds.expected_losses(0):.2f} fighters ({odds.ap_lost[0]:.1f} A.P.),"
        f" {b} {odds.expected_losses(1):.2f} fighters ({odds.ap_lost[1]:.1f} A.P.)",
    ]
    for c in odds.characters:
        out.append(f"  {c.name} ({odds.names[c.side]}) falls: {_pct(c.p_falls)}")
    out += implacable_lines(odds.implacable)
    for s in (0, 1):
        out.append("")
        out.append(f"{odds.names[s]} loses at least k fighters")
        at_least = odds.at_least(s)
        for k in range(1, len(at_least)):
            p = at_least[k]
            if p < 0.0005 and k > 1:
                break
            out.append(f"  {k:>3} {_pct(p)} {'#' * round(p * width)}")
    out.append("")
    out.append(f"(exact: every chance outcome enumerated; pruned mass {odds.pruned:.1e})")
    return out


__all__ = ["compute", "implacable_lines", "lines", "payload", "prepare", "unit_names"]
