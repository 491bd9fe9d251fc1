"""A game killed at its prompt is not lost (issue 55, case 4): the autosave is rewritten after every move, so SIGKILL,
SIGQUIT or SIGUSR1 loses at most the move being typed; ``--resume`` says which game it resumes and from when, names
the other resumable ones, and a finished game is retired rather than offered again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SAFETY = 120.0  # a safety net for slow machines, not the assertion
HUMANS = ["--red", "human", "--yellow", "human"]


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def _autosaved(tmp_path: Path, moves: str) -> Path | None:
    for path in (tmp_path / "data" / "gridgames" / "autosave").glob("connect4-*.json"):
        try:
            if f'"moves": "{moves}"' in path.read_text() or f'"moves":"{moves}"' in path.read_text():
                return path
        except OSError:
            continue
    return None


def _gg(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gridgames", *args],
        env=_env(tmp_path),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=SAFETY,
    )


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGQUIT, signal.SIGUSR1])
def test_a_game_killed_at_its_prompt_is_resumed_with_every_move(tmp_path: Path, sig: signal.Signals) -> None:
    # game A, kept at the end of input
    older = _gg(tmp_path, "play", "connect4", *HUMANS, stdin="1\n")
    assert older.returncode == 0, older.stderr
    game = subprocess.Popen(
        [sys.executable, "-m", "gridgames", "play", "connect4", *HUMANS],
        env=_env(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert game.stdin is not None
    game.stdin.write("4\n4\n5\n")
    game.stdin.flush()
    deadline = time.monotonic() + SAFETY
    while _autosaved(tmp_path, "445") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    game.send_signal(sig)  # at the prompt of move 4
    game.wait(SAFETY)
    resumed = _gg(tmp_path, "play", "connect4", "--resume", *HUMANS)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming the connect4 game autosaved at" in resumed.stdout and "(moves: 445;" in resumed.stdout
    assert "Also resumable:" in resumed.stdout and "(moves: 1)" in resumed.stdout  # game A, named


def test_a_finished_game_is_retired(tmp_path: Path) -> None:
    # one move short of a win
    first = _gg(tmp_path, "play", "connect4", *HUMANS, stdin="1\n2\n1\n2\n1\n2\n")
    assert first.returncode == 0, first.stderr
    assert _autosaved(tmp_path, "121212") is not None
    # red's four in column 1
    done = _gg(tmp_path, "play", "connect4", "--resume", *HUMANS, stdin="1\n")
    assert done.returncode == 0, done.stderr
    assert _autosaved(tmp_path, "121212") is None and _autosaved(tmp_path, "1212121") is None
    again = _gg(tmp_path, "play", "connect4", "--resume", *HUMANS)
    assert again.returncode == 2 and "no interrupted Connect Four game" in again.stderr
