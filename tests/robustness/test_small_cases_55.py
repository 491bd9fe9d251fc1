"""The smaller cases of issue 55 (case 6): each one line (CLI: exit 2) or a right answer."""

from __future__ import annotations

from typing import Any

import pytest
from gridgames_test_support.cli_runs import assert_one_line_error, invoke

from gridgames.errors import OptionError


@pytest.mark.parametrize("base", ["http://[::1", "http://x\ny", "http://h:99999", "http://user@h", "ftp://h"])
@pytest.mark.parametrize("command", ["show", "drill"])
def test_a_bad_base_url_is_one_line(command: str, base: str) -> None:
    assert_one_line_error(["connect4", command, "4453", "--url", "--base", base], "the page's address must be")


def test_a_good_base_url_still_works() -> None:
    code, out, _err = invoke(["connect4", "show", "4453", "--url", "--base", "http://[::1]:8000"])
    assert code == 0 and out == "http://[::1]:8000/play/connect4?pos=4453\n"


@pytest.mark.parametrize("command", ["analyze", "show", "explain", "review", "drill"])
def test_a_board_size_with_an_underscore_is_refused_everywhere(command: str) -> None:
    assert_one_line_error(["connect4", command, "4", "--height", "1_0"], "'1_0' is not a whole number")


@pytest.mark.parametrize("num_envs", [0, 10**9, 10**30, True, 2.0])
def test_vector_env_with_too_many_or_odd_num_envs_is_one_clear_error(num_envs: object) -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from gridgames.rl import vector_env

    with pytest.raises(OptionError, match="num_envs must be a whole number from 1 to"):
        vector_env("connect4", num_envs=num_envs)  # type: ignore[arg-type]


def test_arena_takes_one_opponent_by_name_and_refuses_none() -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from gridgames.rl.arena import arena

    import numpy as np

    def first_legal(observations: dict[str, np.ndarray]) -> np.ndarray:
        # batched: each game's first legal move
        return np.argmax(observations["action_mask"], axis=1)

    results = arena(first_legal, "connect4", opponents="random", games=2)  # type: ignore[arg-type]
    assert [r.opponent for r in results] == ["random"]
    with pytest.raises(OptionError, match="opponents must be a list"):
        arena(first_legal, "connect4", opponents=None, games=2)  # type: ignore[arg-type]


def test_a_host_header_with_a_false_port_is_refused() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from gridgames.web.app import _Guard

    guard = _Guard(None, ("127.0.0.1", "localhost"))
    for host in ("localhost:80@evil", "localhost:evil", "localhost:123456"):
        assert guard.refusal({"headers": [(b"host", host.encode())], "method": "GET"}) is not None, host
    for host in ("localhost", "localhost:8000", "127.0.0.1:80"):
        assert guard.refusal({"headers": [(b"host", host.encode())], "method": "GET"}) is None, host


def test_jobs_are_capped_by_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames.search import parallel

    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    assert parallel.resolve_jobs("256") == 2 * parallel.JOBS_PER_CORE
    assert parallel.resolve_jobs(3) == 3


def test_analyze_has_a_default_time_budget_like_review(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames_connect4.surfaces.cli_review import DEFAULT_REVIEW_SECONDS
    from gridgames_connect4.teach import analysis

    budgets: list[object] = []
    real = analysis.analyze_position

    def spy(state: Any, limits: Any = None) -> object:
        budgets.append(None if limits is None else limits.think)
        return real(state, limits)

    monkeypatch.setattr(analysis, "analyze_position", spy)
    code, out, err = invoke(["connect4", "analyze", "4453", "--no-book", "--width", "5", "--height", "4"])
    assert code == 0, err
    assert budgets == [DEFAULT_REVIEW_SECONDS]


def test_jobs_on_a_10x10_board_are_not_refused_for_a_false_table_size(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames.search import parallel
    from gridgames_connect4.position.rules import Connect4
    from gridgames_connect4.solve.scorer import Limits
    from gridgames_connect4.teach.analysis import analyze_position

    class Reached(Exception):
        pass

    def stop(*args: object, **kwargs: object) -> object:
        raise Reached  # the check before the workers passed: that is all this test asks

    monkeypatch.setattr(parallel, "run_parts", stop)
    with pytest.raises(Reached):
        analyze_position(Connect4(10, 10, 4).from_notation("4"), Limits(jobs=2, think=5))


def test_the_quick_analysis_stops_at_its_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridgames_connect4.solve import solver
    from gridgames_connect4.surfaces import quick

    if not solver.kernels_compiled():
        pytest.skip("the quick path solves only with the kernels built ahead of time")
    # the budget spent at once (no clock read in the assertion)
    monkeypatch.setattr(quick, "ANALYZE_SECONDS", 0.0)
    assert quick.answer(["analyze", "4", "--no-book", "--json"]) == 0
    import json

    answer = json.loads(capsys.readouterr().out)
    assert answer["stopped"] == "time" and answer["unsolved"] == [1, 2, 3, 4, 5, 6, 7] and answer["best"] == []
