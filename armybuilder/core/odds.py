"""Helpers the systems' odds calculators share: reading parameters, writing pmfs.

Every odds calculator takes the parameters of ``armybuilder odds`` (or of the
odds panel) as a dict and answers with a JSON-able payload whose pmfs follow one
contract (design.md): cut where the remaining tail is below ``PMF_TAIL``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dice import Distribution

#: a pmf in a payload stops where what remains is below this mass
PMF_TAIL = 1e-12


def pmf_list(dist: Distribution) -> list[float]:
    """The pmf cut where what remains is below 1e-12 (the JSON contract of design.md).

    ``tails[i]`` is the mass of the last ``i + 1`` values, summed from the end one
    value at a time (the order a loop would use, so the same cut); the values below
    ``PMF_TAIL`` are dropped, never the first.  Computed in numpy: building the
    output was most of an odds request's time.
    """
    pmf = dist.pmf
    tails = np.cumsum(pmf[::-1])
    dropped = int(np.searchsorted(tails, PMF_TAIL, side="left"))
    end = max(1, len(pmf) - dropped)
    kept: list[float] = pmf[:end].tolist()
    return kept


def int_param(params: dict[str, Any], name: str, default: int | None = None) -> int:
    """A whole-number parameter; the error names the command-line option (``--attack-shift``)."""
    value = params.get(name, default)
    if value is None:
        raise ValueError(f"--{name.replace('_', '-')} is needed")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number") from None
