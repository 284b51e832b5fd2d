"""The engine's own hypot (board.hypot_replica, what the compiled engine calls) gives the bits
of ``math.hypot`` (what the pure-Python engine calls): a last bit apart would move a group
to another side of a range band and change a game."""

from __future__ import annotations

import math
import random
import struct

from hypothesis import given
from hypothesis import strategies as st

from armybuilder.systems.rattle_and_rend.engine.board import hypot_replica


def same(x: float, y: float) -> bool:
    a, b = hypot_replica(x, y), math.hypot(x, y)
    return a == b or (a != a and b != b)


def test_board_distances_give_the_standard_library_bits():
    r = random.Random(18)
    pairs = []
    for _ in range(40_000):
        pairs.append((r.uniform(-400, 400), r.uniform(-400, 400)))  # differences of board positions
        pairs.append((float(r.randint(-400, 400)), float(r.randint(-400, 400))))
        x = r.uniform(-400, 400)
        pairs.append((x, x * (1 + r.uniform(-1e-12, 1e-12))))  # nearly equal legs
        pairs.append((r.uniform(-400, 400), 0.0))
    assert [p for p in pairs if not same(*p)] == []


def test_any_doubles_give_the_standard_library_bits():
    r = random.Random(5)
    bits = [struct.unpack("d", struct.pack("Q", r.getrandbits(64)))[0] for _ in range(100_000)]
    pairs = list(zip(bits[::2], bits[1::2], strict=True))
    pairs += [(0.0, -0.0), (-0.0, -0.0), (0.0, math.nan), (math.nan, -0.0), (math.inf, 0.0), (math.inf, math.nan), (math.nan, 1.0), (-math.inf, 2.0), (1e-310, 1e-320), (1e308, 1e308), (-3.0, 4.0), (5e-324, 0.0)]
    assert [p for p in pairs if not same(*p)] == []


@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_hypot_of_any_two_floats(x, y):
    assert same(x, y)
