"""The layout the solver's kernels share with the Python side, without numba: search state, table, values.

The solver imports only this module and `aot` until it needs a kernel, so a process that runs the kernels
built ahead of time (see `aot`) never imports numba. numba's on-disk cache would not notice a change here
(it watches only the file that defines a kernel), so `bits` drops the kernels' cache whenever this file changes;
the kernels built ahead of time notice too (this file is in their fingerprint).
"""

from __future__ import annotations

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
