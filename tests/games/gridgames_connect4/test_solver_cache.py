"""The one solver cache: a solver is lent to one borrower at a time, and few idle ones are kept."""

from __future__ import annotations

import threading

import pytest

from gridgames.errors import SolverError
from gridgames_connect4.solve import solver_cache
from gridgames_connect4.solve.solver import Solver
from gridgames_connect4.solve.solver_cache import MAX_IDLE, lend


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    solver_cache.clear()


def test_a_returned_solver_is_lent_again_with_its_table_and_a_busy_one_is_not() -> None:
    with lend(4, 4, 3, table_mb=0.0625) as first:
        first.solve([0, 1])
        with lend(4, 4, 3, table_mb=0.0625) as second:  # the first is busy: another one
            assert second is not first
    with lend(4, 4, 3, table_mb=0.0625) as again:
        assert again in (first, second)
    with lend(4, 4, 3, table_mb=0.125) as other:  # another table size: another solver
        assert other is not first and other is not second and other.table_bytes > first.table_bytes


def test_at_most_max_idle_solvers_are_kept() -> None:
    leases = [lend(4, 4, 3, table_mb=0.0625) for _ in range(MAX_IDLE + 2)]
    lent = [lease.solver for lease in leases]
    assert len({id(s) for s in lent}) == MAX_IDLE + 2
    for lease in leases:
        with lease:
            pass
    kept = [lend(4, 4, 3, table_mb=0.0625) for _ in range(MAX_IDLE + 2)]
    # the last returned; the others are new
    assert sum(lease.solver in lent for lease in kept) == MAX_IDLE


def test_two_threads_never_hold_the_same_solver() -> None:
    held: list[int] = []
    both: list[int] = []  # how many distinct solvers were held while both threads held one
    overlap = threading.Barrier(2)
    expected = Solver(4, 4, 3, table_bits=12).solve([0, 1, 0])

    def borrow() -> None:
        for _ in range(20):
            with lend(4, 4, 3, table_mb=0.0625) as solver:
                held.append(id(solver))
                overlap.wait(timeout=10)  # both threads hold a solver now
                both.append(len(set(held)))
                assert solver.solve([0, 1, 0]) == expected
                overlap.wait(timeout=10)
                held.remove(id(solver))
            overlap.wait(timeout=10)  # both returned theirs: the next round borrows from the cache

    threads = [threading.Thread(target=borrow) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert both == [2] * 40


def test_a_board_the_solver_cannot_handle_is_refused_before_the_block() -> None:
    with pytest.raises(SolverError, match="128-bit"):
        lend(12, 11, 4)
