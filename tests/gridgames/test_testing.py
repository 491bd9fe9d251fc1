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
    spec = GameSpec(
        "nim", "Take stones; last one wins.", GameKind.TURN_BASED, Nim, (Option("stones", int, 5, "pile size"),)
    )
    check_spec(spec, playouts=3)


def test_check_spec_rejects_a_kind_that_does_not_match_the_object() -> None:
    spec = GameSpec("nim", "Take stones.", GameKind.PUZZLE, Nim)
    with pytest.raises(ConformanceError, match="puzzle spec must create a Puzzle"):
        check_spec(spec)


def _calls(length: int) -> dict[str, int]:
    from gridgames_test_support.toy_games import Walk

    game = Walk(length)
    check_game(game, playouts=1)
    return game.calls


def test_check_game_does_work_linear_in_the_games_length() -> None:
    short, long = _calls(200), _calls(2000)
    # Per ply: both legal moves parsed back, the move played, undone and played again, and played on a copy;
    # then from_notation on the first 8 positions and at each power of two (about twice the game's length of
    # moves), and the whole notation replayed once, move by move: about 5 parses and 6 plays per ply (10,068 and
    # 12,069 here). Rebuilding the notation at every ply, as before, was length**2 / 2 of each (2 million here).
    for name in ("parse_move", "play"):
        assert long[name] <= 12 * 2000, long
        # ten times as long, ten times the work
        assert long[name] <= 11 * short[name], (short, long)


def test_check_game_still_checks_every_positions_notation_round_trip() -> None:
    # the notation is right for each move, but rebuilding the game lands elsewhere
    class Drifting(Nim):
        def from_notation(self, text: str) -> NimState:
            state = super().from_notation(text)
            if len(state.moves) == 3:
                state.moves[-1] = 0 if state.moves[-1] else 1
            return state

    with pytest.raises(ConformanceError, match="round-trip|differs"):
        check_game(Drifting(12), playouts=5)


def test_check_game_accepts_a_notation_of_its_own_with_move_numbers() -> None:
    # "1. 2 2. 3": its own from_notation reads the numbers, split_notation does not know them
    class Numbered(Nim):
        def join_notation(self, moves):  # type: ignore[no-untyped-def]
            return " ".join(f"{i}. {self.format_move(m)}" for i, m in enumerate(moves, start=1))

        def from_notation(self, text: str) -> NimState:
            return super().from_notation(" ".join(part for part in text.split() if not part.endswith(".")))

    check_game(Numbered(15), playouts=5)
    assert Numbered(15).from_notation("1. 3 2. 1").history == (2, 0)

    class Wrong(Numbered):  # and a wrong one is still caught, on the positions kept
        def from_notation(self, text: str) -> NimState:
            state = super().from_notation(text)
            return state if len(state.moves) != 2 else self.new_state()

    with pytest.raises(ConformanceError, match="does not round-trip"):
        check_game(Wrong(15), playouts=5)
