"""What every system's odds module shares: the pmf cut of a payload and the parameters.

Standard library only: the odds modules of the systems run on the protocol's path (the TUI,
the bench), but nothing here should make them import numpy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .odds_params import int_param

__all__ = ["PMF_TAIL", "int_param", "parameters", "pmf_list"]

if TYPE_CHECKING:
    from .dice import Distribution
    from .shapes import Param

#: a pmf in a payload stops where what remains is below this mass
PMF_TAIL = 1e-12


def pmf_list(dist: Distribution) -> list[float]:
    """The pmf cut where what remains is below 1e-12 (the JSON contract of design.md).

    The values are summed from the end one at a time (the order a loop would use, so the
    same cut); the values whose tail stays below ``PMF_TAIL`` are dropped, never the first.
    """
    pmf: list[float] = dist.pmf.tolist()
    tail, end = 0.0, len(pmf)
    while end > 1 and tail + pmf[end - 1] < PMF_TAIL:
        tail += pmf[end - 1]
        end -= 1
    return pmf[:end]


def parameters(specs: Iterable[Any]) -> tuple[Param, ...]:
    """The protocol's :class:`~.shapes.Param` objects of a calculator's plain parameters
    (:class:`armybuilder.core.odds_params.Spec`: the same fields in the same order)."""
    from .shapes import Param
    from .system import Choice

    return tuple(
        Param(s.name, s.label, s.kind, tuple(Choice(c.value, c.label, c.detail) for c in s.choices), s.default, s.minimum, s.maximum, s.help)
        for s in specs
    )
