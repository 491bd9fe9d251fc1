"""Connect Four opening books: exact scores of every position up to a depth, in one validated file.

A book holds the strong score (Pons' convention, from the side to move's view) of every position
reachable in play within ``depth`` moves of the empty board, a position and its mirror image once. A
position has an entry exactly when it is not over (no line, board not full), the side to move cannot
win at once, and the side to move has a move that does not lose at once: the others are answered by
`BookKeys.quick_score` in microseconds, so `Book.score` says "not in book" (None) for them and
`Book.column_scores` scores such children itself.

File format, version 3 (little-endian; ``docs/connect4-book.md`` has the same description)::

    offset size  field
    0      8     magic b"GGC4BOOK"
    8      2     format version (3)
    10     1     key width in bytes K: the fewest whole bytes holding (height + 1) * width bits (7 on 7x6)
    11     1     width
    12     1     height
    13     1     connect (line length)
    14     1     depth (positions with at most this many discs)
    15     1     zero
    16     8     entry count N
    24     32    SHA-256 of the header's first 24 bytes followed by the (K + 1) * N bytes of entries
    56     8     zero
    64     K*N   keys, unsigned, K bytes each, strictly increasing
    64+K*N N     scores, signed bytes, scores[i] belongs to keys[i]

The checksum covers every byte that decides what the entries mean (the board, the line length, the
depth, the count), so a book whose header names another board is refused, never used. Versions 1
(K = 8 whatever the board) and 2 hashed the entries only: such a file is read only by
``gridgames connect4 book upgrade``, which checks sampled entries against the solver before it
writes the file again in version 3 (`upgrade_legacy`).
A key is Pons' ``position + mask`` bitboard (column c on bits c*(height+1) ..., ``position`` the stones
of the side to move): unique per position. The stored key is the canonical one, the smaller of the
key and its mirror image's key. The file has no timestamp: the same book is the same bytes.
"""

from __future__ import annotations

import bisect
import contextlib
import operator
import os
import struct
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.rules import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE
from gridgames.errors import GridGamesError, IllegalMoveError, InvalidMoveError

# numpy (and pathlib) are imported where used: a lookup in the shipped book needs neither (docs/startup.md)
if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

__all__ = [
    "BOOK_MAGIC",
    "FORMAT_VERSION",
    "FULL",
    "UNKNOWN",
    "Book",
    "BookError",
    "BookKeys",
    "default_book",
    "key_width",
    "read_book_file",
    "scores_of_keys",
]

BOOK_MAGIC = b"GGC4BOOK"
FORMAT_VERSION = 3
FIRST_VERIFIED_VERSION = 3
"""The first format version whose checksum covers the header (older files must be upgraded before use)."""
KEY_BYTES = 8
"""The widest key a book holds (boards of at most 64 bits)."""
HEADER = struct.Struct("<8sHBBBBBxQ32s8x")
HEADER_SIZE = HEADER.size  # 64
HEADER_FIELDS = 24
"""The header's first 24 bytes (magic to entry count): hashed with the entries from version 3 on."""
CHECKSUM_END = HEADER_FIELDS + 32
MAX_BOOK_BYTES = 1 << 31
"""No book is read that is larger than this (2 GiB; a depth-14 7x6 book would be about 37 MB)."""
FULL = -(1 << 20)
"""`BookKeys.child_scores` for a column that is full."""
UNKNOWN = 1 << 20
"""A score that is not known: not settled by the quick check, or without an entry."""


def scores_of_keys(keys: np.ndarray, scores: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The scores of the ``wanted`` keys in sorted ``keys`` (``scores[i]`` is keys[i]'s), UNKNOWN where absent."""
    import numpy as np

    out = np.full(wanted.shape[0], UNKNOWN, dtype=np.int64)
    if keys.shape[0]:
        i = np.minimum(np.searchsorted(keys, wanted), keys.shape[0] - 1)
        found = keys[i] == wanted
        out[found] = scores[i[found]]
    return out


class BookError(GridGamesError, ValueError):
    """An opening book file that is missing, truncated, corrupt, for another board, or a build that cannot go on."""


def read_book_file(path: str | os.PathLike[str], limit: int = MAX_BOOK_BYTES) -> bytes:
    """The bytes of a book file of at most ``limit`` bytes, through the project's bounded reader; `BookError`
    otherwise."""
    from gridgames.files import read_user_bytes  # (tempfile and shutil: not for a lookup in the shipped book)

    return read_user_bytes(path, what="book file", max_bytes=limit, error=BookError)


@attrs.frozen
class BookKeys:
    """Position keys of a width x height board (Pons' layout, as `heuristic.Geometry`), vectorised: Python ints or
    numpy uint64 arrays."""

    width: int
    height: int
    connect: int
    bottom: int = attrs.field(init=False, repr=False)
    """The bottom cell of every column."""
    board: int = attrs.field(init=False, repr=False)
    """Every cell of the board (not the guard bits)."""

    @bottom.default
    def _bottom(self) -> int:
        return sum(1 << (c * (self.height + 1)) for c in range(self.width))

    @board.default
    def _board(self) -> int:
        return self.bottom * ((1 << self.height) - 1)

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.width * self.height

    def column_mask(self, column: int) -> int:
        """The cells of one column."""
        return ((1 << self.height) - 1) << (column * (self.height + 1))

    def wins(self, p: Any, mask: Any) -> Any:
        """Empty cells where the stones ``p`` would complete a line (any connect length)."""
        if isinstance(p, int):
            return self._wins_of_ints(p, mask)
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

    def _wins_of_ints(self, p: int, mask: int) -> int:
        """`wins` of one position given as Python ints (no numpy: a lookup in a book needs none)."""
        h, k = self.height, self.connect
        if k == 4:  # the usual game, unrolled (Pons' formula): about 2 us instead of 10
            r = (p << 1) & (p << 2) & (p << 3)
            for s in (h, h + 1, h + 2):
                pair = (p << s) & (p << 2 * s)
                r |= pair & ((p << 3 * s) | (p >> s))
                pair = (p >> s) & (p >> 2 * s)
                r |= pair & ((p << s) | (p >> 3 * s))
            return r & (self.board ^ mask)
        r = p << 1
        for i in range(2, k):
            r &= p << i
        for s in (h, h + 1, h + 2):
            left = -1  # every bit set
            for a in range(k):
                if a > 0:
                    left &= p << (s * a)
                right = -1
                for b in range(1, k - a):
                    right &= p >> (s * b)
                r |= left & right
        return r & (self.board ^ mask)

    def mirror(self, key: Any) -> Any:
        """The key (or bitboard) of the mirror image: column c becomes column width - 1 - c."""
        if isinstance(key, int):
            h1, out = self.height + 1, 0
            full = (1 << h1) - 1
            for c in range(self.width):
                out |= ((key >> (c * h1)) & full) << ((self.width - 1 - c) * h1)
            return out
        import numpy as np

        sh = np.uint64
        column = sh((1 << (self.height + 1)) - 1)
        mirrored = key & sh(0)
        for c in range(self.width):
            src, dst = c * (self.height + 1), (self.width - 1 - c) * (self.height + 1)
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
            colmask = self.column_mask(int(column))
            cell = (mask + (1 << int(column) * (self.height + 1))) & colmask
            if not cell:
                raise IllegalMoveError(f"move {i + 1}: column {column} is full")
            if i >= 2 * self.connect - 2:  # before that the mover has fewer than connect - 1 discs: no line
                over = bool(self.wins(p, mask) & cell)
            p, mask = p ^ mask, mask | cell
        return p, mask, over

    def quick_score(self, p: int, mask: int, n: int) -> int | None:
        """The score when the side to move wins at once or must lose next move; None otherwise (a book's business)."""
        p, mask = int(p), int(mask)
        if self.wins(p, mask) & (mask + self.bottom) & self.board:  # as `quick_scores`: a win at once comes first
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
        out[(self.wins(p, mask) & (mask + u(self.bottom)) & u(self.board)) != u(0)] = (self.cells + 1 - n) // 2
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

        u, h1 = np.uint64, self.height + 1
        out = np.full((p.shape[0], self.width), FULL, dtype=np.int64)
        bottoms = np.array([1 << c * h1 for c in range(self.width)], dtype=np.uint64)
        columns = np.array([self.column_mask(c) for c in range(self.width)], dtype=np.uint64)
        cell = (mask[:, None] + bottoms[None, :]) & columns[None, :]  # the cell each column's move fills, or 0
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
        h1, cells = self.height + 1, self.cells
        wins = self.wins(p, mask)
        out = []
        for c in range(self.width):
            cell = (mask + (1 << c * h1)) & self.column_mask(c)
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

        u, h1 = np.uint64, self.height + 1
        p, mask = self.decode(keys)
        last = p ^ mask  # the stones of the side that played the last disc
        heights = self.heights(keys)
        best = np.full(keys.shape[0], -UNKNOWN, dtype=np.int64)
        for c in range(self.width):
            shift = np.maximum(heights[:, c] - 1, 0).astype(np.uint64) + u(c * h1)
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
            possible = (mask + self.bottom) & self.board
            threats = self.wins(p ^ mask, mask)
            forced = possible & threats
            if forced & (forced - 1):
                return 0
            return (forced or possible) & ~(threats >> 1)
        import numpy as np

        sh = (lambda x: np.uint64(x)) if isinstance(p, np.ndarray | np.integer) else int
        possible = (mask + sh(self.bottom)) & sh(self.board)
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
        u, h1 = np.uint64, self.height + 1
        out = np.zeros((keys.shape[0], self.width), dtype=np.int64)
        for c in range(self.width):
            above = ((keys >> u(c * h1)) & u((1 << h1) - 1)) + u(1)
            for row in range(1, h1):
                out[:, c] += above >= u(1 << row)
        return out

    def decode(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The stones of the side to move and all stones of each key, as uint64 arrays (a key is their sum)."""
        import numpy as np

        u, h1 = np.uint64, self.height + 1
        heights = self.heights(keys).astype(np.uint64)
        p = np.zeros(keys.shape[0], dtype=np.uint64)
        mask = np.zeros(keys.shape[0], dtype=np.uint64)
        for c in range(self.width):
            stones = (u(1) << heights[:, c]) - u(1)
            p |= (((keys >> u(c * h1)) & u((1 << h1) - 1)) - stones) << u(c * h1)
            mask |= stones << u(c * h1)
        return p, mask

    def moves_of_key(self, key: int) -> list[int]:
        """A move order (0-based columns) that reaches the position of a key; `BookError` if none exists."""
        h1 = self.height + 1
        heights, mine = [], []
        for c in range(self.width):
            v = (key >> (c * h1)) & ((1 << h1) - 1)
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


@attrs.frozen(eq=False)
class Book:
    """An opening book: sorted canonical keys and their exact scores, for one board; see the module docstring."""

    width: int
    height: int
    connect: int
    depth: int
    _keys: np.ndarray | None = attrs.field(repr=False)
    _scores: np.ndarray | None = attrs.field(repr=False)
    checksum: bytes = attrs.field(repr=False)
    """The SHA-256 the book's file stores (version 3: of the header's fields and the entries; 1-2: the entries)."""
    path: str | None = None
    version: int = FORMAT_VERSION
    """The format version of the file the book was read from (books made here are written in the current one)."""
    _entries: _Entries | None = attrs.field(default=None, kw_only=True, repr=False)
    """The entries as the file stores them, for single lookups (a book opened in place: its only copy, see `open`)."""
    geometry: BookKeys = attrs.field(init=False, repr=False)
    """The board's bitboard helper."""

    @geometry.default
    def _geometry(self) -> BookKeys:
        return BookKeys(self.width, self.height, self.connect)

    @property
    def keys(self) -> np.ndarray:
        """The sorted canonical keys, uint64 (a book opened in place reads and checks its whole file here, once)."""
        if self._keys is None:
            self._read_all()
        assert self._keys is not None
        return self._keys

    @property
    def scores(self) -> np.ndarray:
        """The scores, int8: ``scores[i]`` is ``keys[i]``'s."""
        if self._scores is None:
            self._read_all()
        assert self._scores is not None
        return self._scores

    def _read_all(self) -> None:
        """Check a book opened in place as `from_bytes` checks a file (checksum, order, scores) and keep its arrays."""
        assert self._entries is not None
        whole = Book.from_bytes(self._entries.whole(), source=repr(self.path) if self.path else "the book")
        object.__setattr__(self, "_keys", whole._keys)
        object.__setattr__(self, "_scores", whole._scores)

    def _lookup(self) -> _Entries:
        """The entries in the file's layout, for `score_of_key` (made from the arrays once for a book built here)."""
        if self._entries is None:
            key_bytes = key_width(self.width, self.height)
            object.__setattr__(
                self, "_entries", _Entries(_body(self.keys, self.scores, key_bytes), 0, len(self), key_bytes)
            )
        assert self._entries is not None
        return self._entries

    def __len__(self) -> int:
        return self._entries.count if self._keys is None and self._entries is not None else int(self.keys.shape[0])

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its arrays (a file mapping cannot be pickled): for worker processes."""
        return (
            Book,
            (
                self.width,
                self.height,
                self.connect,
                self.depth,
                self.keys,
                self.scores,
                self.checksum,
                self.path,
                self.version,
            ),
        )

    @property
    def file_size(self) -> int:
        """Bytes of the book's file in its format version."""
        return HEADER_SIZE + len(self) * (_file_key_bytes(self.version, self.width, self.height) + 1)

    @classmethod
    def from_entries(
        cls, width: int, height: int, connect: int, depth: int, keys: np.ndarray, scores: np.ndarray
    ) -> Book:
        """A book from canonical keys and scores in any order (sorted here; duplicate keys refused)."""
        import numpy as np

        _check_board(width, height, connect, depth, "a book")
        keys = np.asarray(keys, dtype="<u8")
        scores = np.asarray(scores, dtype=np.int8)
        if keys.shape != scores.shape or keys.ndim != 1:
            raise BookError(f"{keys.shape[0]} keys but {scores.shape[0]} scores")
        order = np.argsort(keys, kind="stable")
        keys, scores = keys[order], scores[order]
        if keys.shape[0] > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise BookError("a book cannot hold the same key twice")
        bits = (height + 1) * width
        if keys.shape[0] and bits < 64 and int(keys[-1]) >> bits:
            raise BookError(f"key {int(keys[-1]):#x} has more bits than a {width}x{height} board's {bits}")
        book = cls(width, height, connect, depth, keys, scores, b"")
        return attrs.evolve(book, checksum=HEADER.unpack_from(book.to_bytes())[-1])

    def shallower(self, depth: int) -> Book:
        """The entries of at most ``depth`` discs, as a book of that depth (the same book when it is no deeper)."""
        if not isinstance(depth, int) or depth < 0:
            raise BookError(f"a book's depth must be a whole number, not {depth!r}")
        if depth >= self.depth:
            return self
        keep = self.geometry.heights(self.keys).sum(axis=1) <= depth
        return Book.from_entries(self.width, self.height, self.connect, depth, self.keys[keep], self.scores[keep])

    def to_bytes(self) -> bytes:
        """The book file's bytes (header, keys, scores), in the current format version."""
        key_bytes = key_width(self.width, self.height)
        body = _body(self.keys, self.scores, key_bytes)
        fields = HEADER.pack(
            BOOK_MAGIC,
            FORMAT_VERSION,
            key_bytes,
            self.width,
            self.height,
            self.connect,
            self.depth,
            len(self),
            bytes(32),
        )[:HEADER_FIELDS]
        import hashlib

        hasher = hashlib.sha256(fields)  # hashed here: a book read from an older file holds that file's digest
        hasher.update(body)
        digest = hasher.digest()
        return fields + digest + bytes(HEADER_SIZE - CHECKSUM_END) + body

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the book atomically (temporary file, fsync, rename) and return the path."""
        from pathlib import Path

        return write_atomically(Path(path), self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "the book", legacy: bool = False) -> Book:
        """A book from a file's bytes, every byte checked; `BookError` naming ``source`` and what is wrong.

        A file of format 1 or 2 (whose checksum does not cover the header) is refused unless ``legacy``
        (`upgrade_legacy` reads it so, and checks its entries against the solver before trusting it).
        """
        import hashlib

        import numpy as np

        version, key_bytes, width, height, connect, depth, count, checksum = _header(data, source, legacy)
        body = memoryview(data)[HEADER_SIZE:]
        if version >= FIRST_VERIFIED_VERSION:
            hasher = hashlib.sha256(data[:HEADER_FIELDS])
            hasher.update(body)  # no copy of the entries
            digest = hasher.digest()
        else:
            digest = hashlib.sha256(body).digest()
        if digest != checksum:
            raise BookError(f"{source} is corrupt: its header and entries do not match the header's checksum")
        keys = _read_keys(data, count, key_bytes)
        scores = np.frombuffer(data, dtype=np.int8, count=count, offset=HEADER_SIZE + key_bytes * count)
        if count > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise BookError(f"{source} is corrupt: its keys are not strictly increasing")
        limit = (width * height + 1) // 2
        if count and int(np.abs(scores.astype(np.int16)).max()) > limit:
            raise BookError(f"{source} is corrupt: a score lies outside -{limit}..{limit}")
        return cls(
            width,
            height,
            connect,
            depth,
            keys,
            scores,
            checksum,
            version=version,
            entries=_Entries(data, HEADER_SIZE, count, key_bytes),
        )

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        width: int | None = None,
        height: int | None = None,
        connect: int | None = None,
    ) -> Book:
        """A book file read in place: the header is checked now, the entries at the first use of the whole book.

        Lookups of single positions (`score`, `column_scores`) before that read only the bytes they need (a few
        per probe), so a book's answer costs microseconds and neither a copy of the file nor memory; `keys` and
        `scores` (the solver, the book tools) read and check every byte as `load` does. For the book shipped in the
        package (`default_book`), whose bytes the tests check; `load` checks a file every time before any use.
        """
        name = repr(str(path))
        try:
            handle = open(path, "rb")  # kept open for the book's lookups (closed with the book)
        except OSError as error:
            raise BookError(f"cannot read the book file {name}: {error.strerror or error}") from None
        try:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(HEADER_SIZE)
        except OSError as error:
            handle.close()
            raise BookError(f"cannot read the book file {name}: {error.strerror or error}") from None
        version, key_bytes, w, h, c, depth, count, checksum = _header(_Sized(head, size), name, legacy=False)
        entries = _Entries(None, HEADER_SIZE, count, key_bytes, file=handle)
        book = cls(w, h, c, depth, None, None, checksum, str(path), version, entries=entries)
        _check_expected(book, name, width, height, connect)
        return book

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        width: int | None = None,
        height: int | None = None,
        connect: int | None = None,
    ) -> Book:
        """Read and validate a book file; with a board given, refuse a book for another board (`BookError`)."""
        name = repr(str(path))
        book = cls.from_bytes(read_book_file(path), source=name)
        book = attrs.evolve(book, path=str(path))
        _check_expected(book, name, width, height, connect)
        return book

    def score_of_key(self, key: int) -> int | None:
        """The score stored for a canonical key, None when it has no entry (a few microseconds, no numpy:
        `_Entries`)."""
        return self._lookup().score_of_key(int(key))

    def scores_of_keys(self, wanted: np.ndarray) -> np.ndarray:
        """The scores of many canonical keys at once (a uint64 array), an int64 array with UNKNOWN where absent."""
        return scores_of_keys(self.keys, self.scores, wanted)

    def score(self, moves: Sequence[int]) -> int | None:
        """The exact score after ``moves`` (0-based columns) from the side to move's view; None when not in the book."""
        if len(moves) > self.depth:
            return None
        geometry = self.geometry
        p, mask, over = geometry.replay(moves)
        if over:
            return None
        return self.score_of_key(geometry.canonical(p + mask))

    def column_scores(self, moves: Sequence[int]) -> list[int | None] | None:
        """Each column's score after ``moves`` (None: full) when the book or a quick check settles every child, else
        None."""
        geometry = self.geometry
        if len(moves) >= min(self.depth, geometry.cells):
            return None
        p, mask, over = geometry.replay(moves)
        if over:
            return None
        row = geometry.child_scores_of(p, mask, len(moves), self.score_of_key)  # `child_scores`' rule, one position
        if UNKNOWN in row:
            return None
        return [None if score == FULL else score for score in row]


def _header(data: Any, source: str, legacy: bool) -> tuple[int, int, int, int, int, int, int, bytes]:
    """A book file's header fields (version, key bytes, width, height, connect, depth, count, checksum), every one
    checked against the others and the file's length (`BookError` naming ``source``); the entries are not read."""
    if len(data) < HEADER_SIZE:
        raise BookError(f"{source} is truncated: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte header")
    magic, version, key_bytes, width, height, connect, depth, count, checksum = HEADER.unpack_from(data[:HEADER_SIZE])
    if magic != BOOK_MAGIC:
        raise BookError(f"{source} is not a gridgames Connect Four book (it does not start with {BOOK_MAGIC!r})")
    if version > FORMAT_VERSION:
        raise BookError(
            f"{source} was made by a newer gridgames (book format {version}; this one reads {FORMAT_VERSION})"
        )
    if version < 1:
        raise BookError(f"{source} has an impossible format version {version}")
    _check_board(width, height, connect, depth, source)
    wanted = _file_key_bytes(version, width, height)
    if key_bytes != wanted:
        raise BookError(
            f"{source} has {key_bytes}-byte keys; a version-{version} book of {width}x{height} has {wanted}-byte keys"
        )
    expected = HEADER_SIZE + count * (key_bytes + 1)
    if len(data) < expected:
        raise BookError(
            f"{source} is truncated: {len(data)} bytes, its header promises {count} entries ({expected} bytes)"
        )
    if len(data) > expected:
        raise BookError(f"{source} has {len(data) - expected} bytes after its {count} entries: not a valid book")
    if version < FIRST_VERIFIED_VERSION and not legacy:
        raise BookError(
            f"{source} is a book of format {version}, whose checksum does not cover its header; "
            f"check and convert it once with: gridgames connect4 book upgrade FILE"
        )
    if version >= FIRST_VERIFIED_VERSION and (data[15] != 0 or any(data[CHECKSUM_END:HEADER_SIZE])):
        raise BookError(f"{source} is corrupt: the header's reserved bytes are not zero")
    return version, key_bytes, width, height, connect, depth, count, checksum


class _Sized:
    """A file's first bytes standing for the whole file in `_header` (which reads the header and the length only)."""

    def __init__(self, head: bytes, size: int) -> None:
        self.head, self.size = head, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        return self.head[index]


def _check_expected(book: Book, name: str, width: int | None, height: int | None, connect: int | None) -> None:
    """Refuse a book for another board than the one given (`BookError`)."""
    expected = (width or book.width, height or book.height, connect or book.connect)
    if expected != (book.width, book.height, book.connect):
        raise BookError(
            f"{name} is a book for {book.width}x{book.height} with lines of {book.connect}, "
            f"not {expected[0]}x{expected[1]} with lines of {expected[2]}"
        )


class _Entries:
    """A book's entries as its file stores them (``count`` keys of ``key_bytes`` little-endian bytes from ``offset``,
    then one signed byte per score), looked up where they lie: in ``data`` (the file's bytes), or in an open
    ``file`` read a few bytes at a time with ``os.pread`` (a book opened in place: no copy of the file, nothing
    mapped into the process's memory).

    `score_of_key` bisects the keys, reading one key per probe; after `INDEX_AFTER` lookups (a long-lived
    process) it holds the bytes in memory and a list of every `STRIDE`-th key, bisected in C, and finds the key
    among the `STRIDE` keys after it with one ``bytes.find`` (no Python step per probe).
    """

    STRIDE = 64
    INDEX_AFTER = 256

    def __init__(self, data: Any, offset: int, count: int, key_bytes: int, file: Any = None) -> None:
        self.data, self.file = data, file
        self.offset, self.count, self.key_bytes = offset, count, key_bytes
        self.scores_at = offset + count * key_bytes
        self.index: list[int] | None = None
        self.lookups = 0

    def read(self, start: int, size: int) -> bytes:
        """``size`` bytes of the file from ``start``."""
        if self.data is not None:
            return bytes(self.data[start : start + size])
        if hasattr(os, "pread"):
            return os.pread(self.file.fileno(), size, start)
        self.file.seek(start)  # (no pread: Windows)
        return bytes(self.file.read(size))

    def _bisect(self, key: int) -> int:
        k, lo, hi = self.key_bytes, 0, self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            found = int.from_bytes(self.read(self.offset + mid * k, k), "little")
            if found < key:
                lo = mid + 1
            elif found > key:
                hi = mid
            else:
                return mid
        return -1

    def _make_index(self) -> list[int]:
        self.whole()
        k, data, at = self.key_bytes, self.data, self.offset
        step = self.STRIDE * k
        return [int.from_bytes(data[i : i + k], "little") for i in range(at, at + self.count * k, step)]

    def _position(self, key: int) -> int:
        """The entry index of ``key``, -1 when absent."""
        index = self.index
        if index is None:
            self.lookups += 1
            if self.lookups <= self.INDEX_AFTER:
                return self._bisect(key)
            self.index = index = self._make_index()
        block = bisect.bisect_right(index, key) - 1
        if block < 0 or key >> (8 * self.key_bytes):
            return -1
        k, data = self.key_bytes, self.data
        start = self.offset + block * self.STRIDE * k
        end = min(start + self.STRIDE * k, self.scores_at)
        needle = key.to_bytes(k, "little")
        at = data.find(needle, start, end)
        while at >= 0 and (at - self.offset) % k:  # a match across two keys: look further
            at = data.find(needle, at + 1, end)
        return -1 if at < 0 else (at - self.offset) // k

    def score_of_key(self, key: int) -> int | None:
        """The score stored for ``key``, None when it has no entry."""
        if key < 0 or not self.count:
            return None
        i = self._position(key)
        if i < 0:
            return None
        score = self.data[self.scores_at + i] if self.data is not None else self.read(self.scores_at + i, 1)[0]
        return score - 256 if score > 127 else score

    def whole(self) -> Any:
        """The file's bytes (read once from the file, for `Book.from_bytes`)."""
        if self.data is None:
            self.data = self.read(0, self.scores_at + self.count)
            self.close()
        return self.data

    def close(self) -> None:
        """Close the file (its bytes, once read, stay)."""
        if self.file is not None:
            self.file.close()
            self.file = None

    def __del__(self) -> None:
        self.close()


def _check_board(width: int, height: int, connect: int, depth: int, source: str) -> None:
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE and MIN_CONNECT <= connect <= MAX_CONNECT):
        raise BookError(f"{source} is for an impossible board: {width}x{height} with lines of {connect}")
    if (height + 1) * width > 8 * KEY_BYTES:
        raise BookError(f"{source} is for a {width}x{height} board, whose keys need more than {8 * KEY_BYTES} bits")
    if not 0 <= depth <= width * height:
        raise BookError(f"{source} has an impossible depth {depth} for a {width}x{height} board")


def _is_column(column: Any, width: int) -> bool:
    """True when ``column`` is a whole number (Python's or numpy's, not a bool) in 0..width - 1."""
    if isinstance(column, bool):
        return False
    try:
        return 0 <= operator.index(column) < width
    except TypeError:
        return False


def key_width(width: int, height: int) -> int:
    """Bytes per key in a book of the current format: the fewest that hold the board's (height + 1) * width bits."""
    return ((height + 1) * width + 7) // 8


def _file_key_bytes(version: int, width: int, height: int) -> int:
    """Bytes per key in a book file of that format version (version 1: always 8)."""
    return KEY_BYTES if version == 1 else key_width(width, height)


def _body(keys: np.ndarray, scores: np.ndarray, key_bytes: int) -> bytes:
    """The entries as a file stores them: keys of ``key_bytes`` little-endian bytes each, then the scores."""
    import numpy as np

    raw = keys.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :key_bytes]
    return raw.tobytes() + scores.astype(np.int8).tobytes()


def _read_keys(data: bytes, count: int, key_bytes: int) -> np.ndarray:
    """``count`` keys of ``key_bytes`` little-endian bytes each from the start of a book's body, as uint64.

    Each key is read as the 8-byte word at its offset (the bytes past a key belong to the next key or to the
    scores that follow the keys), and the bytes beyond the key are masked off.
    """
    import numpy as np

    if key_bytes == 8 or count == 0:
        return np.frombuffer(data, dtype="<u8", count=count, offset=HEADER_SIZE)
    need = count * key_bytes + 8 - key_bytes
    buffer, offset = data, HEADER_SIZE
    if len(data) - HEADER_SIZE < need:  # a small book with narrow keys: its scores end before the last key's 8 bytes
        buffer, offset = bytes(data[HEADER_SIZE : HEADER_SIZE + count * key_bytes]) + bytes(8), 0
    words = np.ndarray((count,), dtype="<u8", buffer=buffer, offset=offset, strides=(key_bytes,))  # unaligned words
    return words & np.uint64((1 << 8 * key_bytes) - 1)


def write_atomically(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync'ed, then renamed over it."""
    import tempfile
    from pathlib import Path

    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        with contextlib.suppress(OSError):  # make the rename durable where a folder can be opened
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as error:
        raise BookError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    return path


def book_name(width: int, height: int, connect: int) -> str:
    """The file name of a shipped book: book-7x6.bin (connect 4), book-7x6-c5.bin otherwise."""
    return f"book-{width}x{height}.bin" if connect == 4 else f"book-{width}x{height}-c{connect}.bin"


def _package_data() -> Any:
    """The folder of the package's data files (books): the directory beside this module, else importlib.resources'
    view."""
    here = os.path.join(os.path.dirname(__file__), "data")
    if os.path.isdir(here):
        return here
    from importlib import resources  # a package imported from a zip file, say

    return resources.files("gridgames_connect4").joinpath("data")


@lru_cache(maxsize=8)
def default_book(width: int = 7, height: int = 6, connect: int = 4) -> Book | None:
    """The book shipped in the package for this board (gridgames_connect4/data/), None when there is none.

    Opened in place (`Book.open`): a lookup reads only the pages it needs, and the whole file is read and
    checked when the whole book is first used (the solver's search, the book tools).
    """
    folder = _package_data()
    if isinstance(folder, str | os.PathLike):  # a folder on disk (the usual case)
        on_disk = os.path.join(folder, book_name(width, height, connect))
        return Book.open(on_disk, width=width, height=height, connect=connect) if os.path.isfile(on_disk) else None
    resource = folder.joinpath(book_name(width, height, connect))
    if not resource.is_file():
        return None
    from importlib import resources

    with resources.as_file(resource) as path:
        return Book.load(path, width=width, height=height, connect=connect)
