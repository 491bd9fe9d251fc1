"""Golomb's game's rules compiled (`gridgames.compiled_rules`): the framework's compiled engines play it.

The state array: the filled cells (bitmask words, 64 cells a word, as signed 64-bit words), the unused pieces (one
word), the number of moves played, the result (-1 while the game goes on, else the winner: the player who made the
last move). The params: the number of actions, of words per mask, then each action's piece, then each action's
cell mask (words). Piece sets of more than 63 pieces keep their Python rules only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.compiled_rules import ONGOING, CompiledRules
from gridgames.search.crules.rand import rand_below

__all__ = ["compiled_rules"]

MAX_PIECES = 63
_U1 = np.uint64(1)


@njit(cache=True)
def _fits(s, p, a):
    """True when action ``a``'s piece is unused and its cells are free."""
    actions, words = p[0], p[1]
    if not (np.uint64(s[words]) >> np.uint64(p[2 + a])) & _U1:
        return False
    base = 2 + actions + a * words
    for k in range(words):
        if np.uint64(p[base + k]) & np.uint64(s[k]):
            return False
    return True


@njit(cache=True)
def legal(s, p, mask):
    """Every placement of an unused piece on free cells; none once over."""
    actions = p[0]
    mask[:] = 0
    if s[p[1] + 2] != ONGOING:
        return 0
    count = 0
    for a in range(actions):
        if _fits(s, p, a):
            mask[a] = 1
            count += 1
    return count


@njit(cache=True)
def play(s, p, move):
    """Place the move's piece; the next player loses when no unused piece then fits."""
    actions, words = p[0], p[1]
    base = 2 + actions + move * words
    for k in range(words):
        s[k] = np.int64(np.uint64(s[k]) | np.uint64(p[base + k]))
    s[words] = np.int64(np.uint64(s[words]) & ~(_U1 << np.uint64(p[2 + move])))
    s[words + 1] += 1
    for a in range(actions):
        if _fits(s, p, a):
            return
    s[words + 2] = (s[words + 1] - 1) % 2  # the player who just moved wins


@njit(cache=True)
def rollout(s, p, mask, rng):
    """A uniformly random legal move, cheaply: random actions until one fits (uniform over the legal ones), else
    the whole list."""
    actions = p[0]
    for _ in range(48):
        a = rand_below(rng, actions)
        if _fits(s, p, a):
            return a
    k = rand_below(rng, legal(s, p, mask))
    for a in range(actions):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def result(s, p):
    """The result word."""
    return s[p[1] + 2]


@njit(cache=True)
def to_move(s, p):
    """First (0) after an even number of moves, else Second."""
    return s[p[1] + 1] % 2


def _word(bits: int) -> int:
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def encode(state) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The state array of a `GolombState`."""
    words = state.game.piece_moves.words.shape[1]
    outcome = state.outcome
    code = ONGOING if outcome is None else outcome.winner
    occupied = [_word((state.occupied >> (64 * k)) & (2**64 - 1)) for k in range(words)]
    return np.array([*occupied, state.available, len(state.history), code], np.int64)


def compiled_rules(game) -> CompiledRules | None:  # type: ignore[no-untyped-def]
    """The compiled rules of a `GolombGame` (None for a set of more than 63 pieces)."""
    moves = game.piece_moves
    if len(moves.names) > MAX_PIECES:
        return None
    actions, words = len(moves), moves.words.shape[1]
    pieces = np.array([moves.piece_index(a) for a in range(actions)], np.int64)
    params = np.concatenate([[actions, words], pieces, moves.words.view(np.int64).ravel()]).astype(np.int64)
    return CompiledRules(
        name="golomb",
        num_players=2,
        num_actions=actions,
        state_size=words + 3,
        max_game_length=game.info.max_game_length,
        params=params,
        encode=encode,
        legal=legal,
        play=play,
        result=result,
        to_move=to_move,
        rollout=rollout,
    )
