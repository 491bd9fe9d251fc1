"""Books wired into the answers: the oracle, analyze_position, hints, hard and perfect give the solver's scores."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4 import heuristic, levels
from gridgames_connect4.solve import policy, solver_cache
from gridgames_connect4.position.geometry import Geometry
from gridgames_connect4.solve.search_driver import SearchDriver
from gridgames_connect4.teach.analysis import analyze_position
from gridgames_connect4.solve.scorer import Limits, score_columns
from gridgames_connect4.solve.book import Book, BookError, BookKeys
from gridgames_connect4.solve.book_build import build_book
from gridgames_connect4.solve.oracle import best_from_book, book_columns
from gridgames_connect4.levels import advise, make_player
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.connect4_positions import random_positions as _random_positions

BOARDS = [(4, 4, 8), (5, 4, 8), (6, 4, 5)]  # width, height, depth: each builds in about a second


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], Book]:
    folder = tmp_path_factory.mktemp("oracle-books")
    found = {}
    for width, height, depth in BOARDS:
        path = folder / f"{width}x{height}.bin"
        build_book(width, height, 4, depth, path, table_bits=18)
        found[width, height] = Book.load(path, width=width, height=height, connect=4)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "depth"), BOARDS)
def test_the_book_answers_every_column_before_its_depth_as_the_solver(
    books: dict, width: int, height: int, depth: int
) -> None:
    book = books[width, height]
    game = Connect4(width, height, 4)
    solver = Solver(width, height, 4, table_bits=18)
    for moves in [[], *_random_positions(game, range(depth), 60, seed=width * 10 + height)]:
        scores = book_columns(book, moves)
        assert scores == solver.analyze(moves), moves
        assert book_columns(book, moves, weak=True) == solver.analyze(moves, weak=True), moves


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "depth"), BOARDS)
def test_positions_at_or_past_the_depth_go_to_the_solver(books: dict, width: int, height: int, depth: int) -> None:
    book = books[width, height]
    game = Connect4(width, height, 4)
    solver = Solver(width, height, 4, table_bits=18)
    for moves in _random_positions(game, range(depth, min(depth + 3, width * height - 1)), 10, seed=depth):
        assert book_columns(book, moves) is None
        found = score_columns(game.from_moves(moves), Limits(book=book))
        assert (list(found.columns), found.from_book) == (solver.analyze(moves), False), moves
    found = score_columns(game.new_state(), Limits(book=book))
    assert found.from_book and list(found.columns) == solver.analyze([])


@pytest.mark.slow
@pytest.mark.parametrize("weak", [False, True])
def test_analyze_position_with_a_book_equals_without(books: dict, weak: bool) -> None:
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    for moves in [[], *_random_positions(game, range(11), 25, seed=3)]:
        state = game.from_moves(moves)
        with_book = analyze_position(state, Limits(weak=weak, book=book))
        without = analyze_position(state, Limits(weak=weak))
        assert with_book == without, moves


def test_a_book_for_another_board_is_refused_everywhere(books: dict) -> None:
    book = books[4, 4]
    game = Connect4(5, 4, 4)
    with pytest.raises(BookError, match="book for 4x4 with lines of 4, not 5x4"):
        analyze_position(game.new_state(), Limits(book=book))
    with pytest.raises(BookError, match="not 5x4"):
        make_player("perfect", game, random.Random(0), book=book)
    with pytest.raises(BookError, match="not 5x4"):
        advise(game.new_state(), random.Random(0), book=book)
    with pytest.raises(BookError, match="not 5x4"):
        score_columns(game.new_state(), Limits(book=book))


def test_the_hint_from_a_book_has_the_solvers_scores(books: dict) -> None:
    book = books[6, 4]
    game = Connect4(6, 4, 4)
    solver = Solver(6, 4, 4, table_bits=18)
    for moves in _random_positions(game, range(5), 12, seed=8):
        state = game.from_moves(moves)
        advice = advise(state, random.Random(1), think=30, book=book)
        exact = solver.analyze(moves)
        assert advice.scores == tuple(exact), moves
        assert exact[advice.column] == max(s for s in exact if s is not None)


@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 4)])
def test_perfect_with_a_book_plays_only_optimal_moves(books: dict, width: int, height: int) -> None:
    """Perfect against random from random openings: every move keeps the best score (checked with the solver)."""
    book = books[width, height]
    game = Connect4(width, height, 4)
    solver = Solver(width, height, 4, table_bits=18)
    rng = random.Random(width)
    perfect = make_player("perfect", game, random.Random(2), think=30.0, book=book)
    opponent = make_player("random", game, rng)
    checked = 0
    for _ in range(8):
        state = game.new_state()
        for _ in range(rng.randrange(0, 3)):
            state.play(rng.choice(list(state.legal_moves())))
        hero = state.current_player
        while not state.is_over:
            if state.current_player != hero:
                state.play(opponent.choose(state))
                continue
            scores = solver.analyze(list(state.history))
            column = perfect.choose(state)
            assert scores[column] == max(s for s in scores if s is not None), (state.notation(), column, scores)
            assert perfect.note == ""
            state.play(column)
            checked += 1
    # the book and the solver both answered
    assert perfect.from_book >= 8 and checked > perfect.from_book


def test_hard_plays_the_books_best_move_unless_it_slips(books: dict) -> None:
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    hard = make_player("hard", game, random.Random(4), think=0.2, book=book)
    for moves in _random_positions(game, range(1, 8), 40, seed=5):
        state = game.from_moves(moves)
        if levels.forced_move(state, random.Random(0)) is not None:
            continue
        before = hard.from_book
        column = hard.choose(state)
        if hard.from_book > before:
            found = best_from_book(book, moves)
            assert found is not None
            scores = found[1]
            assert scores[column] == max(s for s in scores if s is not None), moves
    assert hard.from_book >= 20


@pytest.mark.slow
def test_perfect_plays_exactly_whenever_the_solver_answers_within_think(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole think budget goes to the exact search: a position needing N nodes is exact with think worth N nodes."""
    from gridgames_connect4.solve.solver import DEFAULT_NODE_RATE

    # the node budget alone decides (the wall-clock deadline backs it up on slow machines)
    class StoppedClock:
        @staticmethod
        def monotonic() -> float:
            return 0.0

    monkeypatch.setattr(levels, "time", StoppedClock)

    game = Connect4()
    # 7x6, no forced move, a few million positions to solve
    moves = list(game.from_notation("44444362").history)
    solver = Solver()
    exact = solver.best_move(moves, all_scores=False)
    needed = solver.explored
    assert exact.exact and needed > 100_000
    best = solver.solve(moves)
    # won: with less time the outcome (688 k positions) is proven before the score (3.2 M in all)
    assert best > 0
    for share, expected in ((0.1, "depth-limited"), (0.3, "keeps the win"), (1.05, "exact")):
        solver_cache.clear()  # a fresh table, as the count above
        perfect = make_player("perfect", game, random.Random(0), think=share * needed / DEFAULT_NODE_RATE)
        column = perfect.choose(game.from_moves(moves))
        if expected == "exact":
            assert perfect.note == "" and -solver.solve([*moves, column]) == best
        elif expected == "keeps the win":
            assert perfect.note == "" and -solver.solve([*moves, column]) > 0
        else:
            assert perfect.note.startswith("depth-limited search (depth ")
    solver_cache.clear()


# A position at the shipped book's deepest ply with one winning column, by the book's depth: there
# the book gives the position's score but not its columns', which the solver must prove.
# +1 each, won by column 1, 5 and 5 (the depth-10 one beside a drawing column)
_NARROW_WIN_AT_DEPTH = {8: "44444222", 9: "121456566", 10: "7635161352"}


@pytest.mark.slow
def test_perfect_keeps_a_narrow_win_at_the_shipped_books_deepest_ply_within_the_default_think() -> None:
    """A +1 position at the book's deepest ply has one winning column: perfect finds it in time."""
    from gridgames_connect4.solve.book import default_book

    book = default_book()
    if book is None or book.depth not in _NARROW_WIN_AT_DEPTH:
        pytest.skip(f"no narrow-win position listed for the shipped book's depth {getattr(book, 'depth', None)}")
    game = Connect4()
    state = game.from_notation(_NARROW_WIN_AT_DEPTH[book.depth])
    solver_cache.clear()  # a fresh table: the think budget alone must do it
    perfect = make_player("perfect", game, random.Random(0), book=book)  # the default think
    column = perfect.choose(state)
    solver_cache.clear()
    assert perfect.note == ""  # exact, not the depth-limited fallback
    # the position's score (+1): the win is kept
    assert -Solver(book=book).solve([*state.history, column]) == 1
    assert sum(score > 0 for score in Solver(book=book).analyze(state.history) if score is not None) == 1


def _on_driver(solver: Solver, driver_class: type[SearchDriver]) -> Solver:
    """``solver`` searching through a driver of ``driver_class`` (a fresh one, of the same settings)."""
    d = solver.driver
    solver.driver = driver_class(
        d.width, d.height, d.connect, d.table_bits, d.table_mb, d.two_words, d.jobs, d.book, d.kernels
    )
    return solver


class _RootBoundOnly(SearchDriver):
    """The driver as before the children's other parents were used: only the position's own score bounds them."""

    def bounds_by_parents(self, p: int, mask: int) -> dict[int, int]:
        assert self.book is not None
        own = self.book.score_of_key(BookKeys(self.width, self.height, self.connect).canonical(p + mask))
        return {} if own is None else dict.fromkeys(super().bounds_by_parents(p, mask), -own)


def _analyze_alike(
    moves: list[int], exact: list[int | None], solvers: dict[str, Solver], explored: dict[str, int]
) -> None:
    """Each solver (its table reset) scores every column after `moves` as `exact`; adds its positions to `explored`."""
    for name, solver in solvers.items():
        solver.reset()
        assert solver.analyze(moves) == exact, (name, moves)
        explored[name] += solver.explored


def test_at_the_books_deepest_ply_every_parent_bounds_the_children_and_the_scores_stay_exact(books: dict) -> None:
    """5x4, depth-8 book: analyze and best_move at ply 8 agree with the solver alone, with fewer positions."""
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    plain = Solver(5, 4, 4, table_bits=18)
    with_parents = Solver(5, 4, 4, table_bits=18, book=book)
    root_only = _on_driver(Solver(5, 4, 4, table_bits=18, book=book), _RootBoundOnly)
    explored = {"parents": 0, "root": 0}
    for moves in _random_positions(game, range(8, 9), 40, seed=21):
        exact = plain.analyze(moves)
        _analyze_alike(moves, exact, {"parents": with_parents, "root": root_only}, explored)
        result = with_parents.best_move(moves, max_nodes=200_000, all_scores=False)
        assert result.exact and exact[result.column] == max(s for s in exact if s is not None), moves
    assert explored["parents"] < explored["root"]  # some children were settled or started higher


@pytest.mark.parametrize("plain_first", [0, None])
def test_one_disc_past_the_book_its_parents_bound_the_score_and_it_stays_exact(
    books: dict, plain_first: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5x4, depth-8 book, ply 9: solve and best_move agree with the solver alone. With the parents' bound from the
    start (plain_first 0) solve explores fewer positions; by default (the kernel's bisection first, on a budget these
    small positions never outlast) exactly as many as the solver alone: the book never costs positions."""
    from gridgames_connect4.solve import search_driver

    if plain_first is not None:
        monkeypatch.setattr(search_driver, "_PLAIN_FIRST", plain_first)
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    plain = Solver(5, 4, 4, table_bits=18)
    with_book = Solver(5, 4, 4, table_bits=18, book=book)
    explored = {"book": 0, "plain": 0}
    for moves in _random_positions(game, range(9, 10), 40, seed=31):
        plain.reset()
        exact = plain.solve(moves)
        explored["plain"] += plain.explored
        with_book.reset()
        assert with_book.solve(moves) == exact, moves
        explored["book"] += with_book.explored
        columns = plain.analyze(moves)
        result = with_book.best_move(moves, max_nodes=200_000, all_scores=False)
        assert result.exact and columns[result.column] == exact == max(s for s in columns if s is not None), moves
    if plain_first == 0:
        assert explored["book"] < explored["plain"]
    else:
        assert explored["book"] == explored["plain"]


def test_the_batch_call_solves_positions_one_disc_past_the_book_as_solve_does(books: dict) -> None:
    """5x4, depth-8 book: solve_many over plies 6-11 gives solve's scores and explored counts, position by position."""
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    alone = Solver(5, 4, 4, table_bits=18, book=book)
    batch = Solver(5, 4, 4, table_bits=18, book=book)
    past = _random_positions(game, range(9, 10), 8, seed=41)  # one disc past the book
    others = _random_positions(game, range(6, 12), 8, seed=42)
    positions = [moves for pair in zip(others, past) for moves in pair]
    expected, counts = [], []
    for moves in positions:
        alone.reset()
        expected.append(alone.solve(moves))
        counts.append(alone.explored)
    assert batch.solve_many(positions) == expected
    assert batch.explored_each == counts
    plain = Solver(5, 4, 4, table_bits=18)
    assert plain.solve_many(positions) == expected
    assert batch.solve_many(positions, weak=True) == [(e > 0) - (e < 0) for e in expected]


def _wins_at_once(game: Connect4, moves: list[int]) -> bool:
    """Whether the side to move after `moves` has a move that wins the game."""
    geometry = Geometry.of(game.width, game.height, game.connect)
    return bool(heuristic.immediate_wins(geometry, *game.from_moves(moves).bitboard))


class _NoBoundsWhenWinningAtOnce(SearchDriver):
    """The driver as before: at the book's deepest ply, a position that wins at once gave its children no bounds."""

    def bounds_by_parents(self, p: int, mask: int) -> dict[int, int]:
        if self.wins_at_once(p, mask):
            return {}
        return super().bounds_by_parents(p, mask)


def test_at_the_books_deepest_ply_a_position_that_wins_at_once_still_bounds_its_other_columns(books: dict) -> None:
    """5x4, depth-8 book, ply 8 with a win at once (not in the book): the other children's parents still bound them."""
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    plain = Solver(5, 4, 4, table_bits=18)
    with_book = Solver(5, 4, 4, table_bits=18, book=book)
    before = _on_driver(Solver(5, 4, 4, table_bits=18, book=book), _NoBoundsWhenWinningAtOnce)
    explored = {"now": 0, "before": 0}
    winning = [moves for moves in _random_positions(game, range(8, 9), 300, seed=41) if _wins_at_once(game, moves)]
    assert len(winning) >= 5
    for moves in winning:
        _analyze_alike(moves, plain.analyze(moves), {"now": with_book, "before": before}, explored)
    assert explored["now"] < explored["before"]


def _fill_scores_unbounded(
    d: SearchDriver,
    p: int,
    mask: int,
    n: int,
    scores: list[int | None],
    playable: list[int],
    budget: int,
    bounds: dict[int, int] | None = None,
) -> None:
    """best_move's scores of its other columns as before: without their parents' bounds."""
    _FILL_SCORES(d, p, mask, n, scores, playable, budget)


_FILL_SCORES = policy._fill_scores


def test_at_the_books_deepest_ply_best_moves_other_columns_start_from_their_parents_bounds(
    books: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5x4, depth-8 book, ply 8: best_move's scores of every column are exact, with fewer positions than unbounded."""
    book = books[5, 4]
    game = Connect4(5, 4, 4)
    plain = Solver(5, 4, 4, table_bits=18)
    explored = {"now": 0, "before": 0}
    for moves in _random_positions(game, range(8, 9), 40, seed=51):
        exact = plain.analyze(moves)
        for name in ("now", "before"):
            with monkeypatch.context() as patch:
                if name == "before":
                    patch.setattr(policy, "_fill_scores", _fill_scores_unbounded)
                solver = Solver(5, 4, 4, table_bits=18, book=book)
                result = solver.best_move(moves, rng=random.Random(0))
            assert result.exact and list(result.scores) == exact, (name, moves)
            explored[name] += solver.explored
    assert explored["now"] < explored["before"]
