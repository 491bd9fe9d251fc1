"""Go: surround territory and capture stones; the larger area, komi added, wins.

Rules
    The board has ``size`` x ``size`` points (9 x 9 by default; 5 to 19:
    ``gridgames play go --size 13``). Black moves first. A move puts a stone of the
    mover's colour on an empty point, or passes: the pass is legal at every turn
    (`Game.pass_always_legal`). A group (stones of one colour joined along the lines)
    with no empty neighbouring point left is captured and removed, the opponent's first:
    a move that would leave its own group without liberties and captures nothing
    (suicide) is illegal. Simple ko: a move may not retake one stone at once where the
    opponent's last move took exactly one stone with a single stone (the position would
    repeat); positional superko is not enforced.

End and scoring
    The game ends when both players pass in a row. Area scoring (Chinese rules): each
    player's stones on the board plus the empty regions that touch only their stones;
    White adds ``komi`` (7.5 by default, so there are no draws). Dead stones are not
    removed by agreement: play them out (capture them) before passing. So that every
    game has an end (`GameInfo.max_game_length`), a game also ends, scored the same
    way, after ``4 * size * size`` moves: a house rule that real games never reach.

Actions
    ``row * size + column`` (row 0 at the top) puts a stone on that point; the last
    action, ``size * size``, is the pass (`Game.pass_move`).

Notation
    A point is its column letter (``A`` to ``T`` without ``I``, as Go writes them) and
    its row number counted from the bottom: ``A1`` is the bottom-left corner and the
    centre of 9 x 9 is ``E5``. A pass is ``pass``. Letters may be typed in either case.

Outcome
    The outcome's scores are the areas (Black's, White's with komi): the result line
    reads ``Black wins 45-36.5: both players passed``.

Computer player
    The game provides an evaluation (the area difference, as scored at the end), so
    ``ai`` plays it with the generic negamax search.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import PASS_TEXT, Game, GameInfo, GameKind, GameSpec, Move, Option, Outcome, State, Termination
from gridgames.grid import Grid

__all__ = ["GoGame", "GoState", "SPEC", "column_letters"]

PLAYER_NAMES = ("Black", "White")
PLAYER_COLOURS = ("#111111", "#f5f5f5")
STONES = ".XO"  # the picture characters of an empty point, Black and White
MIN_SIZE, MAX_SIZE = 5, 19
_POINT = re.compile(r"^\s*([a-zA-Z])\s*(\d+)\s*$")


def column_letters(size: int) -> str:
    """The column letters of a board, ``I`` left out as Go does: ``ABCDEFGHJ`` on 9 x 9."""
    return "ABCDEFGHJKLMNOPQRST"[:size]


@attrs.frozen
class GoGame(Game):
    """The rules of Go on a size x size board with ``komi`` points added to White's area."""

    size: int = 9
    komi: float = 7.5
    _neighbours: tuple[tuple[int, ...], ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.size, int) or isinstance(self.size, bool) or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise OptionError(f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {self.size!r}")
        if isinstance(self.komi, bool) or not isinstance(self.komi, (int, float)) or not -100 <= self.komi <= 100:
            raise OptionError(f"komi must be a number from -100 to 100, got {self.komi!r}")
        n = self.size
        neighbours = []
        for p in range(n * n):
            r, c = divmod(p, n)
            near = [
                (r + dr) * n + c + dc
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < n and 0 <= c + dc < n
            ]
            neighbours.append(tuple(near))
        object.__setattr__(self, "_neighbours", tuple(neighbours))

    @classmethod
    def create(cls, size: int = 9, komi: float = 7.5) -> GoGame:
        """Go on a size x size board (9 x 9 by default) with ``komi`` for White (7.5 by default)."""
        return cls(size, float(komi))

    @property
    def info(self) -> GameInfo:
        """Two players, one action per point and the pass."""
        points = self.size * self.size
        return GameInfo(num_players=2, num_actions=points + 1, player_names=PLAYER_NAMES, max_game_length=4 * points)

    @property
    def pass_move(self) -> Move:
        """The last action, ``size * size``."""
        return self.size * self.size

    @property
    def pass_always_legal(self) -> bool:
        """A player may pass at any turn."""
        return True

    def player_colours(self) -> tuple[str, ...]:
        """Black's stones are black, White's white."""
        return PLAYER_COLOURS

    def neighbours(self, point: int) -> tuple[int, ...]:
        """The points next to ``point`` along the lines."""
        return self._neighbours[point]

    def new_state(self) -> GoState:
        """The empty board, Black to move."""
        return GoState(self)

    def parse_move(self, text: str) -> Move:
        """The move of a point such as ``E5`` (column letter without I, row number from the bottom), or ``pass``."""
        if text.strip().lower() == PASS_TEXT:
            return self.pass_move
        match = _POINT.match(text)
        letters = column_letters(self.size)
        if match is None:
            raise NotationError(f"a move is a column letter and a row number, such as 'E5', or 'pass', not {text!r}")
        letter = match.group(1).upper()
        row = self.size - int(match.group(2))
        if letter not in letters or not 0 <= row < self.size:
            raise NotationError(
                f"{text.strip()!r} is off the board (columns {letters[0]}-{letters[-1]} without I, rows 1-{self.size})"
            )
        return row * self.size + letters.index(letter)

    def format_move(self, move: Move) -> str:
        """The point of a move, such as ``E5``, or ``pass``."""
        if move == self.pass_move:
            return PASS_TEXT
        if not 0 <= move < self.size * self.size:
            raise NotationError(f"move {move} is outside 0..{self.size * self.size}")
        row, column = divmod(move, self.size)
        return f"{column_letters(self.size)[column]}{self.size - row}"


@attrs.frozen
class _Step:
    """What undo needs of one move: the move, the stones it captured, and the ko point and pass count before it."""

    move: Move
    captured: tuple[int, ...]
    ko: int
    passes: int


class GoState(State):
    """A position of Go: the points (0 empty, 1 Black, 2 White), the side to move, the ko point and the passes."""

    def __init__(self, game: GoGame) -> None:
        self.game: GoGame = game
        self._points = [0] * (game.size * game.size)
        self._to_move = 0
        self._ko = -1  # the point the side to move may not play (simple ko), or -1
        self._passes = 0  # passes in a row just before now
        self._steps: list[_Step] = []
        self._outcome: Outcome | None = None
        self._legal: list[Move] | None = None

    @property
    def current_player(self) -> int:
        """0 (Black) or 1 (White)."""
        return self._to_move

    def group(self, point: int) -> tuple[set[int], set[int]]:
        """The stones of the group on ``point`` and its liberties (the empty points next to it)."""
        colour = self._points[point]
        stones, liberties, todo = {point}, set(), [point]
        while todo:
            for near in self.game.neighbours(todo.pop()):
                value = self._points[near]
                if value == 0:
                    liberties.add(near)
                elif value == colour and near not in stones:
                    stones.add(near)
                    todo.append(near)
        return stones, liberties

    def _is_legal_point(self, point: int) -> bool:
        """True when the side to move may put a stone on ``point`` (empty, not the ko point, not suicide)."""
        if self._points[point] != 0 or point == self._ko:
            return False
        mine = self._to_move + 1
        for near in self.game.neighbours(point):
            value = self._points[near]
            if value == 0:
                return True
            liberties = self.group(near)[1]
            if value == mine and len(liberties) > 1:
                return True  # joins a group that keeps a liberty
            if value != mine and liberties == {point}:
                return True  # captures
        return False

    def legal_moves(self) -> Iterator[Move]:
        """The points where a stone may go, then the pass; none once the game is over."""
        if self._outcome is not None:
            return iter(())
        if self._legal is None:
            self._legal = [p for p in range(len(self._points)) if self._is_legal_point(p)]
            self._legal.append(self.game.pass_move)
        return iter(self._legal)

    def is_legal(self, move: Move) -> bool:
        """True for a point where a stone may go, or the pass, while the game goes on."""
        if self._outcome is not None or not isinstance(move, (int, np.integer)) or isinstance(move, bool):
            return False
        if move == self.game.pass_move:
            return True
        return 0 <= move < self.game.pass_move and self._is_legal_point(int(move))

    def play(self, move: Move) -> None:
        """Put a stone and take the opponent's groups left without liberties (or pass); two passes end the game."""
        self.check_playable(move)
        move = int(move)
        step_ko, step_passes = self._ko, self._passes
        captured: list[int] = []
        self._ko = -1
        if move == self.game.pass_move:
            self._passes += 1
        else:
            self._passes = 0
            mine = self._to_move + 1
            self._points[move] = mine
            for near in self.game.neighbours(move):
                if self._points[near] not in (0, mine):
                    stones, liberties = self.group(near)
                    if not liberties:
                        captured.extend(stones)
                        for stone in stones:
                            self._points[stone] = 0
            if len(captured) == 1:
                stones, liberties = self.group(move)
                if len(stones) == 1 and liberties == {captured[0]}:
                    self._ko = captured[0]  # retaking at once would repeat the position
        self._steps.append(_Step(move, tuple(captured), step_ko, step_passes))
        self._to_move = 1 - self._to_move
        self._legal = None
        self._settle()

    def _settle(self) -> None:
        """The outcome after two passes in a row or at the move limit, else None."""
        self._outcome = None
        if self._passes >= 2:
            self._outcome = self._final("both players passed")
        elif (limit := self.game.info.max_game_length) is not None and len(self._steps) >= limit:
            self._outcome = self._final(f"the move limit of {limit} was reached")

    def areas(self) -> tuple[int, int]:
        """Black's and White's area: stones plus the empty regions that touch only that player's stones."""
        area = [0, 0, 0]
        seen: set[int] = set()
        for point, value in enumerate(self._points):
            if value:
                area[value] += 1
            elif point not in seen:
                region, borders, todo = {point}, set(), [point]
                while todo:
                    for near in self.game.neighbours(todo.pop()):
                        near_value = self._points[near]
                        if near_value:
                            borders.add(near_value)
                        elif near not in region:
                            region.add(near)
                            todo.append(near)
                seen |= region
                if len(borders) == 1:
                    area[borders.pop()] += len(region)
        return area[1], area[2]

    def scores(self) -> tuple[float, float]:
        """Black's area and White's area plus komi."""
        black, white = self.areas()
        return float(black), white + self.game.komi

    def _final(self, reason: str) -> Outcome:
        black, white = self.scores()
        winner = None if black == white else (0 if black > white else 1)
        return Outcome(winner, reason, termination=Termination.RULE, scores=(black, white))

    def undo(self) -> Move:
        """Take back the last move (or pass), putting captured stones back."""
        if not self._steps:
            raise IllegalMoveError("there is no move to undo")
        step = self._steps.pop()
        self._to_move = 1 - self._to_move
        if step.move != self.game.pass_move:
            self._points[step.move] = 0
            for stone in step.captured:
                self._points[stone] = 2 - self._to_move  # the opponent's colour: 1 + (1 - mover)
        self._ko, self._passes = step.ko, step.passes
        self._legal = None
        self._outcome = None
        return step.move

    @property
    def outcome(self) -> Outcome | None:
        """The areas once both players passed (or at the move limit), else None."""
        return self._outcome

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far (passes included)."""
        return tuple(step.move for step in self._steps)

    @property
    def ko_point(self) -> int | None:
        """The point the side to move may not play now because of ko, or None."""
        return None if self._ko < 0 else self._ko

    def copy(self) -> GoState:
        """An independent copy."""
        other = GoState.__new__(GoState)
        other.game = self.game
        other._points = list(self._points)
        other._to_move = self._to_move
        other._ko = self._ko
        other._passes = self._passes
        other._steps = list(self._steps)
        other._outcome = self._outcome
        other._legal = None
        return other

    def board(self) -> Grid:
        """The board as a `Grid`: 1 for Black's stones, 2 for White's, 0 empty."""
        n = self.game.size
        return Grid(np.array(self._points, dtype=np.int32).reshape(n, n))

    def to_text(self) -> str:
        """The board with row numbers on the left (1 at the bottom) and column letters below (X Black, O White)."""
        n = self.game.size
        digits = len(str(n))
        lines = [
            f"{n - r:>{digits}} {' '.join(STONES[v] for v in self._points[r * n : (r + 1) * n])}" for r in range(n)
        ]
        lines.append(f"{'':>{digits}} {' '.join(column_letters(n))}")
        return "\n".join(lines)

    def evaluate(self) -> float:
        """For the player to move, in [-1, 1]: the area difference (komi included) as a share of the board."""
        black, white = self.scores()
        difference = (black - white) / len(self._points)
        return max(-1.0, min(1.0, difference if self._to_move == 0 else -difference))


SPEC = GameSpec(
    name="go",
    summary="Go: captures, simple ko, passes at any turn, area scoring with komi (boards 5x5 to 19x19, 9x9 default)",
    kind=GameKind.TURN_BASED,
    create=GoGame.create,
    options=(
        Option("size", int, 9, "points per side (5-19)"),
        Option("komi", float, 7.5, "points added to White's area"),
    ),
    doc=__doc__ or "",
)
