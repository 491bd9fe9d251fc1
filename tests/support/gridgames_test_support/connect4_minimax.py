"""A plain exhaustive minimax for Connect Four on small boards: the tests' oracle for the solver's scores; and the
seeded random positions the tests give it.

It shares nothing with the solver: its own board (each player's cells as a set, in an int: bit column * height + row;
the lines of ``connect`` cells through each cell listed once per board) and no pruning, no ordering, no rule beyond
the game's own: every position below the one asked is scored, each once (a memo per board, kept for the test run).
Scores follow Pons' convention, from the side to move's view: a win with the disc played after ``plies`` discs scores
(cells + 1 - plies) // 2, a loss the negative of the winner's score, a draw 0.

>>> minimax_score(4, 4, 3, ((), (), (), ()))  # 4x4, three in a row: the first player wins with its 5th disc
4
"""

from __future__ import annotations

import random
from functools import cache

Columns = tuple[tuple[int, ...], ...]
"""A position: for each column, its discs from the bottom up (0: the first player's, 1: the second's)."""

_MEMO: dict[tuple[int, int, int], dict[tuple[int, int], int]] = {}


@cache
def lines_through(width: int, height: int, connect: int) -> tuple[tuple[int, ...], ...]:
    """For each cell (bit column * height + row), the lines of ``connect`` cells through it, each as a set of cells."""
    through: list[list[int]] = [[] for _ in range(width * height)]
    for col in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                last_col, last_row = col + (connect - 1) * dc, row + (connect - 1) * dr
                if 0 <= last_col < width and 0 <= last_row < height:
                    cells = [(col + i * dc) * height + row + i * dr for i in range(connect)]
                    line = sum(1 << cell for cell in cells)
                    for cell in cells:
                        through[cell].append(line)
    return tuple(tuple(lines) for lines in through)


def minimax_score(width: int, height: int, connect: int, columns: Columns) -> int:
    """The exact score of the side to move (Pons' convention) by exhaustive minimax; nobody may have won yet."""
    owned = [0, 0]
    for col, discs in enumerate(columns):
        for row, who in enumerate(discs):
            owned[who] |= 1 << (col * height + row)
    heights = [len(discs) for discs in columns]
    memo = _MEMO.setdefault((width, height, connect), {})
    return _score(width, height, lines_through(width, height, connect), heights, owned, sum(heights), memo)


def _score(
    width: int,
    height: int,
    lines: tuple[tuple[int, ...], ...],
    heights: list[int],
    owned: list[int],
    plies: int,
    memo: dict[tuple[int, int], int],
) -> int:
    """The score of the side to move after ``plies`` discs (heights and owned are restored on return)."""
    key = (owned[0], owned[1])
    known = memo.get(key)
    if known is not None:
        return known
    who = plies % 2
    playable = [col * height + heights[col] for col in range(width) if heights[col] < height]
    for cell in playable:  # a win at once
        mine = owned[who] | 1 << cell
        for line in lines[cell]:
            if mine & line == line:
                memo[key] = (width * height + 1 - plies) // 2
                return memo[key]
    best = None
    for cell in playable:
        col = cell // height
        heights[col] += 1
        owned[who] |= 1 << cell
        value = -_score(width, height, lines, heights, owned, plies + 1, memo)
        heights[col] -= 1
        owned[who] ^= 1 << cell
        best = value if best is None else max(best, value)
    memo[key] = 0 if best is None else best  # a full board is a draw
    return memo[key]


def completes_line(width: int, connect: int, col: int, row: int, columns: Columns) -> bool:
    """Whether the disc at (col, row) of ``columns`` completes ``connect`` in a row."""
    player = columns[col][row]

    def at(c: int, r: int) -> int | None:
        return columns[c][r] if 0 <= c < width and 0 <= r < len(columns[c]) else None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while at(c, r) == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= connect:
            return True
    return False


def grid_of(moves: list[int], width: int) -> Columns:
    """The position after ``moves`` (0-based columns), as columns of discs."""
    grid: Columns = tuple(() for _ in range(width))
    for i, col in enumerate(moves):
        grid = grid[:col] + (grid[col] + (i % 2,),) + grid[col + 1 :]
    return grid


def random_open_position(rng: random.Random, width: int, height: int, connect: int, plies: int) -> list[int]:
    """A random move list of ``plies`` moves in which nobody has won yet (retries until it finds one)."""
    while True:
        grid: Columns = tuple(() for _ in range(width))
        moves: list[int] = []
        for _ in range(plies):
            col = rng.choice([c for c in range(width) if len(grid[c]) < height])
            grid = grid[:col] + (grid[col] + (len(moves) % 2,),) + grid[col + 1 :]
            moves.append(col)
            if completes_line(width, connect, col, len(grid[col]) - 1, grid):
                break
        else:
            return moves
