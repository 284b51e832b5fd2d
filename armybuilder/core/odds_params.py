"""The parameters of an odds calculator, as plain tuples (no game system needed).

The protocol's :class:`armybuilder.core.shapes.Param` is built from these by each system's
``engine/odds.py``; the ``odds`` command builds its options straight from them.  Standard
library only, in the core: the calculators of :mod:`armybuilder.odds` and the systems'
odds modules both use it.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Option(NamedTuple):
    """One value of a choice parameter."""

    value: Any
    label: str
    detail: str = ""


class Spec(NamedTuple):
    """One parameter: the same fields, in the same order, as ``core.shapes.Param``."""

    name: str
    label: str
    kind: str  # "choice", "int", "text", "float" or "bool"
    choices: tuple[Option, ...] = ()
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""


def int_param(params: dict[str, Any], name: str, default: int | None = None) -> int:
    """A whole-number parameter; the error names the command-line option (``--attack-shift``)."""
    value = params.get(name, default)
    if value is None:
        raise ValueError(f"--{name.replace('_', '-')} is needed")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number") from None
