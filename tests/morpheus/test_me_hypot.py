"""The Morpheus engine's own hypot (geometry.hypot_replica, what the compiled engine calls)
gives the bits of ``math.hypot`` (what the pure-Python engine calls): a last bit apart could
put a model in or out of reach and change a game."""

from __future__ import annotations

import math
import random
import struct

from hypothesis import given
from hypothesis import strategies as st

from armybuilder.systems.morpheus.engine.geometry import hypot_replica


def same(x: float, y: float) -> bool:
    a, b = hypot_replica(x, y), math.hypot(x, y)
    return a == b or (a != a and b != b)


def test_board_distances_give_the_standard_library_bits():
    r = random.Random(48)
    pairs = []
    for _ in range(40_000):
        pairs.append((r.uniform(-48, 48), r.uniform(-48, 48)))  # differences of board positions (inches)
        pairs.append((float(r.randint(-48, 48)), float(r.randint(-48, 48))))
        x = r.uniform(-48, 48)
        pairs.append((x, x * (1 + r.uniform(-1e-12, 1e-12))))  # nearly equal legs
        pairs.append((r.uniform(-48, 48), 0.0))
        pairs.append((r.uniform(-1e-3, 1e-3), r.uniform(-1e-3, 1e-3)))  # bases nearly touching
    assert [p for p in pairs if not same(*p)] == []


def test_any_doubles_give_the_standard_library_bits():
    r = random.Random(7)
    bits = [struct.unpack("d", struct.pack("Q", r.getrandbits(64)))[0] for _ in range(100_000)]
    pairs = list(zip(bits[::2], bits[1::2], strict=True))
    pairs += [(0.0, -0.0), (0.0, math.nan), (math.inf, math.nan), (-math.inf, 2.0), (1e-310, 1e-320), (1e308, 1e308), (-3.0, 4.0), (5e-324, 0.0)]
    assert [p for p in pairs if not same(*p)] == []


@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_hypot_of_any_two_floats(x, y):
    assert same(x, y)
