"""Interrupted games are never lost (issue 13, case 10): autosaved on Ctrl-C or end of input, resumed with --resume."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from gridgames_connect4 import Connect4
from gridgames_test_support.connect4_play import load_game, two_humans
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.files import autosave_dir, latest_autosave

runner = CliRunner()
HUMANS = ["play", "connect4", "--red", "human", "--yellow", "human"]


def test_end_of_input_autosaves_and_resume_picks_it_up(private_data_home: Path) -> None:
    first = runner.invoke(app, [*HUMANS], input="4\n4\n5\n")
    assert first.exit_code == 0
    path = latest_autosave("connect4")
    assert path is not None and path.parent == private_data_home / "gridgames" / "autosave"
    assert str(path) in first.stdout and load_game(path).notation() == "445"
    # red completes d1 e1 f1 g1
    again = runner.invoke(app, [*HUMANS, "--resume"], input="5\n6\n6\n7\n")
    assert again.exit_code == 0, again.output
    last = again.stdout.rstrip().splitlines()[-1]
    # the resumed game went on to its end
    assert last.startswith("Red wins") and "d1 e1 f1 g1" in last


def test_the_autosave_loads_with_load_too() -> None:
    runner.invoke(app, [*HUMANS, "--width", "5"], input="1\n2\n")
    path = latest_autosave("connect4")
    assert path is not None
    result = runner.invoke(app, [*HUMANS, "--load", str(path)], input="")
    assert result.exit_code == 0 and "Connect Four 5x6" in result.stdout


def test_ctrl_c_autosaves_with_the_moves_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Interrupting())
    monkeypatch.setattr(sys, "stdout", out)
    state = Connect4().from_notation("4453")
    game = two_humans(state)
    assert game.run() == 130
    path = latest_autosave("connect4")
    assert path is not None and load_game(path).notation() == "4453"
    assert out.getvalue().rstrip().splitlines()[-1].startswith(f"Interrupted: game saved to {path} (moves: 4453)")


def test_when_the_autosave_cannot_be_written_the_moves_are_printed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    result = runner.invoke(app, HUMANS, input="4\n5\n")
    assert "could not autosave" in result.stdout and "the moves so far: 45" in result.stdout


def test_resume_without_an_autosave_is_one_line() -> None:
    result = runner.invoke(app, [*HUMANS, "--resume"], input="")
    assert result.exit_code == 2 and result.stderr.startswith("error: no interrupted Connect Four game to resume")
    assert str(autosave_dir()) in result.stderr


def test_resume_and_load_together_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, [*HUMANS, "--resume", "--load", str(tmp_path / "x.json")], input="")
    assert result.exit_code == 2 and "choose one" in result.stderr


def test_a_generic_game_is_autosaved_with_its_options_and_moves() -> None:
    result = runner.invoke(app, ["play", "mnk", "--x", "human", "--o", "human", "--width", "4"], input="b2\na1\n")
    assert result.exit_code == 0
    path = latest_autosave("mnk")
    assert path is not None and str(path) in result.stdout
    saved = json.loads(path.read_text())
    assert saved["format"] == "gridgames-moves" and saved["game"] == "mnk"
    # every option, and the game's own notation of b2, a1
    assert saved["options"]["width"] == 4 and saved["moves"]
