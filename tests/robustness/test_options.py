"""Hostile option values (issue 13, cases 5 and 12): one line and exit code 2, and a Hypothesis fuzz of every option."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from gridgames.errors import OptionError
from gridgames.search.parallel import MAX_JOBS, resolve_jobs, run_parts

from gridgames_test_support.cli_runs import assert_one_line_error, invoke
from gridgames_test_support.parts_helpers import square

COUNT = ["solve", "pentomino", "--board", "3x5", "--pieces", "L,P,U", "--count"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # case 5: was an OverflowError traceback
        ([*COUNT, "--jobs", "99999999999999999999"], "--jobs must be at most"),
        ([*COUNT, "--jobs", "1000"], f"--jobs must be at most {MAX_JOBS}"),
        # case 12: ran silently in one process
        ([*COUNT, "--jobs", ""], "--jobs must be a whole number"),
        ([*COUNT, "--jobs", "2.5"], "--jobs must be a whole number"),
        ([*COUNT, "--jobs", "-1"], "--jobs must be 0 (every core), 'auto' or positive"),
        ([*COUNT, "--scheduler", ""], "--scheduler needs a Dask scheduler's address"),  # case 12
        ([*COUNT, "--scheduler", "   "], "--scheduler needs a Dask scheduler's address"),
        # case 12: took 12 s
        ([*COUNT, "--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler"),
        ([*COUNT, "--scheduler", "tcp://127.0.0.1:99999"], "not a Dask scheduler address"),
        # case 12: was accepted as 4
        (["play", "connect4", "--width", "4.0"], "'4.0' is not a whole number"),
        (["play", "connect4", "--height", "1e1"], "'1e1' is not a whole number"),
        (["play", "mnk", "--width", "3.0"], "'3.0' is not a whole number"),
        (["solve", "nqueens", "--n", "8.0"], "'8.0' is not a whole number"),
    ],
)
def test_hostile_options_are_one_line(args: list[str], needle: str) -> None:
    assert_one_line_error(args, needle)


def test_case_5_jobs_is_clamped_to_the_parts() -> None:
    result = run_parts(square, [1, 2, 3], jobs=MAX_JOBS)
    # three processes for three parts, not 256
    assert result.results == [1, 4, 9] and result.workers == 3


def test_resolve_jobs_never_converts_a_huge_number() -> None:
    with pytest.raises(OptionError, match="at most"):
        resolve_jobs("9" * 5000)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=30), st.integers(-(10**30), 10**30).map(str), st.floats().map(str)))
def test_resolve_jobs_is_a_number_in_range_or_an_option_error(text: str) -> None:
    try:
        n = resolve_jobs(text)
    except OptionError as error:
        assert "\n" not in str(error)
    else:
        assert 1 <= n <= max(MAX_JOBS, 1)


OPTION_SURFACES = [
    ["play", "connect4", "--width"],
    ["play", "connect4", "--height"],
    ["play", "connect4", "--connect"],
    ["play", "connect4", "--think"],
    ["play", "connect4", "--seed"],
    ["play", "connect4", "--red"],
    ["play", "connect4", "--first"],
    ["play", "mnk", "--k"],
    ["solve", "nqueens", "--n"],
    ["solve", "pentomino", "--count", "--board"],
    ["solve", "pentomino", "--count", "--pieces"],
    ["solve", "pentomino", "--count", "--jobs"],
    ["connect4", "show", "--width", "5", "--connect"],
]

HOSTILE = st.one_of(
    st.sampled_from(
        ["", " ", "0", "-1", "4.0", "1e9", "nan", "inf", "-", "9" * 60, "\x00", "7x", "x7", "1000x1000", "auto"]
    ),
    st.text(max_size=12),
)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(OPTION_SURFACES), HOSTILE)
def test_fuzz_every_option_never_tracebacks(surface: list[str], value: str) -> None:
    """Any value of any option: the right answer (exit 0) or one line and exit code 2; never a traceback."""
    if "\x00" in value:
        value = value.replace("\x00", "")
    code, out, err = invoke([*surface, value])
    assert "Traceback" not in out + err
    assert code in (0, 2), (surface, value, code, err[-300:])
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
