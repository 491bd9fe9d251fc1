"""Chance points (issue 53): the protocol, conformance, play, undo, saves, the AIs (no peeking), the terminal, the
web API and both learning environments, on the biased coin of `gridgames_test_support.coin`."""

from __future__ import annotations

import doctest
import random
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import attrs
import pytest
from typer.testing import CliRunner

import gridgames.registry
from gridgames.errors import IllegalMoveError
from gridgames.game import CHANCE, Move, State, draw_chance, play_chance
from gridgames.registry import GROUP, Registry
from gridgames.saves import SavedPlay, from_json, restore, to_json
from gridgames.search.mcts import mcts
from gridgames.search.negamax import search
from gridgames.search.players import make_ai
from gridgames.testing import ConformanceError, check_game, check_spec

from gridgames_test_support import coin
from gridgames_test_support.coin import SPEC, Coin, CoinState

HEADS, TAILS, SHOWS_HEADS, SHOWS_TAILS = 0, 1, 2, 3


@pytest.fixture
def coin_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The coin installed as a plugin."""
    registry = Registry.from_list([EntryPoint("coin", "gridgames_test_support.coin:SPEC", GROUP)])
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


# --- the protocol ---------------------------------------------------------------------------------
def test_the_coin_passes_the_conformance_checks_and_its_examples() -> None:
    check_spec(SPEC, playouts=10)
    assert doctest.testmod(coin).failed == 0


def test_draws_follow_the_probabilities_and_only_at_a_chance_point() -> None:
    state = Coin(rounds=1).new_state()
    with pytest.raises(IllegalMoveError, match="not a chance point"):
        draw_chance(state, random.Random(0))
    state.play(HEADS)
    rng = random.Random(7)
    heads = sum(draw_chance(state, rng) == SHOWS_HEADS for _ in range(4000))
    assert 0.67 < heads / 4000 < 0.73  # 0.7, within about 4 standard deviations
    assert play_chance(state, rng) in ([SHOWS_HEADS], [SHOWS_TAILS]) and state.is_over
    assert play_chance(state, rng) == []  # over: nothing more to draw


@attrs.frozen
class BadOdds(Coin):
    def new_state(self) -> CoinState:
        return BadOddsState(self)


class BadOddsState(CoinState):
    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return [(m, 0.6) for m, _ in super().chance_outcomes()]


@attrs.frozen
class Undeclared(Coin):
    @property
    def info(self):  # type: ignore[no-untyped-def]
        return attrs.evolve(super().info, deterministic=True)


def test_conformance_refuses_odds_that_do_not_add_up_and_an_undeclared_chance() -> None:
    with pytest.raises(ConformanceError, match="add up to 1.2"):
        check_game(BadOdds(), playouts=1)
    with pytest.raises(ConformanceError, match="deterministic=False"):
        check_game(Undeclared(), playouts=1)


def test_outcomes_are_recorded_undone_and_saved_like_moves(coin_registry: Registry) -> None:
    game = Coin(rounds=2)
    state = game.from_notation("H =T T =T")
    assert state.history == (HEADS, SHOWS_TAILS, TAILS, SHOWS_TAILS) and state.outcome is not None
    assert state.outcome.scores == (1.0,) and state.outcome.headline(("guesser",)) == "Game over: 1"
    assert state.undo() == SHOWS_TAILS and state.current_player == CHANCE and not state.is_over
    state.play(SHOWS_HEADS)
    text = to_json(SavedPlay("coin", {"rounds": 2}, state.notation(), ("human",), 1.0, 3))
    _, loaded = restore(SPEC, from_json(text, source="test", spec=SPEC))
    assert loaded.history == state.history and loaded.outcome == state.outcome


# --- the AIs: expectimax, sampling, no peeking ---------------------------------------------------------
def test_expectimax_scores_each_guess_by_its_odds() -> None:
    # One round: a right guess is worth value_for(1 point) = 1/2, a wrong one value_for(0) = 0.
    result = search(Coin(rounds=1).new_state(), seconds=None, max_depth=4, all_scores=True)
    assert result.scores[HEADS] == pytest.approx(0.7 * 0.5) and result.scores[TAILS] == pytest.approx(0.3 * 0.5)
    assert result.move == HEADS


def _guesses_and_tosses(player_kind: str, seeds: range) -> tuple[list[Move], list[Move]]:
    """Each seed's first guess by the AI (its own generator fixed) and the toss drawn after it from the seed."""
    guesses, tosses = [], []
    for seed in seeds:
        state = Coin(rounds=1).new_state()
        player = make_ai(state.game, player_kind, rng=random.Random(0), nodes=200)
        guesses.append(player.choose(state))
        state.play(guesses[-1])
        tosses.extend(play_chance(state, random.Random(seed)))
    return guesses, tosses


@pytest.mark.parametrize("kind", ["negamax", "mcts"])
def test_the_ais_guess_the_likelier_side_whatever_the_toss_to_come(kind: str) -> None:
    # The toss is drawn after the guess: an AI that peeked would guess tails where tails is to come.
    guesses, tosses = _guesses_and_tosses(kind, range(30))
    assert set(guesses) == {HEADS}
    assert tosses.count(SHOWS_TAILS) >= 3  # tails did come, and the guesses did not follow them


def test_mcts_samples_the_chance_points_and_prefers_the_likelier_side() -> None:
    result = mcts(Coin(rounds=3).new_state(), seconds=None, iterations=400, rng=random.Random(1))
    # a mean score: over half a point in three rounds
    assert result.move == HEADS and result.value > 0.5


def test_the_ais_refuse_to_search_a_chance_point() -> None:
    state = Coin().new_state()
    state.play(HEADS)
    with pytest.raises(IllegalMoveError, match="chance point"):
        search(state)
    with pytest.raises(IllegalMoveError, match="chance point"):
        mcts(state, iterations=10)


# --- the terminal -----------------------------------------------------------------------------------
def test_the_terminal_draws_the_toss_shows_it_and_undoes_the_guess_with_it(coin_registry: Registry) -> None:
    from gridgames.cli import app

    result = CliRunner().invoke(app, ["play", "coin", "--rounds", "2", "--seed", "4"], input="H\nu\nT\nH\n")
    assert result.exit_code == 0, result.output
    # H (undone with its toss), T, H: three tosses drawn
    assert result.output.count("chance: =") == 3
    assert "Game over: " in result.output and "draw" not in result.output


# --- the web API ------------------------------------------------------------------------------------
@pytest.fixture
def coin_api() -> Iterator[object]:
    from gridgames_test_support.web import web_api

    with web_api(Registry.from_list([EntryPoint("coin", "gridgames_test_support.coin:SPEC", GROUP)])) as api:
        yield api


def test_the_web_api_draws_shows_undoes_and_saves_the_tosses(coin_api: object) -> None:
    api: object = coin_api
    view = api.ok("POST", "/api/play/coin/new", {"seed": 5, "options": {"rounds": 2}})  # type: ignore[attr-defined]
    assert view["to_move"] == 0 and view["legal"] == ["H", "T"]
    view = api.ok("POST", "/api/play/coin/move", {"move": "H"})  # type: ignore[attr-defined]
    # the toss, drawn at once
    assert len(view["history"]) == 2 and view["history"][1] in ("=H", "=T")
    assert view["notes"] == [f"chance: {view['history'][1]}"] and view["to_move"] == 0
    view = api.ok("POST", "/api/play/coin/undo")  # type: ignore[attr-defined]
    assert view["history"] == [] and view["can_redo"]  # the guess went back with its toss
    view = api.ok("POST", "/api/play/coin/redo")  # type: ignore[attr-defined]
    assert len(view["history"]) == 2  # the same toss came back with it
    for move in ("T",):
        view = api.ok("POST", "/api/play/coin/move", {"move": move})  # type: ignore[attr-defined]
    assert view["outcome"] is not None and view["outcome"]["text"].startswith("Game over: ")
    saved = api.get("/api/play/coin/save").text  # type: ignore[attr-defined]
    loaded = api.ok("POST", "/api/play/coin/load", {"text": saved})  # type: ignore[attr-defined]
    assert loaded["history"] == view["history"]


# --- the learning environments ------------------------------------------------------------------------
REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'


def _tosses(env_state: State) -> list[Move]:
    return [m for m in env_state.history if m >= SHOWS_HEADS]


def test_gym_env_draws_the_tosses_from_the_reset_seed_and_pays_the_score(coin_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    from gridgames.rl import gym_env

    def episode(seed: int) -> tuple[list[Move], list[float]]:
        env = gym_env("coin", rounds=12, reward="score")
        env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            _, reward, done, _, _ = env.step(HEADS)
            rewards.append(reward)
        assert sum(rewards) == env.state.outcome.scores[0]  # type: ignore[union-attr]
        return _tosses(env.state), rewards

    first, rewards = episode(1)
    assert episode(1) == (first, rewards)  # the same seed, the same tosses
    assert episode(2)[0] != first  # another seed, other tosses
    assert set(rewards) <= {0.0, 1.0} and len(rewards) == 12  # a point when the toss came up heads


def test_gym_and_pettingzoo_checkers_pass_on_a_game_of_chance(coin_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    pytest.importorskip("pettingzoo", reason=REASON)
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from gridgames.rl import aec_env, gym_env

    check_env(gym_env("coin", rounds=3), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(Observation is not a NumPy array|all zeros|probably should be).*")
        api_test(aec_env("coin", rounds=3), num_cycles=50)


def test_aec_env_draws_from_its_seed_and_pays_the_score_each_step(coin_registry: Registry) -> None:
    pytest.importorskip("pettingzoo", reason=REASON)
    from gridgames.rl import aec_env

    def tosses(seed: int) -> tuple[list[Move], float]:
        env = aec_env("coin", rounds=12, reward="score")
        env.reset(seed=seed)
        total = 0.0
        while env.agents:
            _, reward, terminated, _, _ = env.last()
            total += reward
            env.step(None if terminated else HEADS)
        return _tosses(env.unwrapped.state), total

    first, total = tosses(3)
    assert tosses(3)[0] == first and tosses(4)[0] != first
    assert total == first.count(SHOWS_HEADS)  # the points came step by step, a point per heads


# --- which computer players apply --------------------------------------------------------------------
@attrs.frozen
class ThreeCoins(Coin):
    @property
    def info(self):  # type: ignore[no-untyped-def]
        return attrs.evolve(super().info, num_players=3, player_names=("a", "b", "c"))


def test_negamax_is_offered_for_one_player_and_two_player_zero_sum_games_only() -> None:
    from gridgames.errors import OptionError
    from gridgames.search.players import ai_kinds

    assert ai_kinds(Coin()) == ("ai", "negamax", "mcts", "random")  # one player: negamax plays it
    assert ai_kinds(ThreeCoins()) == ("ai", "mcts", "random")
    with pytest.raises(OptionError, match="negamax plays one-player and two-player zero-sum games"):
        make_ai(ThreeCoins(), "negamax")


def test_vector_env_draws_each_sub_envs_tosses_from_its_seed(coin_registry: Registry) -> None:
    pytest.importorskip("gymnasium", reason=REASON)
    import numpy as np

    from gridgames.rl import vector_env

    def tosses(seed: int) -> np.ndarray:
        env = vector_env("coin", num_envs=3, rounds=6)
        env.reset(seed=seed)
        for _ in range(6):  # the sixth guess ends every game: its observation is the last position
            observation, _, terminated, _, _ = env.step(np.zeros(3, dtype=np.int64))
        assert terminated.all()
        return observation["observation"][:, 1, :, 0]  # row 1 of each board: the tosses (1 heads)

    first = tosses(1)
    assert (tosses(1) == first).all()  # the same seeds, the same tosses
    # sub-env i is seeded s + i: seed 2's first is seed 1's second
    assert (tosses(2)[:2] == first[1:]).all()
    assert len({row.tobytes() for row in first}) > 1  # sub-envs with other seeds toss otherwise
