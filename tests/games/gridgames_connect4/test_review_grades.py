"""Exact grades and accuracy in the review: every grade checked against a plain minimax's scores, best play graded
100%, the inaccuracy threshold an option."""

from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.solve.book import default_book
from gridgames_connect4.solve.oracle import best_from_book
from gridgames_connect4.teach.review import BEST, BLUNDER, GOOD, INACCURACY, MISTAKE, review_game
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames.cli import app
from gridgames_test_support.connect4_minimax import completes_line, grid_of, minimax_score

runner = CliRunner()
GAME = Connect4(5, 4, 4)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _column_scores(moves: list[int]) -> list[int | None]:
    """Every column's exact score by the tests' plain minimax (not the solver)."""
    grid = grid_of(moves, 5)
    cells, mover = 20, len(moves) % 2
    out: list[int | None] = []
    for c in range(5):
        if len(grid[c]) == 4:
            out.append(None)
            continue
        after = grid[:c] + (grid[c] + (mover,),) + grid[c + 1 :]
        if completes_line(5, 4, c, len(after[c]) - 1, after):
            out.append((cells + 1 - len(moves)) // 2)
        elif len(moves) + 1 == cells:
            out.append(0)
        else:
            out.append(-minimax_score(5, 4, 4, after))
    return out


def _chance(score: int, top: int) -> float:
    """The win chance of an exact score by the module's written definition (ACCURACY, step 1)."""
    if score == 0:
        return 50.0
    share = 0.8 + 0.2 * min(1.0, abs(score) / top)
    return 50 + 50 * share if score > 0 else 50 - 50 * share


def _expected(score: int, best: int, threshold: int, top: int = 7) -> tuple[str, float]:
    """The grade and the accuracy value (0-1) by the module's written definitions (5x4: the top score is 7)."""
    value = math.exp(-(_chance(best, top) - _chance(score, top)) / 20)
    if _sign(best) - _sign(score) == 2:
        return BLUNDER, value
    if _sign(best) - _sign(score) == 1:
        return MISTAKE, value
    if score == best:
        return BEST, 1.0
    return (INACCURACY if best - score >= threshold else GOOD), value


def _harmonic(values: list[float]) -> float:
    """A player's accuracy in percent by the module's definition (ACCURACY, step 3)."""
    return len(values) / sum(1 / max(0.05, v) for v in values) * 100


def _random_game(rng: random.Random) -> list[int]:
    state = GAME.new_state()
    while not state.is_over:
        state.play(rng.choice(list(state.legal_moves())))
    return list(state.history)


@pytest.mark.slow
@pytest.mark.parametrize("threshold", [1, 3])
def test_every_grade_and_the_accuracy_follow_the_exact_scores(threshold: int) -> None:
    rng = random.Random(41)
    seen = set()
    solver = Solver(5, 4, 4, table_bits=18)
    for _ in range(25):
        moves = _random_game(rng)
        review = review_game(GAME, moves, solver=solver, inaccuracy_moves=threshold)
        values: dict[int, list[float]] = {0: [], 1: []}
        for r in review.reviews:
            scores = _column_scores(moves[: r.number - 1])
            best = max(s for s in scores if s is not None)
            played = scores[r.column]
            assert played is not None and (r.score, r.best) == (played, best)
            grade, value = _expected(played, best, threshold)
            assert (r.grade, r.moves_lost) == (grade, best - played)
            assert r.value == pytest.approx(value)
            values[r.player].append(value)
            seen.add(r.grade)
        for player in (0, 1):
            assert review.accuracy(player) == pytest.approx(_harmonic(values[player]))
            if any(_sign(r.best) > _sign(r.score) for r in review.reviews if r.player == player):
                assert review.accuracy(player) < 70  # a move that changed the result cannot hide
    wanted = {BEST, INACCURACY, MISTAKE, BLUNDER} | ({GOOD} if threshold > 1 else set())
    assert seen == wanted


def test_scripted_blunder_mistake_and_inaccuracy_marked_exactly() -> None:
    # 3323 on 5x4: red's 2 turns a draw into a loss, yellow's 3 a win into a loss (scores in test_review)
    review = review_game(GAME, list(GAME.from_notation("3323").history))
    assert [r.grade for r in review.reviews] == [BEST, BEST, MISTAKE, BLUNDER]
    # a random game with all three (found by a seeded search), each move's grade checked against the minimax
    moves = list(GAME.from_notation("423435353").history)
    review = review_game(GAME, moves, inaccuracy_moves=1)
    grades = [BEST, BEST, MISTAKE, BEST, BEST, BLUNDER, BEST, INACCURACY, BEST]
    assert [r.grade for r in review.reviews] == grades
    for r in review.reviews:
        scores = _column_scores(moves[: r.number - 1])
        played = scores[r.column]
        assert played is not None
        assert _expected(played, max(s for s in scores if s is not None), 1)[0] == r.grade
    lost = review.reviews[7].moves_lost
    assert lost >= 1 and review_game(GAME, moves, inaccuracy_moves=lost + 1).reviews[7].grade == GOOD


def test_perfect_play_scores_100_percent_on_5x4() -> None:
    solver = Solver(5, 4, 4, table_bits=18)
    state = GAME.new_state()
    while not state.is_over:
        state.play(solver.best_move(list(state.history), all_scores=False).column)
    review = review_game(GAME, list(state.history))
    assert {r.grade for r in review.reviews} == {BEST}
    assert review.accuracy(0) == review.accuracy(1) == 100.0


def test_perfect_play_scores_100_percent_on_7x6_from_the_book_and_the_solver() -> None:
    game = Connect4(7, 6, 4)
    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no 7x6 book shipped")
    moves: list[int] = []
    rng = random.Random(6)
    # the opening, every move one of the book's best (picked at random)
    while len(moves) < book.depth:
        found = best_from_book(book, moves, rng)
        assert found is not None
        moves.append(found[0])
    review = review_game(game, moves, book=book)
    assert review.from_book == len(moves) and {r.grade for r in review.reviews} == {BEST}
    assert review.accuracy(0) == review.accuracy(1) == 100.0
    # an endgame: a random middle game, then best moves by the solver to the end, graded by the review
    solver = Solver(7, 6, 4)
    while True:  # a middle game whose best continuation lasts at least 6 moves
        state = game.new_state()
        while len(state.history) < 24:
            state.play(rng.choice([c for c in state.legal_moves() if not _wins_now(state, c)]))
        start = len(state.history) + 1
        while not state.is_over:
            state.play(solver.best_move(list(state.history), all_scores=False).column)
        if len(state.history) - start >= 5:
            break
    end = review_game(game, list(state.history), first=start, solver=solver)
    assert {r.grade for r in end.reviews} == {BEST}
    assert end.accuracy(0) == end.accuracy(1) == 100.0


def _wins_now(state: object, column: int) -> bool:
    trial = state.copy()  # type: ignore[attr-defined]
    trial.play(column)
    return trial.is_over


def test_review_cli_takes_the_threshold_and_records_grades() -> None:
    args = ["connect4", "review", "3323", "--width", "5", "--height", "4", "--json"]
    data = json.loads(runner.invoke(app, args).stdout)
    assert [r["grade"] for r in data["reviews"]] == [BEST, BEST, MISTAKE, BLUNDER]
    # best, then a draw turned into a loss (scores in test_review)
    red = _harmonic([1.0, _expected(-1, 0, 2)[1]])
    yellow = _harmonic([1.0, _expected(-7, 1, 2)[1]])  # best, then a win turned into a loss
    assert data["accuracy"] == {"red": pytest.approx(red), "yellow": pytest.approx(yellow)}
    assert red < 70 and yellow < 70 and data["inaccuracy_moves"] == 2
    wide = json.loads(runner.invoke(app, [*args, "--inaccuracy", "4"]).stdout)
    assert wide["inaccuracy_moves"] == 4
    bad = runner.invoke(app, [*args, "--inaccuracy", "0"])
    assert bad.exit_code == 2 and "inaccuracy" in bad.stderr


def test_the_score_graph_follows_the_first_movers_scores() -> None:
    import xml.etree.ElementTree as ET

    review = review_game(GAME, list(GAME.from_notation("423435353").history))
    graph = review.graph()
    assert graph == [r.score if r.number % 2 else -r.score for r in review.reviews]
    spark = review.sparkline()
    assert len(spark) == len(graph)
    # a dash for a draw, the upper bars for red, the lower for yellow
    for v, ch in zip(graph, spark):
        assert (ch == "\u2500") == (v == 0)
        if v:
            assert (ch in "\u2585\u2586\u2587\u2588") == (v > 0)
    top = max(abs(v) for v in graph)
    # the largest score: a full or lowest bar
    assert spark[[abs(v) for v in graph].index(top)] in "\u2581\u2588"
    svg = ET.fromstring(review.svg())
    line = svg.find("{http://www.w3.org/2000/svg}polyline")
    assert line is not None and len(line.get("points", "").split()) == len(graph)
    assert "Course (red up, yellow down): " + spark in review.lines()


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 5), (7, 6)])
def test_a_game_of_perfect_against_itself_is_100_percent_for_both(width: int, height: int) -> None:
    """Issue 41's bar, literally: the `perfect` level (book where shipped, else the solver) plays both sides; the
    review grades every move best, each player 100%; the game ends with the result the empty board's score says."""
    from gridgames_connect4.levels import make_player

    game = Connect4(width, height, 4)
    book = default_book(width, height, 4)
    perfect = make_player("perfect", game, random.Random(width), think=300.0, book=book)
    state = game.new_state()
    while not state.is_over:
        state.play(perfect.choose(state))
    review = review_game(game, list(state.history), book=book)
    assert len(review.reviews) == len(state.history) and {r.grade for r in review.reviews} == {BEST}
    assert review.accuracy(0) == review.accuracy(1) == 100.0
    first = review.reviews[0].best  # the empty board's exact score, from the first mover's view
    winner = None if first == 0 else 0 if first > 0 else 1
    assert state.outcome is not None and state.outcome.winner == winner


def test_a_game_thrown_at_move_3_scores_the_blunderer_at_most_70_percent() -> None:
    """Issue 56's bar: red's third disc turns the win into a loss (found with the book), then `perfect` plays both
    sides to the end; red's later moves all keep the "best" (losing) score, yet the blunder keeps red under 70%."""
    from gridgames_connect4.levels import make_player

    game = Connect4(7, 6, 4)
    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no 7x6 book shipped")
    after = book.column_scores(list(game.from_notation("44").history))
    # red still wins after 4 4
    assert after is not None and max(s for s in after if s is not None) > 0
    blunder = next(c for c, s in enumerate(after) if s is not None and s < 0)
    state = game.from_notation("44" + str(blunder + 1))
    perfect = make_player("perfect", game, random.Random(3), think=300.0, book=book)
    while not state.is_over:
        state.play(perfect.choose(state))
    assert state.outcome is not None and state.outcome.winner == 1
    review = review_game(game, list(state.history), book=book)
    assert [r.number for r in review.reviews if r.grade == BLUNDER] == [3]
    assert {r.grade for r in review.reviews if r.number != 3} == {BEST}
    red = review.accuracy(0)
    assert red is not None and red <= 70 and review.accuracy(1) == 100.0
