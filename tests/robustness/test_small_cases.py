"""The smaller cases of issue 46: empty --out, strict board sizes in review, Ctrl-C exit codes, cancelled web counts."""

from __future__ import annotations

import pytest

from gridgames_test_support.cli_runs import assert_one_line_error, invoke


@pytest.mark.parametrize("out", ["", ".", "/tmp"])
def test_book_build_out_must_name_a_file(out: str) -> None:
    assert_one_line_error(["connect4", "book", "build", "--out", out, "--depth", "1"], "--out must name a file")


def test_book_upgrade_out_must_name_a_file(tmp_path: object) -> None:
    assert_one_line_error(["connect4", "book", "upgrade", "x.book", "--out", ""], "--out must name a file")


@pytest.mark.parametrize(
    ("option", "value"), [("--width", "0"), ("--height", "0"), ("--connect", "0"), ("--width", "1_0")]
)
def test_review_board_sizes_are_strict(option: str, value: str) -> None:
    code, out, err = invoke(["connect4", "review", "4", option, value])
    assert code == 2 and "Traceback" not in out + err and err.startswith("error: "), (code, out, err)
    assert "Reviewed" not in out  # 0 does not silently mean the default


def test_ctrl_c_on_a_generic_listing_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C on ``solve nqueens`` (count or listing) exits 130 as pentomino does, not 0 (issue 46)."""
    from contextlib import contextmanager
    from collections.abc import Iterator

    import gridgames.cli_solve

    @contextmanager
    def interrupting_progress(description: str) -> Iterator[object]:
        def on_progress(fraction: float, found: int) -> None:
            raise KeyboardInterrupt

        yield on_progress

    monkeypatch.setattr(gridgames.cli_solve, "search_progress", interrupting_progress)
    monkeypatch.setattr("gridgames.search.exact_cover._FIRST_BUDGET", 100)
    code, out, err = invoke(["solve", "nqueens", "--n", "10", "--limit", "700"])
    assert code == 130 and "interrupted" in out and "Traceback" not in out + err


@pytest.mark.parametrize(
    "args", [["solve", "pentomino", "--board", "6x10", "--count"], ["solve", "nqueens", "--n", "8", "--count"]]
)
def test_ctrl_c_during_a_counts_set_up_says_so(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """Ctrl-C before the count's search starts (its set-up) says one line and exits 130; it printed nothing (issue
    46)."""
    import gridgames.search.puzzle

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(gridgames.search.puzzle.ExactCoverPuzzle, "exact_cover", interrupted)
    import gridgames_pentomino.puzzle

    monkeypatch.setattr(gridgames_pentomino.puzzle.TilingPuzzle, "count", interrupted)
    code, out, err = invoke(args)
    # after any compile notice
    assert code == 130 and err.strip().splitlines()[-1] == "interrupted", (code, out, err)
