"""Exact dice laws in whole numbers: every probability is a ratio of two Python integers.

Why not :class:`armybuilder.core.dice.Distribution` (numpy floats): the ``odds`` command
must answer at once, and importing numpy alone costs three bare interpreter starts.  The
laws an odds calculator needs are small (a few hundred values at most), and Python's
integers compute them exactly, then turn each into the correctly rounded float with one
division at the end.  The battle engines, which sample millions of rolls, keep numpy.

Chains
------
A die rolled again for free as long as it shows a re-roll result has a probability
generating function of the form ``G(z) = (p + q z) / (r - s z)`` with whole ``p, q, r, s``
and ``p + q = r - s`` (:class:`Chain`).  This shape survives what the games do with such
dice: a one-off second chance on a result of zero (:func:`second_chance`) and one die's
successes each rolling another kind of die (:func:`compound`).

The sum of ``n`` such dice, ``y = G(z)**n``, satisfies ``(p + q z)(r - s z) y' = n (q r +
s p) y``; comparing coefficients gives a three-term recurrence.  Written for ``N_k = y_k
r**(n + k)`` (whole numbers: expand the closed form) it is::

    p (k + 1) N[k+1] = (n (q r + s p) - (q r - p s) k) N[k] + q s r (k - 1) N[k-1]

and the division is exact (checked).  So ``n`` dice cost one step per value, whatever ``n``.

Streams and prefixes
--------------------
A *stream* yields ``(numerator, denominator)`` for the values 0, 1, 2, ... of a law, each
denominator dividing the next; :func:`take` keeps values while the mass still to come is
at least ``eps`` (compared exactly) and returns a :class:`Prefix` with the floats.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import gcd
from typing import NamedTuple

Stream = Iterator[tuple[int, int]]
Ratio = tuple[int, int]  # (numerator, denominator), denominator > 0


class Chain(NamedTuple):
    """A law with generating function ``(p + q z) / (r - s z)`` (``p + q == r - s``, ``r > s >= 0``)."""

    p: int
    q: int
    r: int
    s: int

    def mean(self) -> Ratio:
        """``G'(1) = (q r + s p) / (r - s)**2``."""
        return self.q * self.r + self.s * self.p, (self.r - self.s) ** 2

    def at(self, z: Ratio) -> Ratio:
        """``G(z)`` for a rational ``z`` (``E[z**X]``)."""
        num, den = z
        return _reduce(self.p * den + self.q * num, self.r * den - self.s * num)


def _reduce(num: int, den: int) -> Ratio:
    if den < 0:
        num, den = -num, -den
    g = gcd(num, den)
    return (num // g, den // g) if g > 1 else (num, den)


def _chain(p: int, q: int, r: int, s: int) -> Chain:
    g = gcd(gcd(p, q), gcd(r, s))
    if g > 1:
        p, q, r, s = p // g, q // g, r // g, s // g
    if p + q != r - s or not r > s >= 0:
        raise ValueError(f"not a law: ({p} + {q} z) / ({r} - {s} z)")
    return Chain(p, q, r, s)


def chain(success_again: int, fail_again: int, success_stop: int, fail_stop: int) -> Chain:
    """Successes of one die whose faces (counted, equally likely) fall in four kinds: a
    success rolled again, a failure rolled again, a success that ends the chain and a
    failure that ends it.  Every roll of the chain is a fresh roll of the same die.

    With ``A, B, C, D`` faces of each kind out of ``F``: ``G(z) = (C z + D) / (F - B - A z)``.
    """
    counts = (success_again, fail_again, success_stop, fail_stop)
    if min(counts) < 0:
        raise ValueError("face counts must be >= 0")
    if success_stop + fail_stop == 0:
        raise ValueError("the chain never stops")
    sides = sum(counts)
    return _chain(fail_stop, success_stop, sides - fail_again, success_again)


def second_chance(law: Chain, chance: Ratio) -> Chain:
    """The die rolled again, once, as a whole new die, after an event of probability
    ``chance`` whose result is zero: the law ``(1 + c) G - c``."""
    num, den = chance
    if not 0 <= num <= den:
        raise ValueError("a chance is between 0 and 1")
    p, q, r, s = law
    return _chain((den + num) * p - num * r, (den + num) * q + num * s, den * r, den * s)


def compound(count: Chain, item: Chain) -> Chain:
    """Each unit of one ``count`` law rolls an ``item`` law; the sum: ``G_count(G_item(z))``."""
    pa, qa, ra, sa = count
    pw, qw, rw, sw = item
    return _chain(pa * rw + qa * pw, qa * qw - pa * sw, ra * rw - sa * pw, ra * sw + sa * qw)


def power(law: Chain, n: int) -> Stream:
    """The stream of the sum of ``n`` independent dice of ``law`` (exact; see the module doc)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    if n == 0:
        yield 1, 1
        return
    p, q, r, s = law
    if p == 0:  # every die scores: G = z * q / (r - s z), so the sum starts at n
        for _ in range(n):
            yield 0, 1
        p, q = q, 0
    a, b, c = n * (q * r + s * p), q * r - p * s, q * s * r
    den = r**n
    prev, cur = 0, p**n
    yield cur, den
    k = 0
    while cur or prev:
        nxt, rem = divmod((a - b * k) * cur + c * (k - 1) * prev, p * (k + 1))
        if rem:
            raise ArithmeticError("inexact recurrence step (a bug)")
        den *= r
        prev, cur = cur, nxt
        k += 1
        yield cur, den


def halved(stream: Stream) -> Stream:
    """The stream of ``ceil(X / 2)`` (a total halved, rounded up)."""
    first = next(stream, None)
    if first is None:
        return
    yield first
    for odd_num, odd_den in stream:
        even = next(stream, None)
        if even is None:
            yield odd_num, odd_den
            return
        yield odd_num * (even[1] // odd_den) + even[0], even[1]


class Prefix(NamedTuple):
    """The values 0 .. len - 1 of a law, exactly, and what is left beyond them.

    ``nums[k] / dens[k] = P(X = k)``; ``pmf`` and ``at_least`` (``P(X >= k)``) are those
    ratios as correctly rounded floats; ``rest / dens[-1] = P(X >= len)`` (for a law
    given with a truncated part, this includes the mass it left out)."""

    pmf: list[float]
    at_least: list[float]
    nums: list[int]
    dens: list[int]
    rest: int


def take(stream: Stream, eps: Ratio) -> Prefix:
    """Values of ``stream`` up to the first ``k`` with ``P(X > k) < eps`` (exactly compared).

    With ``eps = 1e-12`` that is the cut of design.md's odds payloads: the values left out
    hold less than ``eps`` together, and the last one kept is not itself below it."""
    eps_num, eps_den = eps
    pmf: list[float] = []
    at_least: list[float] = []
    nums: list[int] = []
    dens: list[int] = []
    cum, den = 0, 1  # mass of the values so far, over den
    rest = 1
    for num, d in stream:
        scale = d // den
        at_least.append((den - cum) * scale / d)
        cum = cum * scale + num
        den = d
        pmf.append(num / d)
        nums.append(num)
        dens.append(d)
        rest = den - cum
        if rest * eps_den < eps_num * den:
            break
    return Prefix(pmf, at_least, nums, dens, rest)


def compound_prefix(count: Prefix, item: Chain) -> Stream:
    """Each unit of a law known by its prefix ``count`` rolls ``item``; the sum's stream.

    ``count`` must hold all but a negligible part of its mass (take it to ``eps`` far below
    the cut wanted here): the stream misses exactly ``count.rest / count.dens[-1]``."""
    if item.p == 0:
        raise ValueError("compound_prefix needs an item law that can score zero")
    r = item.r
    top = count.dens[-1]
    last = len(count.nums) - 1
    weights = [a * (top // d) * r ** (last - m) for m, (a, d) in enumerate(zip(count.nums, count.dens, strict=True))]
    streams = [power(item, m) for m in range(last + 1)]
    den = top * r**last
    while True:
        total = 0
        for weight, stream in zip(weights, streams, strict=True):
            step = next(stream, None)
            if step is not None and weight:
                total += weight * step[0]
        yield total, den
        den *= r


def expectation_of_power(count: Prefix, base: Ratio) -> Ratio:
    """``E[base**X]`` over the values of a prefix (short by at most its ``rest``)."""
    num, den = base
    top = count.dens[-1]
    last = len(count.nums) - 1
    total = sum(a * (top // d) * num**m * den ** (last - m) for m, (a, d) in enumerate(zip(count.nums, count.dens, strict=True)))
    return _reduce(total, top * den**last)


def add(x: Ratio, y: Ratio) -> Ratio:
    return _reduce(x[0] * y[1] + y[0] * x[1], x[1] * y[1])


def mul(x: Ratio, y: Ratio) -> Ratio:
    return _reduce(x[0] * y[0], x[1] * y[1])


def halved_mean(mean: Ratio, even_minus_odd: Ratio) -> Ratio:
    """``E[ceil(X / 2)] = (E[X] + P(X odd)) / 2`` with ``P(X odd) = (1 - E[(-1)**X]) / 2``."""
    odd = _reduce(even_minus_odd[1] - even_minus_odd[0], 2 * even_minus_odd[1])
    total = add(mean, odd)
    return _reduce(total[0], 2 * total[1])


def chain_power_at(law: Chain, n: int, z: Ratio) -> Ratio:
    """``E[z**X]`` for the sum of ``n`` dice of ``law``."""
    num, den = law.at(z)
    return _reduce(num**n, den**n)


def poly_power(weights: list[int], n: int) -> list[int]:
    """The coefficients of ``(sum weights[i] z**i)**n``: the whole-number weights of the sum
    of ``n`` dice of a finite law, by Kronecker substitution (the polynomial packed into one
    integer, raised to the power by Python's big-integer arithmetic, unpacked)."""
    if n < 0 or not weights or min(weights) < 0:
        raise ValueError("needs n >= 0 and non-negative weights")
    if n == 0:
        return [1]
    width = ((sum(weights) ** n).bit_length() + 8) // 8  # bytes per coefficient: none overflows
    packed = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in weights), "little")
    data = (packed**n).to_bytes(width * ((len(weights) - 1) * n + 1), "little")
    out = [int.from_bytes(data[i : i + width], "little") for i in range(0, len(data), width)]
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


def weights_stream(weights: list[int]) -> Stream:
    """The stream of a finite law given by whole-number weights (their sum the denominator)."""
    total = sum(weights)
    return ((w, total) for w in weights)
