"""Pictures for Jupyter: any state with a board draws itself (`State.svg`), any puzzle's solution too
(`Puzzle.show`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from gridgames_test_support.toy_games import Nim

from gridgames.registry import load_game

NS = {"svg": "http://www.w3.org/2000/svg"}


def test_a_plugin_state_with_a_board_draws_a_disc_with_its_players_initial() -> None:
    game = load_game("mnk").make(width=4, height=3, k=3)
    state = game.from_notation("b2 a1")
    root = ET.fromstring(state._repr_svg_())
    assert len(root.findall("svg:rect", NS)) == 12
    assert sorted(t.text for t in root.findall("svg:text", NS)) == ["O", "X"]


def test_a_state_without_a_board_has_no_picture() -> None:
    state = Nim().new_state()
    assert state.board() is None and state._repr_svg_() is None


@pytest.mark.parametrize("name", ["pentomino", "nqueens"])
def test_a_solution_shows_itself_as_svg_and_as_text(name: str) -> None:
    puzzle = load_game(name).make(**({"board": "3x20"} if name == "pentomino" else {"n": 5}))
    solution = next(puzzle.solutions())
    picture = puzzle.show(solution)
    root = ET.fromstring(picture._repr_svg_())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert repr(picture) == puzzle.to_text(solution)
