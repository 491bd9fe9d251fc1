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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_checkpoint_that_is_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "b.book.partial")
    result = subprocess.run([sys.executable, "-m", "gridgames", *BUILD, "--out", str(tmp_path / "b.book")],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and "a pipe (FIFO)" in result.stderr


def test_an_oversized_checkpoint_is_refused(tmp_path: Path) -> None:
    (tmp_path / "b.book.partial").write_bytes(b"\0" * (3 << 20))
    code, out, err = invoke([*BUILD, "--out", str(tmp_path / "b.book")])
    assert code == 2 and err.strip().splitlines()[-1].startswith("error: ") and "is too large" in err, err
