"""--book FILE and --no-book on analyze, play and review; bad books refused in one line; r reviews a finished game."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4 import Connect4
from gridgames_connect4.solve import book as book_module
from gridgames_connect4.solve.book import HEADER_SIZE, Book
from gridgames_connect4.solve.book_build import build_book
from gridgames_test_support.connect4_play import two_humans
from gridgames.cli import app

runner = CliRunner()
SMALL = ["--width", "5", "--height", "4"]
# on 5x4: red wins, but threw a win away with move 9 (1 instead of 3) and got it back
THROWN_GAME = "1122224413143"


@pytest.fixture(scope="module")
def book_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 5x4 book of depth 8, a 4x4 one (the wrong board), and truncated and corrupt copies of the 5x4 one."""
    folder = tmp_path_factory.mktemp("cli-books")
    good, other = folder / "5x4.bin", folder / "4x4.bin"
    build_book(5, 4, 4, 8, good, table_bits=18)
    build_book(4, 4, 4, 6, other, table_bits=18)
    data = good.read_bytes()
    truncated = folder / "truncated.bin"
    truncated.write_bytes(data[: HEADER_SIZE + 100])
    corrupt = folder / "corrupt.bin"
    flipped = bytearray(data)
    flipped[-1] ^= 0x01  # the last score
    corrupt.write_bytes(bytes(flipped))
    return {"good": good, "wrong board": other, "truncated": truncated, "corrupt": corrupt}


def run(args: list[str], text: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=text)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("moves", ["", "3", "33", "3241", "1122", "3322115", "12345123"])
def test_analyze_json_with_the_book_equals_without(book_files: dict[str, Path], moves: str) -> None:
    code, with_book, _ = run(["connect4", "analyze", moves, *SMALL, "--json", "--book", str(book_files["good"])])
    assert code == 0
    code, without, _ = run(["connect4", "analyze", moves, *SMALL, "--json", "--no-book"])
    assert code == 0
    assert json.loads(with_book) == json.loads(without)


def test_analyze_text_with_the_book_equals_without(book_files: dict[str, Path]) -> None:
    code, with_book, _ = run(["connect4", "analyze", "332", *SMALL, "--book", str(book_files["good"])])
    assert code == 0 and "Score: " in with_book
    assert with_book == run(["connect4", "analyze", "332", *SMALL, "--no-book"])[1]


def test_review_with_the_book_equals_without(book_files: dict[str, Path]) -> None:
    code, with_book, _ = run(["connect4", "review", THROWN_GAME, *SMALL, "--json", "--book", str(book_files["good"])])
    assert code == 0
    code, without, _ = run(["connect4", "review", THROWN_GAME, *SMALL, "--json", "--no-book"])
    assert code == 0
    a, b = json.loads(with_book), json.loads(without)
    # the positions before moves 1-8 have fewer than 8 discs
    assert a["from_book"] == 8 and b["from_book"] == 0
    assert a["reviews"] == b["reviews"]


def _hint_scores(out: str) -> list[str]:
    """Each hint's scores (the legend in brackets comes with the first hint only)."""
    return [line.split(" (")[0].rstrip(".") for line in re.findall(r"(?:Book|Solver) scores for \w+: (.*)", out)]


def test_play_hints_with_the_book_equal_hints_without(book_files: dict[str, Path]) -> None:
    script = "h\n3\nh\n3\nh\n2\nh\nq\n"
    args = ["play", "connect4", *SMALL, "--red", "human", "--yellow", "human", "--seed", "1"]
    code, with_book, _ = run([*args, "--book", str(book_files["good"])], script)
    assert code == 0
    code, without, _ = run([*args, "--no-book"], script)
    assert code == 0
    hints = _hint_scores(with_book)
    assert len(hints) == 4 and hints == _hint_scores(without)
    # the hint says where they came from
    assert with_book.count("Book scores for") == 4 and "Solver scores" not in with_book
    assert without.count("Solver scores for") == 4 and "Book scores" not in without


@pytest.mark.slow
def test_perfect_with_the_book_wins_as_yellow_on_6x4(tmp_path: Path) -> None:
    """6x4 is a win for the second player (Tromp): perfect as yellow, playing its opening from a book, beats random."""
    book = tmp_path / "6x4.bin"
    build_book(6, 4, 4, 5, book, table_bits=18)
    for seed in range(3):
        code, out, _ = run(
            [
                "play",
                "connect4",
                "--width",
                "6",
                "--height",
                "4",
                "--red",
                "random",
                "--yellow",
                "perfect",
                "--seed",
                str(seed),
                "--book",
                str(book),
            ]
        )
        assert code == 0
        assert out.rstrip().splitlines()[-1].startswith("Yellow wins"), out
        assert "depth-limited" not in out


@pytest.mark.parametrize("kind", ["wrong board", "truncated", "corrupt"])
@pytest.mark.parametrize(
    "command",
    [
        ["connect4", "analyze", "33", *SMALL],
        ["play", "connect4", *SMALL, "--red", "human", "--yellow", "perfect"],
        ["connect4", "review", "3344", *SMALL],
    ],
    ids=["analyze", "play", "review"],
)
def test_a_bad_book_is_one_line_and_exit_2(book_files: dict[str, Path], kind: str, command: list[str]) -> None:
    code, out, err = run([*command, "--book", str(book_files[kind])], "q\n")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(book_files[kind].name) in lines[0], err
    expected = {
        "wrong board": "is a book for 4x4 with lines of 4, not 5x4",
        "truncated": "is truncated",
        "corrupt": "is corrupt",
    }[kind]
    assert expected in lines[0]
    assert "Traceback" not in out + err


def test_book_and_no_book_together_are_refused(book_files: dict[str, Path]) -> None:
    code, _, err = run(["connect4", "analyze", "33", *SMALL, "--book", str(book_files["good"]), "--no-book"])
    assert code == 2 and "choose one" in err


def test_r_after_the_end_shows_the_review_of_the_game(book_files: dict[str, Path]) -> None:
    script = "".join(f"{move}\n" for move in THROWN_GAME) + "r\n"
    args = ["play", "connect4", *SMALL, "--red", "human", "--yellow", "human"]
    code, out, _ = run([*args, "--book", str(book_files["good"])], script)
    assert code == 0
    played = out[out.index("Red wins: ") :].splitlines()
    assert played[1] == "r"
    review = played[2:]
    assert re.fullmatch(r"\s+9  red\s+1\s+\+0\s+\+6  3  mistake: win -> draw", review[10]), review[10]
    code, alone, _ = run(["connect4", "review", THROWN_GAME, *SMALL, "--book", str(book_files["good"])])
    assert code == 0
    assert review[:-2] == alone.splitlines()[:-1]  # the same review; only the timing line differs
    assert review[-2].startswith("Reviewed 13 move(s) in ")
    # kept for drills
    assert review[-1] == "Drill the positions before the mistakes: gridgames connect4 drill"
    from gridgames_connect4.teach.drill import DrillHistory

    last = DrillHistory.load().last
    assert last is not None and last.game.join_notation(last.moves) == THROWN_GAME and last.players == (0, 1)


def test_other_words_after_the_end_are_explained_and_q_leaves() -> None:
    script = "".join(f"{move}\n" for move in "4455667") + "x\nq\n"
    code, out, _ = run(["play", "connect4", "--red", "human", "--yellow", "human", "--no-book"], script)
    assert code == 0
    assert out.rstrip().splitlines()[-2:] == [
        "'x' is not a command here: r reviews the game, s FILE saves it, q quits.",
        "q",
    ]


def test_the_interactive_end_prompt_offers_the_review(
    monkeypatch: pytest.MonkeyPatch, book_files: dict[str, Path]
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nq\n"))
    monkeypatch.setattr(sys, "stdout", out)
    state = Connect4(5, 4, 4).from_notation(THROWN_GAME)
    book = Book.load(book_files["good"], width=5, height=4, connect=4)
    game = two_humans(state, book=book, interactive=True)
    assert game.run() == 0
    text = out.getvalue()
    assert "Game over: r reviews the game, s FILE saves it, q quits [r, s FILE, q]: " in text
    assert "Reviewing the game (Ctrl-C stops the review)..." in text
    assert "   9  red          1     +0    +6  3  mistake: win -> draw" in text
    assert text.count("Game over: ") == 2  # asked again after the review; q then leaves


def test_without_options_the_shipped_book_for_the_board_is_used(
    monkeypatch: pytest.MonkeyPatch, book_files: dict[str, Path]
) -> None:
    shipped = Book.load(book_files["good"])
    monkeypatch.setattr(book_module, "default_book", lambda w=7, h=6, c=4: shipped if (w, h, c) == (5, 4, 4) else None)
    code, out, _ = run(["connect4", "review", THROWN_GAME, *SMALL, "--json"])
    assert code == 0 and json.loads(out)["from_book"] == 8
    code, out, _ = run(["connect4", "review", THROWN_GAME, *SMALL, "--json", "--no-book"])
    assert code == 0 and json.loads(out)["from_book"] == 0
