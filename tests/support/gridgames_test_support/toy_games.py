"""Tiny games shared by the framework's tests (`gridgames_test_support.toy_games`)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from gridgames.errors import GameOverError, IllegalMoveError, NotationError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Option, Outcome, State

@attrs.frozen
class Nim(Game):
    """Take 1 to 3 stones from a pile; whoever takes the last stone wins."""

    stones: int = 7

    @property
    def info(self) -> GameInfo:
        return GameInfo(num_players=2, num_actions=3, player_names=("first", "second"), max_game_length=self.stones)

    def new_state(self) -> NimState:
        return NimState(self)

    def parse_move(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise NotationError(f"a move is 1, 2 or 3 stones, not {text!r}")
        return int(text) - 1

    def format_move(self, move: int) -> str:
        return str(move + 1)


@attrs.define
class NimState(State):
    game: Nim
    moves: list[int] = attrs.field(factory=list)
    broken_undo: bool = False

    @property
    def left(self) -> int:
        return self.game.stones - sum(m + 1 for m in self.moves)

    @property
    def current_player(self) -> int:
        return len(self.moves) % 2

    def legal_moves(self) -> Iterator[int]:
        return iter(range(min(3, self.left)))

    def play(self, move: int) -> None:
        if self.left == 0:
            raise GameOverError("the pile is empty")
        if move not in range(min(3, self.left)):
            raise IllegalMoveError(f"cannot take {move + 1}")
        self.moves.append(move)

    def undo(self) -> int:
        move = self.moves.pop()
        if self.broken_undo and self.moves:
            self.moves.pop()
        return move

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(winner=(len(self.moves) - 1) % 2, reason="took the last stone") if self.left == 0 else None

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self.moves)

    def copy(self) -> NimState:
        return NimState(self.game, list(self.moves), self.broken_undo)

    def to_text(self) -> str:
        return "o" * self.left


NIM_SPEC = GameSpec("nim", "Take 1 to 3 stones; whoever takes the last one wins.", GameKind.TURN_BASED, Nim, (Option("stones", int, 7, "stones in the pile"),))
WRONG_OBJECT = "not a GameSpec"
AN_INT = 42
MISNAMED_SPEC = GameSpec("other", "A spec registered under another name.", GameKind.TURN_BASED, Nim)
TAKE_SPEC = GameSpec("take", "Nim under another name.", GameKind.TURN_BASED, Nim)
