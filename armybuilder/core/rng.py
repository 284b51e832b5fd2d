"""The one source of randomness of every battle engine: uniforms drawn in blocks from the
injected numpy generator.

A simulated game draws a few hundred random numbers; asking numpy for them one by one costs a
microsecond each. :class:`Uniforms` asks for a block at a time and hands the values out in pure
Python, so a game stays reproducible from its generator (same seed, same game) and fast. Every
chance step of an engine is sampled from it: a uniform against a distribution's CDF
(:meth:`Uniforms.sample`, :meth:`Uniforms.from_cdf`), a die (:meth:`Uniforms.die`), a Bernoulli
trial (:meth:`Uniforms.chance`). The stream of doubles does not depend on the block size, so
neither do the games.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

#: uniforms per draw from the generator: a game uses a few hundred, and numpy's cost grows with the block
BLOCK = 256


class Uniforms:
    """Uniforms in [0, 1) drawn from the injected generator ``block`` at a time."""

    __slots__ = ("rng", "block", "buffer", "index")

    def __init__(self, rng: np.random.Generator, block: int = BLOCK) -> None:
        self.rng = rng
        self.block = block
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        """The next uniform; a fresh block is drawn when the buffer is spent."""
        i = self.index
        if i >= len(self.buffer):
            self.buffer = self.rng.random(self.block).tolist()
            i = 0
        self.index = i + 1
        return self.buffer[i]

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (one uniform below ``p``)."""
        return self.u() < p

    def below(self, n: int) -> int:
        """An integer in 0..n-1, each equally likely (one uniform)."""
        return int(self.u() * n)

    def die(self, sides: int) -> int:
        """A roll of a fair die with ``sides`` faces, 1..sides (one uniform)."""
        return int(self.u() * sides) + 1

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely (one uniform)."""
        return items[int(self.u() * len(items))]

    def from_cdf(self, cdf: Sequence[float]) -> int:
        """The index of the outcome of a cumulative distribution (one uniform; the last outcome
        absorbs rounding)."""
        k = bisect.bisect_right(cdf, self.u())
        last = len(cdf) - 1
        return k if k < last else last

    def sample(self, outcomes: Sequence[tuple[float, T]]) -> T:
        """The outcome of a chance step ``[(probability, outcome)]`` (one uniform, inverse CDF;
        the last outcome absorbs rounding)."""
        u = self.u()
        total = 0.0
        for p, outcome in outcomes:
            total += p
            if u < total:
                return outcome
        return outcomes[-1][1]

    def binomial(self, n: int, p: float) -> int:
        """Successes of ``n`` trials of probability ``p`` (the same uniforms, in order, as ``n``
        calls of :meth:`chance`)."""
        hits = 0
        for _ in range(n):
            if self.u() < p:
                hits += 1
        return hits
