"""Hex's rules compiled (`gridgames.compiled_rules`): the framework's compiled engines play it.

The state array: the cells (``row * size + column``: 0 empty, 1 Red, 2 Blue), the number of moves played, the
first move (-1 before it: the swap mirrors it), the result (-1 while the game goes on, else the winner; Hex has no
draws). The params: the size, then six neighbours per cell (-1 where there is none).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gridgames.compiled_rules import ONGOING, CompiledRules

__all__ = ["compiled_rules"]

_FAR = 10**6


@njit(cache=True)
def legal(s, p, mask):
    """The empty cells, and the swap on Blue's first move; none once over."""
    n = p[0]
    cells = n * n
    mask[:] = 0
    if s[cells + 2] != ONGOING:
        return 0
    count = 0
    for m in range(cells):
        if s[m] == 0:
            mask[m] = 1
            count += 1
    if s[cells] == 1:
        mask[cells] = 1
        count += 1
    return count


@njit(cache=True)
def _joins(s, p, start, value):
    """True when the group of ``start`` (of stones ``value``) touches both of its owner's edges."""
    n = p[0]
    cells = n * n
    work = np.empty(2 * cells, np.int64)  # one allocation: the marks, then the queue
    seen = work[:cells]
    seen[:] = 0
    todo = work[cells:]
    todo[0] = start
    seen[start] = 1
    size, low, high = 1, False, False
    i = 0
    while i < size:
        m = todo[i]
        i += 1
        line = m // n if value == 1 else m % n
        low |= line == 0
        high |= line == n - 1
        for k in range(6):
            other = p[1 + 6 * m + k]
            if other >= 0 and seen[other] == 0 and s[other] == value:
                seen[other] = 1
                todo[size] = other
                size += 1
    return low and high


@njit(cache=True)
def play(s, p, move):
    """Put the mover's stone (or swap); joining one's two edges wins."""
    n = p[0]
    cells = n * n
    # the swap: Red's first stone becomes Blue's, mirrored across the long diagonal
    if move == cells:
        first = s[cells + 1]
        s[first] = 0
        s[(first % n) * n + first // n] = 2
        s[cells] += 1
        return
    player = s[cells] % 2
    s[move] = player + 1
    if s[cells] == 0:
        s[cells + 1] = move
    s[cells] += 1
    if s[cells] >= 2 * n - 1 and _joins(s, p, move, player + 1):
        s[cells + 2] = player


@njit(cache=True)
def result(s, p):
    """The result word."""
    return s[p[0] * p[0] + 2]


@njit(cache=True)
def to_move(s, p):
    """Red (0) after an even number of moves, else Blue."""
    return s[p[0] * p[0]] % 2


@njit(cache=True)
def _distance(s, p, player, work):
    """How many empty cells ``player`` still needs to join their edges (0-1 breadth-first search), as
    `HexState.distance`; ``work`` holds the costs and the queue."""
    n = p[0]
    cells = n * n
    value = player + 1
    cost = work[:cells]
    cost[:] = _FAR
    queue = work[cells:]
    head = tail = 8 * cells + 2 * n  # appendleft below head, append at tail
    for i in range(n):
        m = i if player == 0 else i * n
        if s[m] == value or s[m] == 0:
            cost[m] = 0 if s[m] == value else 1
            if cost[m] == 0:
                head -= 1
                queue[head] = m
            else:
                queue[tail] = m
                tail += 1
    while head < tail:
        m = queue[head]
        head += 1
        for k in range(6):
            other = p[1 + 6 * m + k]
            if other < 0:
                continue
            v = s[other]
            if v != value and v != 0:
                continue
            step = cost[m] + (0 if v == value else 1)
            if step < cost[other]:
                cost[other] = step
                if v == value:
                    head -= 1
                    queue[head] = other
                else:
                    queue[tail] = other
                    tail += 1
    best = _FAR
    for i in range(n):
        m = (n - 1) * n + i if player == 0 else i * n + n - 1
        best = min(best, cost[m])
    return best


@njit(cache=True)
def evaluate(s, p):
    """As `HexState.evaluate`: the opponent's shortest connection minus the mover's, squashed into (-1, 1)."""
    n = p[0]
    me = s[n * n] % 2
    work = np.empty(17 * n * n + 4 * n, np.int64)
    mine = min(_distance(s, p, me, work), 4 * n)
    theirs = min(_distance(s, p, 1 - me, work), 4 * n)
    return math.tanh((theirs - mine) / 3.0)


@njit(cache=True)
def board(s, p, out):
    """The board row by row: 1 Red, 2 Blue, 0 empty."""
    for m in range(p[0] * p[0]):
        out[m] = s[m]


def encode(state) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The state array of a `HexState`."""
    outcome = state.outcome
    history = state.history
    code = ONGOING if outcome is None else outcome.winner
    first = history[0] if history else -1
    return np.concatenate([state.grid.cells.ravel(), [len(history), first, code]]).astype(np.int64)


def compiled_rules(game) -> CompiledRules:  # type: ignore[no-untyped-def]
    """The compiled rules of a `HexGame`."""
    n = game.size
    cells = n * n
    table = np.full((cells, 6), -1, np.int64)
    for m, others in enumerate(game._neighbours):
        table[m, : len(others)] = others
    return CompiledRules(
        name="hex",
        num_players=2,
        num_actions=cells + 1,
        state_size=cells + 3,
        max_game_length=cells + 1,
        params=np.concatenate([[n], table.ravel()]).astype(np.int64),
        encode=encode,
        legal=legal,
        play=play,
        result=result,
        to_move=to_move,
        evaluate=evaluate,
        board=board,
        order=np.array([*game._order, cells], np.int64),
    )
