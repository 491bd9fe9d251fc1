"""Connect Four opening books: exact scores of every position up to a depth, in one validated file.

A book holds the strong score (Pons' convention, from the side to move's view) of every position
reachable in play within ``depth`` moves of the empty board, a position and its mirror image once. A
position has an entry exactly when it is not over (no line, board not full), the side to move cannot
win at once, and the side to move has a move that does not lose at once: the others are answered by
`BookKeys.quick_score` in microseconds, so `Book.score` says "not in book" (None) for them and
`Book.column_scores` scores such children itself.

The file format and single lookups in place: `gridgames_connect4.solve.book_file`; keys and the scoring rule:
`gridgames_connect4.solve.book_keys`. Both import neither attrs nor numpy (a fresh process's quick answer uses them
alone); this module's `Book` adds the arrays (numpy, imported where used) for the solver and the book tools.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.solve.book_file import (
    BOOK_MAGIC,
    CHECKSUM_END,
    FIRST_VERIFIED_VERSION,
    FORMAT_VERSION,
    HEADER,
    HEADER_FIELDS,
    HEADER_SIZE,
    KEY_BYTES,
    MAX_BOOK_BYTES,
    BookError,
    Entries,
    book_name,
    check_board,
    file_key_bytes,
    key_width,
    open_entries,
    read_book_file,
    read_header,
)
from gridgames_connect4.solve.book_file import package_data as _package_data
from gridgames_connect4.position.geometry import board_bits
from gridgames_connect4.solve.book_keys import FULL, UNKNOWN, BookKeys

# numpy (and pathlib) are imported where used: a lookup in the shipped book needs neither (docs/startup.md)
if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

__all__ = [
    "BOOK_MAGIC",
    "CHECKSUM_END",
    "FIRST_VERIFIED_VERSION",
    "FORMAT_VERSION",
    "FULL",
    "HEADER",
    "HEADER_FIELDS",
    "HEADER_SIZE",
    "KEY_BYTES",
    "MAX_BOOK_BYTES",
    "UNKNOWN",
    "Book",
    "BookError",
    "BookKeys",
    "book_name",
    "default_book",
    "key_width",
    "read_book_file",
    "scores_of_keys",
    "write_atomically",
]


def scores_of_keys(keys: np.ndarray, scores: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The scores of the ``wanted`` keys in sorted ``keys`` (``scores[i]`` is keys[i]'s), UNKNOWN where absent.

    The wanted keys are searched in increasing order (numpy's search then starts each from the last one's place,
    whose pages are in the cache): 3-6x fewer cache misses than in the order given, on 400-400,000 keys of the
    shipped book (bench/startup.py --lookups).
    """
    import numpy as np

    out = np.full(wanted.shape[0], UNKNOWN, dtype=np.int64)
    if keys.shape[0] and wanted.shape[0]:
        order = np.argsort(wanted, kind="stable")
        ordered = wanted[order]
        i = np.minimum(np.searchsorted(keys, ordered), keys.shape[0] - 1)
        found = keys[i] == ordered
        out[order[found]] = scores[i[found]]
    return out


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
    _entries: Entries | None = attrs.field(default=None, kw_only=True, repr=False)
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

    def _lookup(self) -> Entries:
        """The entries in the file's layout, for `score_of_key` (made from the arrays once for a book built here)."""
        if self._entries is None:
            key_bytes = key_width(self.width, self.height)
            object.__setattr__(
                self, "_entries", Entries(_body(self.keys, self.scores, key_bytes), 0, len(self), key_bytes)
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
        return HEADER_SIZE + len(self) * (file_key_bytes(self.version, self.width, self.height) + 1)

    @classmethod
    def from_entries(
        cls, width: int, height: int, connect: int, depth: int, keys: np.ndarray, scores: np.ndarray
    ) -> Book:
        """A book from canonical keys and scores in any order (sorted here; duplicate keys refused)."""
        import numpy as np

        check_board(width, height, connect, depth, "a book")
        keys = np.asarray(keys, dtype="<u8")
        scores = np.asarray(scores, dtype=np.int8)
        if keys.shape != scores.shape or keys.ndim != 1:
            raise BookError(f"{keys.shape[0]} keys but {scores.shape[0]} scores")
        order = np.argsort(keys, kind="stable")
        keys, scores = keys[order], scores[order]
        if keys.shape[0] > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise BookError("a book cannot hold the same key twice")
        bits = board_bits(width, height)
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

        # hashed here: a book read from an older file holds that file's digest
        hasher = hashlib.sha256(fields)
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

        version, key_bytes, width, height, connect, depth, count, checksum = read_header(data, source, legacy)
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
            entries=Entries(data, HEADER_SIZE, count, key_bytes),
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
        (version, _, w, h, c, depth, _, checksum), entries = open_entries(str(path))
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
        `Entries`)."""
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
        # `child_scores`' rule, one position
        row = geometry.child_scores_of(p, mask, len(moves), self.score_of_key)
        if UNKNOWN in row:
            return None
        return [None if score == FULL else score for score in row]


def _check_expected(book: Book, name: str, width: int | None, height: int | None, connect: int | None) -> None:
    """Refuse a book for another board than the one given (`BookError`)."""
    expected = (width or book.width, height or book.height, connect or book.connect)
    if expected != (book.width, book.height, book.connect):
        raise BookError(
            f"{name} is a book for {book.width}x{book.height} with lines of {book.connect}, "
            f"not {expected[0]}x{expected[1]} with lines of {expected[2]}"
        )


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
    # a small book with narrow keys: its scores end before the last key's 8 bytes
    if len(data) - HEADER_SIZE < need:
        buffer, offset = bytes(data[HEADER_SIZE : HEADER_SIZE + count * key_bytes]) + bytes(8), 0
    # unaligned words
    words = np.ndarray((count,), dtype="<u8", buffer=buffer, offset=offset, strides=(key_bytes,))
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
