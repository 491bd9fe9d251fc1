"""Lights Out, a one-player game for the tests (issue 37): press a light to toggle it and its four neighbours.

The board is ``size`` x ``size`` (5 by default); the game starts from the lights that pressing the cells of
``start`` (in the game's notation, by default the main diagonal) turns on from a dark board, so it is always
solvable: pressing the same cells again turns every light off. The player wins (player 0) when every light
is off; after ``max_game_length`` presses the game ends without a winner. A move's click target is the
pressed cell itself (`State.move_cells`), not the cells it lights.

>>> game = LightsOut(3, start="b2")
>>> state = game.new_state()
>>> print(state.to_text())
3 . o .
2 o o o
1 . o .
  a b c
>>> state.play(game.parse_move("b2")); state.outcome.winner, state.outcome.reason
(0, 'every light is off after 1 press')
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.errors import GameOverError, IllegalMoveError, NotationError, OptionError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Option, Outcome, State
from gridgames.grid import Cell, Grid

COLUMNS = "abcdefghijklmnopqrstuvwxyz"


@attrs.frozen
class LightsOut(Game):
    """The rules: the board's size and the start (the presses that light it)."""

    size: int = 5
    start: str = ""

    def __attrs_post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 1 <= self.size <= 26:
            raise OptionError(f"size must be a whole number from 1 to 26, not {self.size!r}")

    @property
    def info(self) -> GameInfo:
        cells = self.size * self.size
        return GameInfo(
            num_players=1, num_actions=cells, player_names=("solver",), max_game_length=2 * cells, zero_sum=False
        )

    def start_presses(self) -> list[int]:
        """The presses that light the starting board (the main diagonal unless ``start`` says otherwise)."""
        if not self.start.strip():
            return [i * self.size + i for i in range(self.size)]
        return [self.parse_move(part) for part in self.split_notation(self.start)]

    def new_state(self) -> LightsOutState:
        lights = np.zeros((self.size, self.size), dtype=bool)
        for move in self.start_presses():
            press(lights, divmod(move, self.size))
        return LightsOutState(self, lights)

    def parse_move(self, text: str) -> int:
        text = text.strip().lower()
        column, row = text[:1], text[1:]
        if column not in COLUMNS[: self.size] or not row.isdigit() or not 1 <= int(row) <= self.size:
            raise NotationError(
                f"a press is a cell such as 'a1' (columns a-{COLUMNS[self.size - 1]}, rows 1-{self.size}), not {text!r}"
            )
        return (self.size - int(row)) * self.size + COLUMNS.index(column)

    def format_move(self, move: int) -> str:
        row, column = divmod(move, self.size)
        return f"{COLUMNS[column]}{self.size - row}"


def press(lights: np.ndarray, cell: Cell) -> None:
    """Toggle the light at ``cell`` and its orthogonal neighbours on the board."""
    r, c = cell
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < lights.shape[0] and 0 <= c + dc < lights.shape[1]:
            lights[r + dr, c + dc] ^= True


@attrs.define(eq=False)
class LightsOutState(State):
    """The lights (True: on) and the presses so far."""

    game: LightsOut
    lights: np.ndarray
    presses: list[int] = attrs.field(factory=list)

    @property
    def current_player(self) -> int:
        return 0

    def legal_moves(self) -> Iterator[int]:
        return iter(()) if self.is_over else iter(range(self.game.info.num_actions))

    def play(self, move: int) -> None:
        if self.is_over:
            raise GameOverError("the lights are out (or the presses are used up): no press can follow")
        if (
            isinstance(move, bool)
            or not isinstance(move, (int, np.integer))
            or not 0 <= move < self.game.info.num_actions
        ):
            raise IllegalMoveError(f"there is no cell {move!r} to press")
        press(self.lights, divmod(int(move), self.game.size))
        self.presses.append(int(move))

    def undo(self) -> int:
        if not self.presses:
            raise IllegalMoveError("there is no press to take back")
        move = self.presses.pop()
        press(self.lights, divmod(move, self.game.size))
        return move

    @property
    def outcome(self) -> Outcome | None:
        if not self.lights.any():
            count = len(self.presses)
            return Outcome(0, f"every light is off after {count} press{'es' if count != 1 else ''}")
        if len(self.presses) >= self.game.info.max_game_length:
            return Outcome(None, f"{int(self.lights.sum())} lights still on after {len(self.presses)} presses")
        return None

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self.presses)

    def copy(self) -> LightsOutState:
        return LightsOutState(self.game, self.lights.copy(), list(self.presses))

    def to_text(self) -> str:
        size = self.game.size
        rows = [f"{size - r} " + " ".join("o" if on else "." for on in self.lights[r]) for r in range(size)]
        return "\n".join([*rows, "  " + " ".join(COLUMNS[:size])])

    def board(self) -> Grid:
        """The lights as a grid: 1 where a light is on (drawn as the solver's), 0 where it is off."""
        return Grid(self.lights.astype(np.int32))

    def move_cells(self, move: int) -> tuple[Cell, ...]:
        """A press is played by clicking the pressed cell itself."""
        return (divmod(int(move), self.game.size),)


SPEC = GameSpec(
    "lightsout",
    "Lights Out: press a light to toggle it and its neighbours; turn every light off.",
    GameKind.TURN_BASED,
    LightsOut,
    (
        Option("size", int, 5, "the board's side (1-26)"),
        Option("start", str, "", "the presses that light the board (default: the diagonal)"),
    ),
)
