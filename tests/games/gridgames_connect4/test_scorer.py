"""The one scoring seam (`gridgames_connect4.solve.scorer`): against a naive minimax on small boards, and against
the shipped opening book on 7x6, once for every caller that goes through it."""

from __future__ import annotations

import functools
import random

import pytest

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames.errors import GameOverError
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.book import default_book
from gridgames_connect4.solve.scorer import Limits, score_columns
from gridgames_connect4.solve.solver import Solver


def _naive_columns(width: int, height: int, connect: int, moves: tuple[int, ...]) -> list[int | None]:
    """Each column's score by plain minimax over the rules (no bitboards, no pruning): Pons' convention, a win with
    the disc played at ply i scoring (cells + 1 - i) // 2 for its side."""
    game = Connect4(width, height, connect)
    cells = width * height

    @functools.cache
    def value(played: tuple[int, ...]) -> int:
        return max(s for s in columns(played) if s is not None)

    def columns(played: tuple[int, ...]) -> list[int | None]:
        out: list[int | None] = []
        for c in range(width):
            state = game.from_moves(list(played))
            if not state.is_legal(c):
                out.append(None)
                continue
            state.play(c)
            if state.outcome is not None and state.outcome.winner is not None:
                out.append((cells + 1 - len(played)) // 2)
            elif state.outcome is not None:
                out.append(0)
            else:
                out.append(-value((*played, c)))
        return out

    return columns(moves)


def _positions(width: int, height: int, connect: int, plies: int, count: int, seed: int) -> list[tuple[int, ...]]:
    """Random unfinished positions of ``plies`` discs."""
    rng, game, found = random.Random(seed), Connect4(width, height, connect), []
    while len(found) < count:
        state = game.new_state()
        for _ in range(plies):
            if state.is_over:
                break
            state.play(rng.choice([c for c in range(width) if state.is_legal(c)]))
        if not state.is_over and len(state.history) == plies:
            found.append(tuple(state.history))
    return found


@pytest.mark.parametrize(("width", "height", "connect", "plies"), [(4, 4, 3, 6), (5, 4, 4, 10), (4, 5, 3, 8)])
def test_the_scores_are_minimaxs_on_small_boards(width: int, height: int, connect: int, plies: int) -> None:
    game = Connect4(width, height, connect)
    for moves in _positions(width, height, connect, plies, count=4, seed=width * 10 + plies):
        expected = _naive_columns(width, height, connect, moves)
        strong = score_columns(game.from_moves(list(moves)), Limits())
        assert strong.exact and not strong.from_book and list(strong.columns) == expected, moves
        solver = Solver(width, height, connect)
        assert solver.analyze(list(moves)) == expected and strong.explored == solver.explored, moves
        weak = score_columns(game.from_moves(list(moves)), Limits(weak=True))
        assert list(weak.columns) == [None if s is None else (s > 0) - (s < 0) for s in expected], moves


def test_the_book_answers_as_the_solver_does_on_7x6() -> None:
    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no shipped 7x6 book")
    game = Connect4()
    # at the book's depth - 1 the book answers every column; the solver (told of no book) must agree
    for moves in _positions(7, 6, 4, book.depth - 1, count=2, seed=7):
        state = game.from_moves(list(moves))
        from_book = score_columns(state, Limits(book=book))
        solved = score_columns(state, Limits())
        assert from_book.from_book and not solved.from_book
        assert from_book.explored == 0 and solved.explored > 0
        assert from_book.columns == solved.columns and from_book.exact and solved.exact, moves


def test_a_finished_game_has_nothing_to_score() -> None:
    with pytest.raises(GameOverError):
        score_columns(Connect4(4, 4, 3).from_notation("11223"), Limits())
