"""Tests of the parallel (lazy SMP) search: helper threads sharing one table give the single searcher's scores."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridgames_connect4.solve.engine import search as S
from gridgames_connect4.solve.engine import smp as _smp
from gridgames_connect4.solve.engine import table as T
from gridgames_connect4.solve import search_driver
from gridgames_connect4.solve.solver import Solver
from gridgames.errors import GridGamesError


def open_positions(rng: random.Random, count: int, plies: int) -> list[list[int]]:
    """Random 7x6 positions of `plies` moves that nobody has won."""
    probe = Solver(table_mb=1)
    found = []
    while len(found) < count:
        moves = [rng.randrange(7) for _ in range(plies)]
        try:
            probe.driver.position(moves)
        except GridGamesError:
            continue
        found.append(moves)
    return found


@pytest.fixture()
def early_helpers(monkeypatch):
    """Fork the helpers after a few thousand positions, and look at the stop flag often."""
    monkeypatch.setattr(search_driver, "_SMP_START", 3000)
    monkeypatch.setattr(search_driver, "_SLICE", 1000)
    monkeypatch.setattr(_smp, "HELPER_SLICE", 1000)


def test_the_shared_table_holds_one_word_entries_on_cache_lines():
    solver = Solver(table_mb=16, jobs=2)
    table = solver.driver.table
    assert table.entries.dtype == np.uint64 and table.entries.ndim == 1 and not table.wide
    assert table.entries.ctypes.data % 64 == 0  # buckets on cache lines, entries 8-byte aligned


def test_boards_with_two_word_entries_get_helpers_too():
    assert Solver(7, 9, table_mb=16, jobs=2).driver.helpers is not None  # a two-word board
    wide = Solver(table_bits=16, jobs=2)  # 7x6 keys do not fit a small table's narrow entries
    assert wide.driver.table.wide and wide.driver.helpers is not None


def _wide_entry(table: np.ndarray, key: int, lower: int) -> tuple[int, int]:
    """The two words tt_store writes for key (exact lower bound, no upper bound, no move) in a fresh bucket."""
    table[:] = 0
    gens = np.zeros(1, np.uint16)
    T.tt_store(table, gens, 0, True, np.uint64(key), 1, lower, T.NO_UPPER, T.NO_MOVE, 0)
    slot = int(np.flatnonzero(table[1::2])[0]) * 2
    return int(table[slot]), int(table[slot + 1])


@pytest.mark.slow
def test_a_wide_entry_read_half_written_matches_neither_key():
    table = np.zeros(8, np.uint64)
    gens = np.ones(1, np.uint16)
    # the same high bits: only the first words differ
    old_key, new_key = (5 << 60) + 12345, (5 << 60) + 67890
    old = _wide_entry(table, old_key, 3)
    new = _wide_entry(table, new_key, -7)
    table[:] = 0
    table[0], table[1] = old
    assert T.lower_of(T.tt_find(table, gens, 0, True, np.uint64(old_key), 1)) == 3
    # the new entry's first store has landed, its second not yet: a reader sees a torn pair
    table[0] = new[0]
    assert T.tt_find(table, gens, 0, True, np.uint64(new_key), 1) == 0
    assert T.tt_find(table, gens, 0, True, np.uint64(old_key), 1) == 0
    table[0], table[1] = old[0], new[1]  # the other way round
    assert T.tt_find(table, gens, 0, True, np.uint64(new_key), 1) == 0
    assert T.tt_find(table, gens, 0, True, np.uint64(old_key), 1) == 0
    table[1] = new[1]
    table[0] = new[0]
    assert T.lower_of(T.tt_find(table, gens, 0, True, np.uint64(new_key), 1)) == -7


def test_two_searchers_give_the_scores_of_one(early_helpers):
    rng = random.Random(11)
    one = Solver(table_mb=16)
    two = Solver(table_mb=16, jobs=2)
    for moves in open_positions(rng, 8, 12):
        one.reset()
        two.reset()
        expected = one.solve(moves)
        assert two.solve(moves) == expected, moves
        assert two.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves
        assert two.analyze(moves) == one.analyze(moves), moves
    assert two.driver.helpers is not None and not two.driver.helpers.threads  # every helper joined


@pytest.mark.slow
def test_two_searchers_on_two_word_entries_give_the_scores_of_one(early_helpers):
    rng = random.Random(12)
    one = Solver(table_bits=16)
    # a small table: wide entries, often overwritten while the other reads
    two = Solver(table_bits=16, jobs=2)
    assert two.driver.table.wide
    for moves in open_positions(rng, 8, 12):
        one.reset()
        two.reset()
        expected = one.solve(moves)
        assert two.solve(moves) == expected, moves
        assert two.analyze(moves) == one.analyze(moves), moves
    assert two.driver.helpers is not None and not two.driver.helpers.threads


def test_a_helper_answers_and_fills_the_table_the_main_search_reads():
    moves = [3, 3, 2, 4, 2, 4, 5, 1, 1, 5]  # -3 after about 120,000 positions
    expected = Solver(table_mb=16).solve(moves)
    two = Solver(table_mb=16, jobs=2)
    d = two.driver
    p, mask, n = d.position(moves)
    lo, hi = -((42 - n) // 2), (43 - n) // 2
    helpers = d.helpers
    assert helpers is not None
    helpers.start(d._stack, d.shared_args(d.book_arrays), (n, d.b(p), d.b(mask), lo, hi))
    helpers.threads[0].join(timeout=120)
    assert helpers.answer() == expected  # the helper (jittered order) finished and reported
    assert helpers.stop() > 1000
    assert two.solve(moves) == expected
    assert two.explored < 100  # the root's entry, written by the helper, answers at once


def _key(solver: Solver, p: int, mask: int) -> int:
    """The table key of a position: the smaller of its key and its mirror image's."""
    h, w = solver.height, solver.width
    column = (1 << (h + 1)) - 1

    def mirror(x: int) -> int:
        return sum(((x >> (c * (h + 1))) & column) << ((w - 1 - c) * (h + 1)) for c in range(w))

    return min(p + mask, mirror(p) + mirror(mask))


def test_children_marked_busy_are_searched_last_and_the_score_stays_exact():
    # -3 after about 120,000 positions: no helper starts (2^21)
    moves = [3, 3, 2, 4, 2, 4, 5, 1, 1, 5]
    alone = Solver(table_mb=16)
    expected = alone.solve(moves)
    marked = Solver(table_mb=16, jobs=2)
    p, mask, _ = marked.driver.position(moves)
    busy = marked.driver._busy
    # every root child but column 0's, as if other searchers had them
    for c in range(1, marked.width):
        cell = marked.driver.cell(mask, c)
        key = _key(marked, p ^ mask, mask | cell)
        busy[S.busy_slot(np.uint64(key), len(busy))] = key
    assert marked.solve(moves) == expected
    assert marked.explored != alone.explored  # another first child: another tree
    assert not busy.any()  # each mark was cleared when its node was done
