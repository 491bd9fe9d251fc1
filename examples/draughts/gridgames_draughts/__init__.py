"""English draughts (checkers): move diagonally, jump to capture, crown a king on the far row.

Rules
    The 32 dark squares of an 8 x 8 board are numbered 1 to 32 from the top, four a row.
    Black's twelve men start on 1-12 and move first, down the board; White's on 21-32
    move up. A man moves one square diagonally forward to an empty square; a king (a man
    that reached the far row) also backward. A capture jumps diagonally over an
    opponent's piece next to the mover onto the empty square beyond, and the jumped
    piece is removed. Capturing is compulsory: when a player can jump, they must, and a
    jump must go on while the same piece can jump again (any capture may be chosen, not
    the longest). A man reaching the far row is crowned and its move ends there. A
    player who cannot move (no pieces left, or all blocked) loses. So that every game
    ends, it is a draw after 40 moves by each player (80 in all) without a capture or a
    man moving, as tournament rules have it.

Actions
    Each simple move (from a square to a neighbouring one) and each geometric jump path
    (from a square through one or more landings, each jump over a different square) is
    one action: 98 simple moves and 1,328 jump paths on 8 x 8. They are an index, not a
    list anybody reads: players name moves by their squares.

Notation
    ``9-14`` moves from 9 to 14; ``9x18x27`` jumps from 9 to 18, then on to 27: the
    whole path, as `Game.format_move` writes it and `Game.parse_move` reads it. In a
    position (`State.parse_move`: the terminal, the web page, a game's notation) the
    short form ``9x27`` names the one legal capture from 9 that ends on 27; when several
    do, the error names them (``'9x27' is ambiguous here: 9x18x27 or 9x18x25x27``...).

Pieces
    The board (`State.board`) holds each player's pieces as 1 and 2 whether men or kings;
    the text picture writes men ``b`` and ``w``, kings ``B`` and ``W``, and the
    observation planes add a plane of kings.

Computer player
    The game provides an evaluation (material, a king worth 1.5 men, and men's advance),
    so ``ai`` plays it with the generic negamax search.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.errors import IllegalMoveError, NotationError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Move, Outcome, State, Termination
from gridgames.grid import Cell, Grid

__all__ = ["DraughtsGame", "DraughtsState", "SPEC", "square_cell"]

PLAYER_NAMES = ("Black", "White")
PLAYER_COLOURS = ("#222222", "#f2efe6")
SIZE = 8
SQUARES = 32
QUIET_LIMIT = 80  # plies without a capture or a man moving: a draw (40 moves each)
EMPTY, MAN, KING = 0, 1, 2
_MOVE = re.compile(r"^\s*\d+\s*(?:[-x]\s*\d+\s*)+$")
# Black's men move the first two (down), White's the last two
DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def square_cell(square: int) -> Cell:
    """The (row, column) of a square's index 0-31 (square number - 1): row 0 at the top."""
    row, k = divmod(square, 4)
    return (row, 2 * k + (1 if row % 2 == 0 else 0))


def _cell_square(row: int, col: int) -> int | None:
    if not (0 <= row < SIZE and 0 <= col < SIZE) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2


def _geometry() -> tuple[tuple[tuple[int | None, ...], ...], tuple[tuple[int | None, ...], ...]]:
    """For each square and direction: the next square and the square a jump lands on (None off the board)."""
    steps, jumps = [], []
    for square in range(SQUARES):
        row, col = square_cell(square)
        steps.append(tuple(_cell_square(row + dr, col + dc) for dr, dc in DIRECTIONS))
        jumps.append(tuple(_cell_square(row + 2 * dr, col + 2 * dc) for dr, dc in DIRECTIONS))
    return tuple(steps), tuple(jumps)


STEP, JUMP = _geometry()


def _paths() -> tuple[tuple[int, ...], ...]:
    """Every action's squares: the simple moves, then the jump paths (each over different squares), in a fixed
    order."""
    simple = [(s, t) for s in range(SQUARES) for t in STEP[s] if t is not None]
    jumps: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...], over: frozenset[int]) -> None:
        here = path[-1]
        for d in range(4):
            middle, land = STEP[here][d], JUMP[here][d]
            if middle is None or land is None or middle in over:
                continue
            longer = (*path, land)
            jumps.append(longer)
            extend(longer, over | {middle})

    for square in range(SQUARES):
        extend((square,), frozenset())
    return tuple(simple + jumps)


PATHS = _paths()
ACTIONS = {path: action for action, path in enumerate(PATHS)}


def _middle(a: int, b: int) -> int:
    """The square jumped over from ``a`` to ``b``."""
    (ra, ca), (rb, cb) = square_cell(a), square_cell(b)
    middle = _cell_square((ra + rb) // 2, (ca + cb) // 2)
    assert middle is not None  # a jump path's landings are two diagonal steps apart
    return middle


def _text(path: tuple[int, ...]) -> str:
    jump = STEP[path[0]].count(path[1]) == 0
    return ("x" if jump else "-").join(str(s + 1) for s in path)


def _squares(text: str) -> tuple[list[int], bool]:
    """The squares (0-31) a move's text names and whether it is written as a capture; `NotationError` when
    malformed."""
    if not _MOVE.match(text):
        raise NotationError(f"a move is squares 1-32 joined by '-' or 'x', such as '9-14' or '9x18x27', not {text!r}")
    numbers = [int(n) for n in re.split(r"[-x]", text.replace(" ", ""))]
    bad = [n for n in numbers if not 1 <= n <= SQUARES]
    if bad:
        raise NotationError(f"square {bad[0]} is off the board (squares 1-32) in {text.strip()!r}")
    return [n - 1 for n in numbers], "x" in text


@attrs.frozen
class DraughtsGame(Game):
    """The rules of English draughts on the 8 x 8 board."""

    @classmethod
    def create(cls) -> DraughtsGame:
        """English draughts."""
        return cls()

    @property
    def info(self) -> GameInfo:
        """Two players, one action per simple move and jump path; a long game is bounded by the draw rule."""
        return GameInfo(
            num_players=2, num_actions=len(PATHS), player_names=PLAYER_NAMES, max_game_length=QUIET_LIMIT * 200
        )

    def player_colours(self) -> tuple[str, ...]:
        """Black's pieces dark, White's light."""
        return PLAYER_COLOURS

    def new_state(self) -> DraughtsState:
        """Black on 1-12, White on 21-32, Black to move."""
        return DraughtsState(self)

    def parse_move(self, text: str) -> Move:
        """The action of a whole move, ``9-14`` or ``9x18x27`` (every landing written)."""
        squares, _ = _squares(text)
        action = ACTIONS.get(tuple(squares))
        if action is None:
            raise NotationError(
                f"{text.strip()!r} is no move on the board: steps go to a diagonal neighbour, jumps two squares "
                "diagonally, each over a different square"
            )
        return action

    def format_move(self, move: Move) -> str:
        """The squares of a move, ``9-14`` or ``9x18x27``."""
        if not 0 <= move < len(PATHS):
            raise NotationError(f"move {move} is outside 0..{len(PATHS) - 1}")
        return _text(PATHS[move])


@attrs.frozen
class _Step:
    move: Move
    piece: int  # the moving piece's kind before the move (MAN or KING)
    captured: tuple[tuple[int, int, int], ...]  # (square, owner, kind) of each jumped piece
    quiet: int  # plies without progress before the move


class DraughtsState(State):
    """A position: each square's owner (-1 empty, 0 Black, 1 White) and kind, the side to move, the quiet plies."""

    def __init__(self, game: DraughtsGame) -> None:
        self.game: DraughtsGame = game
        self._owner = [0] * 12 + [-1] * 8 + [1] * 12
        self._kind = [MAN] * 12 + [EMPTY] * 8 + [MAN] * 12
        self._to_move = 0
        self._quiet = 0
        self._steps: list[_Step] = []
        self._legal: list[Move] | None = None
        self._outcome: Outcome | None = None

    @property
    def current_player(self) -> int:
        """0 (Black) or 1 (White)."""
        return self._to_move

    def _directions(self, square: int) -> range:
        if self._kind[square] == KING:
            return range(4)
        return range(0, 2) if self._owner[square] == 0 else range(2, 4)

    def _crowns(self, player: int, square: int) -> bool:
        """True when a man of ``player`` arriving on ``square`` is crowned (the far row)."""
        return square >= 28 if player == 0 else square < 4

    def _jumps_from(self, start: int) -> list[tuple[int, ...]]:
        """The complete jump paths of the piece on ``start`` (each goes on while it can; a crowned man stops)."""
        me, king = self._owner[start], self._kind[start] == KING
        directions = self._directions(start)
        found: list[tuple[int, ...]] = []

        def extend(path: tuple[int, ...], over: frozenset[int]) -> None:
            here, went_on = path[-1], False
            for d in directions:
                middle, land = STEP[here][d], JUMP[here][d]
                if middle is None or land is None or middle in over:
                    continue
                if self._owner[middle] != 1 - me or (self._owner[land] != -1 and land != start):
                    continue
                went_on = True
                if not king and self._crowns(me, land):
                    found.append((*path, land))
                else:
                    extend((*path, land), over | {middle})
            if not went_on and len(path) > 1:
                found.append(path)

        extend((start,), frozenset())
        return found

    def legal_moves(self) -> Iterator[Move]:
        """The captures when there are any (compulsory), else the simple moves; none once the game is over."""
        if self._outcome is not None:
            return iter(())
        if self._legal is None:
            self._legal = self._generate()
        return iter(self._legal)

    def _generate(self) -> list[Move]:
        mine = [s for s in range(SQUARES) if self._owner[s] == self._to_move]
        jumps = [ACTIONS[path] for s in mine for path in self._jumps_from(s)]
        if jumps:
            return sorted(jumps)
        return sorted(
            ACTIONS[(s, t)]
            for s in mine
            for d in self._directions(s)
            if (t := STEP[s][d]) is not None and self._owner[t] == -1
        )

    def is_legal(self, move: Move) -> bool:
        """True for one of `legal_moves`."""
        if self._outcome is not None or not isinstance(move, (int, np.integer)) or isinstance(move, bool):
            return False
        if self._legal is None:
            self._legal = self._generate()
        return move in self._legal

    def play(self, move: Move) -> None:
        """Move the piece along the move's path, remove the jumped pieces, crown a man on the far row."""
        self.check_playable(move)
        path = PATHS[move]
        start, end, me = path[0], path[-1], self._to_move
        piece = self._kind[start]
        captured = []
        if len(path) > 2 or STEP[start].count(end) == 0:  # a jump path
            for a, b in zip(path, path[1:]):
                middle = _middle(a, b)
                captured.append((middle, self._owner[middle], self._kind[middle]))
        self._steps.append(_Step(int(move), piece, tuple(captured), self._quiet))
        for square, _, _ in captured:
            self._owner[square], self._kind[square] = -1, EMPTY
        self._owner[start], self._kind[start] = -1, EMPTY
        crowned = piece == MAN and self._crowns(me, end)
        self._owner[end], self._kind[end] = me, KING if crowned else piece
        self._quiet = 0 if captured or piece == MAN else self._quiet + 1
        self._to_move = 1 - me
        self._settle()

    def _settle(self) -> None:
        self._legal = None
        self._outcome = None
        self._legal = self._generate()
        if not self._legal:
            loser = PLAYER_NAMES[self._to_move]
            pieces = any(owner == self._to_move for owner in self._owner)
            reason = f"{loser} cannot move" if pieces else f"{loser} has no pieces left"
            self._outcome = Outcome(1 - self._to_move, reason, termination=Termination.NO_MOVES)
        elif self._quiet >= QUIET_LIMIT:
            self._outcome = Outcome(None, "40 moves each without a capture or a man moving")

    def undo(self) -> Move:
        """Take back the last move, putting the jumped pieces back and uncrowning a man crowned by it."""
        if not self._steps:
            raise IllegalMoveError("there is no move to undo")
        step = self._steps.pop()
        path = PATHS[step.move]
        me = 1 - self._to_move
        self._owner[path[-1]], self._kind[path[-1]] = -1, EMPTY
        self._owner[path[0]], self._kind[path[0]] = me, step.piece
        for square, owner, kind in step.captured:
            self._owner[square], self._kind[square] = owner, kind
        self._quiet = step.quiet
        self._to_move = me
        self._settle()
        return step.move

    @property
    def outcome(self) -> Outcome | None:
        """Who won (the side that cannot move loses), a draw by the 40-move rule, or None."""
        return self._outcome

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(step.move for step in self._steps)

    def copy(self) -> DraughtsState:
        """An independent copy."""
        other = DraughtsState.__new__(DraughtsState)
        other.game = self.game
        other._owner, other._kind = list(self._owner), list(self._kind)
        other._to_move, other._quiet = self._to_move, self._quiet
        other._steps = list(self._steps)
        other._legal = None if self._legal is None else list(self._legal)
        other._outcome = self._outcome
        return other

    def piece(self, square: int) -> tuple[int, int] | None:
        """The (owner, kind) on a square number 1-32 (kind 1 a man, 2 a king), or None when it is empty."""
        index = square - 1
        return None if self._owner[index] == -1 else (self._owner[index], self._kind[index])

    def parse_move(self, text: str) -> Move:
        """A move here: a whole path, or a short form naming its first and last squares (and any landings between)
        that only one legal move fits."""
        squares, capture = _squares(text)
        exact = ACTIONS.get(tuple(squares))
        if exact is not None and self.is_legal(exact):
            return exact
        fits = [m for m in self.legal_moves() if _is_jump(PATHS[m]) == capture and _fits(PATHS[m], squares)]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            names = [self.game.format_move(m) for m in fits]
            raise NotationError(f"{text.strip()!r} is ambiguous here: {', '.join(names[:-1])} or {names[-1]}")
        if exact is not None:
            return exact  # a whole path that is not legal now: play refuses it with the reason
        what = "capture" if capture else "move"
        raise NotationError(f"no legal {what} here goes from {squares[0] + 1} to {squares[-1] + 1} ({text.strip()!r})")

    def move_path(self, move: Move) -> tuple[Cell, ...]:
        """The cells the moving piece visits: its own, each landing, its target."""
        return tuple(square_cell(s) for s in PATHS[move])

    def board(self) -> Grid:
        """The board as a `Grid`: 1 for Black's pieces, 2 for White's (men and kings), 0 empty squares."""
        cells = np.zeros((SIZE, SIZE), dtype=np.int32)
        for square in range(SQUARES):
            if self._owner[square] != -1:
                cells[square_cell(square)] = self._owner[square] + 1
        return Grid(cells)

    def svg(self) -> str:
        """The board as SVG: light and dark squares (each dark one with ``data-row``/``data-col`` for clicks), the
        pieces in the players' colours, a king with a gold ring and a crown letter K."""
        size, margin = 40, 4
        width = SIZE * size + 2 * margin
        box = f'width="{width}" height="{width}" viewBox="0 0 {width} {width}"'
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" {box}>']
        for row in range(SIZE):
            for col in range(SIZE):
                x, y = margin + col * size, margin + row * size
                square = _cell_square(row, col)
                fill = "#b58863" if square is not None else "#f0d9b5"
                where = f' data-row="{row}" data-col="{col}"' if square is not None else ""
                out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}"{where}/>')
                if square is None or self._owner[square] == -1:
                    continue
                owner, cx, cy = self._owner[square], x + size / 2, y + size / 2
                edge = "#f2efe6" if owner == 0 else "#222222"
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{size * 0.38}" fill="{PLAYER_COLOURS[owner]}" stroke="{edge}" '
                    'stroke-width="2" pointer-events="none"/>'
                )
                if self._kind[square] == KING:
                    out.append(
                        f'<circle cx="{cx}" cy="{cy}" r="{size * 0.26}" fill="none" stroke="#d4a017" stroke-width="3" '
                        'pointer-events="none"/>'
                    )
                    out.append(
                        f'<text x="{cx}" y="{cy}" font-size="{size * 0.3}" text-anchor="middle" '
                        f'dominant-baseline="central" fill="#d4a017" pointer-events="none">K</text>'
                    )
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def planes(self) -> np.ndarray:
        """Black's pieces, White's pieces and the kings, as three 0/1 planes."""
        kings = np.zeros((SIZE, SIZE), dtype=np.int8)
        for square in range(SQUARES):
            if self._kind[square] == KING:
                kings[square_cell(square)] = 1
        grid = self.board().cells
        return np.stack([grid == 1, grid == 2, kings], axis=-1).astype(np.int8)

    def to_text(self) -> str:
        """The board: ``b``/``w`` men, ``B``/``W`` kings, ``.`` empty dark squares, blanks for the light ones."""
        lines = []
        for row in range(SIZE):
            chars = []
            for col in range(SIZE):
                square = _cell_square(row, col)
                if square is None:
                    chars.append(" ")
                elif self._owner[square] == -1:
                    chars.append(".")
                else:
                    char = "bw"[self._owner[square]]
                    chars.append(char.upper() if self._kind[square] == KING else char)
            lines.append(" ".join(chars).rstrip())
        return "\n".join(lines)

    def evaluate(self) -> float:
        """For the player to move, in [-1, 1]: the material difference (a king 1.5 men) as a share of the material,
        plus a little for men's advance."""
        material, advance = [0.0, 0.0], [0, 0]
        for square in range(SQUARES):
            owner = self._owner[square]
            if owner == -1:
                continue
            material[owner] += 1.5 if self._kind[square] == KING else 1.0
            if self._kind[square] == MAN:
                row = square // 4
                advance[owner] += row if owner == 0 else 7 - row
        me = self._to_move
        value = (material[me] - material[1 - me]) / (material[0] + material[1])
        return max(-1.0, min(1.0, 0.9 * value + 0.1 * (advance[me] - advance[1 - me]) / 84))


def _is_jump(path: tuple[int, ...]) -> bool:
    return len(path) > 2 or STEP[path[0]].count(path[1]) == 0


def _fits(path: tuple[int, ...], squares: list[int]) -> bool:
    """True when ``path`` starts and ends on the first and last of ``squares`` and visits the others in order."""
    if path[0] != squares[0] or path[-1] != squares[-1]:
        return False
    inner = iter(path[1:-1])
    return all(any(s == p for p in inner) for s in squares[1:-1])


SPEC = GameSpec(
    name="draughts",
    summary="English draughts (checkers): forced multi-step captures, kings; moves such as 9-14 or 9x27",
    kind=GameKind.TURN_BASED,
    create=DraughtsGame.create,
    doc=__doc__ or "",
)
