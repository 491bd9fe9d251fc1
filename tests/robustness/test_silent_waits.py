"""No silent waits (issue 38): the first hint of a human-vs-human game says that the solver compiles."""

from __future__ import annotations

import pytest

from gridgames_test_support.cli_runs import runner

from gridgames.cli import app

pytest.importorskip("numba")


def test_the_first_hint_without_a_computer_seat_says_the_solver_compiles(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from gridgames_connect4.solve import solver

    # as in a fresh install
    monkeypatch.setattr(solver, "kernels_compiled", lambda ahead=True: False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = runner.invoke(
        app,
        ["play", "connect4", "--red", "human", "--yellow", "human", "--no-book"],
        input="4\n4\n4\n4\n4\n3\n6\n5\n6\n3\nh\nq\n",
    )
    text = result.stdout + result.stderr
    assert result.exit_code == 0, text[-500:]
    assert "Hint: play" in result.stdout
    # said on standard error, before the hint's search
    assert solver.FIRST_USE_NOTICE in result.stderr
