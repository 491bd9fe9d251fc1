"""Data files trusted no further than they deserve (issue 55, case 5): a save whose ``think`` has 400 digits is one
line; a drill history nested 100,000 deep is one line for the commands that need it and no obstacle to ``drill MOVES``;
review scores kept in the history are checked (edited: refused; without a checksum: derived again)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gridgames_test_support.cli_runs import assert_one_line_error, invoke, runner

from gridgames.cli import app
from gridgames_connect4.teach.drill import history_path

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

THINK = int("9" * 400)
# on 5x4: mistakes at moves 3, 4 and 6 (tests/games/gridgames_connect4/test_drill.py)
PLAYED = "3321241"


def _saves(tmp_path: Path) -> list[Path]:
    new = {
        "format": "gridgames-moves",
        "version": 2,
        "game": "connect4",
        "options": {},
        "moves": "44",
        "seats": ["human", "human"],
        "think": THINK,
        "seed": 1,
    }
    old = {
        "format": "gridgames-connect4",
        "version": 2,
        "width": 7,
        "height": 6,
        "connect": 4,
        "moves": "44",
        "seats": {"red": "human", "yellow": "human"},
        "think": THINK,
        "seed": 1,
    }
    paths = [tmp_path / "new.json", tmp_path / "old.json"]
    for path, data in zip(paths, (new, old)):
        path.write_text(json.dumps(data))
    return paths


@pytest.mark.parametrize(
    "command",
    [
        ["connect4", "show", "{}"],
        ["connect4", "play", "--load", "{}"],
        ["connect4", "review", "--load", "{}"],
        ["connect4", "drill", "--load", "{}"],
        ["play", "connect4", "--load", "{}"],
    ],
)
def test_a_400_digit_think_in_a_save_is_one_line(tmp_path: Path, command: list[str]) -> None:
    for path in _saves(tmp_path):
        assert_one_line_error([part.format(path) for part in command], "'think' must be a number of seconds")


def test_a_deeply_nested_history_blocks_only_what_needs_it() -> None:
    history_path().parent.mkdir(parents=True, exist_ok=True)
    history_path().write_text("[" * 100_000 + "]" * 100_000)
    assert_one_line_error(["connect4", "drill"], "is not a drill history")
    assert_one_line_error(["connect4", "drill", "--history"], "is not a drill history")
    result = runner.invoke(app, ["connect4", "drill", PLAYED, "--width", "5", "--height", "4"], input="3\nq\n")
    assert result.exit_code == 0, result.output
    assert "Drilling 3321241" in result.stdout and "Drill done: 1 of 1 answered best" in result.stdout
    assert "not kept" in result.stderr and "Traceback" not in result.output


def _reviewed() -> dict[str, object]:
    result = runner.invoke(app, ["connect4", "review", PLAYED, "--width", "5", "--height", "4"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(history_path().read_text())
    return data


def test_edited_review_scores_in_the_history_are_refused() -> None:
    data = _reviewed()
    last = data["last_review"]
    assert isinstance(last, dict)
    last["scores"] = [[n, [None if s is None else -s for s in cols]] for n, cols in last["scores"]]
    history_path().write_text(json.dumps(data))
    assert_one_line_error(["connect4", "drill"], "does not match its checksum")


def test_review_scores_without_a_checksum_are_derived_again() -> None:
    data = _reviewed()
    last = data["last_review"]
    assert isinstance(last, dict)
    del last["digest"]  # as an older gridgames wrote it; and negated: only a new review can tell
    last["scores"] = [[n, [None if s is None else -s for s in cols]] for n, cols in last["scores"]]
    history_path().write_text(json.dumps(data))
    result = runner.invoke(app, ["connect4", "drill"], input="2\nq\n")
    assert result.exit_code == 0, result.output
    # the true mistakes, not the negated record's
    assert "Drill 1 of 4: before move 3" in result.stdout
    assert "Not best: 2 scores -1; the best is 3 (+0)." in result.stdout


def test_huge_think_is_refused_by_the_parser_without_overflow() -> None:
    code, _out, err = invoke(["connect4", "analyze", "44", "--think", "9" * 400])
    assert code == 2 and "Traceback" not in err
