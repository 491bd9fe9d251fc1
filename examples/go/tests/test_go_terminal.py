"""Go at the terminal: the prompt offers the pass at every turn, ``p`` and ``pass`` pass, two passes end the game;
the game saves and loads."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gridgames.cli import app

runner = CliRunner()
HUMANS = ["--size", "5", "--black", "human", "--white", "human"]


def test_a_stone_and_two_passes_typed_end_the_game() -> None:
    result = runner.invoke(app, ["play", "go", *HUMANS], input="C3\np\npass\n")
    assert result.exit_code == 0, result.output
    assert "Black to move (u: undo, h: hint, s FILE: save, q: quit, p: pass): " in result.output
    assert "moves: C3 pass pass" in result.output
    assert result.output.strip().splitlines()[-1] == "Black wins 25-7.5 (both players passed)"


def test_a_game_with_a_pass_saves_and_loads(tmp_path: Path) -> None:
    path = tmp_path / "go.json"
    result = runner.invoke(app, ["play", "go", *HUMANS], input=f"C3\np\nD4\ns {path}\nq\n")
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "go", "--load", str(path)], input="pass\npass\n")
    assert result.exit_code == 0, result.output
    assert "moves: C3 pass D4 pass pass" in result.output and "Black wins 25-7.5" in result.output
