"""The m,n,k-game's rules compiled (`gridgames.compiled_rules`): the framework's compiled engines play it.

The state array: the cells (``row * width + column``: 0 empty, 1 X, 2 O), then the number of moves played, then
the result (-1 while the game goes on, -2 a draw, else the winner). The params: width, height, k.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gridgames.compiled_rules import DRAW, ONGOING, CompiledRules

__all__ = ["compiled_rules"]


@njit(cache=True)
def legal(s, p, mask):
    """The empty cells while the game goes on."""
    cells = p[0] * p[1]
    count = 0
    ongoing = s[cells + 1] == ONGOING
    for m in range(cells):
        ok = ongoing and s[m] == 0
        mask[m] = ok
        count += ok
    return count


@njit(cache=True)
def _run(s, width, height, r, c, dr, dc, value):
    """Stones of ``value`` in a row from (r, c) (excluded) in direction (dr, dc)."""
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < height and 0 <= c < width and s[r * width + c] == value:
        n += 1
        r, c = r + dr, c + dc
    return n


@njit(cache=True)
def play(s, p, move):
    """Put the mover's stone; k in a row wins, a full board draws."""
    width, height, k = p[0], p[1], p[2]
    cells = width * height
    value = s[cells] % 2 + 1
    s[move] = value
    s[cells] += 1
    r, c = move // width, move % width
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        if 1 + _run(s, width, height, r, c, dr, dc, value) + _run(s, width, height, r, c, -dr, -dc, value) >= k:
            s[cells + 1] = value - 1
            return
    if s[cells] == cells:
        s[cells + 1] = DRAW


@njit(cache=True)
def result(s, p):
    """The result word."""
    return s[p[0] * p[1] + 1]


@njit(cache=True)
def to_move(s, p):
    """X (0) after an even number of moves, else O."""
    return s[p[0] * p[1]] % 2


@njit(cache=True)
def evaluate(s, p):
    """As `MNKState.evaluate`: open lines of k cells weighted 4 ** stones, the mover's minus the opponent's."""
    width, height, k = p[0], p[1], p[2]
    me = s[width * height] % 2 + 1
    total = 0.0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(height):
            for c in range(width):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if not (0 <= end_r < height and 0 <= end_c < width):
                    continue
                mine = theirs = 0
                for i in range(k):
                    v = s[(r + i * dr) * width + c + i * dc]
                    if v == me:
                        mine += 1
                    elif v != 0:
                        theirs += 1
                if theirs == 0:
                    total += 4.0**mine
                if mine == 0:
                    total -= 4.0**theirs
    return math.tanh(total / 4.0 ** (k - 1))


@njit(cache=True)
def board(s, p, out):
    """The board row by row: 1 X, 2 O, 0 empty."""
    for m in range(p[0] * p[1]):
        out[m] = s[m]


def encode(state) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The state array of an `MNKState`."""
    outcome = state.outcome
    code = ONGOING if outcome is None else (DRAW if outcome.winner is None else outcome.winner)
    return np.concatenate([state.grid.cells.ravel(), [len(state.history), code]]).astype(np.int64)


def compiled_rules(game) -> CompiledRules:  # type: ignore[no-untyped-def]
    """The compiled rules of an `MNKGame`."""
    cells = game.width * game.height
    return CompiledRules(
        name="mnk",
        num_players=2,
        num_actions=cells,
        state_size=cells + 2,
        max_game_length=cells,
        params=np.array([game.width, game.height, game.k], np.int64),
        encode=encode,
        legal=legal,
        play=play,
        result=result,
        to_move=to_move,
        evaluate=evaluate,
        board=board,
        order=np.array(game._order, np.int64),
    )
