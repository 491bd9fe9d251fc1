"""A game is never lost on an unexpected error mid-game (issue 46): it is autosaved first, then one line says what
failed."""

from __future__ import annotations

import io
import json
import sys

import pytest

import gridgames.cli_play
from gridgames.cli_play import TerminalPlay
from gridgames.files import latest_autosave
from gridgames_connect4 import Connect4
from gridgames_test_support.toy_games import NIM_SPEC


def _feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_an_error_in_the_terminal_play_loop_autosaves_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = NIM_SPEC.make()
    real = gridgames.cli_play._parse_typed
    calls = []

    def failing(game: object, line: str) -> object:
        calls.append(line)
        if len(calls) == 3:
            raise OSError(36, "File name too long")  # any failure nobody foresaw
        return real(game, line)  # type: ignore[arg-type]

    monkeypatch.setattr(gridgames.cli_play, "_parse_typed", failing)
    _feed(monkeypatch, "1\n2\n1\n")
    play = TerminalPlay("nim", {"stones": 7}, game.new_state(), [None, None], ["human", "human"])  # type: ignore[union-attr]
    code = play.run()
    assert code == 1
    path = latest_autosave("nim")
    assert path is not None
    saved = json.loads(path.read_text())
    assert saved["game"] == "nim" and saved["moves"]  # the two moves played are kept
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "OSError" in err[0] and str(path) in err[0]


def test_an_error_in_connect4s_terminal_game_autosaves_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _feed(monkeypatch, "5\n")
    state = Connect4().from_notation("4453")
    # Connect Four plays on TerminalPlay
    play = TerminalPlay("connect4", {}, state, [None, None], ["human", "human"])

    def broken_loop(self: TerminalPlay) -> int:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    monkeypatch.setattr(TerminalPlay, "_loop", broken_loop)
    assert play.run() == 1
    path = latest_autosave("connect4")
    assert path is not None and "4453" in path.read_text()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ValueError" in err[0] and str(path) in err[0]
