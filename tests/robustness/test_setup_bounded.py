"""The colouring pre-check before a tiling search is bounded by size and no longer quadratic (issue 46).

`solve pentomino --board 100x80 --pieces 'monomino*8000' --limit 1` spent 12 s in it, Ctrl-C ignored; a million
monominoes ran past every web budget. The exact test now works on bit sets (a flipped piece's copies added by
doubling) and, past a bound on its work, falls back to a weaker test that is never wrong."""

from __future__ import annotations

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.pieces import colouring_allows, reachable_balances


def naive(choices: list[tuple[list[int], int]]) -> set[int]:
    """The reference: every total, one copy at a time (the former quadratic code)."""
    reach = {0}
    for balances, copies in choices:
        for _ in range(copies):
            reach = {r + v for r in reach for v in set(balances)}
    return reach


piece = st.one_of(
    st.lists(st.integers(-6, 6), max_size=4),
    st.integers(0, 5).map(lambda b: [b, -b]),  # a piece and its flip
)
choices = st.lists(st.tuples(piece, st.integers(0, 8)), max_size=4)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(choices)
def test_reachable_balances_match_the_naive_reference(pieces: list[tuple[list[int], int]]) -> None:
    assert reachable_balances(pieces) == naive(pieces)


@settings(max_examples=300, deadline=None)
@given(choices, st.integers(-40, 40))
def test_the_bounded_test_is_exact_and_its_fallback_never_refuses_wrongly(
    pieces: list[tuple[list[int], int]], board: int
) -> None:
    exact = board in naive(pieces)
    assert colouring_allows(board, pieces) is exact
    if exact:
        # the weaker test past the work bound: never a wrong False
        assert colouring_allows(board, pieces, work=0)


def test_a_million_monominoes_and_a_flipped_piece_are_checked_exactly() -> None:
    pieces = [([1, -1], 1_000_000), ([3, -3], 1)]
    assert colouring_allows(1, pieces) and colouring_allows(-999_997, pieces) and colouring_allows(1_000_003, pieces)
    assert not colouring_allows(0, pieces)  # parity: an even total of monominoes plus 3 or -3
    assert not colouring_allows(1_000_005, pieces)  # beyond the greatest total
