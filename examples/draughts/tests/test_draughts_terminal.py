"""Draughts at the terminal: whole moves and short forms typed, a short form that fits no move refused with the
reason, and the game goes on; the save holds the whole moves."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gridgames.cli import app

runner = CliRunner()
HUMANS = ["--black", "human", "--white", "human"]


def test_short_forms_are_read_in_the_position(tmp_path: Path) -> None:
    path = tmp_path / "draughts.json"
    typed = f"11-15\n21-17\n12-16\n23-19\n16x23\n27x11\n22x6\n7x16\ns {path}\nq\n"
    result = runner.invoke(app, ["play", "draughts", *HUMANS], input=typed)
    assert result.exit_code == 0, result.output
    assert "no legal capture here goes from 22 to 6 ('22x6'); try again" in result.output
    assert json.loads(path.read_text())["moves"] == "11-15 21-17 12-16 23-19 16x23 27x18x11 7x16"
