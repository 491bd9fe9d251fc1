"""Drills from your own games: the positions before the mistakes of a reviewed game, the history file, the command."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.teach.drill import (
    HISTORY_KEEP,
    DrillAnswer,
    DrillHistory,
    DrillHistoryError,
    LastReview,
    drill_positions,
    history_path,
)
from gridgames_connect4.teach.review import BLUNDER, INACCURACY, MISTAKE, review_game
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.connect4_play import save_game
from gridgames.cli import app

runner = CliRunner()
GAME = Connect4(5, 4, 4)
# on 5x4: mistakes at moves 3, 4 and 6, a blunder at move 7 (checked against the solver below)
PLAYED = "3321241"


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(5, 4, 4, table_bits=18)


def _moves(text: str) -> tuple[int, ...]:
    return tuple(GAME.from_notation(text).history)


def test_the_positions_are_those_before_the_mistakes_with_the_solvers_scores(solver: Solver) -> None:
    moves = _moves(PLAYED)
    review = review_game(GAME, moves, solver=solver)
    positions = drill_positions(review)
    expected = []
    for i, column in enumerate(moves):
        scores = solver.analyze(list(moves[:i]))
        best = max(s for s in scores if s is not None)
        played = scores[column]
        assert played is not None
        if (played > 0) - (played < 0) < (best > 0) - (best < 0):
            expected.append(i + 1)
            pos = next(p for p in positions if p.number == i + 1)
            assert pos.moves == moves[:i] and pos.played == column and list(pos.scores) == scores
            assert pos.best == tuple(c for c, s in enumerate(scores) if s == best)
            assert pos.grade == (BLUNDER if best > 0 > played else MISTAKE)
            assert all(pos.is_right(c) == (scores[c] == best) for c in range(5))
            assert not pos.is_right(column) and not pos.is_right(9)
    assert [p.number for p in positions] == expected == [3, 4, 6, 7]
    assert [p.number for p in drill_positions(review, players=(1,))] == [4, 6]
    with_inaccuracies = drill_positions(review, inaccuracies=True)
    assert {p.number for p in with_inaccuracies} == {
        r.number for r in review.reviews if r.grade in (MISTAKE, BLUNDER, INACCURACY)
    }


def test_the_history_keeps_the_last_review_and_the_drills(tmp_path: Path, solver: Solver) -> None:
    path = tmp_path / "sub" / "drills.json"
    assert DrillHistory.load(path).last is None
    review = review_game(GAME, _moves(PLAYED), solver=solver)
    history = DrillHistory(LastReview.of(review, (1,)))
    for i in range(HISTORY_KEEP + 3):
        history.add(GAME, review.moves, [DrillAnswer(4, i % 5, i % 2 == 0)])
    history.save(path)
    # no temporary file left behind
    assert [p.name for p in path.parent.iterdir()] == ["drills.json"]
    back = DrillHistory.load(path)
    assert back.last == history.last
    assert [p.number for p in back.last.positions()] == [4, 6]  # yellow's only, as recorded
    assert len(back.drills) == HISTORY_KEEP and back.drills[-1]["answers"] == [
        {"number": 4, "answer": 3, "right": True}
    ]
    assert len(back.lines()) == HISTORY_KEEP


@pytest.mark.parametrize(
    "text, why",
    [
        ("{not json", "not JSON"),
        ('{"format": "other"}', "format"),
        ('{"format": "gridgames-connect4-drills", "version": 99}', "version 99"),
        ('{"format": "gridgames-connect4-drills", "version": 1, "last_review": {"width": 5}}', "malformed"),
        (
            '{"format": "gridgames-connect4-drills", "version": 1, "last_review": {"width": 5, "height": 4,'
            ' "connect": 4, "first": "red", "moves": "33", "scores": [[3, [0, 0, 0, 0, 0]]]}}',
            "move 3",
        ),
        ('{"format": "gridgames-connect4-drills", "version": 1, "drills": 3}', "not a list"),
    ],
)
def test_a_broken_history_file_is_one_line(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "drills.json"
    path.write_text(text)
    with pytest.raises(DrillHistoryError, match=why):
        DrillHistory.load(path)
    result = runner.invoke(app, ["connect4", "drill", "--history"], env={"XDG_DATA_HOME": str(tmp_path / "x")})
    assert result.exit_code == 0  # (another folder: no history yet)
    os.makedirs(tmp_path / "x" / "gridgames")
    (tmp_path / "x" / "gridgames" / "connect4-drills.json").write_text(text)
    result = runner.invoke(app, ["connect4", "drill"], env={"XDG_DATA_HOME": str(tmp_path / "x")})
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert path.read_text() == text  # nothing the user had is lost


def test_review_then_drill_asks_each_position_and_keeps_the_drill() -> None:
    result = runner.invoke(app, ["connect4", "drill"])
    assert result.exit_code == 2 and "no reviewed game" in result.output
    result = runner.invoke(app, ["connect4", "review", PLAYED, "--width", "5", "--height", "4"])
    assert result.exit_code == 0, result.output
    assert json.loads(history_path().read_text())["last_review"]["moves"] == PLAYED
    # move 3: best 3 (answered 2: wrong); move 4: skipped; move 6: junk, a full column... then 3 (right); then q
    answers = "2\ns\nx\n9\n3\nq\n"
    result = runner.invoke(app, ["connect4", "drill"], input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "4 position(s)" in out and "Drill 1 of 4: before move 3" in out
    assert "Not best: 2 scores -1; the best is 3 (+0)." in out
    assert "Skipped: the best is 4 (score +1)." in out
    assert "'x' is not a column" in out and "no column 9" in out
    assert "Right: 3 is best (score +0)." in out
    # the explanation follows
    assert "Column 2: score -1 against the best +0: turns the draw into a loss." in out
    assert "Drill done: 1 of 3 answered best (4 position(s))." in out
    done = DrillHistory.load().drills
    assert [d["right"] for d in done] == [1] and [a["answer"] for a in done[0]["answers"]] == [2, None, 3]
    result = runner.invoke(app, ["connect4", "drill", "--history"])
    assert result.exit_code == 0 and "1 of 3 right" in result.output and PLAYED in result.output
    # the last reviewed game, on the web drill page
    result = runner.invoke(app, ["connect4", "drill", "--url"])
    assert result.output == f"http://127.0.0.1:8000/drill/connect4?pos={PLAYED}&width=5&height=4\n"
    # no review needed
    result = runner.invoke(app, ["connect4", "drill", "44", "--url", "--base", "http://h:1"])
    assert result.exit_code == 0 and result.output == "http://h:1/drill/connect4?pos=44\n"
    # end of input at once
    result = runner.invoke(app, ["connect4", "drill", "--player", "yellow"], input="")
    assert result.exit_code == 0 and "2 position(s), the mistakes of yellow" in result.output
    assert len(DrillHistory.load().drills) == 1  # nothing answered: nothing recorded


def test_a_saved_game_drills_its_humans_mistakes(tmp_path: Path) -> None:
    path = save_game(GAME.from_notation(PLAYED), tmp_path / "g.json", seats=("medium", "human"))
    result = runner.invoke(app, ["connect4", "drill", "--load", str(path)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "2 position(s), the mistakes of yellow" in result.output
    assert DrillHistory.load().last.players == (1,)


@pytest.mark.parametrize(
    "args, why",
    [
        (["3321241", "--player", "green"], "--player"),
        (["3321", "--load", "x.json"], "not both"),
        (["33212419", "--width", "5", "--height", "4"], "column"),
        (["--think", "-1", "33"], "second"),
        (["", "--width", "5"], "reviewed game"),
        (["--load", "missing.json"], "missing.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], why: str) -> None:
    result = runner.invoke(app, ["connect4", "drill", *args])
    assert result.exit_code == 2, result.output
    assert why in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_the_drill_url_carries_the_board_and_who_moved_first() -> None:
    from gridgames_connect4.surfaces.share import parse_position_url, position_url

    yellow_first = Connect4(5, 4, 4, first="yellow")
    url = position_url(yellow_first, [2, 2, 1], page="drill")
    assert url == "http://127.0.0.1:8000/drill/connect4?pos=332&width=5&height=4&first=yellow"
    assert parse_position_url(url) == (5, 4, 4, "332")
    # red: implied
    assert position_url(GAME, [2], page="drill").endswith("/drill/connect4?pos=3&width=5&height=4")
