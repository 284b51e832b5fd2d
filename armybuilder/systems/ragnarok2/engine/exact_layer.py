"""The states an exact fray holds between two of its steps, as one numpy matrix.

A module of its own because both the fray's enumeration (:mod:`.exact`) and the Implacable
combats that follow it (:mod:`.exact_implacable`) build and pass these layers; neither owns them.
"""

from __future__ import annotations

import numpy as np


class Layer:
    """States held at one point of the fray: one row of probabilities per (core, tag), over the
    Wound difference lo, lo + 1, ... (tag: who strikes first in the current combat, or None)."""

    __slots__ = ("keys", "m", "lo")

    def __init__(self, keys: list[tuple], m: np.ndarray, lo: int) -> None:
        self.keys, self.m, self.lo = keys, m, lo
