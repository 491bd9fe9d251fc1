"""The vector env's perfect opponent past the book: its move keeps the value, the latest loss, random among the best."""

from __future__ import annotations

import random

import pytest
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.book import default_book
from gridgames_connect4.solve.solver import Solver
from gridgames_connect4.learn.vector_perfect import ValueSolver


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _random_position(rng: random.Random, solver: Solver, width: int, height: int, discs: int) -> list[int]:
    """A position after ``discs`` random moves, not over and with no win at once for the side to move."""
    while True:
        moves: list[int] = []
        try:
            for _ in range(discs):
                moves.append(rng.choice([c for c in range(width) if moves.count(c) < height]))
            scores = solver.analyze(moves)
        except Exception:  # the game ended on the way
            continue
        if max(s for s in scores if s is not None) < (width * height + 1 - discs) // 2:
            return moves


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 5)])
def test_the_move_keeps_the_value_and_a_loss_is_the_latest(width: int, height: int) -> None:
    reference = Solver(width, height, 4, table_bits=20)
    # one table for every call: what the vector env does
    chooser = ValueSolver(width, height, 4, table_bits=18)
    rng = random.Random(width)
    kinds = {1: 0, 0: 0, -1: 0}
    for k in range(60):
        moves = _random_position(rng, reference, width, height, rng.randrange(width * height - 4))
        scores = reference.analyze(moves)
        best = max(s for s in scores if s is not None)
        column = chooser.keeping_column(moves, random.Random(k))
        got = scores[column]
        assert got is not None and _sign(got) == _sign(best), (moves, scores, column)
        if best < 0:
            assert got == best, (moves, scores, column)
        kinds[_sign(best)] += 1
    assert all(kinds.values()), kinds  # wins, draws and losses were all asked


def test_the_column_is_random_among_those_keeping_the_value() -> None:
    reference = Solver(6, 5, 4, table_bits=20)
    chooser = ValueSolver(6, 5, 4, table_bits=18)
    rng = random.Random(7)
    tried = 0
    while tried < 3:
        moves = _random_position(rng, reference, 6, 5, 8)
        scores = reference.analyze(moves)
        best = _sign(max(s for s in scores if s is not None))
        keeping = {c for c, s in enumerate(scores) if s is not None and _sign(s) == best}
        if best < 0 or len(keeping) < 2:
            continue
        chosen = {chooser.keeping_column(moves, random.Random(seed)) for seed in range(120)}
        assert chosen == keeping, (moves, scores)
        tried += 1


def test_past_the_book_on_7x6_the_move_keeps_the_value() -> None:
    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no shipped 7x6 book")
    chooser = ValueSolver(7, 6, 4, book=book, table_bits=20)
    reference = Solver(7, 6, 4, book=book, table_bits=20)
    rng = random.Random(11)
    for k in range(8):
        # one disc past the book (10 discs) and later
        moves = _quick_position(rng, 11 + 2 * (k % 3))
        signs = reference.analyze(moves, weak=True)
        column = chooser.keeping_column(moves, random.Random(k))
        assert signs[column] == max(s for s in signs if s is not None), (moves, signs, column)


def _quick_position(rng: random.Random, discs: int) -> list[int]:
    """A 7x6 position after ``discs`` random moves where no line is made and nobody can win at once (checked with the
    rules)."""
    game = Connect4()
    while True:
        state = game.new_state()
        for _ in range(discs):
            state.play(rng.choice(list(state.legal_moves())))
            if state.is_over:
                break
        else:
            if not any(_wins_at_once(state, c) for c in state.legal_moves()):
                return list(state.history)


def _wins_at_once(state: object, column: int) -> bool:
    child = state.copy()  # type: ignore[attr-defined]
    child.play(column)
    return child.outcome is not None and child.outcome.winner is not None
