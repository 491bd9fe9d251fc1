"""Stand-ins for a plugin's compiled rule functions: `kernels` imports these, and the copy of it made for a plugin's
rules (`gridgames.search.crules.build`) imports the plugin's own instead, and these for the optional ones it lacks."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def legal(s, p, mask):
    """No legal move."""
    mask[:] = 0
    return 0


@njit(cache=True)
def play(s, p, move):
    """Nothing."""
    s[0] += 0


@njit(cache=True)
def result(s, p):
    """A draw."""
    return -2


@njit(cache=True)
def to_move(s, p):
    """Player 0."""
    return 0


@njit(cache=True)
def score(s, p, player):
    """No score."""
    return 0.0


@njit(cache=True)
def evaluate(s, p):
    """No evaluation."""
    return 0.0


@njit(cache=True)
def rollout(s, p, mask, rng):
    """No rollout policy."""
    return -1


@njit(cache=True)
def state_hash(s, p):
    """A mix of every word of the state (splitmix64 of each, chained)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(s.size):
        x = np.uint64(s[i]) ^ (h + np.uint64(0x9E3779B97F4A7C15) + (h << np.uint64(6)) + (h >> np.uint64(2)))
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = x ^ (x >> np.uint64(31))
    return h


@njit(cache=True)
def board(s, p, out):
    """No board."""
    out[:] = 0
