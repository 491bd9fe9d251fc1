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


NIM_SPEC = GameSpec(
    "nim",
    "Take 1 to 3 stones; whoever takes the last one wins.",
    GameKind.TURN_BASED,
    Nim,
    (Option("stones", int, 7, "stones in the pile"),),
)
WRONG_OBJECT = "not a GameSpec"
AN_INT = 42
MISNAMED_SPEC = GameSpec("other", "A spec registered under another name.", GameKind.TURN_BASED, Nim)
TAKE_SPEC = GameSpec("take", "Nim under another name.", GameKind.TURN_BASED, Nim)


@attrs.frozen
class Walk(Game):
    """A long game: two players move one token a step left (``l``) or right (``r``), ``length`` steps in all;
    then the first player wins right of the start, the second left of it, and at the start it is a draw.
    ``calls`` counts the calls of `parse_move` and of `WalkState.play` (shared by every state of the game)."""

    length: int = 2000
    calls: dict[str, int] = attrs.field(factory=lambda: {"parse_move": 0, "play": 0}, eq=False, hash=False)

    @property
    def info(self) -> GameInfo:
        return GameInfo(num_players=2, num_actions=2, player_names=("right", "left"), max_game_length=self.length)

    def new_state(self) -> WalkState:
        return WalkState(self)

    def parse_move(self, text: str) -> int:
        self.calls["parse_move"] += 1
        if text not in ("l", "r"):
            raise NotationError(f"a move is 'l' or 'r', not {text!r}")
        return "lr".index(text)

    def format_move(self, move: int) -> str:
        return "lr"[move]


@attrs.define
class WalkState(State):
    game: Walk
    moves: list[int] = attrs.field(factory=list)
    position: int = 0

    @property
    def current_player(self) -> int:
        return len(self.moves) % 2

    def legal_moves(self) -> Iterator[int]:
        return iter(() if len(self.moves) >= self.game.length else (0, 1))

    def play(self, move: int) -> None:
        self.game.calls["play"] += 1
        if len(self.moves) >= self.game.length:
            raise GameOverError("the walk is over")
        if move not in (0, 1):
            raise IllegalMoveError(f"no move {move}")
        self.moves.append(move)
        self.position += 1 if move else -1

    def undo(self) -> int:
        move = self.moves.pop()
        self.position -= 1 if move else -1
        return move

    @property
    def outcome(self) -> Outcome | None:
        if len(self.moves) < self.game.length:
            return None
        winner = None if self.position == 0 else (0 if self.position > 0 else 1)
        return Outcome(winner, f"the token ended at {self.position:+d}")

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self.moves)

    def copy(self) -> WalkState:
        return WalkState(self.game, list(self.moves), self.position)

    def to_text(self) -> str:
        return f"step {len(self.moves)}, token at {self.position:+d}"
