"""The compiled kernels of the vector environment (`gridgames_connect4.learn.vector`): numba's JIT versions.

`gridgames_connect4.learn.vector_aot` compiles these same functions ahead of time (``numba.pycc``) into an extension
module that a fresh process loads without numba; importing this module imports numba. Arrays are C-contiguous of
the dtypes below (the module built ahead of time does not check them; `Connect4VectorBackend` makes sure).

Vocabulary: as in `gridgames_connect4.learn.vector` (env, agent, opponent, observation, mask, history).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from gridgames.native import jit_cache

jit_cache(__file__)  # numba caches these kernels in the user's cache folder, never beside them

__all__ = ["reply_kernel", "reset_kernel", "step_kernel"]

_DR = (0, 1, 1, 1)
_DC = (1, 0, 1, -1)
_ONGOING, _LINE, _FULL = 0, 1, 2


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def _drop(
    obs: Any,
    heights: Any,
    lengths: Any,
    moves: Any,
    i: int,
    column: int,
    plane: int,
    height: int,
    width: int,
    connect: int,
) -> int:
    """Drop a disc of ``plane`` (0 agent, 1 opponent) in ``column`` of env ``i``; _LINE, _FULL or _ONGOING."""
    row = height - 1 - heights[i, column]
    obs[i, row, column, plane] = 1
    heights[i, column] += 1
    moves[i, lengths[i]] = column
    lengths[i] += 1
    for d in range(4):
        dr, dc = _DR[d], _DC[d]
        count = 1
        r, c = row + dr, column + dc
        while 0 <= r < height and 0 <= c < width and obs[i, r, c, plane] == 1:
            count += 1
            r += dr
            c += dc
        r, c = row - dr, column - dc
        while 0 <= r < height and 0 <= c < width and obs[i, r, c, plane] == 1:
            count += 1
            r -= dr
            c -= dc
        if count >= connect:
            return _LINE
    if lengths[i] == height * width:
        return _FULL
    return _ONGOING


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def _random_column(heights: Any, rng: Any, i: int, height: int, width: int) -> int:
    """A uniformly random open column of env ``i`` (it has one), drawn from its xorshift64* stream."""
    x = rng[i]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[i] = x
    draw = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)
    open_count = 0
    for c in range(width):
        if heights[i, c] < height:
            open_count += 1
    k = int(draw % np.uint64(open_count))
    for c in range(width):
        if heights[i, c] < height:
            if k == 0:
                return c
            k -= 1
    return -1


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def _clear_mask(mask: Any, i: int, width: int) -> None:
    """No column open in env ``i`` (a loop: ``mask[i, :] = 0`` would take a view, which needs numba's runtime)."""
    for c in range(width):
        mask[i, c] = 0


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def _set_mask(mask: Any, heights: Any, i: int, height: int, width: int) -> None:
    for c in range(width):
        mask[i, c] = 1 if heights[i, c] < height else 0


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def _opponent_moved(
    outcome: int, mask: Any, heights: Any, reward: Any, terminated: Any, i: int, height: int, width: int
) -> None:
    """After the opponent's disc in env ``i``: its reward (-1 on a line), the end, or the agent's mask."""
    if outcome == _ONGOING:
        _set_mask(mask, heights, i, height, width)
        return
    if outcome == _LINE:
        reward[i] = -1.0
    terminated[i] = True
    _clear_mask(mask, i, width)


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def step_kernel(
    actions: Any,
    active: Any,
    random_opponent: bool,
    obs: Any,
    mask: Any,
    heights: Any,
    lengths: Any,
    moves: Any,
    rng: Any,
    reward: Any,
    terminated: Any,
    illegal: Any,
    reply: Any,
    height: int,
    width: int,
    connect: int,
) -> None:
    """One step of every active env: the agent's action, then (``random_opponent``) the opponent's random reply.

    actions: int64 (N,), the agent's column in each env (out of range or full: illegal).
    active: bool (N,), the envs to step (the others are left alone, their outputs zeroed).
    random_opponent: True to play the random reply here; False to flag the envs needing a reply in ``reply``.
    obs, mask, heights (int8 (N, width): discs per column), lengths (int64 (N,)), moves (int8 (N, cells)),
    rng (uint64 (N,)): the envs' state, updated in place.
    reward (float64 (N,)), terminated (bool (N,)), illegal (bool (N,)), reply (bool (N,)): outputs.
    height, width, connect: the board and the line length that wins.
    """
    for i in range(actions.shape[0]):
        reward[i] = 0.0
        terminated[i] = False
        illegal[i] = False
        reply[i] = False
        if not active[i]:
            continue
        a = actions[i]
        if a < 0 or a >= width or heights[i, a] >= height:
            reward[i] = -1.0
            terminated[i] = True
            illegal[i] = True
            continue
        outcome = _drop(obs, heights, lengths, moves, i, a, 0, height, width, connect)
        if outcome != _ONGOING:
            reward[i] = 1.0 if outcome == _LINE else 0.0
            terminated[i] = True
            _clear_mask(mask, i, width)
            continue
        if random_opponent:
            c = _random_column(heights, rng, i, height, width)
            outcome = _drop(obs, heights, lengths, moves, i, c, 1, height, width, connect)
            _opponent_moved(outcome, mask, heights, reward, terminated, i, height, width)
        else:
            _clear_mask(mask, i, width)
            reply[i] = True


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def reply_kernel(
    columns: Any,
    which: Any,
    obs: Any,
    mask: Any,
    heights: Any,
    lengths: Any,
    moves: Any,
    reward: Any,
    terminated: Any,
    height: int,
    width: int,
    connect: int,
) -> None:
    """The opponent's replies: ``columns[i]`` (legal) in each env ``i`` where ``which[i]``; rewards and ends as in a
    step."""
    for i in range(columns.shape[0]):
        if which[i]:
            outcome = _drop(obs, heights, lengths, moves, i, columns[i], 1, height, width, connect)
            _opponent_moved(outcome, mask, heights, reward, terminated, i, height, width)


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private): no allocation, as the AOT build
def reset_kernel(
    which: Any,
    opponent_first: bool,
    random_opponent: bool,
    obs: Any,
    mask: Any,
    heights: Any,
    lengths: Any,
    moves: Any,
    rng: Any,
    reply: Any,
    height: int,
    width: int,
    connect: int,
) -> None:
    """Empty the boards of the envs where ``which``; when the opponent moves first, its random first disc (or a
    flag in ``reply`` for the caller to choose it). Other arguments as in `step_kernel`."""
    for i in range(which.shape[0]):
        reply[i] = False
        if not which[i]:
            continue
        for r in range(height):  # loops, not obs[i] = 0: a view of an array needs numba's runtime
            for c in range(width):
                obs[i, r, c, 0] = 0
                obs[i, r, c, 1] = 0
        for c in range(width):
            heights[i, c] = 0
        lengths[i] = 0
        _set_mask(mask, heights, i, height, width)
        if opponent_first:
            _clear_mask(mask, i, width)
            if random_opponent:
                c = _random_column(heights, rng, i, height, width)
                # one disc: no line, not full
                _drop(obs, heights, lengths, moves, i, c, 1, height, width, connect)
                _set_mask(mask, heights, i, height, width)
            else:
                reply[i] = True
