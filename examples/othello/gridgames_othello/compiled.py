"""Othello's rules compiled (`gridgames.compiled_rules`) for boards up to 8 x 8: one 64-bit bitboard per colour.

The state array: Black's discs, White's discs (bit ``row * size + column``, as signed 64-bit words), the player to
move, the result (-1 while the game goes on, -2 a draw, else the winner). The params: the size, then the masks of
the board, of the board without its first column and without its last one, and of the corners. Boards of 10 x 10
and more keep their Python rules only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.compiled_rules import DRAW, ONGOING, CompiledRules

__all__ = ["MAX_COMPILED_SIZE", "compiled_rules"]

MAX_COMPILED_SIZE = 8
_U1 = np.uint64(1)


@njit(cache=True)
def _shift(b, d, n, full, not_first, not_last):
    """A bitboard moved one step in direction ``d`` (0-7: E, W, S, N, SE, SW, NE, NW), what leaves the board
    dropped."""
    if d == 0:
        return (b << np.uint64(1)) & not_first
    if d == 1:
        return (b >> np.uint64(1)) & not_last
    if d == 2:
        return (b << n) & full
    if d == 3:
        return b >> n
    if d == 4:
        return (b << (n + np.uint64(1))) & not_first & full
    if d == 5:
        return (b << (n - np.uint64(1))) & not_last & full
    if d == 6:
        return (b >> (n - np.uint64(1))) & not_first
    return (b >> (n + np.uint64(1))) & not_last


@njit(cache=True)
def _moves_of(mine, theirs, p):
    """The cells where the owner of ``mine`` may put a disc."""
    n, full, not_first, not_last = np.uint64(p[0]), np.uint64(p[1]), np.uint64(p[2]), np.uint64(p[3])
    empty = ~(mine | theirs) & full
    found = np.uint64(0)
    for d in range(8):
        line = _shift(mine, d, n, full, not_first, not_last) & theirs
        for _ in range(p[0] - 3):
            line |= _shift(line, d, n, full, not_first, not_last) & theirs
        found |= _shift(line, d, n, full, not_first, not_last) & empty
    return found


@njit(cache=True)
def _count(b):
    """The number of set bits."""
    b = b - ((b >> np.uint64(1)) & np.uint64(0x5555555555555555))
    b = (b & np.uint64(0x3333333333333333)) + ((b >> np.uint64(2)) & np.uint64(0x3333333333333333))
    b = (b + (b >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((b * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def legal(s, p, mask):
    """The outflanking cells, or only the pass (the last action) when there is none; none once over."""
    cells = p[0] * p[0]
    mask[:] = 0
    if s[3] != ONGOING:
        return 0
    me = s[2]
    moves = _moves_of(np.uint64(s[me]), np.uint64(s[1 - me]), p)
    if moves == 0:
        mask[cells] = 1
        return 1
    count = 0
    for m in range(cells):
        if (moves >> np.uint64(m)) & _U1:
            mask[m] = 1
            count += 1
    return count


@njit(cache=True)
def play(s, p, move):
    """Put a disc and turn the outflanked ones (or pass); the game ends when neither side can move."""
    n = np.uint64(p[0])
    full, not_first, not_last = np.uint64(p[1]), np.uint64(p[2]), np.uint64(p[3])
    me = s[2]
    mine, theirs = np.uint64(s[me]), np.uint64(s[1 - me])
    if move != p[0] * p[0]:
        turned = np.uint64(0)
        start = _U1 << np.uint64(move)
        for d in range(8):
            line = np.uint64(0)
            step = _shift(start, d, n, full, not_first, not_last)
            while step & theirs:
                line |= step
                step = _shift(step, d, n, full, not_first, not_last)
            if step & mine:
                turned |= line
        mine |= turned | start
        theirs &= ~turned
        s[me], s[1 - me] = np.int64(mine), np.int64(theirs)
    s[2] = 1 - me
    if _moves_of(theirs, mine, p) == 0 and _moves_of(mine, theirs, p) == 0:
        black, white = _count(np.uint64(s[0])), _count(np.uint64(s[1]))
        s[3] = DRAW if black == white else (0 if black > white else 1)


@njit(cache=True)
def result(s, p):
    """The result word."""
    return s[3]


@njit(cache=True)
def to_move(s, p):
    """Black (0) or White (1)."""
    return s[2]


@njit(cache=True)
def score(s, p, player):
    """A player's discs."""
    return np.float64(_count(np.uint64(s[player])))


@njit(cache=True)
def evaluate(s, p):
    """As `OthelloState.evaluate`: mobility (0.5), corners (0.3) and disc difference (0.2), for the player to move."""
    me = s[2]
    mine, theirs = np.uint64(s[me]), np.uint64(s[1 - me])
    corners = np.uint64(p[4])
    my_moves, their_moves = _count(_moves_of(mine, theirs, p)), _count(_moves_of(theirs, mine, p))
    my_discs, their_discs = _count(mine), _count(theirs)
    mobility = (my_moves - their_moves) / (my_moves + their_moves + 1)
    corner = (_count(mine & corners) - _count(theirs & corners)) / 4
    disc = (my_discs - their_discs) / (my_discs + their_discs)
    return 0.5 * mobility + 0.3 * corner + 0.2 * disc


@njit(cache=True)
def board(s, p, out):
    """The board row by row: 1 Black, 2 White, 0 empty."""
    black, white = np.uint64(s[0]), np.uint64(s[1])
    for m in range(p[0] * p[0]):
        bit = _U1 << np.uint64(m)
        out[m] = 1 if black & bit else (2 if white & bit else 0)


def _word(bits: int) -> int:
    """A 64-bit pattern as a signed int64."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def encode(state) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The state array of an `OthelloState`."""
    outcome = state.outcome
    code = ONGOING if outcome is None else (DRAW if outcome.winner is None else outcome.winner)
    black, white = state._discs
    return np.array([_word(black), _word(white), state.current_player, code], np.int64)


def compiled_rules(game) -> CompiledRules | None:  # type: ignore[no-untyped-def]
    """The compiled rules of an `OthelloGame` of up to 8 x 8 (None for bigger boards)."""
    n = game.size
    if n > MAX_COMPILED_SIZE:
        return None
    full = (1 << n * n) - 1
    column = sum(1 << (r * n) for r in range(n))
    not_first, not_last = full & ~column, full & ~(column << (n - 1))
    params = np.array([n, _word(full), _word(not_first), _word(not_last), _word(game._corners)], np.int64)
    return CompiledRules(
        name="othello",
        num_players=2,
        num_actions=n * n + 1,
        state_size=4,
        max_game_length=2 * n * n,
        params=params,
        encode=encode,
        legal=legal,
        play=play,
        result=result,
        to_move=to_move,
        score=score,
        evaluate=evaluate,
        board=board,
        order=np.array([*game._order, n * n], np.int64),
    )
