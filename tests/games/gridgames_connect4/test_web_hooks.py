"""Connect Four's hooks for gridgames serve: exact scores within a budget, partial results, review, its save files."""

from __future__ import annotations

from gridgames_connect4 import SPEC, Connect4
from gridgames_connect4.save import to_json
from gridgames_connect4.solver import Solver

from gridgames.web.hooks import has, hooks_of
from gridgames.web.jobs import Budget


def test_connect4_offers_every_turn_based_hook() -> None:
    hooks = hooks_of(SPEC)
    assert all(has(hooks, name) for name in ("move_targets", "computer_move", "move_scores", "review", "save_text", "load_text"))


def test_scores_are_the_solvers_and_the_partial_result_ends_equal_to_them() -> None:
    state = Connect4(6, 5, 4).from_notation("3443")
    budget = Budget(120)
    result = hooks_of(SPEC).move_scores(state, budget)
    expected = Solver(6, 5, 4).analyze([2, 3, 3, 2])
    assert result["exact"] and result["scores"] == {c: s for c, s in enumerate(expected) if s is not None}
    assert budget.partial == {"scores": {str(c + 1): s for c, s in result["scores"].items()}}


def test_scores_out_of_budget_are_marked_not_exact() -> None:
    state = Connect4().new_state()  # the empty 7x6 board takes the solver a minute or more
    result = hooks_of(SPEC).move_scores(state, Budget(0.3))
    assert not result["exact"] and None in result["scores"].values() and "not exact" in result["note"]


def test_a_save_file_with_yellow_first_loads_its_seats_in_turn_order() -> None:
    state = Connect4().from_notation("44")
    text = to_json(state, first="yellow", seats={"red": "perfect", "yellow": "human"})
    loaded, seats = hooks_of(SPEC).load_text(text)
    assert loaded.notation() == "44" and seats == ["human", "perfect"]  # yellow moved first
