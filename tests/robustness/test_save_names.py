"""Save names typed at the play prompt and what interrupted saves leave behind (issue 38).

A name too long for the file system, one with a NUL byte, or ``~nouser/...`` is refused in one line and the game
goes on; a save killed before its rename leaves a temporary file, which the next save of that file removes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.files import UserFileError, user_path, write_user_text
from gridgames_test_support.cli_runs import runner

from gridgames.cli import app

BAD_NAMES = ["a" * 5000, "a\0b.json", "~nouser-gridgames/x.json"]
GAMES = {
    "connect4": (["play", "connect4", "--red", "human", "--yellow", "human"], "4"),
    "mnk": (["play", "mnk", "--x", "human", "--o", "human"], "b2"),
}


@pytest.mark.parametrize("name", BAD_NAMES, ids=["5000 chars", "NUL", "~nouser"])
@pytest.mark.parametrize("game", GAMES)
def test_a_bad_save_name_at_the_prompt_is_one_line_and_the_game_goes_on(
    game: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    args, move = GAMES[game]
    result = runner.invoke(app, args, input=f"{move}\ns {name}\ns good.json\nq\n")
    text = result.stdout + result.stderr
    assert "Traceback" not in text and not isinstance(result.exception, (OSError, ValueError, RuntimeError)), text[
        -500:
    ]
    assert result.exit_code == 0, text[-500:]
    refusal = [line for line in text.splitlines() if line.lower().startswith("not saved")]
    assert len(refusal) == 1 and len(refusal[0]) < 300, refusal
    assert (tmp_path / "good.json").is_file()  # the game went on, and the next save worked


def test_user_path_refuses_in_one_line() -> None:
    for name in BAD_NAMES[1:]:
        with pytest.raises(UserFileError):
            user_path(name)
    assert user_path("~/x") == Path.home() / "x"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_save_removes_the_temporary_files_of_killed_saves(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    dead = tmp_path / f".game.json.{_dead_pid()}.x1y2.tmp"
    dead.write_text("half a save")
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        busy = tmp_path / f".game.json.{alive.pid}.z3.tmp"
        busy.write_text("being written")
        other = tmp_path / f".other.json.{_dead_pid()}.q.tmp"
        other.write_text("another file's")
        write_user_text(target, "{}")
        assert target.read_text() == "{}"
        assert not dead.exists()  # its writer is gone
        # a live writer's, and another file's, are left alone
        assert busy.exists() and other.exists()
    finally:
        alive.kill()
        alive.wait()


@pytest.mark.slow
def test_kill_9_during_saves_leaves_nothing_after_the_next_save(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    code = (
        "import sys\nfrom gridgames.files import write_user_text\n"
        "while True:\n    write_user_text(sys.argv[1], 'x' * 200_000)\n"
    )
    for _ in range(8):
        child = subprocess.Popen([sys.executable, "-c", code, str(target)])
        try:
            child.wait(timeout=0.4 + 0.05 * _)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    write_user_text(target, "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert target.read_text() == "{}"


def test_a_name_at_the_file_systems_limit_still_saves(tmp_path: Path) -> None:
    target = tmp_path / ("b" * 250 + ".json")  # 255 bytes: the temporary file's name must still fit
    write_user_text(target, "{}")
    assert target.read_text() == "{}" and len(os.listdir(tmp_path)) == 1
