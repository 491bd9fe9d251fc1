"""Several processes searching one position with one shared transposition table (a "lazy SMP" search).

The table, its bucket generations and a small control block live in one anonymous shared memory mapping made
before the helpers are forked, so every process reads and writes the same entries. An entry is a single aligned
uint64 written by one store (atomic on the 64-bit machines numba targets), and a probe checks the key bits of
the word it read, so a process never takes another position's bounds. Wide entries (boards whose keys need two
words) could be read half-written, so boards with wide entries search in one process.

Helpers run the same search with their own tie-breaking between equally rated moves; whoever finishes first
writes the score into the control block and raises the stop flag, which the others check between slices.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import signal
from typing import Any

import numpy as np

from gridgames_connect4 import _search as S

# control block (int64): stop flag, who answered (helper number, 0: none), the score, each helper's positions
C_STOP, C_WHO, C_SCORE, C_EXPLORED = 0, 1, 2, 3
HELPER_SLICE = 1 << 18  # positions between two looks at the stop flag (a few hundredths of a second)


def can_fork() -> bool:
    """Whether helpers can be forked here (they share the table through an inherited mapping)."""
    return "fork" in multiprocessing.get_all_start_methods()


class SharedTable:
    """The table, the bucket generations and the control block in one shared anonymous mapping."""

    def __init__(self, words: int, buckets: int, helpers: int) -> None:
        gens_bytes = -(-buckets * 2 // 64) * 64
        ctl_words = C_EXPLORED + helpers
        self._map = mmap.mmap(-1, words * 8 + gens_bytes + ctl_words * 8)  # page-aligned: buckets on cache lines
        self.table = np.frombuffer(self._map, np.uint64, words, 0)
        self.gens = np.frombuffer(self._map, np.uint16, buckets, words * 8)
        self.ctl = np.frombuffer(self._map, np.int64, ctl_words, words * 8 + gens_bytes)


def _helper_main(kargs: tuple[Any, ...], stack: tuple[np.ndarray, ...], ctl: np.ndarray, number: int,
                 search: tuple[Any, ...]) -> None:
    """A forked helper: search until done or told to stop; report the score if first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and raises the stop flag
    st = np.zeros(S.STATE_SIZE, np.int64)
    fresh = True
    n, p, mask, lo, hi, gen, lower_rows, book = search
    try:
        while ctl[C_STOP] == 0:
            paused = S.run_search(st, *stack, n, *kargs, gen, HELPER_SLICE, fresh, p, mask, lo, hi, lower_rows,
                                  number, book)
            fresh = False
            ctl[C_EXPLORED + number - 1] = st[S.S_NODES]
            if not paused:
                if ctl[C_STOP] == 0:
                    ctl[C_SCORE] = st[S.S_SCORE]
                    ctl[C_WHO] = number
                    ctl[C_STOP] = 1
                break
    finally:
        os._exit(0)


class Helpers:
    """The helper processes of one search (started on demand, stopped and reaped by stop())."""

    def __init__(self, shared: SharedTable) -> None:
        self.shared = shared
        self.procs: list[Any] = []

    def start(self, count: int, kargs: tuple[Any, ...], stack: tuple[np.ndarray, ...], search: tuple[Any, ...]
              ) -> None:
        """Fork `count` helpers searching `search` = (plies, p, mask, lo, hi, generation, lower rows, book).

        kargs: run_search's arguments from the board's height to `wide`.
        """
        ctl = self.shared.ctl
        ctl[:] = 0
        context = multiprocessing.get_context("fork")
        for number in range(1, count + 1):
            proc = context.Process(target=_helper_main, args=(kargs, stack, ctl, number, search), daemon=True)
            proc.start()
            self.procs.append(proc)

    def answer(self) -> int | None:
        """The score a helper found, if one finished."""
        ctl = self.shared.ctl
        return int(ctl[C_SCORE]) if self.procs and ctl[C_WHO] != 0 else None

    def stop(self) -> int:
        """Stop and reap the helpers; the positions they explored."""
        if not self.procs:
            return 0
        ctl = self.shared.ctl
        ctl[C_STOP] = 1
        for proc in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join()
        explored = int(ctl[C_EXPLORED:C_EXPLORED + len(self.procs)].sum())
        self.procs = []
        return explored
