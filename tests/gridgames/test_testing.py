"""Tests for gridgames.testing: the conformance checks catch broken games and pass sound ones."""

from __future__ import annotations

import pytest

from gridgames.game import GameKind, GameSpec, Option
from gridgames.testing import ConformanceError, check_game, check_spec

from gridgames_test_support.toy_games import Nim, NimState


def test_a_sound_game_passes_check_game() -> None:
    check_game(Nim(9), playouts=10)


def test_check_game_catches_an_undo_that_does_not_restore() -> None:
    class BrokenNim(Nim):
        def new_state(self) -> NimState:
            return NimState(self, broken_undo=True)

    with pytest.raises(ConformanceError, match="undo"):
        check_game(BrokenNim(9), playouts=3)


def test_check_game_catches_a_notation_that_does_not_round_trip() -> None:
    class Garbled(Nim):
        def format_move(self, move: int) -> str:
            return "1"

    with pytest.raises(ConformanceError, match="round-trip"):
        check_game(Garbled(9), playouts=3)


def test_check_spec_builds_the_game_with_default_options() -> None:
    spec = GameSpec("nim", "Take stones; last one wins.", GameKind.TURN_BASED, Nim, (Option("stones", int, 5, "pile size"),))
    check_spec(spec, playouts=3)


def test_check_spec_rejects_a_kind_that_does_not_match_the_object() -> None:
    spec = GameSpec("nim", "Take stones.", GameKind.PUZZLE, Nim)
    with pytest.raises(ConformanceError, match="puzzle spec must create a Puzzle"):
        check_spec(spec)
