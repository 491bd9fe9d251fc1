"""Hex: join your two sides of a rhombus of hexagons with a chain of your stones.

Rules
    The board is an n x n rhombus of hexagons (7 x 7 by default, ``--size`` 5 to 11).
    Red moves first, then Blue, each putting one stone on any empty hexagon. Red
    owns the top and bottom edges, Blue the left and right ones: the first to join
    their two edges with a chain of touching stones wins. A full board always has
    exactly one such chain (the Hex theorem), so there are no draws.

Swap rule
    Moving first is a big advantage, so Blue's first move may be ``swap``: Red's
    first stone becomes Blue's, mirrored across the long diagonal (the stone on
    ``c2`` becomes a Blue stone on ``b3``), and Red moves next. Red should therefore
    open with a move neither too strong nor too weak.

Actions
    Move ``row * size + column`` (row 0 at the top) puts a stone on that cell; move
    ``size * size`` is the swap.

Notation
    A cell is its column letter and row number from the top: ``a1`` is the top-left
    corner, ``g7`` the bottom-right one on 7 x 7; the swap is ``swap``. A game is its
    moves separated by spaces: ``d4 swap c5``.

Computer player
    The game provides an evaluation (the difference of the two players' shortest
    connections, counting the empty cells each still needs), so ``--blue ai`` plays
    it with the generic negamax search.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.compiled_rules import CompiledRules
from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import GameInfo, GameKind, GameSpec, Game, Move, Option, Outcome, State, Termination
from gridgames.drawing import board_svg
from gridgames.grid import EMPTY, Grid

__all__ = ["HexGame", "HexState", "SPEC", "SWAP_TEXT", "winning_chain"]

PLAYER_NAMES = ("Red", "Blue")
STONES = "RB"  # the picture characters of values 1 and 2
# the option's range; the rules work from 1 x 1 (tests use 2 x 2 and 3 x 3)
MIN_SIZE, MAX_SIZE = 5, 11
SWAP_TEXT = "swap"
COLOURS = ("#d62728", "#1f77b4")  # Red's and Blue's stones
_CELL = re.compile(r"^\s*([a-zA-Z])\s*(\d+)\s*$")
_FAR = 10**6


@attrs.frozen
class HexGame(Game):
    """The rules of Hex on a size x size rhombus: Red joins top and bottom, Blue left and right."""

    size: int = 7
    _neighbours: tuple[tuple[int, ...], ...] = attrs.field(init=False, repr=False, eq=False)
    _order: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.size, int) or not 1 <= self.size <= MAX_SIZE:
            raise OptionError(f"size must be an integer from 1 to {MAX_SIZE}, got {self.size!r}")
        n = self.size
        grid = Grid.empty(n, n, lattice="hexagonal")
        table = tuple(tuple(r * n + c for r, c in grid.neighbours(divmod(m, n))) for m in range(n * n))
        object.__setattr__(self, "_neighbours", table)
        centre = (n - 1) / 2
        order = sorted(
            range(n * n),
            key=lambda m: (abs(m // n - centre) + abs(m % n - centre) + abs(m // n + m % n - 2 * centre), m),
        )
        object.__setattr__(self, "_order", tuple(order))

    @classmethod
    def create(cls, size: int = 7) -> HexGame:
        """Hex on a size x size board (5 to 11; 7 by default)."""
        if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise OptionError(f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
        return cls(size)

    @property
    def swap(self) -> Move:
        """The action of the swap (Blue's first move only)."""
        return self.size * self.size

    @property
    def edges(self) -> dict[str, int]:
        """Red (0) owns the top and bottom sides, Blue (1) the left and right ones: the page draws them so."""
        return {"top": 0, "bottom": 0, "left": 1, "right": 1}

    @property
    def info(self) -> GameInfo:
        """Two players, one action per cell and the swap."""
        cells = self.size * self.size
        return GameInfo(num_players=2, num_actions=cells + 1, player_names=PLAYER_NAMES, max_game_length=cells + 1)

    def new_state(self) -> HexState:
        """An empty board, Red to move."""
        return HexState(self)

    def compiled_rules(self) -> CompiledRules:
        """The rules compiled for the framework's compiled engines (`gridgames_hex.compiled`)."""
        from gridgames_hex.compiled import compiled_rules

        return compiled_rules(self)

    def parse_move(self, text: str) -> Move:
        """The move of a cell name such as ``c2`` (column letter, row number from the top) or ``swap``."""
        if text.strip().lower() == SWAP_TEXT:
            return self.swap
        match = _CELL.match(text)
        if match is None:
            raise NotationError(f"a move is a column letter and a row number, such as 'c2', or 'swap', not {text!r}")
        column = ord(match.group(1).lower()) - ord("a")
        row = int(match.group(2)) - 1
        if not 0 <= column < self.size or not 0 <= row < self.size:
            last = chr(ord("a") + self.size - 1)
            raise NotationError(f"{text.strip()!r} is off the board (columns a-{last}, rows 1-{self.size})")
        return row * self.size + column

    def format_move(self, move: Move) -> str:
        """The cell name of a move, such as ``c2``, or ``swap``."""
        if move == self.swap:
            return SWAP_TEXT
        if not 0 <= move < self.size * self.size:
            raise NotationError(f"move {move} is outside 0..{self.size * self.size}")
        row, column = divmod(move, self.size)
        return f"{chr(ord('a') + column)}{row + 1}"


def winning_chain(grid: Grid, player: int) -> tuple[tuple[int, int], ...]:
    """The cells of ``player``'s chain joining their two edges (0: top-bottom, 1: left-right), or () if none.

    A breadth-first search over `Grid.neighbours` from the player's first edge; the chain is the
    connected group of stones that reaches the far edge.
    """
    n, value = grid.height, player + 1
    starts = [(0, c) for c in range(n)] if player == 0 else [(r, 0) for r in range(n)]
    seen: set[tuple[int, int]] = set()
    for start in starts:
        if grid.cells[start] != value or start in seen:
            continue
        group, queue = [start], deque([start])
        seen.add(start)
        while queue:
            for other in grid.neighbours(queue.popleft()):
                if other not in seen and grid.cells[other] == value:
                    seen.add(other)
                    group.append(other)
                    queue.append(other)
        if any((r if player == 0 else c) == n - 1 for r, c in group):
            return tuple(sorted(group))
    return ()


class HexState(State):
    """A position of Hex."""

    def __init__(self, game: HexGame) -> None:
        self.game: HexGame = game
        self.grid = Grid.empty(game.size, game.size, lattice="hexagonal")
        self._history: list[Move] = []
        self._outcome: Outcome | None = None

    @property
    def current_player(self) -> int:
        """0 (Red) or 1 (Blue): they alternate, Red first (a swap counts as Blue's move)."""
        return len(self._history) % 2

    def _can_swap(self) -> bool:
        return len(self._history) == 1 and self._outcome is None

    def legal_moves(self) -> Iterator[Move]:
        """The empty cells, the centre first; on Blue's first move also the swap (last)."""
        if self._outcome is not None:
            return iter(())
        empty = self.grid.cells.ravel() == EMPTY
        moves = [m for m in self.game._order if empty[m]]
        if self._can_swap():
            moves.append(self.game.swap)
        return iter(moves)

    def is_legal(self, move: Move) -> bool:
        """True for an empty cell while the game goes on, and for the swap on Blue's first move."""
        if self._outcome is not None:
            return False
        if move == self.game.swap:
            return self._can_swap()
        n = self.game.size
        return 0 <= move < n * n and self.grid.is_empty(divmod(move, n))

    def legal_mask(self) -> np.ndarray:
        """An int8 array with one entry per action: 1 where a stone may go now, and on the swap when allowed."""
        mask = np.zeros(self.game.info.num_actions, dtype=np.int8)
        if self._outcome is None:
            mask[:-1] = self.grid.cells.ravel() == EMPTY
            mask[-1] = self._can_swap()
        return mask

    def play(self, move: Move) -> None:
        """Put the mover's stone on the cell (or swap); joining one's two edges wins."""
        self.check_playable(move)
        n = self.game.size
        if move == self.game.swap:
            first = divmod(self._history[0], n)
            self.grid.cells[first] = EMPTY
            self.grid.set((first[1], first[0]), 2)  # Blue's now, mirrored across the long diagonal
            self._history.append(move)
            return
        player = self.current_player
        self.grid.set(divmod(move, n), player + 1)
        self._history.append(move)
        if len(self._history) >= 2 * n - 1:  # else the mover has fewer than n stones
            chain = winning_chain(self.grid, player)
            if chain:
                edges = "top and bottom" if player == 0 else "left and right"
                self._outcome = Outcome(player, f"{PLAYER_NAMES[player]} joins {edges}", chain, Termination.RULE)

    def undo(self) -> Move:
        """Take back the last move (a swap gives Red's first stone back)."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        move = self._history.pop()
        n = self.game.size
        if move == self.game.swap:
            r, c = divmod(self._history[0], n)
            self.grid.cells[c, r] = EMPTY
            self.grid.set((r, c), 1)
        else:
            self.grid.cells[divmod(move, n)] = EMPTY
        self._outcome = None
        return move

    @property
    def outcome(self) -> Outcome | None:
        """The winner and their chain, or None (Hex has no draws)."""
        return self._outcome

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self._history)

    def copy(self) -> HexState:
        """An independent copy."""
        other = HexState(self.game)
        other.grid = self.grid.copy()
        other._history = list(self._history)
        other._outcome = self._outcome
        return other

    def to_text(self) -> str:
        """The rhombus, each row shifted half a cell right, row numbers on the left, column letters above."""
        n = self.game.size
        digits = len(str(n))
        rows = self.grid.picture(STONES).splitlines()
        lines = [" " * (digits + 1) + " ".join(chr(ord("a") + c) for c in range(n))]
        lines += [f"{r + 1:>{digits}} {row}" for r, row in enumerate(rows)]
        return "\n".join(lines)

    def svg(self) -> str:
        """The rhombus of hexagons (`gridgames.drawing.board_svg`), Red's stones red and Blue's blue, each player's
        sides (`HexGame.edges`) in their colour, the winning chain ringed; while Blue may swap, a "swap" button in the
        empty corner (``data-move="swap"``: the web page plays it on a click)."""
        outcome = self._outcome
        picture = board_svg(
            self.grid, PLAYER_NAMES, highlight=outcome.cells if outcome else (), colours=COLOURS, edges=self.game.edges
        )
        if not self._can_swap():
            return picture
        height = float(picture.split('height="', 1)[1].split('"', 1)[0])
        button = (
            f'<g data-move="{SWAP_TEXT}"><rect x="6" y="{height - 26:.2f}" width="44" height="20" rx="4" '
            'fill="#1f77b4"/>'
            f'<text x="28" y="{height - 16:.2f}" font-family="sans-serif" font-size="12" text-anchor="middle" '
            f'dominant-baseline="central" fill="#ffffff">{SWAP_TEXT}</text></g>'
        )
        return picture.replace("</svg>", button + "\n</svg>")

    def distance(self, player: int) -> int:
        """How many empty cells ``player`` still needs to join their edges (0-1 breadth-first search; large when cut
        off)."""
        n, cells, value = self.game.size, self.grid.cells.ravel(), player + 1
        neighbours = self.game._neighbours
        cost = [_FAR] * (n * n)
        queue: deque[int] = deque()
        for m in range(n) if player == 0 else range(0, n * n, n):
            if cells[m] == value or cells[m] == EMPTY:
                cost[m] = 0 if cells[m] == value else 1
                (queue.appendleft if cost[m] == 0 else queue.append)(m)
        while queue:
            m = queue.popleft()
            for other in neighbours[m]:
                v = cells[other]
                if v != value and v != EMPTY:
                    continue
                step = cost[m] + (0 if v == value else 1)
                if step < cost[other]:
                    cost[other] = step
                    (queue.appendleft if v == value else queue.append)(other)
        ends = range(n * (n - 1), n * n) if player == 0 else range(n - 1, n * n, n)
        return min(cost[m] for m in ends)

    def evaluate(self) -> float:
        """The opponent's shortest connection minus the mover's (in empty cells), squashed into (-1, 1)."""
        me = self.current_player
        mine, theirs = min(self.distance(me), 4 * self.game.size), min(self.distance(1 - me), 4 * self.game.size)
        return math.tanh((theirs - mine) / 3.0)


SPEC = GameSpec(
    name="hex",
    summary="Hex: join your two sides of a rhombus of hexagons (swap rule, sizes 5-11)",
    kind=GameKind.TURN_BASED,
    create=HexGame.create,
    options=(Option("size", int, 7, "cells along each side of the rhombus (5-11)"),),
    doc=__doc__ or "",
)
