"""A small seeded random generator for compiled code (xorshift64* on a one-word uint64 array), for the engines and for
a plugin's compiled rollout policy.

    >>> rng = seeded(7)
    >>> draws = [int(rand_below(rng, 6)) for _ in range(1000)]
    >>> sorted(set(draws)), draws == [int(rand_below(r, 6)) for r in [seeded(7)] for _ in range(1000)]
    ([0, 1, 2, 3, 4, 5], True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["rand_below", "rand_next", "rand_unit", "seeded"]


def seeded(seed: int) -> np.ndarray:
    """The generator's state for a seed (never zero: xorshift would stay at zero)."""
    value = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([value or 1], np.uint64)


@njit(cache=True)
def rand_next(rng):
    """The next 64 random bits (advances ``rng``)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True)
def rand_below(rng, n):
    """A random integer from 0 to ``n - 1`` (``n`` >= 1)."""
    return np.int64((rand_next(rng) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True)
def rand_unit(rng):
    """A random float in [0, 1)."""
    return np.float64(rand_next(rng) >> np.uint64(11)) / 9007199254740992.0
