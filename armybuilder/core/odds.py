"""Helpers the systems' odds calculators share: reading parameters, writing pmfs.

Every odds calculator takes the parameters of ``armybuilder odds`` (or of the
odds panel) as a dict and answers with a JSON-able payload whose pmfs follow one
contract (design.md): cut where the remaining tail is below ``PMF_TAIL``.
"""

from __future__ import annotations

from typing import Any

from .dice import Distribution

#: a pmf in a payload stops where what remains is below this mass
PMF_TAIL = 1e-12


def pmf_list(dist: Distribution) -> list[float]:
    """The pmf cut where what remains is below 1e-12 (the JSON contract of design.md)."""
    pmf = dist.pmf
    tail = 0.0
    end = len(pmf)
    while end > 1 and tail + pmf[end - 1] < PMF_TAIL:
        tail += pmf[end - 1]
        end -= 1
    return [float(x) for x in pmf[:end]]


def int_param(params: dict[str, Any], name: str, default: int | None = None) -> int:
    """A whole-number parameter; the error names the command-line option (``--attack-shift``)."""
    value = params.get(name, default)
    if value is None:
        raise ValueError(f"--{name.replace('_', '-')} is needed")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number") from None
