"""Connect Four computer players: every level takes an immediate win and blocks an immediate loss."""

from __future__ import annotations

import contextlib
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gridgames_test_support.strategies import connect4_playouts

from gridgames_connect4 import Connect4, Connect4State
from gridgames_connect4 import levels
from gridgames_connect4.levels import KINDS, advise, make_player
from gridgames.errors import GameOverError, OptionError
from gridgames.game import Player
from gridgames.grid import Direction

HEURISTIC_LEVELS = ("easy", "medium")


def winning_columns(state: Connect4State) -> set[int]:
    """Columns where the player to move wins at once (by trying each)."""
    wins = set()
    for move in state.legal_moves():
        trial = state.copy()
        trial.play(move)
        if trial.outcome is not None and trial.outcome.winner == state.current_player:
            wins.add(move)
    return wins


def losing_columns(state: Connect4State) -> set[int]:
    """Columns where the opponent would win at once if it were their turn (by putting their disc there)."""
    grid = state.grid
    connect = state.game.connect
    opponent = 2 - state.current_player  # grid value of the other player's discs
    threats = set()
    for col in state.legal_moves():
        row = grid.drop_row(col)
        grid.set((row, col), opponent)
        if any(grid.line_length((row, col), d) >= connect for d in Direction):
            threats.add(col)
        grid.set((row, col), 0)
    return threats


@pytest.mark.parametrize("kind", HEURISTIC_LEVELS)
@pytest.mark.parametrize("seed", range(5))
def test_an_immediate_win_is_taken(kind: str, seed: int) -> None:
    game = Connect4()
    # red d1 e1 f1 (c1 is yellow's): red wins at g1; yellow threatens c4
    state = game.from_notation("435363")
    move = make_player(kind, game, random.Random(seed)).choose(state)
    assert move == 6


@pytest.mark.parametrize("kind", HEURISTIC_LEVELS)
@pytest.mark.parametrize("seed", range(5))
def test_an_immediate_loss_is_blocked(kind: str, seed: int) -> None:
    game = Connect4()
    state = game.from_notation("43536")  # red d1 e1 f1 with c1 taken: yellow must play g1
    assert make_player(kind, game, random.Random(seed)).choose(state) == 6


@pytest.mark.parametrize("kind", HEURISTIC_LEVELS)
def test_a_vertical_threat_is_blocked_on_other_sizes(kind: str) -> None:
    game = Connect4(5, 5, 3)
    state = game.from_notation("1213")  # red a1 a2: yellow must cap column 1
    assert make_player(kind, game, random.Random(0)).choose(state) == 0


@settings(max_examples=80, deadline=None)
@given(connect4_playouts(max_width=8, max_height=7), st.integers(0, 3))
def test_win_and_block_on_random_positions(playout: tuple, seed: int) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    if state.is_over:
        return
    wins, losses = winning_columns(state), losing_columns(state)
    if not wins and not losses:
        return  # nothing forced here (and a search would cost time)
    for kind in HEURISTIC_LEVELS:
        move = make_player(kind, game, random.Random(seed)).choose(state)
        assert move in (wins or losses), (kind, state.notation())


def test_random_player_plays_legal_moves_reproducibly() -> None:
    game = Connect4(4, 4, 3)
    state = game.from_notation("1111")
    moves_a = [make_player("random", game, random.Random(7)).choose(state) for _ in range(5)]
    moves_b = [make_player("random", game, random.Random(7)).choose(state) for _ in range(5)]
    assert moves_a == moves_b
    assert all(m in (1, 2, 3) for m in moves_a)


def test_players_follow_the_player_protocol() -> None:
    for kind in KINDS:
        player = make_player(kind, Connect4(), random.Random(0))
        assert isinstance(player, Player)
        assert player.name == kind


@pytest.mark.slow
def test_medium_beats_random() -> None:
    game = Connect4()
    for seed in range(2):
        state = game.new_state()
        players = [
            make_player("medium", game, random.Random(seed), think=30),
            make_player("random", game, random.Random(seed)),
        ]
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        assert state.outcome is not None and state.outcome.winner == 0


def test_running_out_of_time_is_noted() -> None:
    game = Connect4(10, 10)
    player = make_player("medium", game, random.Random(0), think=1e-9)
    move = player.choose(game.from_notation("5,6"))
    assert move in range(10)
    assert player.note.startswith("depth-limited search (depth ")


def test_unknown_kinds_and_bad_times_are_option_errors() -> None:
    with pytest.raises(OptionError, match="unknown player 'genius'"):
        make_player("genius", Connect4())
    with pytest.raises(OptionError, match="thinking time"):
        make_player("easy", Connect4(), think=0)


def test_choosing_in_a_finished_game_is_refused() -> None:
    state = Connect4().from_notation("4455667")
    with pytest.raises(GameOverError):
        make_player("medium", state.game, random.Random(0)).choose(state)


# --- solver-backed levels ----------------------------------------------------------------------
def test_perfect_plays_a_move_with_the_best_solver_score() -> None:
    solver_module = pytest.importorskip("gridgames_connect4.solve.solver")
    game = Connect4()
    state = game.from_notation("4444332233355526666")  # a middle-game position, quick to solve
    scores = solver_module.Solver().analyze(list(state.history))
    best = max(s for s in scores if s is not None)
    for seed in range(3):
        player = make_player("perfect", game, random.Random(seed), think=30)
        assert scores[player.choose(state)] == best
        assert player.note == ""


def test_perfect_says_so_when_it_cannot_finish_in_time() -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    game = Connect4()
    player = make_player("perfect", game, random.Random(0), think=1e-4)
    assert player.choose(game.from_notation("4")) in range(7)
    assert player.note.startswith("depth-limited search (depth ")
    assert "no exact result within 0.0001 s" in player.note


@pytest.mark.parametrize("kind", ["hard", "perfect"])
def test_solver_levels_take_wins_and_block_losses(kind: str) -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    game = Connect4()
    assert make_player(kind, game, random.Random(0)).choose(game.from_notation("435363")) == 6
    assert make_player(kind, game, random.Random(0)).choose(game.from_notation("43536")) == 6


def test_solver_levels_fall_back_to_search_on_boards_too_large_for_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    # the solver takes every board up to 10x10 now
    monkeypatch.setattr(levels, "_lend_solver", lambda *size: None)
    game = Connect4(10, 10)
    player = make_player("perfect", game, random.Random(0), think=0.2)
    assert player.choose(game.from_notation("5,6")) in range(10)
    assert "cannot handle a 10x10 board" in player.note


def test_advice_gives_exact_scores_when_the_solver_finishes_in_time() -> None:
    solver_module = pytest.importorskip("gridgames_connect4.solve.solver")
    state = Connect4().from_notation("4444332233355526666")
    advice = advise(state, random.Random(0), think=30)
    assert advice.scores == tuple(solver_module.Solver().analyze(list(state.history)))
    assert advice.scores[advice.column] == max(s for s in advice.scores if s is not None)


def test_advice_without_exact_scores_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # as on a board too big for the solver
    monkeypatch.setattr(levels, "_lend_solver", lambda *size: None)
    advice = advise(Connect4(10, 10).from_notation("5,6,5,6,5"), random.Random(0), think=0.05)
    assert (advice.column, advice.scores, advice.reason) == (4, None, "it blocks an immediate loss")
    # too big for the solver
    advice = advise(Connect4(10, 10).from_notation("5,6"), random.Random(0), think=0.05)
    assert advice.scores is None and re.fullmatch(r"a \d-ply search", advice.reason)


def test_advice_says_when_the_solver_could_not_finish() -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    advice = advise(Connect4().from_notation("4"), random.Random(0), think=0.05)
    assert advice.scores is None and re.fullmatch(r"a \d-ply search; no exact result within 0.05 s", advice.reason)


def test_a_hint_that_proves_only_the_win_in_time_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    solver_module = pytest.importorskip("gridgames_connect4.solve.solver")
    fresh = contextlib.nullcontext(solver_module.Solver(table_bits=20))  # a fresh table
    monkeypatch.setattr(levels, "_lend_solver", lambda *size: fresh)

    # the node budget alone decides (the wall-clock deadline only backs it up on a slow machine)
    class StoppedClock:
        @staticmethod
        def monotonic() -> float:
            return 0.0

    monkeypatch.setattr(levels, "time", StoppedClock)
    # won: the outcome takes ~27 k positions, the score ~237 k
    state = Connect4().from_notation("673232646611")
    advice = advise(state, random.Random(0), think=0.025)  # about 100 k positions
    assert advice.scores is None and advice.reason == "it keeps the win, proven; the scores did not fit in 0.025 s"
    assert solver_module.Solver(table_bits=20).analyze(list(state.history))[advice.column] > 0


def test_a_late_hint_solves_every_column_in_one_batch_call(monkeypatch: pytest.MonkeyPatch) -> None:
    solver_module = pytest.importorskip("gridgames_connect4.solve.solver")
    # 23 empty cells: best_move within the think time
    state = Connect4().from_notation("4444332233355526666")
    calls: list[str] = []
    for name in ("solve_many", "best_move"):
        original = getattr(solver_module.Solver, name)
        monkeypatch.setattr(
            solver_module.Solver,
            name,
            lambda self, *a, _o=original, _n=name, **k: (calls.append(_n), _o(self, *a, **k))[1],
        )
    exact = tuple(solver_module.Solver().analyze(list(state.history)))
    assert advise(state, random.Random(0), think=30).scores == exact and calls == ["best_move"]
    state.play(4)  # 22 empty cells: every column in one call
    calls.clear()
    advice = advise(state, random.Random(0), think=0.001)  # no time limit on the batch: it is cheap
    assert calls == ["solve_many"] and advice.source == levels.SOLVER
    assert advice.scores == tuple(solver_module.Solver().analyze(list(state.history)))
    assert advice.scores[advice.column] == max(s for s in advice.scores if s is not None)
    chosen = {advise(state, random.Random(seed)).column for seed in range(12)}
    assert chosen == {c for c, s in enumerate(advice.scores) if s == max(x for x in advice.scores if x is not None)}
