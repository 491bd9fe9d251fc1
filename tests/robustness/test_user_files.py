"""Hostile user files (issue 13, cases 1, 2 and 12): one line, exit code 2, nothing read past the cap, nothing lost.

Every file a user names (save files, boards, pieces) goes through `gridgames.files.read_user_text`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.errors import GridGamesError, PuzzleError, SaveFileError
from gridgames.files import UserFileError, read_user_text, write_user_text
from gridgames_connect4 import Connect4
from gridgames_test_support.connect4_play import load_game, save_game

runner = CliRunner()

SURFACES = [
    ["play", "connect4", "--load"],
    ["solve", "pentomino", "--board-file"],
    ["solve", "pentomino", "--pieces-file"],
    ["pentomino", "show", "--board-file"],
    ["pentomino", "pieces", "--pieces-file"],
]


def one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def test_case_1_a_save_file_with_a_5000_digit_integer_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"format":"gridgames-connect4","version":' + "1" * 5000 + "}")
    assert "too long" in one_line_error(["play", "connect4", "--load", str(path)])


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: " ".join(s[:2]))
def test_case_2_a_device_never_ends_so_it_is_refused_unread(surface: list[str]) -> None:
    assert "is a device, not a regular file" in one_line_error([*surface, "/dev/zero"])


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: " ".join(s[:2]))
def test_case_2_an_oversized_file_is_refused_before_it_is_read(surface: list[str], tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with open(path, "wb") as handle:  # sparse: 100 MB that costs no disk
        handle.truncate(100_000_000)
    assert "is too large (100,000,000 bytes" in one_line_error([*surface, str(path)])


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: " ".join(s[:2]))
def test_case_12_a_fifo_is_refused_without_blocking(surface: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "is a pipe (FIFO), not a regular file" in one_line_error([*surface, str(fifo)])


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: " ".join(s[:2]))
def test_a_directory_and_a_missing_file_are_one_line(surface: list[str], tmp_path: Path) -> None:
    assert "is a directory" in one_line_error([*surface, str(tmp_path)])
    assert "no such file" in one_line_error([*surface, str(tmp_path / "absent")])


def test_the_reader_never_reads_past_its_cap_even_when_a_file_lies_about_its_size(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("x" * 11)
    assert read_user_text(path, what="file", max_bytes=11) == "x" * 11
    with pytest.raises(UserFileError, match="too large"):
        read_user_text(path, what="file", max_bytes=10)


def test_the_reader_raises_the_callers_error_class(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="no such file"):
        read_user_text(tmp_path / "x", what="board file", max_bytes=10, error=PuzzleError)
    with pytest.raises(GridGamesError):
        read_user_text(tmp_path / "x", what="board file", max_bytes=10)


def test_case_12_saving_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    save_game(Connect4().from_notation("4"), real)
    link.symlink_to(real)
    save_game(Connect4().from_notation("45"), link)
    assert link.is_symlink() and load_game(real).notation() == "45"


def test_case_12_a_save_is_fsynced_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    save_game(Connect4().from_notation("4"), tmp_path / "g.json")
    assert events[:2] == ["fsync", "replace"]


def test_saving_over_a_directory_is_one_line_and_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(SaveFileError, match="not a regular file"):
        save_game(Connect4().new_state(), tmp_path / "d")
    assert (tmp_path / "d").is_dir()


def test_write_user_text_round_trips(tmp_path: Path) -> None:
    path = write_user_text(tmp_path / "a.json", json.dumps({"a": 1}))
    assert json.loads(read_user_text(path, what="file", max_bytes=100)) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]
