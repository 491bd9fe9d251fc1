"""Connect Four's hooks for gridgames serve: exact scores within a budget, partial results, review, its save files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridgames_connect4 import Connect4, SPEC
from gridgames_connect4.solve.solver import Solver

from gridgames.web.hooks import (
    ComputerMove,
    MoveScores,
    MoveTargets,
    Prepare,
    Presets,
    PuzzleFromText,
    ReviewGame,
    has,
    hooks_of,
)
from gridgames.web.jobs import Budget


def test_connect4_offers_every_turn_based_hook() -> None:
    hooks = hooks_of(SPEC)
    assert all(has(hooks, name) for name in ("move_targets", "computer_move", "move_scores", "review"))
    assert not any(
        has(hooks, name) for name in ("save_text", "load_text", "player_styles")
    )  # the framework saves and draws it
    assert all(
        isinstance(hooks, hook) for hook in (MoveTargets, ComputerMove, MoveScores, ReviewGame, Prepare)
    )  # the protocols
    # those are the puzzles'
    assert not isinstance(hooks, Presets) and not isinstance(hooks, PuzzleFromText)
    pentomino = hooks_of(__import__("gridgames_pentomino").SPEC)
    assert (
        isinstance(pentomino, Presets)
        and isinstance(pentomino, PuzzleFromText)
        and not isinstance(pentomino, MoveScores)
    )


def test_scores_are_the_solvers_and_the_partial_result_ends_equal_to_them() -> None:
    state = Connect4(6, 5, 4).from_notation("3443")
    budget = Budget(120)
    result = hooks_of(SPEC).move_scores(state, budget)
    expected = Solver(6, 5, 4).analyze([2, 3, 3, 2])
    assert result["exact"] and result["scores"] == {c: s for c, s in enumerate(expected) if s is not None}
    assert budget.partial == {"scores": {str(c + 1): s for c, s in result["scores"].items()}}


def test_scores_out_of_budget_are_marked_not_exact() -> None:
    # 10 discs, past the shipped book: its columns take 6 M positions
    state = Connect4().from_notation("4215163153")
    result = hooks_of(SPEC).move_scores(state, Budget(0.3))
    assert not result["exact"] and None in result["scores"].values() and "not exact" in result["note"]


def test_an_old_save_file_with_yellow_first_loads_its_seats_in_turn_order_and_saves_back_with_its_colours() -> None:
    import json

    from gridgames.saves import from_json
    from gridgames.web.plays import load_play, player_styles, save_text

    text = (Path(__file__).parent / "data" / "v2-written-by-0.1-yellow-first.json").read_text()
    play = load_play(SPEC, {"text": text})
    # yellow moved first
    assert play.state.notation() == "3443" and play.seats == ["human", "perfect"]
    assert (play.game.width, play.game.height) == (6, 5) and (play.think, play.seed) == (1.5, 7)
    # the page draws the first mover yellow
    assert player_styles(play) == [("yellow", 1), ("red", 0)]
    play.state.play(0)  # the page goes on with the game, then saves it
    again = from_json(save_text(play), spec=SPEC)
    assert again.options["first"] == "yellow" and again.seats == ("human", "perfect")
    assert again.moves == "34431" and (again.think, again.seed) == (1.5, 7)
    assert json.loads(save_text(play))["format"] == "gridgames-moves"


def test_the_web_review_is_the_batched_review_and_stops_with_its_budget() -> None:
    from gridgames_connect4.teach.review import review_game

    game = Connect4(5, 4, 4)
    state = game.from_notation("112222441")  # red throws a win away with its last move
    entries = hooks_of(SPEC).review(state, Budget(60))
    expected = review_game(game, state.history).reviews
    assert [(e["score"], e["best"], e["mark"]) for e in entries] == [(r.score, r.best, r.mark) for r in expected]
    assert entries[-1]["mark"] == "mistake" and entries[-1]["player"] == "red" and entries[-1]["best_moves"] == ["3"]
    spent = Budget(60)
    # e.g. the page went away: nothing is solved, every move is listed unscored
    spent.cancelled.set()
    entries = hooks_of(SPEC).review(state, spent)
    assert [e["number"] for e in entries] == list(range(1, 10)) and all(e["score"] is None for e in entries)


def test_the_shipped_book_answers_the_web_as_it_does_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from gridgames_connect4.solve import book as book_module
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.book_build import build_book
    from gridgames_connect4.teach.review import review_game

    build_book(5, 4, 4, 6, tmp_path / "5x4.bin", table_bits=16)
    shipped = Book.load(tmp_path / "5x4.bin")
    monkeypatch.setattr(book_module, "default_book", lambda w=7, h=6, c=4: shipped if (w, h, c) == (5, 4, 4) else None)
    game = Connect4(5, 4, 4)
    state = game.from_notation("332")
    budget = Budget(0.0)  # no time at all: only the book can answer
    result = hooks_of(SPEC).move_scores(state, budget)
    assert result["exact"] and result["scores"] == dict(enumerate(Solver(5, 4, 4).analyze([2, 2, 1])))
    finished = game.from_notation("112222441")
    entries = hooks_of(SPEC).review(finished, Budget(0.0))
    # the book covers the first six positions
    by_book = review_game(game, finished.history, book=shipped).reviews[:6]
    assert [(e["score"], e["best"]) for e in entries[:6]] == [(r.score, r.best) for r in by_book]
    # the rest needed the solver, and there was no time
    assert all(e["score"] is None for e in entries[6:])
    move, _ = hooks_of(SPEC).computer_move(state, "perfect", random.Random(1), 0.01)
    # perfect plays from the book at once
    assert result["scores"][move] == max(result["scores"].values())
