"""`connect4 analyze` bounded and interrupted: --think, Ctrl-C (partial columns, exit 130), --table-mb, notices."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.surfaces import cli
from gridgames_connect4.solve import search_driver
from gridgames_connect4.solve import solver as solver_module
from gridgames_connect4.teach.analysis import analyze_position
from gridgames_connect4.solve.scorer import Limits
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.search_driver import SearchDriver
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.connect4_bisection import bisecting_step_search
from gridgames.cli import app
from gridgames.search import parallel

runner = CliRunner()
MOVES = "274552224131661"  # Middle-Medium's first line: every column takes a real search
# the columns in the order the sequential analysis solves them (0-based)
ORDER = [3, 2, 4, 1, 5, 0, 6]


def interrupt_search(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """Make the solver see Ctrl-C when its search of the column number ``after`` (0-based) starts."""
    # one call per column, each asking the kernel one or more null windows
    real = SearchDriver.solve_probing
    calls = iter(range(10**6))

    def search(self: Solver, *args: Any) -> Any:
        if next(calls) == after:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(SearchDriver, "solve_probing", search)


def full_columns() -> list[int | None]:
    return Solver().analyze([int(ch) - 1 for ch in MOVES])


def test_ctrl_c_keeps_the_solved_columns_and_marks_the_rest() -> None:
    expected = full_columns()
    state = Connect4().from_notation(MOVES)
    with pytest.MonkeyPatch.context() as mp:
        interrupt_search(mp, 2)
        with pytest.raises(KeyboardInterrupt):  # the default: Ctrl-C propagates
            analyze_position(state)
    with pytest.MonkeyPatch.context() as mp:
        interrupt_search(mp, 2)
        report = analyze_position(state, Limits(keep_partial=True))
    assert report.partial and report.stopped == "interrupted"
    solved = {c: s for c, s in enumerate(report.columns) if s is not None}
    assert solved == {c: expected[c] for c in ORDER[:2]}
    assert report.unsolved == tuple(sorted(c + 1 for c in ORDER[2:]))
    assert report.best == () and report.score == max(solved.values())


def test_cli_ctrl_c_prints_the_partial_json_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = full_columns()
    interrupt_search(monkeypatch, 3)
    result = runner.invoke(app, ["connect4", "analyze", MOVES, "--json"])
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["partial"] is True and data["stopped"] == "interrupted" and data["best"] == []
    assert data["unsolved"] == sorted(c + 1 for c in ORDER[3:])
    assert [data["columns"][c] for c in ORDER[:3]] == [expected[c] for c in ORDER[:3]]


def test_cli_ctrl_c_in_text_says_the_answer_is_not_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_search(monkeypatch, 1)
    result = runner.invoke(app, ["connect4", "analyze", MOVES])
    assert result.exit_code == 130
    assert "Not exact: interrupted before solving columns 1, 2, 3, 5, 6, 7 (marked ?)." in result.stdout
    assert "Best:" not in result.stdout


def test_ctrl_c_with_two_local_processes_prints_what_was_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = full_columns()
    real_wait = parallel.wait
    finished = []

    def wait_then_interrupt(*args: Any, **kw: Any) -> Any:
        if finished:  # Ctrl-C arrives while waiting, after some columns came back
            raise KeyboardInterrupt
        done, pending = real_wait(*args, **kw)
        finished.extend(done)
        return done, pending

    monkeypatch.setattr(parallel, "wait", wait_then_interrupt)
    result = runner.invoke(app, ["connect4", "analyze", MOVES, "--json", "--jobs", "2"])
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["partial"] is True and data["stopped"] == "interrupted"
    solved = [c for c, s in enumerate(data["columns"]) if s is not None]
    assert 0 < len(solved) < 7 and data["unsolved"] == [c + 1 for c in range(7) if c not in solved]
    assert all(data["columns"][c] == expected[c] for c in solved)


def test_ctrl_c_with_two_searchers_prints_what_was_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from gridgames_connect4.solve.engine import smp as _smp

    expected = full_columns()
    # start the helper early in each column's search
    monkeypatch.setattr(search_driver, "_SMP_START", 40)
    # and look at its answer often (later columns are short)
    monkeypatch.setattr(search_driver, "_SLICE", 5)
    # one call per column
    real_answer, real_search = _smp.Helpers.answer, SearchDriver.solve_probing
    searches = []

    def search(self: Solver, *args: Any) -> Any:
        searches.append(1)
        return real_search(self, *args)

    def answer_then_interrupt(self: Any) -> Any:
        # Ctrl-C arrives while the helper searches a later column
        if len(searches) >= 2 and self.threads:
            raise KeyboardInterrupt
        return real_answer(self)

    monkeypatch.setattr(SearchDriver, "solve_probing", search)
    monkeypatch.setattr(_smp.Helpers, "answer", answer_then_interrupt)
    report = analyze_position(Connect4().from_notation(MOVES), Limits(jobs=2, shared_table=True, keep_partial=True))
    assert report.stopped == "interrupted" and report.partial
    solved = [c for c, s in enumerate(report.columns) if s is not None]
    assert 0 < len(solved) < 7 and list(report.unsolved) == [c + 1 for c in range(7) if c not in solved]
    assert all(report.columns[c] == expected[c] for c in solved)
    # helpers stopped
    assert not [t for t in threading.enumerate() if t.name.startswith("connect4-helper")]


# 8 discs: without a book its columns take seconds to solve (the shipped book answers them)
SLOW = "44444412"


def test_think_bounds_the_analysis_and_says_it_is_not_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_driver, "_SLICE", 1000)
    result = runner.invoke(app, ["connect4", "analyze", SLOW, "--think", "0.05", "--json", "--no-book"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["partial"] is True and data["stopped"] == "time" and data["unsolved"]
    text = runner.invoke(app, ["connect4", "analyze", SLOW, "--think", "0.05", "--no-book"])
    assert "Not exact: out of time (--think) before solving column" in text.stdout


def test_think_with_jobs_stops_the_workers_too() -> None:
    command = ["connect4", "analyze", SLOW, "--think", "0.2", "--json", "--jobs", "2", "--no-book"]
    data = json.loads(runner.invoke(app, command).stdout)
    assert data["partial"] is True and data["stopped"] == "time" and data["unsolved"]


def test_enough_think_gives_the_exact_answer_and_table_mb_sizes_the_table() -> None:
    plain = json.loads(runner.invoke(app, ["connect4", "analyze", MOVES, "--json"]).stdout)
    bounded = runner.invoke(app, ["connect4", "analyze", MOVES, "--json", "--think", "600", "--table-mb", "1"])
    assert bounded.exit_code == 0 and json.loads(bounded.stdout) == plain
    assert "partial" not in plain
    assert Solver(table_mb=1).table_bytes <= 2**20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--think", "0"], "--think must be a number of seconds above 0"),
        (["--table-mb", "0"], "--table-mb must be between"),
    ],
)
def test_bad_think_or_table_size_is_a_one_line_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["connect4", "analyze", MOVES, *args])
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1


def test_a_notice_says_when_the_first_use_compiles_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    monkeypatch.setattr(solver_module, "kernels_compiled", lambda ahead=True: asked.append(ahead) or False)
    # past the book: the solver runs
    result = runner.invoke(app, ["connect4", "analyze", "4353631217"])
    assert result.exit_code == 0
    assert result.stderr == "Compiling the Connect Four solver (first use only)...\n"
    # a board over 64 bits runs numba's JIT kernels, whatever the package compiled
    result = runner.invoke(app, ["connect4", "analyze", "1", "--width", "10", "--height", "6", "--think", "0.1"])
    assert result.exit_code == 0 and result.stderr.startswith("Compiling")
    assert asked == [True, False]
    # compiled with the package, or numba's kernels cached: no notice
    monkeypatch.setattr(solver_module, "kernels_compiled", lambda ahead=True: True)
    assert runner.invoke(app, ["connect4", "analyze", "4353631217"]).stderr == ""


def test_progress_shows_positions_rate_and_window_after_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    progress = cli._AnalysisProgress(7)
    progress.err = Console(file=io.StringIO(), force_terminal=True)
    shown: list[str] = []
    monkeypatch.setattr(progress.err, "status", lambda text: _Status(shown, text))
    progress.start -= 2.0  # two seconds into the solve
    progress.update(solver_module.SearchProgress(3_000_000, 2.0, -1, 1))
    progress.update(solver_module.SearchProgress(5_000_000, 2.5, 0, 1))
    assert shown[0].startswith("Solving: 3.0 M positions, ") and "score window -1..+1" in shown[0]
    assert shown[1].startswith("Solving: 5.0 M positions, ") and "score window +0..+1" in shown[1]


class _Status:
    def __init__(self, shown: list[str], text: str) -> None:
        self.shown = shown
        shown.append(text)

    def start(self) -> None:
        pass

    def update(self, text: str) -> None:
        self.shown.append(text)

    def stop(self) -> None:
        pass


# Middle-Medium's first line (its columns score -12 to 0) and 10 random discs (-3 to 4)
@pytest.mark.slow
@pytest.mark.parametrize("moves", [MOVES, "4443121636"])
def test_analyze_steps_its_null_windows_out_from_0_and_explores_fewer_positions_than_bisection(
    monkeypatch: pytest.MonkeyPatch, moves: str
) -> None:
    history = [int(ch) - 1 for ch in moves]
    solver = Solver()
    stepped = solver.analyze(history)
    stepping = solver.explored
    # the kernel's bisection
    monkeypatch.setattr(SearchDriver, "step_search", bisecting_step_search)
    solver.reset()
    assert solver.analyze(history) == stepped
    assert stepping < 0.9 * solver.explored  # 0.74x and 0.82x measured
