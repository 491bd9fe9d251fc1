"""The layout the solver's kernels share with the Python side, without numba: search state, table, values.

The solver imports only this module and `aot` until it needs a kernel, so a process that runs the kernels
built ahead of time (see `aot`) never imports numba. numba's on-disk cache would not notice a change here
(it watches only the file that defines a kernel), so `bits` drops the kernels' cache whenever this file changes;
the kernels built ahead of time notice too (this file is in their fingerprint).
"""

from __future__ import annotations

from typing import Annotated, Any, NamedTuple, get_type_hints

import numpy as np

# Search state (int64 array): phase (0: pick a window, 1: searching, 2: done), lo, hi, window, depth, value,
# step (0: enter, 1: return, 2: next move), nodes, score.
S_PHASE, S_LO, S_HI, S_MED, S_D, S_R, S_STEP, S_NODES, S_SCORE = 0, 1, 2, 3, 4, 5, 6, 7, 8
STATE_SIZE = 12
FRAME_INTS = 8  # int64 fields of a search frame (see search)

# Values of the depth-limited search: proven results are offset by WIN_BASE, evaluations stay far below it.
WIN_BASE = 10_000
INF = 1_000_000

GENERATIONS = 65535  # table generations before the bucket generations are cleared
BUCKET_WORDS = 8  # uint64 words per table bucket (one 64-byte cache line)
BUSY_SLOTS = 4096  # the busy marks shared by parallel searchers (see search.run_search)


def new_generation(gen_box: np.ndarray, gens: np.ndarray) -> None:
    """Forget the table in O(1): buckets of older generations count as empty (the small array of bucket
    generations is cleared once every 65,535 calls)."""
    g = gen_box.item(0) + 1
    if g > GENERATIONS:
        gens.fill(0)
        g = 1
    gen_box[0] = g


# The kernels' structured arguments. Each field's annotation carries its kernel type ("board": one uint64, or a
# (low, high) pair on two-word boards; "[:]", "[:, :]": C-contiguous arrays of it, a board array gaining a last axis
# of 2 on two-word boards), from which `numba_type` makes the compiled signatures (aot.signatures): one declaration.
# Callers pass the tuples as plain tuples (`tuple(args)`): numba types a plain tuple in its C dispatcher, a named one in
# Python (measured: a named tuple of 8 arrays costs 2.5 us more per call, a sixth of an End-Easy solve); the kernels
# name the fields again with these classes (`Stack(*stack)`), which costs nothing compiled.

Bitboard = np.uint64 | tuple[np.uint64, np.uint64]


class Stack(NamedTuple):
    """A search's stack, owned by the caller so a search paused after a budget resumes: one frame per depth."""

    # (STATE_SIZE,): phase, window, depth, step, nodes, score (S_* slots)
    state: Annotated[np.ndarray, "int64[:]"]
    # (depth, 5): stones to move, all stones, their mirrors, key (U_*)
    frames: Annotated[np.ndarray, "board[:, :]"]
    # (depth, FRAME_INTS): window, moves left, flags... (I_*)
    frame_ints: Annotated[np.ndarray, "int64[:, :]"]
    # (depth, width): each frame's moves in search order (last first)
    moves: Annotated[np.ndarray, "board[:, :]"]
    # (depth, width): their columns (-1: a forced move)
    move_columns: Annotated[np.ndarray, "int64[:, :]"]
    # (depth, width): the children's symmetric keys
    child_keys: Annotated[np.ndarray, "board[:, :]"]
    # (depth, width): the children's table buckets
    child_buckets: Annotated[np.ndarray, "int64[:, :]"]
    # (width,): the ratings of the moves being ordered
    move_scores: Annotated[np.ndarray, "int64[:]"]


class BoardConstants(NamedTuple):
    """The board's constants (every board size runs one compiled kernel)."""

    width: Annotated[int, "int64"]
    height: Annotated[int, "int64"]
    connect: Annotated[int, "int64"]  # k: the length of a winning line
    cells: Annotated[int, "int64"]  # width * height
    bottom: Annotated[Bitboard, "board"]  # each column's lowest cell
    full: Annotated[Bitboard, "board"]  # every cell
    order: Annotated[np.ndarray, "int64[:]"]  # the columns, centre first (Pons' order)
    column_masks: Annotated[np.ndarray, "board[:]"]  # each column's cells
    # by bit index: the number of lines of k cells through the cell
    cell_values: Annotated[np.ndarray, "int64[:]"]
    # the lower cell of each pair when every column has an even number empty
    lower_rows: Annotated[Bitboard, "board"]


class Table(NamedTuple):
    """The transposition table (see `table`)."""

    entries: Annotated[np.ndarray, "uint64[:]"]  # buckets of BUCKET_WORDS words
    # each bucket's generation (older ones count as empty)
    generations: Annotated[np.ndarray, "uint16[:]"]
    buckets: Annotated[int, "int64"]  # a prime
    # two words an entry (keys too long to rebuild from 32 bits and the bucket)
    wide: Annotated[bool, "bool"]
    current: Annotated[np.ndarray, "int64[:]"]  # (1,): the current generation


class BookArrays(NamedTuple):
    """An opening book as the search probes it (an empty one of depth -1 when there is none; one-word boards)."""

    keys: Annotated[np.ndarray, "uint64[:]"]  # sorted symmetric keys
    scores: Annotated[np.ndarray, "int8[:]"]  # their exact scores
    depth: Annotated[int, "int64"]  # probed at nodes with at most this many discs


class SearchStep(NamedTuple):
    """One call of run_search: start a search (fresh) or resume the paused one, for at most `budget` positions."""

    plies: Annotated[int, "int64"]  # discs on the board at the root
    budget: Annotated[int, "int64"]  # positions to explore at most in this call
    # start a search of (stones, mask) within [lo, hi]; else resume the paused one
    fresh: Annotated[bool, "bool"]
    stones: Annotated[Bitboard, "board"]  # the root's stones of the side to move
    mask: Annotated[Bitboard, "board"]  # the root's stones
    lo: Annotated[int, "int64"]  # the score lies within [lo, hi]
    hi: Annotated[int, "int64"]
    # 0: the usual move order; else a helper's own tie-breaking (see smp)
    jitter: Annotated[int, "int64"]


class Batch(NamedTuple):
    """Positions to replay and solve in one call (solve_moves), and where their answers go."""

    # 0-based columns of every position, one after another
    columns: Annotated[np.ndarray, "uint8[:] readonly"]
    starts: Annotated[np.ndarray, "int64[:]"]  # position i is columns[starts[i]:starts[i + 1]]
    weak: Annotated[bool, "bool"]  # only the sign of the score (-1, 0, 1)
    reset: Annotated[bool, "bool"]  # a fresh table for each position
    # each score (the index of the bad move when a replay fails)
    out: Annotated[np.ndarray, "int64[:]"]
    explored: Annotated[np.ndarray, "int64[:]"]  # each position's positions explored
    status: Annotated[np.ndarray, "int64[:]"]  # each replay's status (see board.replay; 0: fine)


def numba_type(spec: str, words: int = 1) -> Any:
    """The numba type of a field's kernel type (see above) on boards of `words` uint64 words (imports numba)."""
    from numba import types

    name, _, rest = spec.partition("[")
    readonly = rest.endswith("readonly")
    ndim = rest.count(":")
    scalars = {
        "int64": types.int64,
        "uint64": types.uint64,
        "uint16": types.uint16,
        "uint8": types.uint8,
        "int8": types.int8,
        "bool": types.boolean,
        "board": types.uint64,
    }
    dtype = scalars[name]
    if name == "board" and words == 2:
        if ndim == 0:
            return types.UniTuple(types.uint64, 2)
        ndim += 1
    if ndim == 0:
        return dtype
    return types.Array(dtype, ndim, "C", readonly=readonly)


KernelTuple = type[Stack] | type[BoardConstants] | type[Table] | type[BookArrays] | type[SearchStep] | type[Batch]


def tuple_type(cls: KernelTuple, words: int = 1) -> Any:
    """The numba type of one of the classes above passed as a plain tuple (imports numba)."""
    from numba import types

    hints = get_type_hints(cls, include_extras=True)
    return types.Tuple(tuple(numba_type(hints[name].__metadata__[0], words) for name in cls._fields))
