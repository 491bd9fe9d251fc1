"""Position keys of a Connect Four board for its opening book: Pons' bitboards as Python ints or numpy arrays.

The operations on Python ints are `gridgames_connect4.position.geometry.Geometry`'s, the layout every Connect Four
module shares; `BookKeys` adds the same operations on numpy arrays (a book's keys all at once) and a book's rules.

A key is Pons' ``position + mask`` bitboard (the layout of `Geometry`, ``position`` the stones of the
side to move): unique per position; a book stores the canonical key, the smaller of a key and its mirror
image's. `BookKeys` holds the rules by which books score positions and their children (`BookKeys.child_scores`,
`BookKeys.quick_score`). It imports neither attrs nor numpy: the int paths serve a fresh process's quick answer
(`gridgames_connect4.surfaces.quick`), the array paths import numpy when called.
"""

from __future__ import annotations

import operator

from gridgames.errors import IllegalMoveError, InvalidMoveError

from gridgames_connect4.solve.book_file import BookError
from gridgames_connect4.position.geometry import Geometry

# (typing's import is a few milliseconds of a fresh process; mypy reads the name as usual)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    import numpy as np

__all__ = ["FULL", "UNKNOWN", "BookKeys"]

FULL = -(1 << 20)
"""`BookKeys.child_scores` for a column that is full."""
UNKNOWN = 1 << 20
"""A score that is not known: not settled by the quick check, or without an entry."""


class BookKeys:
    """Position keys of a width x height board (Pons' layout, as `geometry.Geometry`), vectorised: Python ints or
    numpy uint64 arrays. Immutable; equal when the boards are."""

    __slots__ = ("board", "bottom", "connect", "geometry", "height", "width")

    width: int
    height: int
    connect: int
    bottom: int
    """The bottom cell of every column."""
    board: int
    """Every cell of the board (not the guard bits)."""
    geometry: Geometry
    """The board's bit layout, whose operations on Python ints these are."""

    def __init__(self, width: int, height: int, connect: int) -> None:
        geometry = Geometry.of(width, height, connect)
        for name, value in (
            ("width", width),
            ("height", height),
            ("connect", connect),
            ("bottom", geometry.bottom),
            ("board", geometry.board),
            ("geometry", geometry),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"BookKeys is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BookKeys):
            return NotImplemented
        return (self.width, self.height, self.connect) == (other.width, other.height, other.connect)

    def __hash__(self) -> int:
        return hash((BookKeys, self.width, self.height, self.connect))

    def __reduce__(self) -> tuple[type[BookKeys], tuple[int, int, int]]:
        return (BookKeys, (self.width, self.height, self.connect))

    def __repr__(self) -> str:
        return f"BookKeys(width={self.width}, height={self.height}, connect={self.connect})"

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.width * self.height

    def column_mask(self, column: int) -> int:
        """The cells of one column."""
        return self.geometry.columns[column]

    def wins(self, p: Any, mask: Any) -> Any:
        """Empty cells where the stones ``p`` would complete a line (any connect length)."""
        if isinstance(p, int):
            return self.geometry.winning_cells(p, mask)
        import numpy as np

        h, k = self.height, self.connect
        ones = np.uint64(~np.uint64(0)) if isinstance(p, np.ndarray | np.integer) else (1 << 64) - 1
        sh = (lambda x: np.uint64(x)) if isinstance(p, np.ndarray | np.integer) else int
        r = p << sh(1)
        for i in range(2, k):
            r &= p << sh(i)
        for s in (h, h + 1, h + 2):
            left = ones
            for a in range(k):
                if a > 0:
                    left &= p << sh(s * a)
                right = ones
                for b in range(1, k - a):
                    right &= p >> sh(s * b)
                r |= left & right
        return r & (sh(self.board) ^ mask)

    def mirror(self, key: Any) -> Any:
        """The key (or bitboard) of the mirror image: column c becomes column width - 1 - c."""
        if isinstance(key, int):
            return self.geometry.mirror(key)
        import numpy as np

        sh, stride = np.uint64, self.geometry.stride
        column = sh((1 << stride) - 1)
        mirrored = key & sh(0)
        for c in range(self.width):
            src, dst = c * stride, (self.width - 1 - c) * stride
            mirrored |= ((key >> sh(src)) & column) << sh(dst)
        return mirrored

    def canonical(self, key: Any) -> Any:
        """The smaller of a key and its mirror image's: one key for a position and its mirror."""
        other = self.mirror(key)
        if isinstance(key, int):
            return min(key, other)
        import numpy as np

        return np.minimum(key, other) if isinstance(key, np.ndarray) else min(key, other)

    def replay(self, moves: Sequence[int]) -> tuple[int, int, bool]:
        """(stones of the side to move, all stones, whether a line is complete) after 0-based columns."""
        p = mask = 0
        over = False
        for i, column in enumerate(moves):
            if not _is_column(column, self.width):
                raise InvalidMoveError(f"move {i + 1}: column {column!r} is out of range 0..{self.width - 1}")
            if over:
                raise IllegalMoveError(f"move {i + 1}: the game is already won")
            cell = self.geometry.drop(mask, int(column))
            if not cell:
                raise IllegalMoveError(f"move {i + 1}: column {column} is full")
            # before that the mover has fewer than connect - 1 discs: no line
            if i >= 2 * self.connect - 2:
                over = bool(self.wins(p, mask) & cell)
            p, mask = p ^ mask, mask | cell
        return p, mask, over

    def quick_score(self, p: int, mask: int, n: int) -> int | None:
        """The score when the side to move wins at once or must lose next move; None otherwise (a book's business)."""
        p, mask = int(p), int(mask)
        # as `quick_scores`: a win at once comes first
        if self.wins(p, mask) & self.geometry.playable(mask):
            return (self.cells + 1 - n) // 2
        if not self.non_losing(p, mask):
            return -((self.cells - n) // 2)
        return None

    def quick_scores(self, p: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
        """`quick_score` of positions at ply ``n``, an int64 array: UNKNOWN where the quick check leaves them open."""
        import numpy as np

        u = np.uint64
        out = np.full(p.shape[0], UNKNOWN, dtype=np.int64)
        out[self.non_losing(p, mask) == u(0)] = -((self.cells - n) // 2)
        out[(self.wins(p, mask) & self.geometry.playable(mask)) != u(0)] = (self.cells + 1 - n) // 2
        return out

    def child_scores(
        self, p: np.ndarray, mask: np.ndarray, n: int, lookup: Callable[[np.ndarray], np.ndarray]
    ) -> np.ndarray:
        """Each column's score for positions at ply ``n`` (uint64 arrays), as an int64 array of len(p) x width.

        A column is FULL, or a move that wins, or fills the board (0), or leads to a child that `quick_scores`
        settles; the other children's scores come from ``lookup`` (canonical keys to scores, UNKNOWN where it has
        none). The one rule by which books score children: `Book.column_scores` and the book builder both use it.
        """
        import numpy as np

        u = np.uint64
        out = np.full((p.shape[0], self.width), FULL, dtype=np.int64)
        # the cell each column's move fills, or 0
        cell = np.stack([self.geometry.drop(mask, c) for c in range(self.width)], axis=1).reshape(-1, self.width)
        legal = cell != u(0)
        won = legal & ((self.wins(p, mask)[:, None] & cell) != u(0))
        out[won] = (self.cells + 1 - n) // 2
        rows, cols = np.nonzero(legal & ~won)
        if n + 1 == self.cells:
            out[rows, cols] = 0
        elif rows.shape[0]:
            cp, cm = (p ^ mask)[rows], mask[rows] | cell[rows, cols]
            child = self.quick_scores(cp, cm, n + 1)
            look = np.flatnonzero(child == UNKNOWN)
            if look.shape[0]:
                child[look] = lookup(self.canonical(cp[look] + cm[look]))
            out[rows, cols] = np.where(child == UNKNOWN, UNKNOWN, -child)
        return out

    def child_scores_of(self, p: int, mask: int, n: int, lookup: Callable[[int], int | None]) -> list[int]:
        """`child_scores` of one position given as Python ints, with ``lookup`` taking one canonical key (None: no
        entry).

        The same rule without numpy (a book's answer in a fresh process needs none): FULL, UNKNOWN and scores as there.
        """
        geometry, cells = self.geometry, self.cells
        wins = geometry.winning_cells(p, mask)
        out = []
        for c in range(self.width):
            cell = geometry.drop(mask, c)
            if not cell:
                out.append(FULL)
            elif wins & cell:
                out.append((cells + 1 - n) // 2)
            elif n + 1 == cells:
                out.append(0)
            else:
                cp, cm = p ^ mask, mask | cell
                child = self.quick_score(cp, cm, n + 1)
                if child is None:
                    child = lookup(self.canonical(cp + cm))
                out.append(UNKNOWN if child is None else -child)
        return out

    def parent_bound_of(self, p: int, mask: int, lookup: Callable[[int], int | None]) -> int | None:
        """`parent_bounds` of one position given as Python ints (``lookup``: one canonical key to its score or None).

        The least score the position reaches by its parents' scores, None when ``lookup`` knows none of them.
        """
        last, best = p ^ mask, None
        for c in range(self.width):
            column = mask & self.column_mask(c)
            if not column:
                continue
            top = 1 << (column.bit_length() - 1)  # the column's top disc
            if last & top:
                parent = lookup(self.canonical((last ^ top) + (mask ^ top)))
                if parent is not None and (best is None or -parent > best):
                    best = -parent
        return best

    def parent_bounds(self, keys: np.ndarray, lookup: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Each position's least score by its parents' (``lookup``: canonical keys to scores), an int64 array.

        A parent (the position before the last disc, in any column whose top disc is the last mover's) scores at
        least minus each child's score, so a child scores at least minus its parent's. UNKNOWN where ``lookup``
        knows none of the parents (it returns UNKNOWN for them).
        """
        import numpy as np

        u, stride = np.uint64, self.geometry.stride
        p, mask = self.decode(keys)
        last = p ^ mask  # the stones of the side that played the last disc
        heights = self.heights(keys)
        best = np.full(keys.shape[0], -UNKNOWN, dtype=np.int64)
        for c in range(self.width):
            shift = np.maximum(heights[:, c] - 1, 0).astype(np.uint64) + u(c * stride)
            top = np.where(heights[:, c] > 0, u(1) << shift, u(0))  # each column's top disc
            rows = np.flatnonzero((last & top) != u(0))
            if not rows.shape[0]:
                continue
            parent = lookup(self.canonical((last[rows] ^ top[rows]) + (mask[rows] ^ top[rows])))
            known = parent != UNKNOWN
            best[rows[known]] = np.maximum(best[rows[known]], -parent[known])
        best[best == -UNKNOWN] = UNKNOWN
        return best

    def non_losing(self, p: Any, mask: Any) -> Any:
        """Playable cells that do not let the opponent win next move (0 when every move loses)."""
        if isinstance(p, int):
            return self.geometry.non_losing(p, mask)
        import numpy as np

        sh = (lambda x: np.uint64(x)) if isinstance(p, np.ndarray | np.integer) else int
        possible = self.geometry.playable(mask)
        threats = self.wins(p ^ mask, mask)
        forced = possible & threats
        several = (forced & (forced - sh(1))) != sh(0)
        chosen = np.where(forced != sh(0), forced, possible) if isinstance(p, np.ndarray) else (forced or possible)
        safe = chosen & ~(threats >> sh(1))
        return np.where(several, sh(0), safe) if isinstance(p, np.ndarray) else (0 if several else safe)

    def heights(self, keys: np.ndarray) -> np.ndarray:
        """How many stones each column of each key holds: an int64 array of len(keys) x width."""
        import numpy as np

        # a column's bits are its stones to move plus all its stones, 2**n - 1: n + 1 is the bit length of bits + 1
        u, stride = np.uint64, self.geometry.stride
        out = np.zeros((keys.shape[0], self.width), dtype=np.int64)
        for c in range(self.width):
            above = ((keys >> u(c * stride)) & u((1 << stride) - 1)) + u(1)
            for row in range(1, stride):
                out[:, c] += above >= u(1 << row)
        return out

    def decode(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The stones of the side to move and all stones of each key, as uint64 arrays (a key is their sum)."""
        import numpy as np

        u, stride = np.uint64, self.geometry.stride
        heights = self.heights(keys).astype(np.uint64)
        p = np.zeros(keys.shape[0], dtype=np.uint64)
        mask = np.zeros(keys.shape[0], dtype=np.uint64)
        for c in range(self.width):
            stones = (u(1) << heights[:, c]) - u(1)
            p |= (((keys >> u(c * stride)) & u((1 << stride) - 1)) - stones) << u(c * stride)
            mask |= stones << u(c * stride)
        return p, mask

    def moves_of_key(self, key: int) -> list[int]:
        """A move order (0-based columns) that reaches the position of a key; `BookError` if none exists."""
        stride = self.geometry.stride
        heights, mine = [], []
        for c in range(self.width):
            v = (key >> (c * stride)) & ((1 << stride) - 1)
            hc = (v + 1).bit_length() - 1
            if hc > self.height:
                raise BookError(f"key {key:#x} is not a position of a {self.width}x{self.height} board")
            heights.append(hc)
            mine.append(v - ((1 << hc) - 1))
        n = sum(heights)
        # colour[c][r]: the player (0 moves first) of the disc on row r of column c
        colour = [[(n % 2) if mine[c] >> r & 1 else 1 - n % 2 for r in range(heights[c])] for c in range(self.width)]
        failed: set[tuple[int, ...]] = set()
        order: list[int] = []
        level = [0] * self.width

        def search(i: int) -> bool:
            if i == n:
                return True
            if tuple(level) in failed:
                return False
            for c in range(self.width):
                if level[c] < heights[c] and colour[c][level[c]] == i % 2:
                    level[c] += 1
                    order.append(c)
                    if search(i + 1):
                        return True
                    order.pop()
                    level[c] -= 1
            failed.add(tuple(level))
            return False

        if not search(0):
            raise BookError(f"key {key:#x} is not a position reachable in play")
        return order


def _is_column(column: Any, width: int) -> bool:
    """True when ``column`` is a whole number (Python's or numpy's, not a bool) in 0..width - 1."""
    if isinstance(column, bool):
        return False
    try:
        return 0 <= operator.index(column) < width
    except TypeError:
        return False
