"""Several searchers on one position sharing one transposition table (a "lazy SMP" search).

The helpers are threads: the search kernel releases the GIL (numba ``nogil``), so they run on other cores and
read and write the solver's own table (which keeps its huge pages: a shared-memory mapping between forked
processes measured 15% slower per position here). An entry is a single aligned uint64 written by one store
(atomic on the 64-bit machines numba targets), and a probe checks the key bits of the word it read, so a searcher
never takes another position's bounds; a bucket being cleared by another searcher only loses entries, and an
entry of an older generation still holds true bounds. Wide entries (boards whose keys need two words) are two
stores, and a probe that reads one word of one write and the other of another recovers a key that does not match
(see table's lockless check), so boards with wide entries share the table too.

Helpers run the same search with their own tie-breaking between equally rated moves and their own stacks, and every
searcher marks the nodes near the root it is searching in a small shared array of busy keys and searches a child
another searcher marked busy last, so the searchers take different subtrees first (as in ABDADA); whoever
finishes first writes the score into the control block and raises the stop flag, which the others check between
slices of their search.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from gridgames_connect4.solve.engine import search as S

# control block (int64): stop flag, who answered (helper number, 0: none), the score, each helper's positions
C_STOP, C_WHO, C_SCORE, C_EXPLORED = 0, 1, 2, 3
# positions between two looks at the stop flag (a few hundredths of a second)
HELPER_SLICE = 1 << 18


def _helper_main(
    stack: tuple[np.ndarray, ...], shared: tuple[Any, ...], ctl: np.ndarray, number: int, root: tuple[Any, ...]
) -> None:
    """One helper thread: search until done or told to stop; report the score if first."""
    st = stack[0]  # the state (Stack.state)
    fresh = True
    n, p, mask, lo, hi = root
    while ctl[C_STOP] == 0:
        paused = S.run_search(stack, *shared, (n, HELPER_SLICE, fresh, p, mask, lo, hi, number))
        fresh = False
        ctl[C_EXPLORED + number - 1] = st[S.S_NODES]
        if not paused:
            if ctl[C_STOP] == 0:
                ctl[C_SCORE] = st[S.S_SCORE]
                ctl[C_WHO] = number
                ctl[C_STOP] = 1
            break


class Helpers:
    """The helper threads of one solver's searches (started on demand, stopped and joined by stop())."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.ctl = np.zeros(C_EXPLORED + count, np.int64)
        self.threads: list[threading.Thread] = []

    def start(self, stack: tuple[np.ndarray, ...], shared: tuple[Any, ...], root: tuple[Any, ...]) -> None:
        """Start the helpers on `root` = (plies, stones, mask, lo, hi): the score lies within [lo, hi].

        stack: the caller's plain layout.Stack (each helper gets its own of the same shapes); shared: run_search's
        arguments the searchers share (plain layout.BoardConstants, layout.Table, layout.BookArrays, the busy marks).
        """
        self.ctl[:] = 0
        shared[3][:] = 0  # busy marks a stopped helper may have left
        for number in range(1, self.count + 1):
            own = tuple(np.zeros_like(a) for a in stack)
            thread = threading.Thread(
                target=_helper_main,
                args=(own, shared, self.ctl, number, root),
                name=f"connect4-helper-{number}",
                daemon=True,
            )
            thread.start()
            self.threads.append(thread)

    def answer(self) -> int | None:
        """The score a helper found, if one finished."""
        return int(self.ctl[C_SCORE]) if self.threads and self.ctl[C_WHO] != 0 else None

    def stop(self) -> int:
        """Stop and join the helpers; the positions they explored."""
        if not self.threads:
            return 0
        self.ctl[C_STOP] = 1
        for thread in self.threads:
            thread.join()
        explored = int(self.ctl[C_EXPLORED:].sum())
        self.threads = []
        return explored
