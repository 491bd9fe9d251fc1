"""The exact judge: its scores are those of `analyze`; it says clearly where it cannot judge."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

from gridgames_connect4.teach.analysis import analyze_position  # noqa: E402
from gridgames_test_support.strategies import connect4_games, connect4_playouts  # noqa: E402

from gridgames.errors import SolverError  # noqa: E402
from gridgames.rl import JudgeError, aec_env, gym_env  # noqa: E402

TABLE_BITS = 18


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(connect4_playouts(game=None, max_width=5, max_height=5).filter(lambda p: len(p[1]) >= 1))
def test_the_judges_scores_match_analyze(playout: tuple) -> None:
    game, moves = playout
    *opening, last = moves
    before = game.from_moves(opening)
    expected = analyze_position(before)
    env = aec_env(
        "connect4", width=game.width, height=game.height, connect=game.connect, judge=True, judge_table_bits=TABLE_BITS
    )
    env.reset(options={"moves": opening})
    mover = env.agent_selection
    assert env.infos[mover]["score"] == expected.score
    env.step(last)
    verdict = env.infos[mover]
    assert verdict["best_score"] == expected.score
    assert verdict["move_score"] == expected.columns[last]
    assert verdict["is_best"] is (last + 1 in expected.best)
    after = game.from_moves(moves)
    if not after.is_over:
        assert env.infos[env.agent_selection]["score"] == analyze_position(after).score


def test_the_gym_environment_judges_the_agents_moves() -> None:
    env = gym_env("connect4", "random", width=5, height=4, judge=True, judge_table_bits=TABLE_BITS)
    _, info = env.reset(seed=3)
    expected = analyze_position(env.state)
    assert info["score"] == expected.score
    worst = min(range(5), key=lambda c: expected.columns[c])
    _, _, terminated, _, info = env.step(worst)
    assert info["move_score"] == expected.columns[worst]
    assert info["best_score"] == expected.score
    if not terminated:
        assert info["score"] == analyze_position(env.state).score


def test_there_is_no_judge_where_the_solver_cannot_go(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames_connect4.solve import solver

    def refuse(*args: object, **kwargs: object) -> None:
        raise SolverError("this board is too big for the solver")

    # every board up to 10x10 is solvable now: fake one that is not
    monkeypatch.setattr(solver, "Solver", refuse)
    with pytest.raises(JudgeError, match="9x7.*too big"):
        aec_env("connect4", width=9, height=7, connect=5, judge=True)
    with pytest.raises(JudgeError, match="has no exact solver"):
        gym_env("mnk", "random", judge=True)
    assert issubclass(JudgeError, SolverError)


@settings(max_examples=10, deadline=None)
@given(connect4_games(max_width=5, max_height=4))
def test_without_the_judge_infos_stay_empty(game: object) -> None:
    env = aec_env("connect4", width=game.width, height=game.height, connect=game.connect)  # type: ignore[attr-defined]
    env.reset()
    env.step(0)
    assert env.infos == {"player_0": {}, "player_1": {}}


class _CountingSolver:
    """Connect Four's solver, counting its calls and the positions each call solves."""

    def __init__(self, solver: object) -> None:
        self.solver = solver
        self.calls: list[tuple[str, int]] = []

    def solve(self, moves: list) -> int:
        self.calls.append(("solve", 1))
        return self.solver.solve(moves)  # type: ignore[attr-defined, no-any-return]

    def solve_many(self, positions: list, reset: bool = True) -> list[int]:
        self.calls.append(("solve_many", len(positions)))
        return self.solver.solve_many(positions, reset=reset)  # type: ignore[attr-defined, no-any-return]

    def win_score(self, moves_before: int) -> int:
        return self.solver.win_score(moves_before)  # type: ignore[attr-defined, no-any-return]


def _counting_judge(width: int, height: int) -> tuple[object, _CountingSolver]:
    from gridgames_connect4.position.rules import Connect4

    from gridgames.rl.judge import Judge

    game = Connect4(width, height, 4)
    judge = Judge(game, TABLE_BITS)
    counting = _CountingSolver(judge._solver)
    judge._solver = counting
    return judge, counting


def test_the_judge_solves_the_two_positions_of_a_move_in_one_batch_call() -> None:
    judge, counting = _counting_judge(5, 4)
    solver = counting.solver
    from gridgames_connect4.position.rules import Connect4

    state = Connect4(5, 4, 4).from_notation("3321")
    verdict = judge.judge_last_move(state)  # type: ignore[attr-defined]
    assert counting.calls == [("solve_many", 2)]
    expected = analyze_position(Connect4(5, 4, 4).from_notation("332"))
    assert (verdict.best_score, verdict.move_score) == (expected.score, expected.columns[0])
    assert verdict.score == solver.solve([2, 2, 1, 0])  # type: ignore[attr-defined]
    state.play(4)
    judge.judge_last_move(state)  # type: ignore[attr-defined]
    # the position before the move is known: only the new one is solved
    assert counting.calls[1:] == [("solve", 1)]


def test_the_judge_keeps_the_position_before_the_move_even_when_its_memory_is_full() -> None:
    from gridgames_connect4.position.rules import Connect4

    judge, counting = _counting_judge(5, 4)
    game = Connect4(5, 4, 4)
    judge.score(game.from_notation("33"))  # type: ignore[attr-defined]  # the oldest entry ...
    for moves in ("1", "2", "4"):
        judge.score(game.from_notation(moves))  # type: ignore[attr-defined]  # ... of a full memory
    verdict = judge.judge_last_move(game.from_notation("332"))  # type: ignore[attr-defined]
    assert verdict.best_score == analyze_position(game.from_notation("33")).score
    assert counting.calls[-1] == ("solve", 1)
