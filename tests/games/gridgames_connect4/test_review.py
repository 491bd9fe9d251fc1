"""The post-game review: scripted games with known mistakes, checked against the solver; the review command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.solve.book import Book
from gridgames_connect4.solve.book_build import build_book
from gridgames_connect4.teach.review import INACCURACY, MISTAKE, review_game
from gridgames_connect4.position.rules import Connect4
from gridgames_test_support.connect4_play import save_game
from gridgames_connect4.solve.solver import Solver
from gridgames.cli import app

runner = CliRunner()
GAME = Connect4(5, 4, 4)
# on 5x4, red (to move after 11222244) wins with 3 (score +6) and plays 1: a draw
THROWN = "112222441"


def _moves(text: str) -> list[int]:
    return list(GAME.from_notation(text).history)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def test_a_won_position_thrown_away_is_a_mistake() -> None:
    moves = _moves(THROWN)
    solver = Solver(5, 4, 4, table_bits=18)
    before = solver.analyze(moves[:-1])
    assert before == [0, None, 6, 0, 0]  # the scripted game: only column 3 keeps red's win
    review = review_game(GAME, moves)
    last = review.reviews[-1]
    assert (last.number, last.player, last.column) == (9, 0, 0)
    assert (last.score, last.best, last.best_columns) == (0, 6, (2,))
    assert last.mark == MISTAKE and last.change == "win -> draw"
    assert last in review.mistakes(0)


def test_every_mark_follows_the_solver() -> None:
    """Marks of a few long random games on 5x4, against the solver's own scores before and after each move."""
    import random

    solver = Solver(5, 4, 4, table_bits=18)
    rng = random.Random(11)
    marks = set()
    for _ in range(6):
        state = GAME.new_state()
        while not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
        moves = list(state.history)
        review = review_game(GAME, moves, solver=solver)
        assert len(review.reviews) == len(moves)
        for i, r in enumerate(review.reviews):
            scores = solver.analyze(moves[:i])
            best = max(s for s in scores if s is not None)
            played = scores[moves[i]]
            assert (r.score, r.best, r.columns) == (played, best, tuple(scores))
            expected = MISTAKE if _sign(played) < _sign(best) else INACCURACY if played < best else None
            assert r.mark == expected
            marks.add(r.mark)
    assert marks == {None, MISTAKE, INACCURACY}


def test_a_game_of_best_moves_has_no_mistake() -> None:
    solver = Solver(5, 4, 4, table_bits=18)
    state = GAME.new_state()
    while not state.is_over:
        state.play(solver.best_move(list(state.history), all_scores=False).column)
    review = review_game(GAME, list(state.history))
    assert review.result == "a draw"
    assert [r.mark for r in review.reviews] == [None] * len(state.history)


def test_a_draw_lost_and_the_text_report() -> None:
    review = review_game(GAME, _moves("3323"))
    assert [r.change for r in review.reviews] == [None, None, "draw -> loss", "win -> loss"]
    text = "\n".join(review.lines())
    assert "Review of 3323 (5x4, four in a row): unfinished (red to move)." in text
    assert "   3  red          2     -1    +0  3  mistake: draw -> loss" in text
    assert "   4  yellow       3     -7    +1  4  blunder: win -> loss" in text
    red, yellow = review.accuracy(0), review.accuracy(1)
    # a result changed: not hidden
    assert red is not None and yellow is not None and red < 70 and yellow < 70
    assert f"Red: 0 blunder(s), 1 mistake(s), 0 inaccuracies in 2 move(s); accuracy {red:.1f}%." in text
    assert f"Yellow: 1 blunder(s), 0 mistake(s), 0 inaccuracies in 2 move(s); accuracy {yellow:.1f}%." in text


def test_the_book_gives_the_same_review(tmp_path: Path) -> None:
    build_book(5, 4, 4, 6, tmp_path / "b.bin", table_bits=16)
    book = Book.load(tmp_path / "b.bin")
    moves = _moves(THROWN)
    with_book = review_game(GAME, moves, book=book)
    # positions before moves 1..6 (0 to 5 discs: their children are in the book)
    assert with_book.from_book == 6
    assert with_book.reviews == review_game(GAME, moves).reviews


def test_review_command_json_and_load(tmp_path: Path) -> None:
    result = runner.invoke(app, ["connect4", "review", THROWN, "--width", "5", "--height", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["moves"] == THROWN and data["width"] == 5
    last = data["reviews"][-1]
    assert last == {
        "move": 9,
        "player": "red",
        "column": 1,
        "score": 0,
        "best": 6,
        "best_columns": [3],
        "columns": [0, None, 6, 0, 0],
        "mark": "mistake",
        "change": "win -> draw",
        "grade": "mistake",
        "moves_lost": 6,
        "value": pytest.approx(last["accuracy"] / 100),
        "accuracy": last["accuracy"],
    }
    assert last["accuracy"] < 15  # a win given away: a drop of 40 points of win chance or more
    path = save_game(GAME.from_notation(THROWN), tmp_path / "game.json")
    result = runner.invoke(app, ["connect4", "review", "--load", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == data
    result = runner.invoke(app, ["connect4", "review", "--load", str(path)])
    assert "mistake: win -> draw" in result.stdout and result.stdout.rstrip().endswith("s.")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["12", "--load", "x.json"], "not both"),
        (["12", "--book", "b.bin", "--no-book"], "contradict"),
        (["1111111"], "column 1 is full"),
        (["--load", "missing.json"], "no such file"),
    ],
)
def test_review_command_errors_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["connect4", "review", *args, "--width", "5", "--height", "4"])
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_review_from_a_later_move() -> None:
    moves = _moves(THROWN)
    whole = review_game(GAME, moves)
    tail = review_game(GAME, moves, first=7)
    assert tail.reviews == whole.reviews[6:]
    result = runner.invoke(app, ["connect4", "review", THROWN, "--width", "5", "--height", "4", "--from", "9"])
    assert result.exit_code == 0
    assert "   9  red          1     +0    +6  3  mistake: win -> draw" in result.stdout
    only = tail.reviews[2]  # move 9, red's only move from 9 on: a win turned into a draw
    assert only.number == 9 and only.grade == MISTAKE
    summary = f"Red: 0 blunder(s), 1 mistake(s), 0 inaccuracies in 1 move(s); accuracy {only.accuracy:.1f}%."
    assert summary in result.stdout
    assert only.accuracy < 15  # a win given away (see ACCURACY in the review's docstring)
    result = runner.invoke(app, ["connect4", "review", THROWN, "--width", "5", "--height", "4", "--from", "0"])
    assert result.exit_code == 2 and "1 or later" in result.stderr


# a 5x4 game of 16 moves (replayed by _moves, which refuses an illegal one)
LONG = "3332224115544155"


def _reviews_one_by_one(moves: list[int]) -> list[tuple[int, int, tuple]]:
    solver = Solver(5, 4, 4, table_bits=18)
    out = []
    for i, column in enumerate(moves):
        scores = solver.analyze(moves[:i])
        out.append((scores[column], max(s for s in scores if s is not None), tuple(scores)))
    return out


def test_the_batched_review_solves_several_positions_per_call_and_equals_analyze(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moves = _moves(LONG)
    calls: list[int] = []
    original = Solver.solve_many

    def counted(self: Solver, positions: list, weak: bool = False, reset: bool = True) -> list[int]:
        calls.append(len(positions))
        return original(self, positions, weak=weak, reset=reset)

    monkeypatch.setattr(Solver, "solve_many", counted)
    review = review_game(GAME, moves)
    # several positions' children per call
    assert len(calls) < len(moves) and max(calls) > 2 * GAME.width
    assert [(r.score, r.best, r.columns) for r in review.reviews] == _reviews_one_by_one(moves)
    assert not review.partial and review.missing == [] and review.stopped is None


def test_positions_searched_alone_give_the_same_review(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames_connect4.teach import review as module

    moves = _moves(LONG)
    batched = review_game(GAME, moves).reviews
    # every position after the first batch is searched alone
    monkeypatch.setattr(module, "ALONE_SECONDS", -1.0)
    monkeypatch.setattr(Solver, "analyze", _counting(Solver.analyze, counter := []))
    assert review_game(GAME, moves).reviews == batched
    # the first batch (4 positions), then one analyze per position
    assert len(counter) == len(moves) - 4


def _counting(method: object, counter: list) -> object:
    def wrapper(self: Solver, *args: object, **kwargs: object) -> object:
        counter.append(args)
        return method(self, *args, **kwargs)  # type: ignore[operator]

    return wrapper


def test_progress_counts_up_to_every_move() -> None:
    moves = _moves(LONG)
    seen: list[tuple[int, int]] = []
    review_game(GAME, moves, first=3, on_progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 14) and seen[-1] == (14, 14)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) >= 3


def test_a_review_told_to_stop_keeps_the_last_moves_and_says_partial() -> None:
    moves = _moves(LONG)
    answers = iter([True, False])
    review = review_game(GAME, moves, keep_going=lambda: next(answers, False))
    assert review.stopped == "stopped" and review.partial
    whole = review_game(GAME, moves).reviews
    # the last moves are reviewed first
    assert review.reviews == whole[len(moves) - len(review.reviews) :]
    assert 0 < len(review.reviews) < len(moves) and review.missing == list(
        range(1, len(moves) - len(review.reviews) + 1)
    )
    text = "\n".join(review.lines())
    assert f"Partial review (stopped): move(s) 1-{review.missing[-1]} not reviewed." in text
    data = review.as_dict()
    assert data["partial"] is True and data["not_reviewed"] == review.missing


def test_ctrl_c_keeps_the_moves_reviewed_with_keep_partial() -> None:
    moves = _moves(LONG)

    def interrupt(done: int, total: int) -> None:
        if done >= 4:
            raise KeyboardInterrupt

    review = review_game(GAME, moves, on_progress=interrupt, keep_partial=True)
    assert review.stopped == "interrupted" and len(review.reviews) >= 4 and review.missing
    assert review.reviews == review_game(GAME, moves).reviews[-len(review.reviews) :]
    with pytest.raises(KeyboardInterrupt):
        review_game(GAME, moves, on_progress=interrupt)


def test_review_command_ctrl_c_prints_the_partial_review_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames_connect4.teach import review as module

    original = module.solve_pending
    calls: list[int] = []

    def interrupted_second_batch(solver: Solver, batch: list) -> list:
        calls.append(len(batch))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return original(solver, batch)

    monkeypatch.setattr(module, "solve_pending", interrupted_second_batch)
    result = runner.invoke(app, ["connect4", "review", LONG, "--width", "5", "--height", "4"])
    assert result.exit_code == 130, result.output
    assert "Partial review (interrupted): move(s) 1-12 not reviewed." in result.stdout
    assert "  16  yellow" in result.stdout and "  12  yellow" not in result.stdout
    calls.clear()
    result = runner.invoke(app, ["connect4", "review", LONG, "--width", "5", "--height", "4", "--json"])
    assert result.exit_code == 130 and json.loads(result.stdout)["not_reviewed"] == list(range(1, 13))


def test_a_game_where_yellow_moved_first_is_reviewed_in_its_colours(tmp_path: Path) -> None:
    path = save_game(GAME.from_notation(THROWN), tmp_path / "yellow.json", first="yellow")
    result = runner.invoke(app, ["connect4", "review", "--load", str(path)])
    assert result.exit_code == 0, result.output
    # the first mover: yellow
    assert "   9  yellow       1     +0    +6  3  mistake: win -> draw" in result.stdout
    assert (
        "Yellow: 0 blunder(s), 2 mistake(s), 0 inaccuracies in 5 move(s); accuracy " in result.stdout
        and "): unfinished (red to move)." in result.stdout
    )
    data = json.loads(runner.invoke(app, ["connect4", "review", "--load", str(path), "--json"]).stdout)
    assert data["reviews"][-1]["player"] == "yellow" and data["reviews"][-2]["player"] == "red"
    assert review_game(GAME, _moves(THROWN)).reviews[-1].as_dict()["player"] == "red"


def test_reviewing_from_beyond_the_last_move_is_refused() -> None:
    result = runner.invoke(app, ["connect4", "review", THROWN, "--width", "5", "--height", "4", "--from", "10"])
    assert result.exit_code == 2 and "the game has 9 move(s): there is no move 10" in result.stderr
    assert review_game(GAME, [], first=1).reviews == ()


def test_positions_with_many_empty_cells_are_searched_alone_never_in_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames_connect4.teach import review as module

    moves = _moves(LONG)
    expected = review_game(GAME, moves).reviews
    # 5x4 has 20 cells: positions 0-9 have more than 10 empty
    monkeypatch.setattr(module, "BATCH_EMPTY_CELLS", 10)
    batched: list[int] = []
    original = module.solve_pending
    monkeypatch.setattr(
        module,
        "solve_pending",
        lambda solver, batch: (batched.extend(p.index for p in batch), original(solver, batch))[1],
    )
    monkeypatch.setattr(Solver, "analyze", _counting(Solver.analyze, alone := []))
    assert review_game(GAME, moves).reviews == expected
    assert sorted(batched) == list(range(10, 16)) and sorted(len(a[0]) for a in alone) == list(range(10))


def test_the_review_progress_shows_moves_reviewed_on_a_terminal_only() -> None:
    import io

    from rich.console import Console

    from gridgames_connect4.surfaces.cli_review import ReviewProgress

    for terminal in (True, False):
        err = io.StringIO()
        with ReviewProgress(Console(file=err, force_terminal=terminal, width=100)) as progress:
            progress.DELAY = 0.0
            review_game(GAME, _moves(LONG), on_progress=progress.update)
        assert ("Reviewing: moves" in err.getvalue() and "16/16" in err.getvalue()) is terminal
