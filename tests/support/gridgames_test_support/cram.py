"""Cram, written as a plugin author would (issue 14): players "First" and "Second" put dominoes either way; who cannot
move loses.

A move is a cell and a direction: ``a1h`` (a flat domino on a1 and b1) or ``a1v`` (upright, on a1 and a2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Move, Option, Outcome, State, Termination
from gridgames.grid import Grid

PLAYERS = ("First", "Second")
DOMINOES = (((0, 0), (0, 1)), ((0, 0), (1, 0)))  # h, v
MOVE = re.compile(r"^\s*([a-z])(\d+)([hv])\s*$")


@attrs.frozen
class Cram(Game):
    """Cram on a width x height board."""

    width: int = 3
    height: int = 3

    def __attrs_post_init__(self) -> None:
        if not (1 <= self.width <= 26 and 1 <= self.height <= 26):
            raise OptionError(f"the board must be 1 to 26 cells each way, not {self.width}x{self.height}")

    @property
    def info(self) -> GameInfo:
        """Two players; two actions per cell."""
        cells = self.width * self.height
        return GameInfo(num_players=2, num_actions=2 * cells, player_names=PLAYERS, max_game_length=cells // 2)

    def new_state(self) -> CramState:
        """An empty board, First to move."""
        return CramState(self)

    def parse_move(self, text: str) -> Move:
        """The move of ``b2h`` or ``b2v``."""
        match = MOVE.match(text.lower())
        if match is None:
            raise NotationError(f"a move is a cell and h or v, such as 'b2h', not {text!r}")
        column, row = ord(match.group(1)) - ord("a"), int(match.group(2)) - 1
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise NotationError(f"{text!r} is off the board")
        return 2 * (row * self.width + column) + (match.group(3) == "v")

    def format_move(self, move: Move) -> str:
        """The text of a move."""
        cell, way = divmod(move, 2)
        row, column = divmod(cell, self.width)
        return f"{chr(ord('a') + column)}{row + 1}{'hv'[way]}"


class CramState(State):
    """A Cram position."""

    def __init__(self, game: Cram) -> None:
        self.game: Cram = game
        self.grid = Grid.empty(game.height, game.width)
        self.moves: list[Move] = []

    @property
    def current_player(self) -> int:
        """First (0) and Second (1) alternate."""
        return len(self.moves) % 2

    def _fits(self, move: Move) -> bool:
        cell, way = divmod(move, 2)
        return self.grid.can_place(DOMINOES[way], divmod(cell, self.game.width))

    def legal_moves(self) -> Iterator[Move]:
        """Every domino that fits."""
        return (m for m in range(self.game.info.num_actions) if self._fits(m))

    def play(self, move: Move) -> None:
        """Put a domino."""
        self.check_playable(move)
        cell, way = divmod(move, 2)
        self.grid.place(DOMINOES[way], divmod(cell, self.game.width), self.current_player + 1)
        self.moves.append(move)

    def undo(self) -> Move:
        """Take the last domino back."""
        if not self.moves:
            raise IllegalMoveError("there is no move to undo")
        move = self.moves.pop()
        cell, way = divmod(move, 2)
        self.grid.remove(DOMINOES[way], divmod(cell, self.game.width))
        return move

    @property
    def outcome(self) -> Outcome | None:
        """Whoever cannot move loses."""
        if next(self.legal_moves(), None) is not None:
            return None
        loser = self.current_player
        return Outcome(1 - loser, f"{PLAYERS[loser]} cannot move", termination=Termination.NO_MOVES)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self.moves)

    def copy(self) -> CramState:
        """An independent copy."""
        other = CramState(self.game)
        other.grid = self.grid.copy()
        other.moves = list(self.moves)
        return other

    def to_text(self) -> str:
        """The board: A and B for each player's dominoes."""
        return self.grid.to_text(alphabet="AB")


SPEC = GameSpec(
    name="cram",
    summary="Cram: put dominoes either way; whoever cannot move loses",
    kind=GameKind.TURN_BASED,
    create=Cram,
    options=(Option("width", int, 3, "columns"), Option("height", int, 3, "rows")),
)
