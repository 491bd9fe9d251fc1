"""Numbers of thousands of digits and huge time budgets (issue 38): one line and exit code 2, never Python's own error.

Python refuses to convert a string of more than 4,300 digits with a bare ValueError; every number in user text
is read by `gridgames.parsing.parse_whole`, which bounds the length first, and every time budget by
`gridgames.parsing.check_seconds`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gridgames.errors import NotationError, OptionError, ShapeError
from gridgames.parsing import MAX_DIGITS, check_seconds, parse_whole

from gridgames.cli import app
from gridgames_test_support.cli_runs import assert_one_line_error, invoke, runner

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ["connect4", "show", f"4,{HUGE}"],
        ["connect4", "analyze", f"4,{HUGE}"],
        ["connect4", "review", f"4,{HUGE}"],
        ["connect4", "show", f"4 {HUGE}", "--width", "10"],
        ["mnk", "show", f"a{HUGE}"],
        ["solve", "pentomino", "--board", f"{HUGE}x3"],
        ["solve", "pentomino", "--board", "6x10", "--pieces", f"L*{HUGE}"],
        ["solve", "pentomino", "--board", "6x10", "--pieces", f"{HUGE}-ominoes"],
        ["solve", "pentomino", "--lattice", "hex", "--board", f"hexagon-{HUGE}"],
        ["solve", "pentomino", "--lattice", "cube", "--board", f"2x2x{HUGE}"],
        ["solve", "pentomino", "--lattice", "triangle", "--board", f"6x{HUGE}"],
    ],
)
def test_a_number_of_5000_digits_is_one_short_line(args: list[str]) -> None:
    code, out, err = invoke(args)
    assert code == 2 and "Traceback" not in out + err and "4300" not in err, err[:300]
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert len(err) < 300  # the number is not printed whole


def test_a_saved_game_with_a_5000_digit_move_is_refused_in_one_line(tmp_path: Path) -> None:
    save = tmp_path / "long.json"
    save.write_text(
        '{"format": "gridgames-moves", "version": 2, "game": "mnk", "options": {}, "moves": "a' + HUGE + '"}'
    )
    assert_one_line_error(["play", "mnk", "--load", str(save)], "digits")


@pytest.mark.parametrize("think", ["1e308", "1e17", "nan", "inf", "86401"])
@pytest.mark.parametrize("game", [["play", "connect4", "--red", "perfect", "--yellow", "perfect"], ["play", "mnk"]])
def test_a_think_time_beyond_a_day_or_not_finite_is_refused(game: list[str], think: str) -> None:
    assert_one_line_error([*game, "--think", think], "must be a number of seconds above 0 and at most 86400")


def test_the_play_prompt_refuses_a_5000_digit_column_and_keeps_the_turn() -> None:
    result = runner.invoke(app, ["play", "connect4", "--red", "human", "--yellow", "human"], input=f"4\n{HUGE}\n3\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "a column number has 5,000 digits: at most 18 are read" in result.output.lower()
    after = result.output.lower().split("at most 18 are read", 1)[1]
    # the turn kept: yellow plays the 3
    assert after.index("yellow (o) to move") < after.index("red (x) to move")


def test_parse_whole_reads_signs_and_refuses_what_is_not_a_whole_number() -> None:
    assert (
        parse_whole(" -12 ") == -12
        and parse_whole("+7") == 7
        and parse_whole("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    )
    for bad in ("", "-", "4.0", "1e3", "٣", "0x10", "9" * (MAX_DIGITS + 1)):
        with pytest.raises(NotationError):
            parse_whole(bad)
    with pytest.raises(ShapeError, match="a size has 19 digits"):
        parse_whole("1" * 19, what="a size", error=ShapeError)


def test_check_seconds_takes_finite_budgets_up_to_a_day() -> None:
    assert check_seconds(0.05) == 0.05 and check_seconds(86_400) == 86_400.0
    for bad in (0, -1, float("nan"), float("inf"), 86_400.5, True, "2"):
        with pytest.raises(OptionError):
            check_seconds(bad)
