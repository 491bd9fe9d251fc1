"""The 2048-like example: slides and merges, chance tiles, the score on every surface, the AI, both RL adapters."""

from __future__ import annotations

import random
import statistics
import warnings

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.errors import IllegalMoveError, NotationError
from gridgames.game import CHANCE, play_chance
from gridgames.registry import load_game
from gridgames.search.players import make_ai
from gridgames.testing import check_spec

from gridgames_g2048 import SPEC, G2048Game, G2048State, _slide_line, greedy_move

UP, DOWN, LEFT, RIGHT = range(4)


def test_conformance_and_the_entry_point() -> None:
    check_spec(SPEC, playouts=10)
    assert load_game("g2048").make().info.num_players == 1


@pytest.mark.parametrize(
    ("line", "slid", "points"),
    [
        ((1, 1, 0, 0), (2, 0, 0, 0), 4),  # 2 2 . . -> 4: four points
        ((1, 1, 1, 1), (2, 2, 0, 0), 8),  # each tile merges once a slide
        ((1, 1, 1, 0), (2, 1, 0, 0), 4),  # the pair nearest the wall merges first
        ((0, 2, 0, 2), (3, 0, 0, 0), 8),  # gaps close before merging
        ((2, 1, 1, 2), (2, 2, 2, 0), 4),  # 4 2 2 4 -> 4 4 4: a new tile does not merge again
        ((1, 2, 3, 4), (1, 2, 3, 4), 0),
    ],
)
def test_a_line_slides_and_merges_as_in_2048(line: tuple[int, ...], slid: tuple[int, ...], points: int) -> None:
    assert _slide_line(line) == (slid, points)


def _state(rows: str) -> G2048State:
    """A position from rows of tile values ('.' empty), the player to move."""
    game = G2048Game(len(rows.split("/")))
    state = game.new_state()
    cells = [0 if v == "." else int(v).bit_length() - 1 for row in rows.split("/") for v in row.split()]
    state.cells, state.pending = tuple(cells), 0
    return state


def test_slides_score_their_merges_and_a_tile_follows_each() -> None:
    state = _state("2 2 ./4 . 4/. . .")
    assert sorted(state.legal_moves()) == [UP, DOWN, LEFT, RIGHT]
    state.play(LEFT)
    assert state.to_text().splitlines()[:2] == ["   4   .   .", "   8   .   ."] and state.score == 12
    # 7 empty cells, a 2 or a 4
    assert state.current_player == CHANCE and len(state.chance_outcomes()) == 14
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    with pytest.raises(IllegalMoveError):
        state.play(LEFT)  # a tile is to come first
    state.play(state.game.parse_move("4@c3"))
    assert state.cells[8] == 2 and state.current_player == 0
    assert state.undo() == state.game.parse_move("4@c3") and state.undo() == LEFT and state.score == 0
    full = _state("2 4 2/4 2 4/2 4 2")
    assert full.is_over and full.outcome is not None and full.outcome.scores == (0,)


def test_notation_round_trips_and_is_refused_clearly() -> None:
    game = G2048Game(3)
    assert [game.format_move(m) for m in (0, 3, 4, 5, 21)] == ["u", "r", "2@a1", "4@a1", "4@c3"]
    assert all(game.parse_move(game.format_move(m)) == m for m in range(game.info.num_actions))
    with pytest.raises(NotationError, match="off the board"):
        game.parse_move("2@d1")
    with pytest.raises(NotationError, match="a move is u, d, l or r"):
        game.parse_move("up")


def test_new_tiles_come_from_the_seed_only() -> None:
    def start(seed: int) -> tuple[int, ...]:
        state = G2048Game(4).new_state()
        play_chance(state, random.Random(seed))
        return state.history

    assert start(1) == start(1) and len({start(seed) for seed in range(10)}) > 5


def _play(seed: int, choose: object) -> int:
    state = G2048Game(3).new_state()
    tiles = random.Random(seed)
    play_chance(state, tiles)
    while not state.is_over:
        state.play(choose(state))  # type: ignore[operator]
        play_chance(state, tiles)
    return state.score


def test_the_generic_ai_scores_more_than_the_greedy_rule_and_random_play() -> None:
    # A fixed budget of positions (not seconds): the same games on every machine. bench/g2048.py plays 20 at 1 s.
    seeds = range(3)
    ai = [_play(seed, make_ai(G2048Game(3), "ai", nodes=150, rng=random.Random(seed)).choose) for seed in seeds]
    greedy = [_play(seed, greedy_move) for seed in seeds]
    rng = random.Random(0)
    randomly = [_play(seed, lambda s: rng.choice(list(s.legal_moves()))) for seed in seeds]
    assert statistics.mean(ai) > statistics.mean(greedy) > statistics.mean(randomly)


def test_the_score_reaches_the_outcome_the_result_line_and_the_hint() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "g2048", "--size", "2", "--first", "random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Game over: ") and "draw" not in result.output and "chance: " in result.output
    # offered, and it plays:
    assert "negamax" in runner.invoke(app, ["play", "g2048", "--help"]).output
    result = runner.invoke(app, ["play", "g2048", "--size", "2", "--first", "negamax", "--nodes", "50", "--seed", "2"])
    assert result.exit_code == 0 and "Game over: " in result.output, result.output


def test_the_terminal_reads_u_as_a_slide_and_colon_u_as_undo() -> None:
    result = CliRunner().invoke(app, ["play", "g2048", "--seed", "3"], input="u\n:u\n:q\n")
    assert result.exit_code == 0, result.output
    assert ":u: undo" in result.output  # the prompt says so
    assert result.output.count("chance: ") == 2  # the two first tiles, then the one after the slide
    assert "nothing to undo" not in result.output
    hinted = CliRunner().invoke(app, ["play", "g2048", "--seed", "3", "--nodes", "60"], input=":h\n:q\n")
    # a score, not +1.00
    assert "hint: " in hinted.output and "expected score " in hinted.output, hinted.output


def test_both_rl_adapters_pass_their_checkers_and_resets_with_other_seeds_differ() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from gridgames.rl import aec_env, gym_env

    env = gym_env("g2048", reward="score")
    check_env(env, skip_render_check=True)
    first, _ = env.reset(seed=1)
    again, _ = env.reset(seed=1)
    other = [env.reset(seed=seed)[0]["observation"] for seed in range(2, 8)]
    assert (first["observation"] == again["observation"]).all()
    assert any((o != first["observation"]).any() for o in other)
    env.reset(seed=1)
    total, done = 0.0, False
    while not done:
        legal = [m for m in range(4) if env.state.is_legal(m)]
        _, reward, done, _, _ = env.step(legal[0])
        total += reward
    assert total == env.state.score > 0  # reward="score": the points of each slide as they come
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(Observation is not a NumPy array|all zeros|probably should be).*")
        api_test(aec_env("g2048"), num_cycles=100)


def test_the_web_api_draws_the_first_tiles_undoes_a_slide_with_its_tile_and_saves() -> None:
    from gridgames_test_support.web import web_api

    with web_api() as api:
        view = api.ok("POST", "/api/play/g2048/new", {"seed": 2})
        assert len(view["history"]) == 2 and view["notes"] == ["chance: " + " ".join(view["history"])]
        assert view["kinds"] == ["human", "ai", "negamax", "mcts", "random"] and view["player_scores"] == [0.0]
        refused = api.post("/api/play/g2048/undo")
        assert refused.status_code == 409 and "only the chance outcomes" in refused.text
        start = view["history"]
        view = api.ok("POST", "/api/play/g2048/move", {"move": view["legal"][0]})
        assert len(view["history"]) == 4  # the slide and the tile drawn after it
        view = api.ok("POST", "/api/play/g2048/undo")
        assert view["history"] == start and view["can_redo"]  # both taken back
        view = api.ok("POST", "/api/play/g2048/move", {"move": view["legal"][-1]})
        saved = api.get("/api/play/g2048/save").text
        assert api.ok("POST", "/api/play/g2048/load", {"text": saved})["history"] == view["history"]
