"""`gridgames solve pentomino --count` with --jobs and --scheduler: the same counts, every part accounted for."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.search import tiling

from gridgames_pentomino.puzzle import TilingPuzzle

runner = CliRunner()

KNOWN = [
    ("3x20", False, 8),
    ("3x20", True, 2),
    ("4x15", False, 1472),
    ("4x15", True, 368),
    ("8x8-centre", False, 520),
    ("8x8-centre", True, 65),
]


def solve(*args: str) -> Any:
    return runner.invoke(app, ["solve", "pentomino", *args])


def counted(*args: str) -> dict[str, Any]:
    result = solve(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_local_jobs_count_the_known_totals_with_every_part_finished(jobs: str) -> None:
    for board, unique, expected in KNOWN:
        data = counted("--board", board, "--jobs", jobs, *(["--unique"] if unique else []))
        assert (board, unique, data["solutions"], data["partial"]) == (board, unique, expected, False)
        assert data["parts_done"] == data["parts"] > 1 and data["jobs"] == int(jobs) and data["reruns"] == 0


def test_the_text_says_all_parts_finished() -> None:
    result = solve("--board", "4x15", "--count", "--jobs", "2")
    assert result.exit_code == 0
    assert result.stdout.startswith("1,472 solutions of 4x15 (60 cells) with pentominoes in ")
    assert "(2 processes: all " in result.stdout and " parts finished)" in result.stdout


@pytest.mark.slow
def test_jobs_auto_and_0_use_every_core() -> None:
    cores = os.cpu_count() or 1
    assert counted("--board", "3x20", "--jobs", "auto")["jobs"] == cores
    assert counted("--board", "3x20", "--count", "--jobs", "0")["jobs"] == cores


def test_the_readme_pieces_for_dana_scotts_problem_are_accepted() -> None:
    # the README's parallel example (counted in bench/parallel.py)
    puzzle = TilingPuzzle.create("8x8", "pentominoes+tetromino:O")
    assert puzzle.pieces.copies == 13 and puzzle.pieces.area == 64 and "O" in puzzle.pieces.names


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "2"], "listing solutions (--limit, --jsonl, --svg) runs in one process"),
        (["--jobs", "2", "--jsonl"], "count in parallel (--count or --json)"),
        (["--count", "--svg", "x.svg", "--jobs", "2"], "count in parallel"),
        (["--limit", "3", "--scheduler", "tcp://127.0.0.1:8786"], "count in parallel"),
        (["--count", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"], "choose one"),
        (["--count", "--jobs", "many"], "--jobs must be a whole number or 'auto', not 'many'"),
        (["--count", "--jobs", "-3"], "--jobs must be 0 (every core), 'auto' or positive, not -3"),
    ],
)
def test_what_parallel_runs_do_not_do_is_a_one_line_error(args: list[str], message: str) -> None:
    result = solve("--board", "3x20", *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_scheduler_without_dask_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # import distributed now raises ImportError
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = solve("--board", "3x20", "--count", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert (
        result.stderr
        == 'error: the --scheduler option needs Dask\'s distributed scheduler: pip install "gridgames[dask]"\n'
    )


def test_a_part_that_raises_is_a_one_line_error_naming_its_placements(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tiling.count_part
    seen = iter(range(10**6))

    def fail_fifth(problem: Any, part: tiling.Part, **kw: Any) -> Any:
        if next(seen) == 4:
            raise RuntimeError("boom")
        return real(problem, part, **kw)

    monkeypatch.setattr(tiling, "count_part", fail_fifth)
    result = solve("--board", "4x15", "--count", "--jobs", "1")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("error: part 4 (") and lines[0].endswith(") failed: RuntimeError: boom")
    )
    assert " at (0,0)" in lines[0]  # the placements the part starts from


def interrupt_after(parts: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the count see Ctrl-C when the part after the first ``parts`` starts (run in this process)."""
    real = tiling.count_part
    seen = iter(range(10**6))

    def interrupt(problem: Any, part: tiling.Part, **kw: Any) -> Any:
        if next(seen) == parts:
            raise KeyboardInterrupt
        return real(problem, part, **kw)

    monkeypatch.setattr(tiling, "count_part", interrupt)


def test_ctrl_c_reports_the_partial_count_and_the_parts_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_after(3, monkeypatch)
    result = solve("--board", "4x15", "--count", "--jobs", "1")
    assert result.exit_code == 130
    assert "so far (partial: interrupted after " in result.stdout and "; 3 of " in result.stdout
    assert " parts finished on this process)" in result.stdout
    interrupt_after(3, monkeypatch)
    data = json.loads(solve("--board", "4x15", "--json", "--jobs", "1").stdout)
    assert data["partial"] is True and data["parts_done"] == 3 < data["parts"]


# --- a real Dask cluster (last in the module: its threads stay in this process) ------------------


@pytest.mark.slow
def test_a_dask_cluster_counts_the_known_totals(dask_scheduler: str) -> None:
    for board, unique, expected in KNOWN:
        data = counted("--board", board, "--scheduler", dask_scheduler, *(["--unique"] if unique else []))
        assert (board, unique, data["solutions"], data["partial"]) == (board, unique, expected, False)
        assert data["parts_done"] == data["parts"] > 1 and data["scheduler"] == dask_scheduler


@pytest.mark.slow
def test_the_dask_text_names_the_scheduler(dask_scheduler: str) -> None:
    result = solve("--board", "3x20", "--count", "--unique", "--scheduler", dask_scheduler)
    assert result.exit_code == 0
    assert result.stdout.startswith("2 solutions up to symmetry of 3x20")
    assert f"(Dask scheduler {dask_scheduler}: all " in result.stdout
