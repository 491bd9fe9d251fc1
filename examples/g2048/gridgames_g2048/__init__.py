"""2048-like sliding tiles: a one-player game of chance with a score, as a gridgames plugin.

Rules
    The board has ``size`` x ``size`` cells (3 x 3 by default: a game lasts a few hundred
    moves; ``--size 4`` is the classic 2048). It starts with two tiles. A move slides every
    tile as far as it goes up, down, left or right; two tiles of the same value that meet
    merge into one of twice the value (each tile merges once per move), and the merged
    value is added to the score. A move must move a tile. After each move a new tile
    appears on an empty cell, drawn at random: a 2 nine times in ten, else a 4. The game
    ends when no move moves a tile; the score is the result (a bigger score is better).

Chance
    A new tile is a chance event (`gridgames.game.State.chance_outcomes`): after a move
    `current_player` is `gridgames.game.CHANCE` and the state lists the tiles that may
    appear, each empty cell's 2 and 4 with their probabilities. The framework draws one
    (the terminal and the page from their seed, the learning environments from the reset's
    seed) and plays it like a move, so the history, undo, the notation and saves record it;
    no player, and no AI, sees a tile before it is drawn.

Actions and notation
    Actions 0-3 are the slides ``u``, ``d``, ``l`` and ``r`` (up, down, left, right). A new
    tile is action ``4 + 2 * cell + k`` (``cell = row * size + column``, row 0 at the top;
    ``k`` 0 for a 2, 1 for a 4), written as its value and cell: ``2@b3`` (column letter,
    row number from the top). A game is its moves and tiles separated by spaces:
    ``2@a1 4@c3 l 2@b1 u ...``. At the terminal the slide ``u`` is a move: type ``:u`` to
    undo (and ``:s FILE``, ``:h``, ``:q``).

Outcome and score
    The outcome carries the score as its one score: the result reads ``Game over: 1,352``;
    `gridgames.game.Outcome.value_for` grows with it, and `State.scores` gives the score so
    far (``reward="score"`` pays the points of each move in `gridgames.rl`).

Computer player
    The state provides an evaluation (the score plus a bonus for empty cells and the biggest
    tile in a corner, on `value_for`'s scale), so ``ai`` plays it with the generic negamax
    search, which is expectimax at the chance points.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import attrs
import numpy as np

from gridgames.errors import GameOverError, IllegalMoveError, NotationError, OptionError
from gridgames.game import (
    CHANCE,
    Game,
    GameInfo,
    GameKind,
    GameSpec,
    Move,
    Option,
    Outcome,
    State,
    Termination,
)
from gridgames.grid import Grid

__all__ = ["G2048Game", "G2048State", "SPEC", "greedy_move"]

SLIDES = ("u", "d", "l", "r")
"""The slides' texts in action order: up, down, left, right."""
FOUR_CHANCE = 0.1
"""How often a new tile is a 4 (else a 2)."""
MIN_SIZE, MAX_SIZE = 2, 8
PLANES = 16
"""Observation planes: plane k - 1 holds the tiles of value 2**k (k = 1..16)."""
_TILE = re.compile(r"^\s*(2|4)\s*@\s*([a-zA-Z])\s*(\d+)\s*$")

Cells = tuple[int, ...]  # each cell's exponent: 0 empty, k a tile of 2**k


@lru_cache(maxsize=1 << 16)
def _slide_line(line: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """A line of exponents slid towards its start: the new line and the points its merges score."""
    tiles = [v for v in line if v]
    out: list[int] = []
    points = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] + 1)
            points += 1 << (tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return tuple(out + [0] * (len(line) - len(out))), points


@attrs.frozen
class G2048Game(Game):
    """The rules on a size x size board (3 x 3 by default)."""

    size: int = 3
    _lines: tuple[tuple[tuple[int, ...], ...], ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.size, int) or isinstance(self.size, bool) or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise OptionError(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {self.size!r}")
        n = self.size
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        columns = [tuple(r * n + c for r in range(n)) for c in range(n)]
        lines = (  # each slide's lines of cells, listed from the side the tiles slide to
            tuple(columns),
            tuple(column[::-1] for column in columns),
            tuple(rows),
            tuple(row[::-1] for row in rows),
        )
        object.__setattr__(self, "_lines", lines)

    @classmethod
    def create(cls, size: int = 3) -> G2048Game:
        """The game on a size x size board."""
        return cls(size)

    @property
    def info(self) -> GameInfo:
        """One player, four slides and two tiles per cell; chance; no natural bound on the length."""
        return GameInfo(
            num_players=1,
            num_actions=4 + 2 * self.size * self.size,
            player_names=("Player",),
            deterministic=False,
        )

    def new_state(self) -> G2048State:
        """An empty board where the first two tiles are to be drawn."""
        return G2048State(self)

    def parse_move(self, text: str) -> Move:
        """A slide (``u``, ``d``, ``l``, ``r``) or a new tile (``2@b3``)."""
        word = text.strip().lower()
        if word in SLIDES:
            return SLIDES.index(word)
        match = _TILE.match(text)
        if match is None:
            raise NotationError(f"a move is u, d, l or r (a tile is written like '2@b3'), not {text.strip()[:40]!r}")
        column, row = ord(match.group(2).lower()) - ord("a"), int(match.group(3)[:3]) - 1
        if not (0 <= column < self.size and 0 <= row < self.size):
            last = chr(ord("a") + self.size - 1)
            raise NotationError(f"{text.strip()!r} is off the board (columns a-{last}, rows 1-{self.size})")
        return 4 + 2 * (row * self.size + column) + (match.group(1) == "4")

    def format_move(self, move: Move) -> str:
        """``u``, ``d``, ``l``, ``r``, or a tile such as ``2@b3``."""
        if 0 <= move < 4:
            return SLIDES[move]
        if not 4 <= move < self.info.num_actions:
            raise NotationError(f"move {move} is outside 0..{self.info.num_actions - 1}")
        cell, four = divmod(move - 4, 2)
        row, column = divmod(cell, self.size)
        return f"{4 if four else 2}@{chr(ord('a') + column)}{row + 1}"

    def slide(self, cells: Cells, move: Move) -> tuple[Cells, int]:
        """The cells after a slide and the points it scores (the same cells: the slide moves nothing)."""
        out = list(cells)
        points = 0
        for line in self._lines[move]:
            slid, gained = _slide_line(tuple(cells[i] for i in line))
            points += gained
            for i, value in zip(line, slid):
                out[i] = value
        return tuple(out), points


class G2048State(State):
    """A position: the tiles, the score, and how many new tiles are still to be drawn."""

    def __init__(self, game: G2048Game) -> None:
        self.game: G2048Game = game
        self.cells: Cells = (0,) * (game.size * game.size)
        self.score = 0
        # tiles to draw before the player moves: two at the start, then one after each slide
        self.pending = 2
        self._history: list[Move] = []
        self._stack: list[tuple[Cells, int, int]] = []
        self._slides: dict[Move, tuple[Cells, int]] | None = None

    def _moves(self) -> dict[Move, tuple[Cells, int]]:
        """Each slide that moves a tile: the cells after it and its points (cached until the position changes)."""
        if self._slides is None:
            found = {}
            for move in range(4):
                after, points = self.game.slide(self.cells, move)
                if after != self.cells:
                    found[move] = (after, points)
            self._slides = found
        return self._slides

    @property
    def current_player(self) -> int:
        """`CHANCE` while a new tile is to be drawn, else the one player, 0."""
        return CHANCE if self.pending and 0 in self.cells else 0

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """While a tile is to be drawn: each empty cell's 2 and 4, with their probabilities; else none."""
        if self.current_player != CHANCE:
            return []
        empty = [i for i, v in enumerate(self.cells) if v == 0]
        share = 1.0 / len(empty)
        outcomes = []
        for cell in empty:
            outcomes += [(4 + 2 * cell, share * (1 - FOUR_CHANCE)), (5 + 2 * cell, share * FOUR_CHANCE)]
        return outcomes

    def legal_moves(self) -> Iterator[Move]:
        """The tiles that may appear (at a chance point), else the slides that move a tile."""
        if self.current_player == CHANCE:
            return iter([move for move, _ in self.chance_outcomes()])
        return iter(sorted(self._moves()))

    def play(self, move: Move) -> None:
        """Slide, or put the drawn tile down; refuses anything else and changes nothing then."""
        if self.is_over:
            raise GameOverError(f"the game is over; no move can follow ({self.game.format_move(move)!r})")
        if self.current_player == CHANCE:
            cell, four = divmod(move - 4, 2)
            if move < 4 or not 0 <= cell < len(self.cells) or self.cells[cell]:
                raise IllegalMoveError(f"a new tile goes on an empty cell; {move} is not one here")
            self._stack.append((self.cells, self.score, self.pending))
            self.cells = self.cells[:cell] + (2 if four else 1,) + self.cells[cell + 1 :]
            self.pending -= 1
        else:
            slid = self._moves().get(move)
            if slid is None:
                what = repr(self.game.format_move(move)) if 0 <= move < self.game.info.num_actions else str(move)
                raise IllegalMoveError(f"move {what} is not legal here (a slide must move a tile)")
            self._stack.append((self.cells, self.score, self.pending))
            self.cells, points = slid
            self.score += points
            self.pending = 1
        self._history.append(move)
        self._slides = None

    def undo(self) -> Move:
        """Take back the last slide or tile."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        self.cells, self.score, self.pending = self._stack.pop()
        self._slides = None
        return self._history.pop()

    @property
    def outcome(self) -> Outcome | None:
        """Once no slide moves a tile: the score as the outcome's one score."""
        if self.current_player == CHANCE or self._moves():
            return None
        return Outcome(None, "no slide moves a tile", termination=Termination.NO_MOVES, scores=(self.score,))

    def scores(self) -> tuple[float, ...]:
        """The score so far."""
        return (float(self.score),)

    @property
    def history(self) -> tuple[Move, ...]:
        """Slides and tiles, in order."""
        return tuple(self._history)

    def copy(self) -> G2048State:
        """An independent copy."""
        other = G2048State(self.game)
        other.cells, other.score, other.pending = self.cells, self.score, self.pending
        other._history, other._stack = list(self._history), list(self._stack)
        return other

    def to_text(self) -> str:
        """The tiles in rows, '.' for an empty cell, and the score."""
        n = self.game.size
        width = max([4] + [len(str(1 << v)) + 1 for v in self.cells if v])
        rows = [
            "".join((str(1 << self.cells[r * n + c]) if self.cells[r * n + c] else ".").rjust(width) for c in range(n))
            for r in range(n)
        ]
        return "\n".join(rows) + f"\nscore {self.score:,}"

    def evaluate(self) -> float:
        """The score plus a bonus for empty cells and the biggest tile in a corner, on `Outcome.value_for`'s scale."""
        n = self.game.size
        biggest = max(self.cells)
        empty = self.cells.count(0)
        corners = (self.cells[0], self.cells[n - 1], self.cells[-n], self.cells[-1])
        estimate = self.score + (empty + 2 * (biggest in corners)) * (1 << biggest)
        return estimate / (estimate + 1.0)

    def board(self) -> Grid | None:
        """None: a tile is no player's piece (`State.board`'s values), so the page shows `svg`, the tiles' values."""
        return None

    def tiles(self) -> Grid:
        """Each cell's tile as its exponent (1 for a 2, 2 for a 4, ...), 0 for an empty cell."""
        n = self.game.size
        return Grid(np.array(self.cells, dtype=np.int32).reshape(n, n))

    def planes(self) -> np.ndarray:
        """One plane per tile value: plane k - 1 holds the tiles of 2**k."""
        n = self.game.size
        values = np.array(self.cells, dtype=np.int64).reshape(n, n)
        return (values[..., None] == np.arange(1, PLANES + 1)).astype(np.int8)

    def move_cells(self, move: Move) -> tuple[tuple[int, int], ...]:
        """No cell: a slide is a button on the page, not a click on the board."""
        return ()

    def svg(self) -> str:
        """The board as tiles with their values, and the score."""
        n, cell = self.game.size, 60
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{n * cell + 8}" height="{n * cell + 32}" '
            f'viewBox="0 0 {n * cell + 8} {n * cell + 32}">',
            f'<rect width="{n * cell + 8}" height="{n * cell + 8}" rx="6" fill="#bbada0"/>',
        ]
        for i, value in enumerate(self.cells):
            r, c = divmod(i, n)
            x, y = 4 + c * cell + 3, 4 + r * cell + 3
            shade = min(value, 11) * 18
            fill = "#cdc1b4" if not value else f"rgb({238},{228 - shade // 2},{218 - shade})"
            parts.append(f'<rect x="{x}" y="{y}" width="{cell - 6}" height="{cell - 6}" rx="4" fill="{fill}"/>')
            if value:
                parts.append(
                    f'<text x="{x + (cell - 6) / 2}" y="{y + (cell - 6) / 2 + 7}" font-family="sans-serif" '
                    f'font-size="{20 if value < 10 else 15}" font-weight="bold" text-anchor="middle" '
                    f'fill="#776e65">{1 << value}</text>'
                )
        parts.append(
            f'<text x="4" y="{n * cell + 26}" font-family="sans-serif" font-size="16">score {self.score:,}</text></svg>'
        )
        return "".join(parts)


def greedy_move(state: G2048State) -> Move:
    """The one-move greedy rule: the slide that scores the most points now (the first such in u, d, l, r order)."""
    moves = state._moves()
    return max(sorted(moves), key=lambda m: moves[m][1])


SPEC = GameSpec(
    name="g2048",
    summary="Slide and merge tiles; new tiles come by chance; a bigger score is better (one player).",
    kind=GameKind.TURN_BASED,
    create=G2048Game.create,
    options=(Option("size", int, 3, "board size, 2 to 8 (4: the classic 2048)"),),
    doc=__doc__ or "",
)
