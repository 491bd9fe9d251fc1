"""Tests for the top-level gridgames CLI: listing, info, errors as one line with exit code 2, fast help."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest
from typer.testing import CliRunner

import gridgames.registry
from gridgames.cli import app
from gridgames.registry import GROUP, Registry

runner = CliRunner()


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = Registry.from_list(
        [
            EntryPoint("nim", "gridgames_test_support.toy_games:NIM_SPEC", GROUP),
            EntryPoint("broken", "no_such_module_xyz:SPEC", GROUP),
        ]
    )
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


def test_list_shows_games_and_broken_plugins_with_their_reason(toy_registry: Registry) -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert any(line.startswith("nim") and "turn-based" in line and "last one wins" in line for line in lines)
    assert any(line.startswith("broken") and "BROKEN" in line and "ModuleNotFoundError" in line for line in lines)


def test_info_describes_options(toy_registry: Registry) -> None:
    result = runner.invoke(app, ["info", "nim"])
    assert result.exit_code == 0
    assert "nim (turn-based)" in result.output and "--stones INT" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["info", "chess"], "no game named 'chess'"),
        (["info", "broken"], "game 'broken' is broken: import failed"),
        (["--bogus"], "No such option: --bogus"),
        (["play", "chess"], "no game named 'chess'"),
        (["list", "extra"], "unexpected extra argument"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_code_2(
    toy_registry: Registry, args: list[str], message: str
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert message.lower() in result.stderr.lower()
    assert "Traceback" not in result.output


def test_help_lists_commands_and_game_names(toy_registry: Registry) -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for word in ("list", "info", "play", "solve", "nim", "broken"):
        assert word in result.output


def test_help_imports_neither_games_nor_numba() -> None:
    code = (
        "import sys; from typer.testing import CliRunner; from gridgames.cli import app; "
        "r = CliRunner().invoke(app, ['--help']); assert r.exit_code == 0, r.output; "
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith(('games', 'gridgames_'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_help_shows_each_command_summary_whole() -> None:
    result = runner.invoke(app, ["--help"], terminal_width=80)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "(and any plugin that failed to load, with its reason)" in text
    assert "gridgames play GAME --help)" in text


def test_python_dash_m_gridgames_runs_the_cli() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gridgames", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "Usage: gridgames" in out and "solve" in out


def test_the_console_entry_point_freezes_the_heap_before_the_exit_collects_it() -> None:
    code = (
        "import atexit, gc, sys; from gridgames.cli import main; "
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0)); sys.argv = ['gridgames', '--help']; "
        "main()"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("frozen True")
