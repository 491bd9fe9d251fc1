"""Compiled rules (gridgames.compiled_rules) and the engines on them (gridgames.search.crules): the examples' compiled
rules agree with their Python rules, a broken compiled rule is caught at the first position it breaks, the exact
solver agrees with a plain minimax oracle, and the budgets hold (counted in positions or on an injected clock)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import numpy as np
import pytest
from numba import njit

from gridgames.compiled_rules import CompiledRules, rules_of
from gridgames.errors import PluginError
from gridgames.game import Game, State
from gridgames.registry import load_game
from gridgames.search.crules.engines import Engines
from gridgames.testing import ConformanceError, check_compiled

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SMALL = [
    ("mnk", {}),
    ("mnk", {"width": 4, "height": 3, "k": 3}),
    ("othello", {"size": 4}),
    ("othello", {"size": 6}),
    ("hex", {"size": 5}),
    ("golomb", {"width": 5, "height": 5}),
]


def _game(name: str, **options: object) -> Game:
    game = load_game(name).make(**options)
    assert isinstance(game, Game)
    return game


@pytest.mark.parametrize(("name", "options"), SMALL)
def test_the_examples_compiled_rules_agree_with_their_python_rules(name: str, options: dict[str, object]) -> None:
    check_compiled(_game(name, **options), depth=4, max_positions=5_000, starts=3, playouts=5)


def _python_perft(state: State, depth: int) -> list[int]:
    counts = [0] * (depth + 1)

    def walk(ply: int) -> None:
        counts[ply] += 1
        if ply < depth and not state.is_over:
            for move in list(state.legal_moves()):
                state.play(move)
                walk(ply + 1)
                state.undo()

    walk(0)
    return counts


PERFT = [("othello", {}, 5), ("mnk", {}, 5), ("hex", {"size": 5}, 3), ("golomb", {"width": 4, "height": 4}, 3)]


@pytest.mark.parametrize(("name", "options", "depth"), PERFT)
def test_perft_from_the_start_and_from_random_positions(name: str, options: dict[str, object], depth: int) -> None:
    game = _game(name, **options)
    engines = Engines.of(game)
    rng = random.Random(5)
    starts = [game.new_state()]
    while len(starts) < 4:
        state = game.new_state()
        for _ in range(rng.randrange(1, 6)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over:
            starts.append(state)
    for state in starts:
        assert engines.perft(state, depth)[:, 0].tolist() == _python_perft(state, depth)


def test_the_counts_of_tic_tac_toe() -> None:
    counts = Engines.of(_game("mnk")).perft(_game("mnk").new_state(), 9)
    assert counts[:, 0].tolist() == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert counts[:, 1].sum() == 46080 and counts[:, 2].sum() == 131184 and counts[:, 3].sum() == 77904


# --- a deliberately broken rule ---------------------------------------------------------------------------------
@njit(cache=True)
def _play_without_diagonals(s, p, move):  # type: ignore[no-untyped-def]
    """The m,n,k-game's play, but a line along a diagonal does not win."""
    width, height, k = p[0], p[1], p[2]
    cells = width * height
    value = s[cells] % 2 + 1
    s[move] = value
    s[cells] += 1
    r, c = move // width, move % width
    for dr, dc in ((0, 1), (1, 0)):
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < height and 0 <= cc < width and s[rr * width + cc] == value:
                n += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if n >= k:
            s[cells + 1] = value - 1
            return
    if s[cells] == cells:
        s[cells + 1] = -2


@njit(cache=True)
def _legal_everywhere(s, p, mask):  # type: ignore[no-untyped-def]
    """Every cell, empty or not, while the game goes on."""
    cells = p[0] * p[1]
    mask[:] = s[cells + 1] == -1
    return cells if s[cells + 1] == -1 else 0


@attrs.frozen
class _Broken(Game):
    """The m,n,k-game with one compiled rule replaced."""

    inner: Game
    field: str
    function: object

    @property
    def info(self):  # type: ignore[no-untyped-def]
        return self.inner.info

    def new_state(self) -> State:
        return self.inner.new_state()

    def parse_move(self, text: str) -> int:
        return self.inner.parse_move(text)

    def format_move(self, move: int) -> str:
        return self.inner.format_move(move)

    def compiled_rules(self) -> CompiledRules:
        rules = rules_of(self.inner)
        assert rules is not None
        return attrs.evolve(rules, **{self.field: self.function})


def test_a_broken_win_rule_is_caught_at_the_first_position_it_breaks() -> None:
    broken = _Broken(_game("mnk"), "play", _play_without_diagonals)
    with pytest.raises(ConformanceError, match=r"after '[^']*': the compiled state .* differs from the Python state's"):
        check_compiled(broken, playouts=30)


def test_a_broken_legal_rule_names_the_moves_in_question() -> None:
    broken = _Broken(_game("mnk"), "legal", _legal_everywhere)
    with pytest.raises(ConformanceError, match=r"after '.*': legal moves differ \(compiled only: \['[a-c][1-3]'"):
        check_compiled(broken)


def test_rules_must_be_top_level_numba_functions() -> None:
    rules = rules_of(_game("mnk"))
    assert rules is not None
    with pytest.raises(PluginError, match="must be a numba.njit function"):
        attrs.evolve(rules, play=lambda s, p, m: None)

    def local() -> object:
        @njit
        def play(s, p, m):  # type: ignore[no-untyped-def]
            return None

        return play

    with pytest.raises(PluginError, match="at a module's top level, not inside"):
        attrs.evolve(rules, play=local())


def test_a_game_without_compiled_rules_has_none_and_nothing_to_check() -> None:
    game = _game("connect4")
    assert rules_of(game) is None
    check_compiled(game)
    with pytest.raises(PluginError, match="declares no compiled rules"):
        Engines.of(game)


# --- the exact solver against a plain minimax oracle ------------------------------------------------------------
def _oracle(state: State) -> float:
    """The value for the player to move with best play: plain minimax over `Outcome.value_for`, memoised by position."""
    memo: dict[tuple[str, int, int], float] = {}

    def value(key_extra: int) -> float:
        key = (state.to_text(), state.current_player, key_extra)
        if key in memo:
            return memo[key]
        me = state.current_player
        best = -2.0
        for move in list(state.legal_moves()):
            state.play(move)
            outcome = state.outcome
            if outcome is not None:
                found = outcome.value_for(me)
            elif state.current_player == me:
                found = value(len(state.history) == 1)
            else:
                found = -value(len(state.history) == 1)
            state.undo()
            best = max(best, found)
        memo[key] = best
        return best

    return value(0)


def _oracle_boards() -> list[Game]:
    from gridgames_golomb import GolombGame
    from gridgames_hex import HexGame
    from gridgames_mnk import MNKGame
    from gridgames_othello import OthelloGame

    return [
        MNKGame(3, 3, 3),
        MNKGame(4, 3, 3),
        MNKGame(2, 2, 2),
        HexGame(2),
        HexGame(3),
        OthelloGame(4),
        GolombGame(4, 4),
        GolombGame(5, 4, "tetrominoes"),
    ]


def _value_after(state: State, me: int) -> float:
    """The value for ``me`` of ``state``, just after their move."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.value_for(me)
    return _oracle(state) if state.current_player == me else -_oracle(state)


@pytest.mark.parametrize("game", _oracle_boards(), ids=repr)
def test_the_exact_solver_agrees_with_plain_minimax(game: Game) -> None:
    state = game.new_state()
    solved = Engines.of(game).solve(state)
    assert solved.value == pytest.approx(_oracle(state))
    assert solved.positions > 0
    me = state.current_player
    for move in state.legal_moves():
        state.play(move)
        value = _value_after(state, me)
        state.undo()
        assert solved.scores[move] == pytest.approx(value)
        assert (move in solved.best_moves) == (value == pytest.approx(solved.value))


# --- budgets ----------------------------------------------------------------------------------------------------
class _Clock:
    """A clock that moves ``tick`` seconds at each read."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.reads = 0.0, tick, 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


@functools.cache
def _othello() -> tuple[Game, Engines]:
    game = _game("othello")
    return game, Engines.of(game)


def test_negamax_stays_within_its_node_budget_and_plays_the_same_for_the_same_seed() -> None:
    game, engines = _othello()
    state = game.from_notation("d3 c5 f6")
    first = engines.search(state, seconds=None, max_nodes=3_000, rng=random.Random(1))
    again = engines.search(state, seconds=None, max_nodes=3_000, rng=random.Random(1))
    assert first.nodes <= 3_000 and first.stopped and first.depth >= 2
    assert (first.move, first.depth, first.nodes) == (again.move, again.depth, again.nodes)
    assert state.is_legal(first.move)


def test_negamax_completes_depth_one_and_stops_when_the_injected_clock_runs_out() -> None:
    game, engines = _othello()
    result = engines.search(game.new_state(), seconds=0.5, clock=_Clock(1.0))
    assert result.depth == 1 and result.nodes == 4  # the positions after the four first moves


def test_mcts_iteration_budget_and_injected_clock() -> None:
    game, engines = _othello()
    result = engines.mcts(game.new_state(), seconds=None, iterations=500, rng=random.Random(2))
    assert result.iterations == 500 and game.new_state().is_legal(result.move)
    clock = _Clock(0.01)
    timed = engines.mcts(game.new_state(), seconds=0.05, clock=clock)
    # a batch of at least 16 playouts, then the clock says stop
    assert 16 <= timed.iterations and clock.reads <= 20


def test_negamax_finds_the_same_forced_results_as_the_python_search() -> None:
    from gridgames.search.negamax import search

    game = _game("mnk")
    engines = Engines.of(game)
    for notation in ("b2 a1 c3", "a1 b2 a2", "b2 b1 a1 c3", ""):
        state = game.from_notation(notation)
        compiled = engines.search(state, seconds=None)
        python = search(state, seconds=None)
        assert compiled.score == python.score and compiled.depth == python.depth


def _random_positions(game: Game, count: int, seed: int) -> Iterator[State]:
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        for _ in range(rng.randrange(0, 8)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over:
            yield state


def test_random_game_counts_add_up() -> None:
    game = _game("hex", size=5)
    results, moves = Engines.of(game).random_games(game.new_state(), 200, random.Random(3))
    assert results.tolist()[2] == 0 and results.sum() == 200  # Hex has no draws
    assert 200 * 9 <= moves <= 200 * 26
    assert results[0] > 0 and results[1] > 0
    assert all(not s.is_over for s in _random_positions(game, 3, 1))


def test_an_unwritable_cache_folder_compiles_without_caching(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gridgames.search.crules import build

    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(build, "_loaded", {})
    monkeypatch.setattr(build, "_by_functions", {})
    game = _game("mnk")
    rules = rules_of(game)
    assert rules is not None
    module = build.engine_module(rules)
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert str(blocked) not in module.__file__ and "@njit(cache=False)" in source and "@njit(cache=True)" not in source
    assert not build.is_cached(rules)
    state = game.from_notation("b2 a1")
    mask = np.zeros(9, np.uint8)
    assert module.legal_mask(Engines(game, rules).encode(state), rules.params, mask) == 7
