"""One-player games and puzzles that are not exact cover (issue 37): Lights Out through the protocol, the
conformance checks, both RL adapters and the web page's click targets; `Puzzle.svg` of an overridden picture."""

from __future__ import annotations

import doctest
import random
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import numpy as np
import pytest

import gridgames.registry
from gridgames.game import CountResult, Placement, Puzzle, Solution
from gridgames.grid import Grid
from gridgames.registry import GROUP, Registry
from gridgames.testing import check_spec

from gridgames_test_support import lightsout
from gridgames_test_support.lightsout import SPEC, LightsOut, press
from gridgames_test_support.toy_games import Nim


@pytest.fixture
def one_player_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """Lights Out installed as a plugin (with the m,n,k-game when it is there)."""
    registry = Registry.from_list([EntryPoint("lightsout", "gridgames_test_support.lightsout:SPEC", GROUP)])
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


# --- the game ------------------------------------------------------------------------------------
def test_lights_out_passes_the_conformance_checks_and_its_examples() -> None:
    check_spec(SPEC, playouts=10)
    assert doctest.testmod(lightsout).failed == 0


def _press_matrix(size: int) -> np.ndarray:
    """Column j: the lights that pressing cell j toggles (over GF(2))."""
    columns = []
    for move in range(size * size):
        lights = np.zeros((size, size), dtype=bool)
        press(lights, divmod(move, size))
        columns.append(lights.ravel())
    return np.array(columns, dtype=np.uint8).T


def _rank_gf2(matrix: np.ndarray) -> int:
    m = matrix.copy() % 2
    rank = 0
    for col in range(m.shape[1]):
        pivot = next((r for r in range(rank, m.shape[0]) if m[r, col]), None)
        if pivot is None:
            continue
        m[[rank, pivot]] = m[[pivot, rank]]
        for r in range(m.shape[0]):
            if r != rank and m[r, col]:
                m[r] ^= m[rank]
        rank += 1
    return rank


@pytest.mark.parametrize(("size", "rank"), [(3, 9), (4, 12), (5, 23)])
def test_the_press_matrix_has_the_known_rank(size: int, rank: int) -> None:
    # Anderson and Feil (1998): 5x5 Lights Out has a 2-dimensional null space (2**23 solvable patterns of 2**25);
    # 3x3 is always solvable, and 4x4 has a 4-dimensional one.
    assert _rank_gf2(_press_matrix(size)) == rank


def test_pressing_a_patterns_solution_set_turns_it_off() -> None:
    rng = random.Random(5)
    game = LightsOut()
    for _ in range(20):
        chosen = sorted(rng.sample(range(25), rng.randint(1, 15)))
        start = " ".join(game.format_move(m) for m in chosen)
        state = LightsOut(start=start).new_state()
        assert not state.is_over
        for move in rng.sample(chosen, len(chosen)):  # in any order: presses commute
            state.play(move)
        assert (
            state.outcome is not None
            and state.outcome.winner == 0
            and state.outcome.reason.startswith("every light is off")
        )


def test_a_press_is_played_on_its_own_cell_and_undone_exactly() -> None:
    state = LightsOut(start="c3").new_state()  # a plus in the middle
    before = state.to_text()
    assert before.splitlines()[1:4] == ["4 . . o . .", "3 . o o o .", "2 . . o . ."]
    move = state.game.parse_move("a5")  # the corner top left: itself and two neighbours
    assert state.move_cells(move) == ((0, 0),)
    state.play(move)
    assert state.to_text().splitlines()[:2] == ["5 o o . . .", "4 o . o . ."]
    assert state.undo() == move and state.to_text() == before
    assert Nim(5).new_state().move_cells(0) is None  # the default: the web page guesses


def test_running_out_of_presses_ends_without_a_winner() -> None:
    state = LightsOut(1).new_state()  # one light, lit; pressing it twice lights it again
    state.play(0)
    assert state.outcome is not None and state.outcome.winner == 0
    state = LightsOut(2, start="a1").new_state()
    for _ in range(state.game.info.max_game_length):
        state.play(3)  # b1, again and again: the lights alternate
    assert state.outcome is not None and state.outcome.winner is None and "still on" in state.outcome.reason


# --- learning environments -------------------------------------------------------------------------
REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'


def test_gym_env_plays_a_one_player_game_with_no_opponent(one_player_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    from gridgames.rl import gym_env

    env = gym_env("lightsout")
    observation, _ = env.reset(seed=1)
    assert env.opponent is None
    # the lit cells, as the agent's plane
    assert (observation["observation"][:, :, 0] == env.state.lights).all()
    rewards = []
    for i in range(5):  # the diagonal lit it; pressing it again turns it off
        _, reward, terminated, truncated, _ = env.step(i * 5 + i)
        rewards.append(reward)
    assert rewards == [0.0, 0.0, 0.0, 0.0, 1.0] and terminated and not truncated


def test_gym_env_refuses_a_second_seat_in_a_one_player_game(one_player_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    from gridgames.errors import OptionError
    from gridgames.rl import gym_env

    with pytest.raises(OptionError, match="seat must be 0 in a one-player game"):
        gym_env("lightsout", seat=1)


def test_gymnasium_check_env_passes_on_a_one_player_game(one_player_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    from gymnasium.utils.env_checker import check_env

    from gridgames.rl import gym_env

    check_env(gym_env("lightsout", size=3), skip_render_check=True)
    check_env(gym_env("lightsout", render_mode="ansi"))


def test_pettingzoo_api_test_passes_on_a_one_player_game(one_player_registry: Registry) -> None:
    pytest.importorskip("pettingzoo", reason=REASON)
    from pettingzoo.test import api_test

    from gridgames.rl import aec_env

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(Observation is not a NumPy array|all zeros|probably should be).*")
        api_test(aec_env("lightsout"), num_cycles=100)
        api_test(aec_env("lightsout", size=2, start="a1"), num_cycles=100)


# --- the web page ---------------------------------------------------------------------------------------
@pytest.fixture
def lights_api() -> Iterator[object]:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    from gridgames_test_support.web import Api

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gridgames.web.app import ServerConfig, create_app

    registry = Registry.from_list([EntryPoint("lightsout", "gridgames_test_support.lightsout:SPEC", GROUP)])
    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)), registry=registry)) as client:
        yield Api(client)


def test_the_web_page_targets_the_pressed_cell_not_the_lit_ones(lights_api: object) -> None:
    api = lights_api
    view = api.ok("POST", "/api/play/lightsout/new", {})  # type: ignore[attr-defined]
    assert view["targets"]["c3"] == [[2, 2]] and view["targets"]["a5"] == [[0, 0]]
    assert len(view["targets"]) == 25 and all(len(cells) == 1 for cells in view["targets"].values())
    for cell in ("a5", "b4", "c3", "d2", "e1"):
        view = api.ok("POST", "/api/play/lightsout/move", {"move": cell})  # type: ignore[attr-defined]
    assert view["outcome"] is not None and view["targets"] == {}


# --- a puzzle's own picture in SVG -----------------------------------------------------------------------
class Givens(Puzzle):
    """A 2x3 toy puzzle drawn by its own picture: the givens (value 1, '1') and the placed cells (value 26, 'Q')."""

    @property
    def board(self) -> Grid:
        return Grid.from_text("1..\n..1")

    def solutions(
        self, *, limit: int | None = None, unique: bool = False, on_progress: object = None
    ) -> Iterator[Solution]:
        yield (Placement("x", ((0, 1),)), Placement("x", ((1, 0),)))

    def count(self, *, unique: bool = False, on_progress: object = None) -> CountResult:
        return CountResult(1)

    def is_solution(self, solution: Solution) -> bool:
        return len(solution) == 2

    def picture(self, solution: Solution) -> Grid:
        grid = self.board.copy()
        for placement in solution:
            for cell in placement.cells:
                grid.set(cell, 26)  # 'Q'
        return grid


def test_puzzle_svg_draws_an_overridden_picture_as_its_text_does() -> None:
    puzzle = Givens()
    solution = next(puzzle.solutions())
    assert puzzle.to_text(solution) == "1Q.\nQ.1"
    svg = puzzle.svg(solution, title="givens")
    # the givens and the placed cells
    assert svg.count(">1</text>") == 2 and svg.count(">Q</text>") == 2
    assert svg.count("<rect ") == 6 and "<title>givens</title>" in svg and 'data-row="1" data-col="2"' in svg
    assert ">x</text>" not in svg  # not the default drawing, with piece names


def test_a_puzzle_without_its_own_picture_keeps_the_default_svg() -> None:
    class Plain(Givens):
        picture = Puzzle.picture

    svg = Plain().svg(next(Plain().solutions()))
    assert ">x</text>" in svg and ">Q</text>" not in svg


# --- the terminal ------------------------------------------------------------------------------------------
def test_a_one_player_game_is_played_at_the_terminal_from_a_script(one_player_registry: Registry) -> None:
    from typer.testing import CliRunner

    from gridgames.cli import app

    result = CliRunner().invoke(app, ["play", "lightsout", "--size", "3", "--start", "a1 c3"], input="zz\nc3\nh\na1\n")
    assert result.exit_code == 0, result.output
    assert "not 'zz'; try again" in result.output and "hint: " in result.output
    assert result.output.strip().splitlines()[-1] == "solver wins (every light is off after 2 presses)"
    assert "moves: c3 a1" in result.output
