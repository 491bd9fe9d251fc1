"""The solver's kernels compiled with the package (numba.pycc): same answers as numba's JIT ones, no numba in the
process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.solve.engine import aot as _kernels
from gridgames_connect4.solve import solver as solver_module
from gridgames_connect4.solve.book_build import build_book
from gridgames_connect4.solve.book import Book
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.connect4_positions import random_positions as _random_positions
from gridgames.cli import app
from gridgames.errors import SolverError

runner = CliRunner()
NO_COMPILER = not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc"))


def _forget() -> None:
    """Make the next `_kernels.load` look on disk again."""
    _kernels.NATIVE.forget()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the kernels compiled for the current sources: the package's when they verify, else built
    once (about 10 s)."""
    _forget()
    if _kernels.load() is not None:
        return _kernels.NATIVE.status().path.parent  # type: ignore[union-attr]
    if NO_COMPILER:
        pytest.skip("no C compiler: numba.pycc cannot build the kernels ahead of time")
    folder = tmp_path_factory.mktemp("kernels")
    _kernels.build(folder)
    _forget()
    return folder


@pytest.fixture()
def ahead(built: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The solver finds only the kernels in `built`."""
    monkeypatch.setattr(_kernels.NATIVE, "folders", lambda: [built])
    _forget()
    yield built
    _forget()


@pytest.fixture()
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The solver finds no kernels built ahead of time (an empty folder)."""
    monkeypatch.setattr(_kernels.NATIVE, "folders", lambda: [tmp_path])
    _forget()
    yield tmp_path
    _forget()


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "connect"), [(7, 6, 4), (5, 4, 4), (6, 5, 3), (4, 4, 3)])
def test_kernels_built_ahead_give_the_jit_kernels_scores_and_position_counts(
    ahead: Path, width: int, height: int, connect: int
) -> None:
    aot = Solver(width, height, connect, table_bits=16, kernels="aot")
    jit = Solver(width, height, connect, table_bits=16, kernels="jit")
    assert aot.driver.compiled is _kernels.load() and jit.driver.compiled is not aot.driver.compiled
    low = 12 if width * height >= 42 else 3
    positions = _random_positions(Connect4(width, height, connect), range(low, width * height - 1), 25, seed=width)
    for moves in positions:
        for weak in (False, True):
            aot.reset()
            jit.reset()
            assert aot.solve(moves, weak) == jit.solve(moves, weak), moves
            assert aot.explored == jit.explored, moves
        assert aot.analyze(moves) == jit.analyze(moves), moves
        # a budget too small for the exact search: the depth-limited search answers, the same way
        assert aot.best_move(moves, max_nodes=300) == jit.best_move(moves, max_nodes=300), moves
    assert aot.solve_many(positions) == jit.solve_many(positions)
    assert aot.explored_each == jit.explored_each


def test_kernels_built_ahead_probe_an_opening_book_as_the_jit_ones(ahead: Path, tmp_path: Path) -> None:
    build_book(5, 4, 4, 6, tmp_path / "b.bin", table_bits=16)
    book = Book.load(tmp_path / "b.bin", width=5, height=4, connect=4)
    aot = Solver(5, 4, 4, table_bits=16, book=book, kernels="aot")
    plain = Solver(5, 4, 4, table_bits=16, kernels="jit")
    for moves in [[], *_random_positions(Connect4(5, 4, 4), range(9), 20, seed=7)]:
        assert aot.analyze(moves) == plain.analyze(moves), moves


def test_a_process_with_kernels_built_ahead_solves_without_importing_numba(built: Path) -> None:
    code = (
        "import sys\nfrom pathlib import Path\nfrom gridgames_connect4.solve.engine import aot as _kernels\n"
        f"_kernels.NATIVE.folders = lambda: [Path({str(built)!r})]\n"
        "from gridgames_connect4.solve.solver import Solver\n"
        "solver = Solver()\n"
        "print(solver.solve([3, 3, 3, 3, 3, 3, 2, 2, 2]), solver.driver.compiled is _kernels.load(),"
        " 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(Solver(kernels="jit").solve([3, 3, 3, 3, 3, 3, 2, 2, 2])), "True", "False"]


def test_without_kernels_built_ahead_the_jit_kernels_run_and_aot_is_refused(nowhere: Path) -> None:
    assert _kernels.load() is None and "not built" in _kernels.missing_reason()
    assert Solver(5, 4, table_bits=12).solve([2, 2]) == Solver(5, 4, table_bits=12, kernels="jit").solve([2, 2])
    with pytest.raises(SolverError, match="no ahead-of-time kernels: not built"):
        Solver(5, 4, table_bits=12, kernels="aot")


def test_a_damaged_kernel_file_is_ignored_and_named(built: Path, nowhere: Path) -> None:
    name = _kernels.NATIVE.file_name()
    shutil.copyfile(built / f"{_kernels.MODULE}.manifest.json", nowhere / f"{_kernels.MODULE}.manifest.json")
    # truncated: importing it would die by SIGBUS
    (nowhere / name).write_bytes((built / name).read_bytes()[:4000])
    assert _kernels.load() is None
    assert "is damaged (its checksum differs" in _kernels.missing_reason()
    assert Solver(5, 4, table_bits=12).solve([2, 2]) == Solver(5, 4, table_bits=12, kernels="jit").solve([2, 2])


def test_boards_over_64_bits_and_parallel_searchers_run_the_jit_kernels(ahead: Path) -> None:
    assert Solver(5, 4, table_bits=12, kernels="auto").driver.compiled is _kernels.load()
    assert Solver(5, 4, table_bits=12, two_words=True).driver.compiled is not _kernels.load()
    assert Solver(5, 4, table_bits=12, jobs=2).driver.compiled is not _kernels.load()
    with pytest.raises(SolverError, match="runs on numba's JIT kernels"):
        Solver(5, 4, table_bits=12, two_words=True, kernels="aot")
    with pytest.raises(SolverError, match="kernels must be one of auto, jit, aot"):
        Solver(5, 4, kernels="fast")


def test_what_a_module_is_built_for_follows_the_kernel_sources(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    before = _kernels.NATIVE.target()
    for name in _kernels.NATIVE.sources:
        (tmp_path / name).write_bytes((_kernels.NATIVE.here / name).read_bytes())
    monkeypatch.setattr(_kernels.NATIVE, "here", tmp_path)
    assert _kernels.NATIVE.target() == before
    (tmp_path / "static_rules.py").write_bytes((tmp_path / "static_rules.py").read_bytes() + b"\n# changed\n")
    assert _kernels.NATIVE.target()["sources"] != before["sources"]


@pytest.mark.parametrize(("yellow", "noticed"), [("perfect", True), ("hard", True), ("medium", False)])
def test_play_says_the_solver_compiles_before_the_game_when_a_seat_needs_it(
    monkeypatch: pytest.MonkeyPatch, yellow: str, noticed: bool
) -> None:
    monkeypatch.setattr(solver_module, "kernels_compiled", lambda ahead=True: False)
    result = runner.invoke(app, ["play", "connect4", "--yellow", yellow, "--seed", "1"], input="q\n")
    assert result.exit_code == 0
    assert result.stderr == ("Compiling the Connect Four solver (first use only)...\n" if noticed else "")


def test_book_build_says_the_solver_compiles_for_its_local_workers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(solver_module, "kernels_compiled", lambda ahead=True: False)
    result = runner.invoke(
        app,
        [
            "connect4",
            "book",
            "build",
            "--width",
            "4",
            "--height",
            "4",
            "--depth",
            "3",
            "--out",
            str(tmp_path / "b.bin"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Compiling the Connect Four solver (first use only)...\n")


def test_the_web_pages_prepare_hook_says_nothing_when_the_module_verifies(ahead: Path) -> None:
    from gridgames_connect4 import SPEC

    from gridgames.web.hooks import hooks_of

    said: list[str] = []
    hooks_of(SPEC).prepare(said.append)  # what gridgames serve runs at its start
    assert said == [] and _kernels.load() is not None


@pytest.mark.slow
def test_without_a_c_compiler_the_build_fails_in_one_line_and_analyze_runs_the_jit_kernels(
    monkeypatch: pytest.MonkeyPatch,
    nowhere: Path,
) -> None:
    import numba.pycc

    class NoCompiler:
        def __init__(self, name: str) -> None:
            raise RuntimeError("Attempted to compile AOT function without the compiler used by `numpy.distutils`\nmore")

    monkeypatch.setattr(numba.pycc, "CC", NoCompiler)
    with pytest.raises(OSError, match=r"no C compiler for numba.pycc \(RuntimeError: Attempted to compile AOT"):
        _kernels.build(nowhere)
    assert not list(nowhere.iterdir())  # no module, no marker, no temporary folder
    # past the book: the solver runs
    result = runner.invoke(app, ["connect4", "analyze", "4353631217", "--json"])
    assert result.exit_code == 0, result.output
    assert '"score"' in result.stdout and _kernels.load() is None


def test_a_built_module_that_does_not_load_is_a_failed_build(monkeypatch: pytest.MonkeyPatch, nowhere: Path) -> None:
    import numba.pycc

    # builds a file that is no extension module (as one that needs a symbol numba did not link)
    class BadOutput:
        output_file = "bad.so"

        def __init__(self, name: str) -> None:
            self.output_dir = ""

        def export(self, name: str, signature: object):
            return lambda function: function

        def compile(self) -> None:
            (Path(self.output_dir) / self.output_file).write_bytes(b"not an ELF file")

    monkeypatch.setattr(numba.pycc, "CC", BadOutput)
    with pytest.raises(OSError, match=r"the built module does not load \("):
        _kernels.build(nowhere)
    assert not list(nowhere.iterdir())  # nothing left for load() to find


def test_kernels_built_from_other_sources_are_not_loaded(ahead: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _kernels.NATIVE.target()
    # edited kernel sources
    monkeypatch.setattr(_kernels.NATIVE, "target", lambda: {**target, "sources": "0" * 16})
    _forget()
    assert _kernels.load() is None and "other kernel sources" in _kernels.missing_reason()
    result = runner.invoke(app, ["connect4", "analyze", "4353631217", "--json"])
    assert result.exit_code == 0 and '"score"' in result.stdout
