"""The dice of a battle: uniforms from the injected generator, drawn in blocks."""

from __future__ import annotations

import bisect

import numpy as np
from mypy_extensions import mypyc_attr

# --------------------------------------------------------------------------- randomness


_bisect_right = bisect.bisect_right  # (a global, not a module attribute, on the hot paths)

# Uniforms per draw from the generator: a game uses about 170, and numpy's cost grows with the
# block (the stream of doubles is the same whatever the block size, so results do not depend on it).
_BLOCK = 256


@mypyc_attr(allow_interpreted_subclasses=True)  # (the exact fray's tests script the dice: a subclass)
class Dice:
    """Uniforms drawn from the injected generator in blocks, consumed in pure Python."""

    __slots__ = ("rng", "buffer", "index")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        i = self.index
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return buffer[i]

    def chance(self, p: float) -> bool:
        i = self.index  # u(), inlined
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return buffer[i] < p

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        """Inverse-CDF draw (the buffer is read inline: this is the hottest call of a game)."""
        i = self.index
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        k = _bisect_right(cdf, buffer[i])
        last = len(cdf) - 1
        return k if k < last else last

    def d6(self) -> int:
        i = self.index  # u(), inlined
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return int(buffer[i] * 6) + 1

    def regenerations(self, n: int, x: int) -> tuple[int, int]:
        """Regeneration/X of *n* eliminated fighters (seed: Regeneration/X): each rolls a d6 and
        comes back with one Wound level on *x* or more, then rolls a second test for one more
        level. Returns (fighters back, of which with two Wound levels)."""
        back = two = 0
        for _ in range(n):
            if self.d6() >= x:
                back += 1
                if self.d6() >= x:
                    two += 1
        return back, two

    def binomial(self, n: int, p: float) -> int:
        """Successes of *n* draws below *p* (the same uniforms, in order, as n calls of u())."""
        hits = 0
        buffer, i = self.buffer, self.index
        while n > 0:
            if i >= len(buffer):
                buffer = self.buffer = self.rng.random(_BLOCK).tolist()
                i = 0
            j = i + n if i + n < len(buffer) else len(buffer)
            for x in buffer[i:j]:  # (a slice of the block: cheaper than indexing one by one)
                if x < p:
                    hits += 1
            n -= j - i
            i = j
        self.index = i
        return hits

