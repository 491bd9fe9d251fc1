"""Connect Four notation: column numbers, move strings, cell names and board pictures.

* A move is a 1-based column number: ``"4"``.
* A game is a move string: the digit form ``"4453"`` (boards up to 9 wide) or the
  comma form ``"4,4,5,3"`` that works for every width (``"10,1"``); spaces may also
  separate moves.
* A cell is named like a chess square: the column letter (a, b, ...) and the row
  counted from the bottom (1, 2, ...): ``d1`` is the bottom cell of column 4.
* A picture has one line per row, top row first: ``X`` red (moves first), ``O``
  yellow, ``.`` empty. Only reachable positions parse back: discs rest on discs,
  red has as many discs as yellow or one more, at most one finished line.

Nothing here knows about `State`; `gridgames_connect4.position.rules` builds states from these.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridgames.errors import InvalidMoveError, NotationError
from gridgames.grid import EMPTY_CHAR, Cell, Direction, Grid
from gridgames.parsing import clip, parse_whole

from gridgames_connect4.position.sizes import line_words

SYMBOLS = "XO"
"""The picture characters of red (player 0) and yellow (player 1)."""
EMPTY_SYMBOL = "."
COLUMN_LETTERS = "abcdefghij"
ORDER_SEARCH_LIMIT = 200_000
"""How many partial orders the search for a legal move order behind a picture may try."""


class ColumnOutOfRangeError(InvalidMoveError):
    """A column number outside the board."""


def column_range_error(column: int, width: int) -> ColumnOutOfRangeError:
    """The error for a 1-based column number outside 1..width."""
    return ColumnOutOfRangeError(f"there is no column {column}: the columns are 1 to {width}")


# ---------------------------------------------------------------------------------------------
# Moves and move strings
# ---------------------------------------------------------------------------------------------
def parse_column(text: str, width: int) -> int:
    """The 0-based column of a 1-based column number's text ('4' -> 3)."""
    token = text.strip()
    if not token:
        raise NotationError("an empty move: type a column number")
    if not token.isdigit() or not token.isascii():
        raise NotationError(f"{token!r} is not a column number (1 to {width})")
    number = parse_whole(token, what="a column number")
    if not 1 <= number <= width:
        raise column_range_error(number, width)
    return number - 1


def format_column(move: int, width: int) -> str:
    """The 1-based text of a 0-based column (3 -> '4')."""
    if not 0 <= move < width:
        raise column_range_error(move + 1, width)
    return str(move + 1)


def split_moves(text: str, width: int) -> list[str]:
    """The move texts of a move string: '4453', '4,4,5,3' or '4 4 5 3' (every digit is a move up to width 9)."""
    text = text.strip()
    if not text:
        return []
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        if parts and parts[-1] == "":
            parts.pop()  # one trailing comma is harmless
        for i, part in enumerate(parts, start=1):
            if not part:
                raise NotationError(f"move {i} of {text!r} is empty (two commas in a row?)")
            if any(ch.isspace() for ch in part):
                raise NotationError(
                    f"move {i} of {clip(text)!r} ({clip(part)!r}) holds a space: separate moves with commas only"
                )
        return parts
    tokens = text.split()
    if width <= 9:
        return [ch for token in tokens for ch in token]
    for token in tokens:
        if token.isdigit() and len(token) > 1 and not 1 <= parse_whole(token, what="a column number") <= width:
            raise NotationError(
                f"{token!r} is not a column of a board {width} wide: separate moves with commas, e.g. '4,4,10,1'"
            )
    return tokens


def join_moves(moves: Sequence[int], width: int) -> str:
    """The move string of 0-based moves: digits ('4453') up to width 9, else the comma form ('4,4,10,1')."""
    texts = [format_column(m, width) for m in moves]
    return "".join(texts) if width <= 9 else ",".join(texts)


def cell_name(cell: Cell, height: int) -> str:
    """The name of a grid cell (row 0 at the top): column letter and row from the bottom, e.g. 'd1'."""
    row, col = cell
    return f"{COLUMN_LETTERS[col]}{height - row}"


# ---------------------------------------------------------------------------------------------
# Pictures
# ---------------------------------------------------------------------------------------------
def picture(grid: Grid) -> str:
    """The picture of a board whose cells hold 0 (empty), 1 (red) or 2 (yellow)."""
    return grid.to_text(alphabet=SYMBOLS)


def picture_of_rows(rows: list[list[int]]) -> str:
    """`picture` of a board given as rows of 0 (empty), 1 (red) or 2 (yellow), top row first (no Grid needed)."""
    chars = EMPTY_CHAR + SYMBOLS
    return "\n".join("".join(chars[value] for value in row) for row in rows)


def parse_picture(text: str) -> Grid:
    """The board (0 empty, 1 red, 2 yellow) of a picture; spaces and a line of column numbers are ignored."""
    rows: list[str] = []
    for line in text.splitlines():
        row = "".join(line.split())
        if not row or row.isdigit():
            continue  # blank lines and the column numbers under a board
        rows.append(row)
    if not rows:
        raise NotationError("the board picture is empty")
    codes = {EMPTY_SYMBOL: 0, "X": 1, "x": 1, "O": 2, "o": 2}
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            if ch not in codes:
                raise NotationError(
                    f"unexpected {ch!r} in row {r} (from the top), column {c} of the picture: use X (red), O (yellow), "
                    ". (empty)"
                )
        if len(row) != len(rows[0]):
            raise NotationError(f"row {r} of the picture has {len(row)} cells but row 1 has {len(rows[0])}")
    return Grid([[codes[ch] for ch in row] for row in rows])


def _lines(grid: Grid, value: int, connect: int) -> list[frozenset[Cell]]:
    """Every distinct maximal run of at least ``connect`` cells holding ``value``."""
    found: set[frozenset[Cell]] = set()
    for r in range(grid.height):
        for c in range(grid.width):
            if grid[r, c] != value:
                continue
            for direction in Direction:
                if grid.line_length((r, c), direction) >= connect:
                    found.add(frozenset(grid.line_cells((r, c), direction)))
    return sorted(found, key=sorted)


def move_order(grid: Grid, connect: int) -> list[int]:
    """A legal order of 0-based moves that reaches the picture's position; `NotationError` naming why none exists."""
    height, width = grid.height, grid.width
    columns: list[list[int]] = []  # each column's discs, bottom first: 0 red, 1 yellow
    for c in range(width):
        stack: list[int] = []
        for r in range(height - 1, -1, -1):
            value = grid[r, c]
            if value:
                if len(stack) != height - 1 - r:
                    raise NotationError(
                        f"column {c + 1} has a floating disc: row {height - r} from the bottom is filled but a row "
                        "below it is empty"
                    )
                stack.append(value - 1)
        columns.append(stack)
    reds = sum(col.count(0) for col in columns)
    yellows = sum(col.count(1) for col in columns)
    if reds not in (yellows, yellows + 1):
        raise NotationError(
            f"red has {reds} discs and yellow {yellows}: red moves first, so red has as many discs as yellow or one "
            "more"
        )
    red_lines, yellow_lines = _lines(grid, 1, connect), _lines(grid, 2, connect)
    words = line_words(connect)
    if red_lines and yellow_lines:
        raise NotationError(f"both red and yellow have {words}: the game ends at the first")
    if not red_lines and not yellow_lines:
        order = _alternating_order(columns)
        if order is None:
            raise NotationError(
                "no legal order of moves reaches this picture: the colours cannot alternate red, yellow, red, ..."
            )
        return order
    winner, lines = (0, red_lines) if red_lines else (1, yellow_lines)
    name = ("red", "yellow")[winner]
    if (reds == yellows + 1) != (winner == 0):
        raise NotationError(f"{name} has {words}, so {name} moved last, but red has {reds} discs and yellow {yellows}")
    candidates = []
    for c, col in enumerate(columns):
        if col and col[-1] == winner:  # a top disc of the winner: was it the last move?
            before = grid.copy()
            before.set((height - len(col), c), 0)
            if not _lines(before, winner + 1, connect):
                candidates.append(c)
    if not candidates:
        raise NotationError(
            f"no single last {name} disc completes every {name} line, so the game would have ended earlier"
        )
    for c in candidates:
        rest = [col[:-1] if k == c else col for k, col in enumerate(columns)]
        order = _alternating_order(rest)
        if order is not None:
            return order + [c]
    raise NotationError(
        "no legal order of moves reaches this picture: the colours cannot alternate red, yellow, red, ..."
    )


def _alternating_order(columns: list[list[int]]) -> list[int] | None:
    """Columns to play so each column fills bottom-up with its discs and colours alternate from red; None if
    impossible."""
    total = sum(len(col) for col in columns)
    heights = [0] * len(columns)
    order: list[int] = []
    dead: set[tuple[int, ...]] = set()
    tries = 0

    def follows_well(c: int) -> tuple[int, int]:
        # prefer a column whose next disc after this one has the other colour, then the longest left
        col, h = columns[c], heights[c]
        alternates = h + 1 < len(col) and col[h + 1] != col[h]
        return (0 if alternates else 1, -(len(col) - h))

    def search(n: int) -> bool:
        nonlocal tries
        if n == total:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        tries += 1
        if tries > ORDER_SEARCH_LIMIT:
            raise NotationError(
                f"gave up looking for a legal order of moves behind this picture after {ORDER_SEARCH_LIMIT} tries"
            )
        colour = n % 2
        playable = [c for c, col in enumerate(columns) if heights[c] < len(col) and col[heights[c]] == colour]
        for c in sorted(playable, key=follows_well):
            heights[c] += 1
            order.append(c)
            if search(n + 1):
                return True
            heights[c] -= 1
            order.pop()
        dead.add(key)
        return False

    return order if search(0) else None
