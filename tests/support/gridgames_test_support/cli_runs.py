"""Running the gridgames CLI in-process for the robustness tests: its exit code and both streams, and the one-line error
check."""

from __future__ import annotations

from typer.testing import CliRunner

from gridgames.cli import app

runner = CliRunner()


def invoke(args: list[str]) -> tuple[int, str, str]:
    """Run ``gridgames ARGS`` with empty standard input: (exit code, stdout, stderr)."""
    result = runner.invoke(app, args, input="")
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(args: list[str], needle: str) -> None:
    """``gridgames ARGS`` exits 2 with one line 'error: ...' holding ``needle``, and no traceback anywhere."""
    code, out, err = invoke(args)
    assert code == 2, (code, out, err[:300])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err[:300]
    assert "Traceback" not in out + err
