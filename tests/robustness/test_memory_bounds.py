"""Memory without a ceiling (issue 46): what cannot fit is refused in one line before it is allocated or read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames_test_support.cli_runs import assert_one_line_error, invoke

BUILD = ["connect4", "book", "build", "--depth", "2", "--width", "5", "--height", "4"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_checkpoint_that_is_a_symlink_to_dev_zero_is_refused(tmp_path: Path) -> None:
    (tmp_path / "b.book.partial").symlink_to("/dev/zero")
    assert_one_line_error([*BUILD, "--out", str(tmp_path / "b.book")], "is a device, not a regular file")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_checkpoint_that_is_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "b.book.partial")
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", *BUILD, "--out", str(tmp_path / "b.book")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and "a pipe (FIFO)" in result.stderr


def test_an_oversized_checkpoint_is_refused(tmp_path: Path) -> None:
    (tmp_path / "b.book.partial").write_bytes(b"\0" * (3 << 20))
    code, out, err = invoke([*BUILD, "--out", str(tmp_path / "b.book")])
    assert code == 2 and err.strip().splitlines()[-1].startswith("error: ") and "is too large" in err, err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limits as on Linux")
def test_a_table_larger_than_the_memory_limit_is_refused_in_one_line() -> None:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))

    result = subprocess.run(
        [sys.executable, "-m", "gridgames", "connect4", "analyze", "4453", "--no-book", "--table-mb", "16000"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
    )
    assert result.returncode == 2, result.stderr[-500:]
    # a cold start prints "Compiling ... (first use only)" first
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("Compiling")]
    assert len(lines) == 1 and lines[0].startswith("error: --table-mb 16000 needs 16,000 MiB"), result.stderr[-500:]


def test_memory_available_is_below_the_address_space_limit() -> None:
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, resource.RLIM_INFINITY)); "
        "from gridgames.parsing import memory_available; print(memory_available())"
    )
    left = int(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    )
    assert 0 < left < 2 << 30


def _distinct_dominoes(folder: Path, n: int) -> Path:
    path = folder / "dominoes.txt"
    path.write_text("\n\n".join(f"D{i}\n##" for i in range(n)) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limits as on Linux")
def test_distinct_dominoes_beyond_a_memory_limit_are_refused_in_one_line(tmp_path: Path) -> None:
    """1,000 distinct dominoes on 20x100 took 16.2 GB (under a 3 GB limit: a MemoryError traceback); here 2,000 on
    40x100 (15.7 million placements, about 19 GB) under a 4 GB limit (room for a cold start's compiling) are refused
    before the placements' masks are allocated."""
    pieces = _distinct_dominoes(tmp_path, 2000)

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gridgames",
            "solve",
            "pentomino",
            "--board",
            "40x100",
            "--pieces-file",
            str(pieces),
            "--limit",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=limit,
    )
    assert result.returncode == 2, result.stderr[-800:]
    # a cold start prints "Compiling ... (first use only)" first
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("Compiling")]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "MiB of memory" in lines[0], result.stderr[-800:]


@pytest.mark.slow
def test_the_symmetry_shortcut_is_skipped_when_it_would_cost_gigabytes(monkeypatch: pytest.MonkeyPatch) -> None:
    import gridgames.search.tiling.orbits as orbits
    from gridgames.pieces import as_pieces
    from gridgames.search.tiling.problem import TilingProblem
    from gridgames.search.tiling.unique import board_permutations, images_bytes
    from gridgames.shapes import Shape

    def build(rows: int, cols: int) -> TilingProblem:
        pieces = as_pieces({f"D{i}": Shape.from_cells([(0, 0), (0, 1)]) for i in range(rows * cols // 2)})
        return TilingProblem.build([(r, c) for r in range(rows) for c in range(cols)], pieces)

    small, big = build(4, 5), build(20, 40)
    assert images_bytes(small, len(board_permutations(small))) < orbits.SHORTCUT_BYTES
    assert images_bytes(big, len(board_permutations(big))) > orbits.SHORTCUT_BYTES

    def too_costly(problem: TilingProblem) -> object:
        raise AssertionError("the symmetries were computed")

    monkeypatch.setattr(orbits, "problem_symmetries", too_costly)
    assert orbits.free_pieces(big) == ()


@pytest.mark.parametrize("board", ["63x63", "64x64"])
def test_a_board_too_wide_for_the_frontier_count_is_one_line(board: str) -> None:
    """``--board 63x63 --pieces 'domino*' --count`` ended in OverflowError (a frontier mask past 64 bits)."""
    assert_one_line_error(
        ["solve", "pentomino", "--board", board, "--pieces", "domino*", "--count"], "the frontier would track"
    )
