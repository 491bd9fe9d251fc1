"""`connect4 analyze --jobs/--scheduler`: one column per worker, the same scores as the sequential analysis."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.teach.analysis import analyze_position
from gridgames_connect4.solve.scorer import Limits, Position, column_score
from gridgames_connect4.position.rules import Connect4, Connect4State
from gridgames_connect4.solve.solver import Solver
from gridgames.cli import app

runner = CliRunner()


def random_positions(count: int, seed: int = 7) -> Iterator[Connect4State]:
    """Positions of random games on small boards, stopped before the end (some columns full, some wins at once)."""
    rng = random.Random(seed)
    while count:
        width, height = rng.choice([(4, 4), (5, 4), (4, 5), (5, 5)])
        state = Connect4(width, height, rng.choice([3, 4])).new_state()
        for _ in range(rng.randrange(width * height)):
            nxt = state.copy()
            nxt.play(rng.choice(list(state.legal_moves())))
            if nxt.outcome is not None:
                break
            state = nxt
        count -= 1
        yield state


@pytest.mark.slow
@pytest.mark.parametrize("weak", [False, True])
def test_column_scores_agree_with_the_solvers_own_analysis(weak: bool) -> None:
    kinds = set()
    for state in random_positions(80):
        game = state.game
        expected = Solver(game.width, game.height, game.connect).analyze(list(state.history), weak=weak)
        position = Position.of(state, weak)
        scores = [column_score(position, c) for c in range(game.width)]
        assert scores == expected, state.history
        kinds |= {"full" if s is None else "draw" if s == 0 else "win" if s > 0 else "loss" for s in scores}
    assert kinds == {"full", "draw", "win", "loss"}  # every kind of column was checked


@pytest.mark.slow
def test_two_local_processes_give_the_sequential_analysis() -> None:
    state = Connect4(7, 6, 4).from_notation("4444555533")
    assert analyze_position(state, Limits(jobs=2)) == analyze_position(state)
    # two searchers, one table
    assert analyze_position(state, Limits(jobs=2, shared_table=True)) == analyze_position(state)
    small = [s for s in random_positions(40, seed=3) if not s.is_over][:6]
    for state in small:
        weak = analyze_position(state, Limits(weak=True))
        assert analyze_position(state, Limits(weak=True, jobs=2)) == weak, state.history


def test_the_cli_prints_the_same_json_with_jobs() -> None:
    plain = runner.invoke(app, ["connect4", "analyze", "4444555533", "--json"])
    parallel = runner.invoke(app, ["connect4", "analyze", "4444555533", "--json", "--jobs", "2"])
    assert parallel.exit_code == plain.exit_code == 0
    expected = {"moves": "4444555533", "score": 16, "columns": [15, 16, 15, 15, 15, 16, 15], "best": [2, 6]}
    assert json.loads(parallel.stdout) == json.loads(plain.stdout) == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"], "choose one"),
        (["--jobs", "lots"], "--jobs must be a whole number or 'auto', not 'lots'"),
    ],
)
def test_bad_parallel_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["connect4", "analyze", "4444555533", *args])
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_scheduler_without_dask_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)
    result = runner.invoke(app, ["connect4", "analyze", "4444555533", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and 'pip install "gridgames[dask]"' in result.stderr


@pytest.mark.slow
def test_a_dask_cluster_gives_the_sequential_analysis(dask_scheduler: Any) -> None:
    state = Connect4(7, 6, 4).from_notation("4444555533")
    assert analyze_position(state, Limits(scheduler=dask_scheduler)) == analyze_position(state)
