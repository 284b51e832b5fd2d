"""Discrete probability distributions over the non-negative integers.

Game-agnostic building blocks for dice maths: a small immutable
:class:`Distribution` (a numpy ``float64`` probability mass function indexed by
value), sums of independent copies, random sums (:func:`compound`) and the
successes of an attempt that is re-rolled "as long as it keeps rolling"
(:func:`chained_successes`).  Game systems build their own rules on top (contest
tables, d20 checks, 2d6 opposed rolls...).

Accuracy model
--------------
Small operations are exact up to floating-point rounding.  Large convolutions and
random sums are computed with real FFTs; there every probability has an absolute
error of about 1e-14 or less, and values below that noise floor are set to zero
(so an FFT result never carries a meaningless tail; the mass so dropped is of the
order of 1e-13 for one operation).  A distribution may be
*defective*: its total mass may fall short of 1 by the tiny tail mass that a
truncation dropped (always documented at the place of truncation); ``total()``
reports it and ``sample`` renormalises.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = ["Distribution", "compound", "chained_successes", "CHAIN_TAIL"]

#: Tail mass left out when an unbounded re-roll chain is tabulated.
CHAIN_TAIL = 1e-15

_EPS = float(np.finfo(np.float64).eps)
# Below this many multiply-adds, numpy's direct convolution beats an FFT round trip.
_DIRECT_LIMIT = 1 << 15
# Mass allowed to wrap around the end of an FFT buffer (see _safe_fft_length).
_ALIAS_LOG_BOUND = -40.0  # e**-40 ~ 4e-18


def _next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _trim(arr: np.ndarray) -> np.ndarray:
    """Drop trailing exact zeros, keeping at least one cell."""
    if arr[-1] != 0.0:
        return arr
    nz = np.flatnonzero(arr)
    return arr[: (int(nz[-1]) + 1 if nz.size else 1)]


def _denoise(values: np.ndarray, steps: float, length: int) -> np.ndarray:
    """Zero the entries of an FFT result that are below its rounding noise.

    The inputs are probability vectors (every spectrum coefficient has modulus
    <= 1), so an inverse FFT result has an absolute error well below
    ``eps * (steps + log2(length))`` where *steps* is the number of spectral
    multiplications (measured: about 1e-17 for 20-fold sums); that bound is the floor.
    """
    floor = _EPS * (steps + math.log2(max(length, 2)))
    values[values < floor] = 0.0
    return values


def _log_pgf(pmf: np.ndarray, log_t: np.ndarray) -> np.ndarray:
    """log G(t) = log sum_k pmf[k] t**k for each entry of *log_t* (log domain, no overflow)."""
    nz = np.flatnonzero(pmf > 0)
    terms = np.log(pmf[nz])[None, :] + np.outer(log_t, nz.astype(np.float64))
    top = terms.max(axis=1)
    result: np.ndarray = top + np.log(np.exp(terms - top[:, None]).sum(axis=1))
    return result


# Candidate tilts t > 1 for the Chernoff bound, as log(t).
_LOG_TILTS = np.log1p(np.array([2.0**-k for k in range(0, 14)]))


def _safe_fft_length(log_pgf_of_result: Callable[[np.ndarray], np.ndarray], full: int) -> int:
    """Smallest FFT length whose wrap-around (aliased) mass is below e**-40.

    A cyclic convolution of length L folds the mass of values >= L back onto the
    low values.  For a non-negative random variable S and any t > 1, Chernoff's
    bound gives P(S >= L) <= G_S(t) / t**L, so L >= (log G_S(t) + 40) / log t makes
    the folded mass < 4e-18.  Several tilts t are tried and the best is kept; the
    length never exceeds *full*, the exact support size (no aliasing at all).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        log_g = log_pgf_of_result(_LOG_TILTS)
        needed = (log_g - _ALIAS_LOG_BOUND) / _LOG_TILTS
    needed = needed[np.isfinite(needed)]
    bound = int(math.ceil(needed.min())) + 1 if needed.size else full
    return _next_pow2(min(full, max(bound, 2)))


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = len(a) + len(b) - 1
    if len(a) * len(b) <= _DIRECT_LIMIT:
        return np.convolve(a, b)
    size = _safe_fft_length(lambda lt: _log_pgf(a, lt) + _log_pgf(b, lt), n)
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[: min(size, n)]
    return _trim(_denoise(out, 1.0, size))


class Distribution:
    """An immutable probability mass function over 0, 1, 2, ...

    ``pmf[k]`` is the probability of the value ``k``.  Trailing zeros are dropped,
    the array is read-only, and every operation returns a new object.
    """

    __slots__ = ("_pmf", "_tails", "_cdf")
    _pmf: np.ndarray
    _tails: np.ndarray | None  # P(X >= k), computed on first use
    _cdf: np.ndarray | None  # P(X <= k), computed on first use

    def __init__(self, pmf: Any) -> None:
        arr = np.array(pmf, dtype=np.float64, copy=True)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError("a distribution needs a non-empty 1-D array of probabilities")
        if not np.all(np.isfinite(arr)):
            raise ValueError("probabilities must be finite")
        if arr.min() < -1e-12:
            raise ValueError("probabilities must not be negative")
        np.clip(arr, 0.0, None, out=arr)
        total = float(arr.sum())
        if not 0.0 < total <= 1.0 + 1e-9:
            raise ValueError(f"total probability must be in (0, 1], got {total!r}")
        arr = _trim(arr)
        arr.flags.writeable = False
        object.__setattr__(self, "_pmf", arr)
        object.__setattr__(self, "_tails", None)
        object.__setattr__(self, "_cdf", None)

    @classmethod
    def _trusted(cls, arr: np.ndarray) -> Distribution:
        """Internal fast path: *arr* is a fresh, valid float64 pmf that nobody else holds."""
        np.maximum(arr, 0.0, out=arr)  # rounding can leave -1e-17 after an FFT
        arr = _trim(arr)
        arr.flags.writeable = False
        self = object.__new__(cls)
        object.__setattr__(self, "_pmf", arr)
        object.__setattr__(self, "_tails", None)
        object.__setattr__(self, "_cdf", None)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Distribution is immutable")

    # -- constructors -------------------------------------------------------
    @classmethod
    def point(cls, value: int = 0) -> Distribution:
        """Certainty of *value*."""
        if value < 0:
            raise ValueError("values must be non-negative")
        pmf = np.zeros(value + 1)
        pmf[value] = 1.0
        return cls(pmf)

    @classmethod
    def uniform(cls, low: int, high: int) -> Distribution:
        """Each of low..high (inclusive) equally likely: a fair die is ``uniform(1, 6)``."""
        if not 0 <= low <= high:
            raise ValueError("need 0 <= low <= high")
        pmf = np.zeros(high + 1)
        pmf[low:] = 1.0 / (high - low + 1)
        return cls(pmf)

    @classmethod
    def from_mapping(cls, probabilities: Mapping[int, float]) -> Distribution:
        """Build from ``{value: probability}``."""
        if not probabilities:
            raise ValueError("empty mapping")
        if min(probabilities) < 0:
            raise ValueError("values must be non-negative")
        pmf = np.zeros(max(probabilities) + 1)
        for value, p in probabilities.items():
            pmf[value] += p
        return cls(pmf)

    # -- inspection ---------------------------------------------------------
    @property
    def pmf(self) -> np.ndarray:
        """Read-only array of probabilities, index = value."""
        return self._pmf

    def __len__(self) -> int:
        return len(self._pmf)

    @property
    def max_value(self) -> int:
        """Largest value with a non-zero probability (0 for a point at 0)."""
        return len(self._pmf) - 1

    def __repr__(self) -> str:
        return f"Distribution(mean={self.mean():.6g}, max_value={self.max_value}, total={self.total():.15g})"

    def total(self) -> float:
        """Total mass (1 up to rounding, or slightly less after a truncation)."""
        return float(self._pmf.sum())

    def mean(self) -> float:
        return float(np.dot(np.arange(len(self._pmf)), self._pmf) / self.total())

    def variance(self) -> float:
        k = np.arange(len(self._pmf), dtype=np.float64)
        m = self.mean()
        return float(np.dot((k - m) ** 2, self._pmf) / self.total())

    def at_least_table(self) -> np.ndarray:
        """Read-only array ``t`` with ``t[k] = P(X >= k)`` for k = 0..max_value."""
        tails = self._tails
        if tails is None:
            tails = np.cumsum(self._pmf[::-1])[::-1].copy()
            tails.flags.writeable = False
            object.__setattr__(self, "_tails", tails)
        return tails

    def at_least(self, k: int) -> float:
        """P(X >= k)."""
        if k <= 0:
            return self.total()
        if k >= len(self._pmf):
            return 0.0
        return float(self.at_least_table()[k])

    def at_most(self, k: int) -> float:
        """P(X <= k)."""
        return self.total() - self.at_least(k + 1)

    def isclose(self, other: Distribution, atol: float = 1e-12) -> bool:
        """Same probabilities within *atol* at every value."""
        n = max(len(self), len(other))
        a = np.zeros(n)
        b = np.zeros(n)
        a[: len(self)] = self._pmf
        b[: len(other)] = other._pmf
        return bool(np.all(np.abs(a - b) <= atol))

    # -- operations ---------------------------------------------------------
    def convolve(self, other: Distribution) -> Distribution:
        """Distribution of X + Y for independent X (self) and Y (other)."""
        return Distribution._trusted(_convolve(self._pmf, other._pmf))

    def shift(self, offset: int) -> Distribution:
        """Distribution of X + offset (the result must stay non-negative)."""
        if offset >= 0:
            return Distribution(np.concatenate([np.zeros(offset), self._pmf]))
        if np.any(self._pmf[:-offset] > 0):
            raise ValueError("shift would create negative values")
        return Distribution(self._pmf[-offset:])

    def power(self, n: int) -> Distribution:
        """Distribution of the sum of *n* independent copies (n = 0 gives a point at 0).

        Small cases use repeated squaring with direct convolutions.  Large ones do
        the same repeated squaring on the Fourier spectrum, in a buffer whose length
        is chosen by a Chernoff bound so that the mass folded back by the cyclic
        convolution is below 4e-18 (see :func:`_safe_fft_length`).
        """
        if n < 0:
            raise ValueError("n must be non-negative")
        if n == 0:
            return Distribution.point(0)
        if n == 1 or len(self._pmf) == 1:
            if len(self._pmf) == 1:
                return (
                    Distribution.point(0)
                    if self.total() == 1.0
                    else Distribution([self.total() ** n])
                )
            return self
        x = self._pmf
        full = (len(x) - 1) * n + 1
        if full * len(x) <= _DIRECT_LIMIT:
            result: np.ndarray | None = None
            base = x
            m = n
            while m:
                if m & 1:
                    result = base if result is None else np.convolve(result, base)
                m >>= 1
                if m:
                    base = np.convolve(base, base)
            assert result is not None
            return Distribution._trusted(result if result is not x else x.copy())
        size = _safe_fft_length(lambda lt: n * _log_pgf(x, lt), full)
        spectrum = np.fft.rfft(x, size)
        acc: np.ndarray | None = None
        m = n
        steps = 0
        while m:
            if m & 1:
                acc = spectrum if acc is None else acc * spectrum
                steps += 1
            m >>= 1
            if m:
                spectrum = spectrum * spectrum
                steps += 1
        assert acc is not None
        out = np.fft.irfft(acc, size)[: min(size, full)]
        return Distribution._trusted(_denoise(out, steps, size))

    def map(self, f: Callable[[Any], Any], *, vectorized: bool = False) -> Distribution:
        """Distribution of f(X) for a function from values to non-negative integers.

        With ``vectorized=True`` *f* is called once with the array of all values
        (e.g. ``lambda k: (k + 1) // 2`` halves rounding up); otherwise per value.
        """
        values = np.arange(len(self._pmf))
        if vectorized:
            targets = np.asarray(f(values))
        else:
            targets = np.array([f(int(k)) for k in values])
        if targets.shape != values.shape:
            raise ValueError("f must give one value per input value")
        if not np.issubdtype(targets.dtype, np.integer):
            if not np.all(np.equal(np.mod(targets, 1), 0)):
                raise ValueError("f must return integers")
            targets = targets.astype(np.int64)
        if targets.size and targets.min() < 0:
            raise ValueError("f must return non-negative integers")
        return Distribution._trusted(np.bincount(targets, weights=self._pmf))

    def maximum(self, other: Distribution) -> Distribution:
        """Distribution of max(X, Y) for independent X (self) and Y (other): "keep the best"."""
        n = max(len(self), len(other))
        ca = np.cumsum(np.pad(self._pmf, (0, n - len(self))))
        cb = np.cumsum(np.pad(other._pmf, (0, n - len(other))))
        cdf = ca * cb
        return Distribution._trusted(np.diff(cdf, prepend=0.0))

    def truncate(self, eps: float = 1e-12) -> Distribution:
        """Drop the upper tail, but only as far as the dropped mass stays below *eps*.

        Keeps values 0..n for the smallest n with P(X > n) < eps; the result is
        defective by that dropped mass (no renormalisation).
        """
        tails = self.at_least_table()
        keep = np.flatnonzero(tails >= eps)
        n = int(keep[-1]) + 1 if keep.size else 1
        if n >= len(self._pmf):
            return self
        return Distribution._trusted(self._pmf[:n].copy())

    def normalized(self) -> Distribution:
        """Same shape, total mass exactly 1 (up to rounding)."""
        return Distribution(self._pmf / self.total())

    def sample(self, rng: np.random.Generator, size: int | tuple[int, ...] | None = None) -> Any:
        """Draw values (an ``int`` when *size* is None, else an int64 array).

        Inverse-CDF sampling on the cached cumulative sums; a defective
        distribution is renormalised.
        """
        cdf = self._cdf
        if cdf is None:
            cdf = np.cumsum(self._pmf)
            cdf /= cdf[-1]
            cdf.flags.writeable = False
            object.__setattr__(self, "_cdf", cdf)
        if size is None:
            return min(int(np.searchsorted(cdf, rng.random(), side="right")), len(cdf) - 1)
        idx = np.searchsorted(cdf, rng.random(size), side="right")
        return np.minimum(idx, len(cdf) - 1).astype(np.int64)


def compound(count_dist: Distribution, per_item_dist: Distribution) -> Distribution:
    """Distribution of Y_1 + ... + Y_N: a random number N (*count_dist*) of
    independent copies Y_i of *per_item_dist* (e.g. successful attacks -> wounds).

    P(S = s) = sum_n P(N = n) P(Y^{*n} = s); its generating function is
    G_N(G_Y(z)), evaluated by Horner's scheme: directly on the pmfs for small
    cases, else on the Fourier spectrum of Y in a buffer sized by a Chernoff bound
    (wrap-around mass < 4e-18).
    """
    p = count_dist.pmf
    y = per_item_dist.pmf
    if len(p) == 1:
        return Distribution([p[0]]) if p[0] != 1.0 else Distribution.point(0)
    full = (len(p) - 1) * (len(y) - 1) + 1
    if len(y) == 1:
        # Every item is 0: S = 0 whenever the item mass exists.
        weights = p * (y[0] ** np.arange(len(p)))
        return Distribution([weights.sum()])
    if len(p) <= 6 and len(p) * full * len(y) <= 8 * _DIRECT_LIMIT:
        # Few terms: Horner with direct (exact) convolutions.
        acc = np.array([p[-1]])
        for coeff in p[-2::-1]:
            acc = np.convolve(acc, y)
            acc[0] += coeff
        return Distribution._trusted(acc)
    # Evaluate G_N on the spectrum of Y.
    size = _safe_fft_length(lambda lt: _log_pgf(p, _log_pgf(y, lt)), full)
    spectrum = np.fft.rfft(y, size)
    if len(p) * len(spectrum) <= 1 << 20:
        # All powers at once (cumulative products), then one weighted sum.
        powers = np.cumprod(np.broadcast_to(spectrum, (len(p) - 1, len(spectrum))), axis=0)
        acc_f = p[0] + p[1:] @ powers
    else:
        # Horner: two in-place vector operations per term, bounded memory.
        acc_f = np.full(spectrum.shape, p[-1], dtype=np.complex128)
        for coeff in p[-2::-1]:
            acc_f *= spectrum
            acc_f += coeff
    out = np.fft.irfft(acc_f, size)[: min(size, full)]
    return Distribution._trusted(_denoise(out, float(len(p)), size))


def chained_successes(
    success_reroll: float,
    fail_reroll: float,
    success_stop: float,
    fail_stop: float,
    tail: float = CHAIN_TAIL,
) -> Distribution:
    """Successes of one die that is rolled again for free as long as it keeps
    showing a re-roll result.

    Each roll of the chain has four outcomes (their probabilities sum to 1): a
    success that is re-rolled, a failure that is re-rolled, a success that ends the
    chain and a failure that ends it.  Every roll is independent; successes of
    earlier rolls are kept whatever later rolls show.

    Closed form: ignoring the failed re-rolls (they only repeat the situation),
    the number M of successful re-rolls before the chain stops is geometric,
    P(M = m) = (1 - r) r**m with r = success_reroll / (1 - fail_reroll), and the
    final roll adds one success with probability b = success_stop /
    (success_stop + fail_stop).  So K = M + Bernoulli(b).

    Bound: the chain is unbounded, but P(K > n) = r**(n+1) + (1-r) r**n b <= r**n.
    The table stops at the smallest n with r**n < *tail* (1e-15 by default): the
    returned distribution is exact for every value it lists and misses less than
    *tail* of mass beyond its last value.
    """
    probs = (success_reroll, fail_reroll, success_stop, fail_stop)
    if min(probs) < 0 or not math.isclose(sum(probs), 1.0, abs_tol=1e-12):
        raise ValueError("the four outcome probabilities must be >= 0 and sum to 1")
    stop = success_stop + fail_stop
    if stop <= 0:
        raise ValueError("the chain never stops")
    ratio = success_reroll / (success_reroll + stop)
    b = success_stop / stop
    if ratio == 0.0:
        return Distribution([1.0 - b, b])
    n = max(1, math.ceil(math.log(tail) / math.log(ratio)))
    k = np.arange(n + 1, dtype=np.float64)
    geometric = (1.0 - ratio) * ratio**k  # P(M = k)
    pmf = geometric * (1.0 - b)
    pmf[1:] += geometric[:-1] * b
    return Distribution(pmf)
