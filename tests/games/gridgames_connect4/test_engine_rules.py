"""The search's static rules (gridgames_connect4.solve.engine.static_rules) against naive references, exact values."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("numba")

from gridgames.errors import GridGamesError
from gridgames_connect4.solve.engine import static_rules
from gridgames_connect4.solve.engine.board import winning_cells
from gridgames_connect4.solve.solver import Solver

W, H, K = 7, 6, 4
U = np.uint64


def bit(c: int, r: int) -> int:
    return 1 << (c * (H + 1) + r)


FULL = sum(bit(c, r) for c in range(W) for r in range(H))
BOTTOM = sum(bit(c, 0) for c in range(W))
LOWER_ROWS = sum(bit(c, r) for c in range(W) for r in range(H) if (H - r) % 2 == 0)
COLUMNS = np.array([sum(bit(c, r) for r in range(H)) for c in range(W)], dtype=np.uint64)
LINES = [
    sum(bit(c + i * dc, r + i * dr) for i in range(K))
    for c in range(W)
    for r in range(H)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= c + (K - 1) * dc < W and 0 <= r + (K - 1) * dr < H
]


def naive_threats(stones: int, mask: int) -> int:
    """Empty cells that complete a line of K for `stones`, by enumerating every line."""
    found = 0
    for line in LINES:
        missing = line & ~stones
        if missing and missing & (missing - 1) == 0 and not missing & mask:
            found |= missing
    return found


def playable(mask: int) -> int:
    return (mask + BOTTOM) & FULL


def positions(seed: int, count: int, plies: range) -> Iterator[tuple[list[int], int, int]]:
    """Random open positions (moves, stones to move, mask) the search would examine: the side to move cannot win at
    once and has a move that does not lose at once."""
    rng = random.Random(seed)
    probe = Solver(W, H, K, table_bits=14)
    made = 0
    while made < count:
        moves = [rng.randrange(W) for _ in range(rng.choice(plies))]
        try:
            p, mask, _ = probe.driver.position(moves)
        except GridGamesError:
            continue
        opp = p ^ mask
        if naive_threats(p, mask) & playable(mask):
            continue  # the side to move wins at once: the search scores it without the rules
        if not static_rules.safe_moves(U(playable(mask)), U(naive_threats(opp, mask))):
            continue
        made += 1
        yield moves, p, mask


def test_winning_cells_match_the_naive_line_count() -> None:
    for _, p, mask in positions(1, 200, range(6, 30)):
        for stones in (p, p ^ mask):
            assert int(winning_cells(U(stones), U(mask), U(FULL), H, K)) == naive_threats(stones, mask)


def test_safe_moves_are_the_moves_after_which_the_opponent_cannot_win_at_once() -> None:
    rng = random.Random(2)
    probe = Solver(W, H, K, table_bits=14)
    seen_block = seen_none = 0
    for _ in range(2000):
        moves = [rng.randrange(W) for _ in range(rng.randrange(4, 36))]
        try:
            p, mask, _ = probe.driver.position(moves)
        except GridGamesError:
            continue
        if naive_threats(p, mask) & playable(mask):
            continue  # the search never looks at such a node (it scores the win at once)
        opp = p ^ mask
        expected = 0
        for c in range(W):
            cell = playable(mask) & int(COLUMNS[c])
            if cell and not naive_threats(opp, mask | cell) & playable(mask | cell):
                expected |= cell
        got = int(static_rules.safe_moves(U(playable(mask)), U(naive_threats(opp, mask))))
        assert got == expected, moves
        seen_block += bin(naive_threats(opp, mask) & playable(mask)).count("1") == 1
        seen_none += got == 0
    assert seen_block > 20 and seen_none > 5  # both cases of the rule met


def test_a_side_that_cannot_line_up_is_named() -> None:
    for moves, p, mask in positions(3, 300, range(20, 38)):
        empty = FULL & ~mask
        for stones in (p, p ^ mask):
            expected = not any(line & ~(stones | empty) == 0 for line in LINES)
            assert static_rules.cannot_line_up(U(stones), U(empty), H, K) == expected, moves


def _parts(p: int, mask: int) -> tuple[int, int, int, int, int, int, int]:
    """opp, possible, empty, odd, lower, upper, opp_win as the search computes them."""
    opp = p ^ mask
    possible = playable(mask)
    empty = FULL & ~mask
    odd = possible & ~LOWER_ROWS
    return opp, possible, empty, odd, empty & LOWER_ROWS, empty & ~LOWER_ROWS, naive_threats(opp, mask)


@pytest.fixture(scope="module")
def settled() -> list[tuple[list[int], int, int, int]]:
    """Late 7x6 positions with their exact scores (moves, stones to move, mask, score)."""
    solver = Solver(W, H, K, table_bits=20)
    out = []
    for moves, p, mask in positions(4, 400, range(22, 36)):
        solver.reset()
        out.append((moves, p, mask, solver.solve(moves)))
    return out


@pytest.mark.slow
def test_claimeven_bounds_hold_on_solved_positions(settled: list[tuple[list[int], int, int, int]]) -> None:
    fired = {"paired 0": 0, "paired -1": 0, "first 0": 0, "first win": 0}
    for moves, p, mask, score in settled:
        opp, possible, empty, odd, lower, upper, _ = _parts(p, mask)
        args = (U(p), U(opp), U(lower), U(upper), U(odd))
        if bin(odd).count("1") % 2 == 0:
            if static_rules.claimeven_paired(*args, 0, H, K) == 0:
                fired["paired 0"] += 1
                assert score <= 0, moves
            if static_rules.claimeven_paired(*args, -1, H, K) == -1:
                fired["paired -1"] += 1
                assert score <= -1, moves
        else:
            rest = (U(possible), U(empty), U(LOWER_ROWS))
            if static_rules.claimeven_first(*args, *rest, 0, H, K) == 0:
                fired["first 0"] += 1
                assert score >= 0, moves
            win = static_rules.claimeven_first(*args, *rest, 1, H, K)
            if win != static_rules.NO_VALUE:
                fired["first win"] += 1
                assert score >= win >= 1, moves
    assert all(count > 0 for count in fired.values()), fired


@pytest.mark.slow
def test_zugzwang_bounds_hold_on_solved_positions(settled: list[tuple[list[int], int, int, int]]) -> None:
    fired = {"opponent": 0, "own": 0}
    for moves, p, mask, score in settled:
        opp, possible, empty, odd, lower, upper, opp_win = _parts(p, mask)
        if bin(odd).count("1") % 2 == 1:
            worst = static_rules.opponent_zugzwang(
                U(p), U(opp_win), U(lower), U(upper), U(odd), U(empty), COLUMNS, H, K
            )
            if worst < 0:
                fired["opponent"] += 1
                assert score <= worst, moves
        else:
            own_win = naive_threats(p, mask)
            best = static_rules.own_zugzwang(
                U(opp),
                U(mask),
                U(own_win),
                U(possible),
                U(lower),
                U(odd),
                U(empty),
                U(BOTTOM),
                U(FULL),
                U(LOWER_ROWS),
                COLUMNS,
                100,
                H,
                K,
            )
            if best > 0:
                fired["own"] += 1
                assert score >= best, moves
    assert all(count > 0 for count in fired.values()), fired


def test_a_move_rated_as_winning_next_wins_against_every_reply() -> None:
    wins = 0
    for moves, p, mask in positions(5, 400, range(10, 34)):
        opp, possible, _, _, _, _, opp_win = _parts(p, mask)
        own_under = naive_threats(p, mask) >> 1
        safe = int(static_rules.safe_moves(U(possible), U(opp_win)))
        for c in range(W):
            mv = safe & int(COLUMNS[c])
            if not mv:
                continue
            _, wins_next = static_rules.rate_move(
                U(p), U(mask), U(mv), U(possible), U(opp_win << 1), U(own_under), U(FULL), H, K
            )
            after = mask | mv
            replies = [playable(after) & int(col) for col in COLUMNS if playable(after) & int(col)]
            mine = p | mv
            expected = bool(replies) and all(naive_threats(mine, after | r) & playable(after | r) for r in replies)
            assert wins_next == expected, (moves, c)
            wins += wins_next
    assert wins > 10


def test_a_move_under_ones_own_threat_is_rated_last() -> None:
    met = 0
    for moves, p, mask in positions(6, 400, range(10, 34)):
        _, possible, _, _, _, _, opp_win = _parts(p, mask)
        own_under = naive_threats(p, mask) >> 1
        ratings = {}
        for c in range(W):
            mv = possible & int(COLUMNS[c])
            if mv:
                rating, wins_next = static_rules.rate_move(
                    U(p), U(mask), U(mv), U(possible), U(opp_win << 1), U(own_under), U(FULL), H, K
                )
                if not wins_next:
                    ratings[c] = (rating, bool(mv & own_under))
        under = [r for r, is_under in ratings.values() if is_under]
        others = [r for r, is_under in ratings.values() if not is_under]
        if under and others:
            met += 1
            assert max(under) < min(others), moves
    assert met > 5
