"""Fast uniform draws from an injected numpy generator, for the battle simulators.

A simulated game draws hundreds of thousands of single random numbers; asking
numpy for them one by one costs a microsecond each.  :class:`Uniforms` asks for a
block at a time and hands the values out in pure Python, so a game stays
reproducible from its generator (same seed, same game) and fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")


class Uniforms:
    """Uniforms in [0, 1) drawn from the injected generator ``block`` at a time."""

    __slots__ = ("rng", "block", "buffer", "index")

    def __init__(self, rng: np.random.Generator, block: int = 512) -> None:
        self.rng = rng
        self.block = block
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        """The next uniform; a fresh block is drawn when the buffer is spent."""
        if self.index >= len(self.buffer):
            self.buffer = self.rng.random(self.block).tolist()
            self.index = 0
        value = self.buffer[self.index]
        self.index += 1
        return value

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.u() < p

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely."""
        return items[int(self.u() * len(items))]
