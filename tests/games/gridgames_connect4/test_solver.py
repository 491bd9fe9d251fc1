"""Tests of the Connect Four solver: known scores, a plain minimax on small boards, the API and its errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridgames_connect4.solve.search_driver import SearchDriver
from gridgames_connect4.solve.solver import SearchResult, Solver, nodes_for_seconds, parse_pons_moves
from gridgames.errors import GameOverError, IllegalMoveError, InvalidMoveError, SolverError
from gridgames_test_support.connect4_bisection import bisecting_step_search
from gridgames_test_support.connect4_minimax import completes_line, grid_of, minimax_score, random_open_position
from gridgames_test_support.connect4_sets import DATA, read_set

# A table of about 2^20 entries (8 MiB) is plenty for these positions.
SMALL_TABLE = 20


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_bits=SMALL_TABLE)


# -- known results --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "pons_mean"),
    [("Test_L3_R1", 51.28), ("Test_L2_R1", 449.6), ("Test_L1_R1", 3_298)],
)
def test_every_score_of_the_easy_sets_is_right_and_explores_fewer_positions_than_pons(solver, name, pons_mean):
    rows = read_set(name)
    wrong, explored = [], 0
    for moves, expected in rows:
        solver.reset()  # Pons' protocol: a fresh table per position
        if solver.solve(parse_pons_moves(moves)) != expected:
            wrong.append(moves)
        explored += solver.explored
    assert wrong == []
    assert explored / len(rows) < pons_mean  # his final solver's published mean


def test_middle_medium_sample_scores_are_right(solver):
    for moves, expected in read_set("Test_L2_R2", 40):
        solver.reset()
        assert solver.solve(parse_pons_moves(moves)) == expected, moves


def test_weak_solve_agrees_in_sign_with_the_known_score(solver):
    for moves, expected in read_set("Test_L2_R1", 60):
        assert solver.solve(parse_pons_moves(moves), weak=True) == (expected > 0) - (expected < 0), moves


def test_analyze_maximum_equals_solve_on_known_positions(solver):
    for moves, expected in read_set("Test_L2_R1", 15):
        scores = solver.analyze(parse_pons_moves(moves))
        assert max(s for s in scores if s is not None) == expected, moves


def test_a_parents_score_as_lower_bound_gives_each_childs_score_with_fewer_positions(solver):
    plain_explored = bounded_explored = settled = 0
    for moves, parent in read_set("Test_L2_R2", 12):
        scores = solver.analyze(parse_pons_moves(moves))
        for column, child_score in enumerate(scores):
            if child_score is None or child_score == solver.win_score(len(moves)):
                continue  # a full column, or a move that wins at once
            child = [*parse_pons_moves(moves), column]
            solver.reset()
            plain = solver.solve(child)
            plain_explored += solver.explored
            solver.reset()
            assert solver.solve(child, lower=-parent) == plain == -child_score, (moves, column)
            bounded_explored += solver.explored
            settled += plain == -parent
    assert settled >= 12 and bounded_explored < 0.9 * plain_explored


@pytest.mark.slow
def test_an_impossible_lower_bound_is_refused_and_weak_solves_ignore_the_bound(solver):
    with pytest.raises(ValueError, match="a lower bound of 19 is impossible after 4 moves"):
        solver.solve([3, 3, 3, 3], lower=19)
    assert solver.solve([3, 3, 3, 2, 2], weak=True, lower=-5) == solver.solve([3, 3, 3, 2, 2], weak=True)
    # below every score: no bound
    assert solver.solve([3, 3, 3, 2, 2], lower=-99) == solver.solve([3, 3, 3, 2, 2])


def test_steininger_9x5_endgames_are_scored_right():
    path = DATA / "steininger" / "9x5" / "endgame_L1.txt"
    if not path.exists():
        pytest.skip(f"shared benchmark data not found at {path}")
    nine = Solver(9, 5, table_bits=SMALL_TABLE)
    for line in path.read_text().splitlines()[:30]:
        moves, score = line.split()
        assert nine.solve([int(ch) for ch in moves]) == int(score), moves


def test_empty_4x4_connect_3_and_small_known_boards():
    # Plain minimax below confirms these; they pin the score convention on boards with an odd cell count too.
    for width, height, connect in [(4, 4, 3), (3, 3, 3), (5, 3, 3), (4, 3, 3)]:
        assert Solver(width, height, connect, table_bits=16).solve([]) == minimax_score(
            width, height, connect, grid_of([], width)
        )


@pytest.mark.parametrize(
    ("width", "height", "connect", "plies"),
    [(5, 4, 4, 9), (4, 4, 3, 5), (4, 5, 4, 8), (6, 5, 5, 19), (7, 4, 6, 18), (5, 5, 3, 13)],
)
def test_solve_and_analyze_match_plain_minimax_on_small_boards(width, height, connect, plies):
    rng = random.Random(f"{width}x{height}c{connect}")
    small = Solver(width, height, connect, table_bits=16)
    for _ in range(12):
        moves = random_open_position(rng, width, height, connect, plies)
        grid = grid_of(moves, width)
        assert small.solve(moves) == minimax_score(width, height, connect, grid), moves
        expected = []
        for col in range(width):
            if len(grid[col]) == height:
                expected.append(None)
                continue
            child = grid[:col] + (grid[col] + (plies % 2,),) + grid[col + 1 :]
            if completes_line(width, connect, col, len(grid[col]), child):
                expected.append((width * height + 1 - plies) // 2)
            else:
                expected.append(-minimax_score(width, height, connect, child))
        assert small.analyze(moves) == expected, moves
        assert small.analyze(moves, weak=True) == [None if e is None else (e > 0) - (e < 0) for e in expected]


def check_positions_with_odd_columns(
    width: int, height: int, connect: int, two_words: bool, odd_columns: int, seed: str, plies: tuple[int, int]
) -> None:
    """25 random positions with `odd_columns` columns of odd height left: strong and weak scores match minimax."""
    rng = random.Random(seed)
    small = Solver(width, height, connect, table_bits=16, two_words=two_words)
    checked = 0
    while checked < 25:
        moves = random_open_position(rng, width, height, connect, rng.randrange(*plies))
        grid = grid_of(moves, width)
        if sum((height - len(column)) % 2 for column in grid) != odd_columns:
            continue
        expected = minimax_score(width, height, connect, grid)
        small.reset()
        assert small.solve(moves) == expected, moves
        small.reset()
        assert small.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves
        checked += 1


@pytest.mark.parametrize(
    ("width", "height", "connect", "two_words"), [(5, 4, 4, False), (4, 5, 4, False), (5, 4, 3, False), (5, 4, 4, True)]
)
@pytest.mark.slow
def test_positions_with_a_single_column_of_odd_height_left_match_plain_minimax(width, height, connect, two_words):
    # the search's claimeven rule one ply early (play the odd column, then claim the cells above each reply)
    # fires exactly on these positions; strong and weak scores must stay those of an exhaustive minimax
    check_positions_with_odd_columns(
        width, height, connect, two_words, 1, f"odd{width}x{height}c{connect}", (3, width * height - 6)
    )


@pytest.mark.parametrize(
    ("width", "height", "connect", "two_words", "odd_columns"),
    [
        (5, 4, 4, False, 2),
        (5, 4, 4, False, 3),
        (4, 5, 4, False, 2),
        (5, 4, 3, False, 2),
        (5, 4, 4, True, 2),
        (5, 4, 4, True, 3),
    ],
)
def test_positions_with_several_columns_of_odd_height_left_match_plain_minimax(
    width, height, connect, two_words, odd_columns
):
    # claimeven with the odd columns paired (the defender answers a move in one with the lowest cell of another;
    # with an odd number of them the side to move first takes one) fires on these positions
    check_positions_with_odd_columns(
        width,
        height,
        connect,
        two_words,
        odd_columns,
        f"pairs{width}x{height}c{connect}o{odd_columns}",
        (6, width * height - 4),
    )


@pytest.mark.parametrize(
    ("width", "height", "line", "two_words"),
    [
        # first move on an odd column
        (5, 4, "5514445", False),
        (6, 4, "5332236", False),
        (5, 4, "5514445", True),
        # first move on an even column
        (5, 4, "5454122", False),
        (6, 4, "1426324", False),
        (6, 4, "1426324", True),
    ],
)
@pytest.mark.slow
def test_claimeven_with_a_first_move_settles_a_won_position_without_search(width, height, line, two_words):
    # an odd number of columns of odd height: the side to move plays one move, then answers every opponent move
    # in the same column or (on the lowest cell of a column of odd height) on another such column's lowest cell;
    # the opponent then holds at most the lower cells of the pairs and those lowest cells, the side to move lines
    # up in its upper cells. The old rule gave the opponent every cell of the odd columns and never played an even
    # column first: these positions took 212-2,203 positions; now the root settles them (as minimax says: a win)
    moves = [int(c) - 1 for c in line]
    assert minimax_score(width, height, 4, grid_of(moves, width)) > 0
    solver = Solver(width, height, 4, table_bits=14, two_words=two_words)
    assert solver.solve(moves, weak=True) == 1
    assert solver.explored == 1


def root_window_settled_at_once(width: int, height: int, line: str, window: int, two_words: bool) -> tuple[int, int]:
    """The root's answer to "score > window?" (checked to explore the root alone) and minimax's score."""
    moves = [int(c) - 1 for c in line]
    true = minimax_score(width, height, 4, grid_of(moves, width))
    solver = Solver(width, height, 4, table_bits=14, two_words=two_words)
    p, mask, n = solver.driver.position(moves)
    r = solver.driver.search(p, mask, n, window, window + 1, 1 << 40)
    assert solver.explored == 1
    return r, true


@pytest.mark.parametrize(
    ("width", "height", "line", "window", "two_words"),
    [
        (6, 4, "222461141", 1, False),
        (6, 4, "222461141", 1, True),
        (5, 6, "552222431255445", 1, False),
        (7, 6, "71724747771216616444151545265", 1, False),
        (5, 6, "251522121221511", 2, False),
        (5, 6, "251522121221511", 2, True),
    ],
)
@pytest.mark.slow
def test_claimeven_bounds_how_late_the_win_comes_and_settles_a_window_beyond_1(width, height, line, window, two_words):
    # under the pairing strategy the opponent can delay the winner's line only by leaving the column of the cell
    # it needs last for last, so a line whose cells each have 2 (4) empty cells above wins by the disc before the
    # last (two before): the root settles "score > 1?" (or "> 2?") at once, where the rule that said only "a win"
    # searched 42-493 positions (these positions were found by random sampling)
    r, true = root_window_settled_at_once(width, height, line, window, two_words)
    assert window < r <= true


@pytest.mark.parametrize(
    ("width", "height", "line", "window", "two_words"),
    [
        # the side to move loses: the opponent keeps an odd column for its threat
        (6, 4, "43155232633", -1, False),
        (6, 4, "43155232633", -1, True),
        (5, 6, "341525155233115", -2, False),
        (7, 6, "315537522422317612635367111357752", -2, False),
        (7, 6, "43335214153547312152553414771", -1, False),
        # the side to move wins: one move first, then it keeps an odd column for its threat
        (6, 4, "53355653461621", 0, False),
        (5, 6, "545255114112132122", 1, False),
        (5, 6, "545255114112132122", 1, True),
        (7, 6, "2345424335153352636476672254", 0, False),
        (5, 4, "125225344125", 0, False),
    ],
)
def test_a_threat_kept_on_an_odd_column_settles_the_window_without_search(width, height, line, window, two_words):
    # Allis' zugzwang: with an odd number of columns of odd height the side not to move keeps one of them, answers a
    # move there right above it (taking x's cells at odd heights over its lowest), pairs the other odd columns'
    # lowest cells and answers right above elsewhere; a threat of its own on one of its cells of x wins once the
    # side to move has no other move, unless the side to move lines up in what is left to it (the side to move
    # uses the same strategy after one move of its own). The root settles these windows at once (as minimax says,
    # including how late the win comes), where claimeven alone searched 9-402 positions (found by random sampling)
    r, true = root_window_settled_at_once(width, height, line, window, two_words)
    if r <= window:
        assert true <= r
    else:
        assert true >= r
    assert (true > window) == (r > window)


@pytest.mark.parametrize(
    ("width", "height", "connect", "two_words"), [(5, 4, 4, False), (5, 4, 4, True), (4, 5, 3, False)]
)
def test_a_null_window_search_returns_a_true_bound_on_the_side_it_fails(width, height, connect, two_words):
    # the search fails soft: a test "score > m?" answers with a bound r that must hold (true <= r when r <= m,
    # true >= r otherwise) though it may lie beyond m; the table keeps those bounds from one window to the next
    rng = random.Random(f"soft{width}x{height}c{connect}")
    small = Solver(width, height, connect, table_bits=16, two_words=two_words)
    cells = width * height
    for _ in range(30):
        moves = random_open_position(rng, width, height, connect, rng.randrange(8, cells - 5))
        grid = grid_of(moves, width)
        if any(
            len(grid[c]) < height
            and completes_line(
                width, connect, c, len(grid[c]), grid[:c] + (grid[c] + (len(moves) % 2,),) + grid[c + 1 :]
            )
            for c in range(width)
        ):
            continue  # the side to move wins at once: not a position the search is asked about
        true = minimax_score(width, height, connect, grid)
        p, mask, n = small.driver.position(moves)
        small.reset()
        for m in rng.sample(range(-(cells - n) // 2, (cells + 1 - n) // 2), 4):
            r = small.driver.search(p, mask, n, m, m + 1, 1 << 40)
            if r <= m:
                assert true <= r, (moves, m, r, true)
            else:
                assert true >= r, (moves, m, r, true)


# -- best_move ------------------------------------------------------------------------------------------


def test_best_move_without_budget_is_exact_and_names_exactly_the_best_columns():
    small = Solver(5, 4, 4, table_bits=16)
    rng = random.Random(5)
    for _ in range(10):
        moves = random_open_position(rng, 5, 4, 4, 8)
        scores = small.analyze(moves)
        top = max(s for s in scores if s is not None)
        result = small.best_move(moves)
        assert isinstance(result, SearchResult) and result.exact and result.depth is None
        assert result.scores == tuple(scores), moves
        assert scores[result.column] == top
        only_best = small.best_move(moves, all_scores=False)
        assert only_best.scores == tuple(s if s == top else None for s in scores), moves


def test_best_move_on_known_positions_plays_a_column_keeping_the_score(solver):
    for moves, expected in read_set("Test_L1_R1", 10) + read_set("Test_L2_R2", 5):
        result = solver.best_move(parse_pons_moves(moves), all_scores=False)
        assert result.exact and result.scores[result.column] == expected
        assert solver.solve(parse_pons_moves(moves) + [result.column]) == -expected


def test_best_move_picks_at_random_among_equally_scored_columns():
    small = Solver(4, 4, 3, table_bits=16)
    moves = []  # the empty board is symmetric, so mirror columns score the same
    scores = small.analyze(moves)
    best = max(s for s in scores if s is not None)
    ties = {c for c, s in enumerate(scores) if s == best}
    chosen = {small.best_move(moves, rng=random.Random(seed)).column for seed in range(40)}
    assert chosen <= ties
    assert len(chosen) == len(ties) > 1


def test_best_move_with_tiny_budget_falls_back_to_depth_limited_search():
    full = Solver()
    moves = [3, 3, 2]
    result = full.best_move(moves, max_nodes=2_000)
    assert not result.exact
    assert result.depth is not None and result.depth >= 1
    assert 0 <= result.column < 7
    assert full.explored <= 2_000 + 7 * 8  # depth 1 always completes


@pytest.mark.slow
def test_best_move_keeps_a_proven_win_when_only_the_outcome_fits_the_budget():
    # a won 7x6 position whose outcome takes ~27 k positions and its strong score ~237 k (fresh table)
    moves = [5, 6, 2, 1, 2, 1, 5, 3, 5, 5, 0, 0]
    solver = Solver(table_bits=20)
    exact = solver.analyze(moves)
    solver.reset()
    result = solver.best_move(moves, max_nodes=100_000)
    assert result.exact and result.weak and result.depth is None
    assert exact[result.column] > 0  # a winning column, though not every one is named
    assert [c for c, s in enumerate(result.scores) if s is not None] == [result.column]
    assert result.scores[result.column] == 1
    solver.reset()
    roomy = solver.best_move(moves, max_nodes=10_000_000)  # with room, the strong score as before
    assert roomy.exact and not roomy.weak and roomy.scores[roomy.column] == max(s for s in exact if s is not None)


def _shipped_book_of_depth_7():
    """The shipped 7x6 book cut to depth 7 (these positions are chosen for that depth: ply 7 is its deepest)."""
    from gridgames_connect4.solve.book import default_book

    book = default_book(7, 6, 4)
    if book is None or book.depth < 7:
        pytest.skip("these positions need a shipped 7x6 book of depth 7 or more")
    return book.shallower(7)


# perfect's budget at --think 2 when the fixed rate was 3 M/s (today 13.3 M): stricter
PERFECTS_BUDGET = 8_000_001


@pytest.mark.slow
def test_best_move_finds_the_one_column_left_when_every_other_falls_short():
    # ply 7, the book's deepest: a draw (book), and only column 3 keeps it; proving that alone takes ~10.7 M
    # positions, proving that the other six lose ~2 M in all, so the draw move is known by elimination
    book = _shipped_book_of_depth_7()
    moves = parse_pons_moves("3663663")
    solver = Solver(book=book)
    result = solver.best_move(moves, max_nodes=PERFECTS_BUDGET, all_scores=False)
    assert result.exact and not result.weak and result.column == 2 and result.scores[2] == 0
    assert solver.explored < 4_000_000


@pytest.mark.slow
@pytest.mark.parametrize("text", ["2353552", "1276667"])
def test_best_move_keeps_the_win_at_the_books_deepest_ply(text):
    # won positions of ply 7 (the book has their score, +3, not their children's) where proving a column of
    # score +3 takes 8-9 M positions: a search for a win at the root, the book left out there, finds a winning
    # column in ~1.3-1.7 M (yellow's move at ply 7 fell back on the depth-limited search before); the children's
    # other parents in the book can rule enough columns out for a column of score +3 to be known instead
    book = _shipped_book_of_depth_7()
    moves = parse_pons_moves(text)
    solver = Solver(book=book)
    result = solver.best_move(moves, max_nodes=PERFECTS_BUDGET, all_scores=False)
    assert book.score(moves) == 3 and result.exact
    if result.weak:
        assert result.scores[result.column] == 1
        # the opponent loses after it
        assert Solver().solve([*moves, result.column], weak=True) == -1
    else:
        assert result.scores[result.column] == 3
        assert Solver().solve([*moves, result.column]) == -3  # the column keeps the score


@pytest.mark.slow
def test_best_move_at_the_books_deepest_ply_is_exact_when_the_win_found_is_the_score():
    # ply 7, won by +1 with one winning column: proving it among the others takes 8.5 M positions, a search for a
    # win at the root 4.6 M, and a column that wins has the score +1 itself
    book = _shipped_book_of_depth_7()
    moves = parse_pons_moves("2333321")
    solver = Solver(book=book)
    result = solver.best_move(moves, max_nodes=PERFECTS_BUDGET, all_scores=False)
    assert book.score(moves) == 1 and result.exact and not result.weak and result.column == 1
    assert result.scores[1] == 1


def test_budgeted_best_move_scores_the_columns_that_lose_at_once():
    full = Solver(table_bits=16)
    # the opponent has three on the bottom row (columns 0-2): every column but 3 loses at once
    result = full.best_move([0, 6, 1, 6, 2], max_nodes=300)
    assert result.column == 3
    if not result.exact:
        assert [c for c, s in enumerate(result.scores) if s is not None] == [0, 1, 2, 4, 5, 6]
    assert all(s == -((42 - 5) // 2) for c, s in enumerate(result.scores) if c != 3 and s is not None)


def test_exact_best_move_within_budget_fills_scores_while_the_budget_lasts(solver):
    moves, _ = read_set("Test_L2_R1", 1)[0]
    columns = parse_pons_moves(moves)
    solver.reset()
    exact = solver.analyze(columns)
    solver.reset()
    result = solver.best_move(columns, max_nodes=50_000_000)
    assert result.exact and result.scores == tuple(exact)


def test_best_move_takes_an_immediate_win_and_blocks_one():
    full = Solver(table_bits=16)
    # the side to move has three in column 0 and wins by playing it again
    assert full.best_move([0, 1, 0, 1, 0, 2], max_nodes=10).column == 0
    # the opponent threatens the bottom row at column 3: only blocking does not lose at once
    assert full.best_move([0, 6, 1, 6, 2], max_nodes=200).column == 3


def test_best_move_on_a_full_board_is_an_error():
    tiny = Solver(3, 3, 3, table_bits=16)
    full_draw = [0, 1, 2, 1, 0, 2, 1, 0, 2]  # no three in a row anywhere
    assert tiny.solve(full_draw) == 0
    with pytest.raises(SolverError):
        tiny.best_move(full_draw)


# -- input validation, sizes, helpers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "error"),
    [
        ([7], InvalidMoveError),
        ([-1], InvalidMoveError),
        (["4"], InvalidMoveError),
        ([1.0], InvalidMoveError),
        ([0] * 7, IllegalMoveError),
        ([0, 1, 0, 1, 0, 1, 0, 1], GameOverError),
        ([0, 1, 0, 1, 0, 1, 0], SolverError),
    ],
)
def test_bad_move_lists_are_rejected(solver, moves, error):
    with pytest.raises(error):
        solver.solve(moves)
    with pytest.raises(error):
        solver.analyze(moves)


@pytest.mark.parametrize(
    ("width", "height", "connect"),
    [(12, 10, 4), (20, 6, 4), (7, 6, 2), (7, 6, 7), (0, 6, 4)],
)
def test_boards_beyond_128_bits_and_bad_connect_lengths_are_rejected(width, height, connect):
    with pytest.raises(SolverError):
        Solver(width, height, connect, table_bits=16)


def test_table_bits_out_of_range_is_rejected():
    with pytest.raises(SolverError):
        Solver(table_bits=40)


def test_default_tables_stay_under_64_mib_even_on_a_full_64_bit_board():
    assert Solver().table_bytes < 64 * 2**20
    assert Solver(10, 10).table_bytes < 64 * 2**20
    big = Solver(8, 7)  # 8 * (7 + 1) = 64 bits: needs whole keys in the table
    assert big.table_bytes < 64 * 2**20
    moves = random_open_position(random.Random(8), 8, 7, 4, 44)
    scores = big.analyze(moves)
    assert max(s for s in scores if s is not None) == big.solve(moves)


def test_nodes_for_seconds_scales_with_the_time_budget():
    assert nodes_for_seconds(2.0, rate=1_000) == 2_000
    assert nodes_for_seconds(0.0) == 1
    assert Solver(table_bits=16).nodes_for_seconds(1.0) > 0
    with pytest.raises(SolverError):
        nodes_for_seconds(-1.0)


def test_parse_pons_moves_converts_one_based_digits():
    assert parse_pons_moves("4453") == [3, 3, 4, 2]
    with pytest.raises(InvalidMoveError):
        parse_pons_moves("40")
    with pytest.raises(InvalidMoveError):
        parse_pons_moves("4a")


def test_solve_accepts_numpy_integers(solver):
    assert solver.solve(np.array([3, 3, 3, 3, 2, 2, 2], dtype=np.int64)) == solver.solve([3, 3, 3, 3, 2, 2, 2])


# -- the search's table, symmetry, batches and slices ----------------------------------------------------


def test_mirrored_positions_score_the_same_and_match_minimax():
    rng = random.Random(11)
    small = Solver(5, 4, 4, table_bits=16)
    for _ in range(25):
        moves = random_open_position(rng, 5, 4, 4, rng.randrange(3, 12))
        mirrored = [4 - c for c in moves]
        expected = minimax_score(5, 4, 4, grid_of(moves, 5))
        small.reset()
        assert small.solve(moves) == expected, moves
        # found in the table under the shared key
        assert small.solve(mirrored) == expected, mirrored
        small.reset()
        assert small.solve(mirrored) == expected, mirrored
        assert small.analyze(mirrored) == small.analyze(moves)[::-1]


@pytest.mark.parametrize("table_mb", [0.0625, 1, 16, None])
def test_the_table_and_its_generations_are_aligned_to_cache_lines_or_huge_pages(table_mb):
    solver = Solver(table_mb=table_mb)
    table = solver.driver.table
    for array, count in ((table.entries, table.buckets * 8), (table.gens, table.buckets)):
        assert array.shape == (count,) and not array.any()
        line = 2 << 20 if array.nbytes >= 1 << 20 else 64  # from 1 MiB on: a huge-page boundary
        assert array.ctypes.data % line == 0
    moves = [3, 3, 2, 4, 2, 4, 5, 1, 1, 5]
    assert solver.solve(moves) == Solver(table_mb=1).solve(moves)


def test_the_tables_subtree_size_is_the_bit_length_of_the_count():
    from gridgames_connect4.solve.engine.table import bit_length

    for x in [0, 1, 2, 3, 4, 7, 8, 1000, 2**31 - 1, 2**31, 2**40 + 5, 2**62 + 1]:
        assert bit_length(x) == x.bit_length(), x


def test_reset_forgets_the_table_so_a_repeated_solve_explores_as_much_again(solver):
    moves = parse_pons_moves(read_set("Test_L2_R2", 1)[0][0])
    solver.reset()
    first = solver.solve(moves), solver.explored
    again = solver.solve(moves), solver.explored
    # answered from the table
    assert first[1] > 1000 and again[0] == first[0] and again[1] < first[1] // 10
    # past the 16-bit generation counter's wrap-around, which clears the bucket tags
    for _ in range(70_000):
        solver.reset()
    assert (solver.solve(moves), solver.explored) == first
    solver.solve(moves)
    solver.reset()
    # the first reset after the wrap forgets again
    assert (solver.solve(moves), solver.explored) == first


def test_solve_checks_the_moves_it_is_given(solver):
    for bad, error in [
        ([3, 1.5], InvalidMoveError),
        ([7], InvalidMoveError),
        ([-1], InvalidMoveError),
        ("44", InvalidMoveError),
        ([2**70], InvalidMoveError),
        ([0] * 7, IllegalMoveError),
        ([0, 1, 0, 1, 0, 1, 0, 1], GameOverError),
        ([0, 1, 0, 1, 0, 1, 0], SolverError),
    ]:
        with pytest.raises(error):
            solver.solve(bad)
        with pytest.raises(error):
            solver.solve_many([[3], bad])
    # any sequence of column numbers (a 12-disc line: 0.2 M positions)
    line = [3, 3, 2, 4, 2, 4, 5, 1, 1, 5, 6, 0]
    assert solver.solve(np.array(line, dtype=np.int64)) == solver.solve(tuple(line)) == solver.solve(line)


def test_solve_many_matches_one_solve_at_a_time_and_counts_each_position(solver):
    rng = random.Random(5)
    positions = [random_open_position(rng, 7, 6, 4, rng.randrange(10, 30)) for _ in range(30)]
    expected, counts = [], []
    for moves in positions:
        solver.reset()
        expected.append(solver.solve(moves))
        counts.append(solver.explored)
    assert solver.solve_many(positions) == expected
    assert solver.explored_each == counts and solver.explored == sum(counts)
    weak = solver.solve_many(positions, weak=True)
    assert weak == [(e > 0) - (e < 0) for e in expected]


def test_analyze_many_matches_analyze():
    rng = random.Random(8)
    small = Solver(6, 5, 4, table_bits=16)
    positions = [random_open_position(rng, 6, 5, 4, rng.randrange(4, 20)) for _ in range(15)]
    expected = [small.analyze(moves) for moves in positions]
    assert small.analyze_many(positions) == expected
    assert small.analyze_many(positions, weak=True) == [
        [None if s is None else (s > 0) - (s < 0) for s in row] for row in expected
    ]


def test_a_search_run_in_slices_gives_the_same_score_and_count(solver, monkeypatch):
    from gridgames_connect4.solve import search_driver

    moves = parse_pons_moves("52753311433677442422121")
    solver.reset()
    whole = solver.solve(moves), solver.explored
    monkeypatch.setattr(search_driver, "_SLICE", 97)
    seen: list = []
    solver.reset()
    assert (solver.solve(moves, on_progress=seen.append), solver.explored) == whole
    assert solver.driver.watch is None  # the watcher lasted the call only
    assert len(seen) >= whole[1] // 97 - 1
    assert all(p.lo <= p.hi for p in seen)


@pytest.mark.slow
def test_on_progress_returning_false_stops_the_search():
    halted = Solver(table_bits=16)
    stop = lambda progress: False  # noqa: E731
    assert halted.solve_within(parse_pons_moves("4"), on_progress=stop) is None
    assert halted.analyze(parse_pons_moves("4"), on_progress=stop) == [None] * 7
    # the first depth always completes
    assert halted.best_move(parse_pons_moves("4"), on_progress=stop).depth == 1
    with pytest.raises(SolverError, match="stopped by on_progress"):
        halted.solve(parse_pons_moves("4"), on_progress=stop)
    assert halted.solve(parse_pons_moves("444444")) == halted.solve_within(parse_pons_moves("444444"))


# -- who wins on small boards (Tromp's table, in ../shared/notes/connect4.md) --------------------------

TROMP = {  # (width, height): +1 first player wins, 0 draw, -1 second player wins
    (4, 4): 0,
    (5, 4): 0,
    (6, 4): -1,
    (7, 4): 0,
    (4, 5): 0,
    (5, 5): 0,
    (6, 5): 0,
    (4, 6): 0,
    (5, 6): 0,
    (4, 7): 0,
}


@pytest.mark.parametrize(("width", "height"), sorted(TROMP))
def test_tromps_results_for_every_board_with_width_plus_height_up_to_11(width, height):
    assert Solver(width, height, table_bits=20).solve([], weak=True) == TROMP[width, height]


def test_a_bounded_solve_steps_up_from_the_bound_with_fewer_positions_than_bisection(solver, monkeypatch):
    """solve(lower=...) asks "above the bound?", then each next score up (fail-soft), not the kernel's bisection."""
    stepping = bisecting = 0
    bounded = []
    for moves, parent in read_set("Test_L2_R2", 12):
        for column, child_score in enumerate(solver.analyze(parse_pons_moves(moves))):
            if child_score is not None and child_score != solver.win_score(len(moves)) and child_score < parent:
                # not a best move
                bounded.append(([*parse_pons_moves(moves), column], -parent, -child_score))
    for child, lower, score in bounded:
        solver.reset()
        assert solver.solve(child, lower=lower) == score
        stepping += solver.explored
    monkeypatch.setattr(SearchDriver, "step_search", bisecting_step_search)
    for child, lower, score in bounded:
        solver.reset()
        assert solver.solve(child, lower=lower) == score
        bisecting += solver.explored
    assert len(bounded) >= 50 and stepping < 0.95 * bisecting


@pytest.mark.slow
def test_best_move_steps_its_score_and_the_other_columns_out_from_0_with_fewer_positions_than_bisection(monkeypatch):
    """Two random positions of 10 discs (columns -3 to 4): the same move and scores, 0.82x and 0.94x the positions."""
    solver = Solver()
    stepping, chosen = 0, []
    for moves in ("4443121636", "3476251253"):
        solver.reset()
        chosen.append(solver.best_move([int(ch) - 1 for ch in moves], rng=random.Random(1)))
        stepping += solver.explored
    # the kernel's bisection, as before
    monkeypatch.setattr(SearchDriver, "step_search", bisecting_step_search)
    bisecting = 0
    for moves, result in zip(("4443121636", "3476251253"), chosen):
        solver.reset()
        assert solver.best_move([int(ch) - 1 for ch in moves], rng=random.Random(1)) == result
        bisecting += solver.explored
    assert stepping < 0.95 * bisecting


@pytest.mark.slow
def test_solve_within_with_step_gives_the_same_scores_with_fewer_positions_on_a_position_in_play():
    """The seven columns of 4443121636 (10 random discs, scores -3 to 4) as analyze --jobs N's workers solve them."""
    solver = Solver()
    explored = {False: 0, True: 0}
    scores: dict[bool, list[int | None]] = {False: [], True: []}
    for column in range(7):
        for step in (False, True):
            solver.reset()
            scores[step].append(solver.solve_within([*parse_pons_moves("4443121636"), column], step=step))
            explored[step] += solver.explored
    assert scores[True] == scores[False] == [-s for s in solver.analyze(parse_pons_moves("4443121636"))]
    assert explored[True] < 0.9 * explored[False]  # 0.79x measured
