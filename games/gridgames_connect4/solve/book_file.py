"""The opening book's file: its format, its header's checks, and lookups of single keys where the entries lie.

Nothing here imports attrs or numpy: a fresh process that answers from the shipped book
(`gridgames_connect4.surfaces.quick`) opens the file, checks its header and bisects its keys with a few reads
(docs/startup.md); `gridgames_connect4.solve.book.Book` builds on the same pieces.

File format, version 3 (little-endian; ``docs/connect4-book.md`` has the same description)::

    offset size  field
    0      8     magic b"GGC4BOOK"
    8      2     format version (3)
    10     1     key width in bytes K: the fewest whole bytes holding the bitboard (7 on 7x6)
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
A key is Pons' ``position + mask`` bitboard (`gridgames_connect4.position.geometry`; ``position`` the stones
of the side to move): unique per position. The stored key is the canonical one, the smaller of the
key and its mirror image's key. The file has no timestamp: the same book is the same bytes.
"""

from __future__ import annotations

import bisect
import os
import struct

from gridgames.errors import GridGamesError

from gridgames_connect4.position.geometry import board_bits, key_bytes
from gridgames_connect4.position.sizes import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE

# (typing's import is a few milliseconds of a fresh process; mypy reads the name as usual)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BOOK_MAGIC",
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "BookError",
    "Entries",
    "book_name",
    "check_board",
    "key_width",
    "open_entries",
    "package_data",
    "read_book_file",
    "read_header",
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


class BookError(GridGamesError, ValueError):
    """An opening book file that is missing, truncated, corrupt, for another board, or a build that cannot go on."""


def read_book_file(path: str | os.PathLike[str], limit: int = MAX_BOOK_BYTES) -> bytes:
    """The bytes of a book file of at most ``limit`` bytes, through the project's bounded reader; `BookError`
    otherwise."""
    # (tempfile and shutil: not for a lookup in the shipped book)
    from gridgames.files import read_user_bytes

    return read_user_bytes(path, what="book file", max_bytes=limit, error=BookError)


def read_header(data: Any, source: str, legacy: bool) -> tuple[int, int, int, int, int, int, int, bytes]:
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
    check_board(width, height, connect, depth, source)
    wanted = file_key_bytes(version, width, height)
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


class Entries:
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


def check_board(width: int, height: int, connect: int, depth: int, source: str) -> None:
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE and MIN_CONNECT <= connect <= MAX_CONNECT):
        raise BookError(f"{source} is for an impossible board: {width}x{height} with lines of {connect}")
    if board_bits(width, height) > 8 * KEY_BYTES:
        raise BookError(f"{source} is for a {width}x{height} board, whose keys need more than {8 * KEY_BYTES} bits")
    if not 0 <= depth <= width * height:
        raise BookError(f"{source} has an impossible depth {depth} for a {width}x{height} board")


def key_width(width: int, height: int) -> int:
    """Bytes per key in a book of the current format: the fewest that hold the board's bitboard (`key_bytes`)."""
    return key_bytes(width, height)


def file_key_bytes(version: int, width: int, height: int) -> int:
    """Bytes per key in a book file of that format version (version 1: always 8)."""
    return KEY_BYTES if version == 1 else key_width(width, height)


def book_name(width: int, height: int, connect: int) -> str:
    """The file name of a shipped book: book-7x6.bin (connect 4), book-7x6-c5.bin otherwise."""
    return f"book-{width}x{height}.bin" if connect == 4 else f"book-{width}x{height}-c{connect}.bin"


def package_data() -> Any:
    """The folder of the package's data files (books): ``gridgames_connect4/data``, else importlib.resources'
    view."""
    here = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")
    if os.path.isdir(here):
        return here
    from importlib import resources  # a package imported from a zip file, say

    return resources.files("gridgames_connect4").joinpath("data")


def open_entries(path: str) -> tuple[tuple[int, int, int, int, int, int, int, bytes], Entries]:
    """A book file opened in place: its header's fields (as `read_header`), checked against the file's length, and
    its `Entries` read from the open file (a few bytes a lookup); `BookError` when it cannot be read or is wrong."""
    name = repr(str(path))
    try:
        handle = open(path, "rb")  # kept open for the lookups (closed with the entries)
    except OSError as error:
        raise BookError(f"cannot read the book file {name}: {error.strerror or error}") from None
    try:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(HEADER_SIZE)
        fields = read_header(_Sized(head, size), name, legacy=False)
    except OSError as error:
        handle.close()
        raise BookError(f"cannot read the book file {name}: {error.strerror or error}") from None
    except BookError:
        handle.close()
        raise
    try:
        verify_once(handle.fileno(), head, fields, name)
    except BaseException:
        handle.close()
        raise
    return fields, Entries(None, HEADER_SIZE, fields[6], fields[1], file=handle)


VERIFIED_FILE = "verified-books"
"""The file under ``$XDG_CACHE_HOME/gridgames`` naming the book files whose checksum was checked, one a line."""
VERIFIED_KEEP = 64
"""The most book files `VERIFIED_FILE` remembers (the oldest are dropped)."""
_verified_here: set[str] = set()


def _identity(fd: int, checksum: bytes) -> str:
    """A book file's identity: its device, inode, size, modification and change times (the change time cannot be set
    back by anyone), and its stored checksum; a file changed in any way has another."""
    st = os.fstat(fd)
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{checksum.hex()}"


def _verified_path() -> str | None:
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = base if base and os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "gridgames", VERIFIED_FILE) if os.path.isabs(root) else None


def _remembered(path: str | None) -> list[str]:
    if path is None:
        return []
    try:
        with open(path, "rb") as handle:
            raw = handle.read(VERIFIED_KEEP * 200)
        return raw.decode("ascii").split()
    except (OSError, UnicodeDecodeError):
        return []


def _remember(path: str | None, known: list[str], identity: str) -> None:
    """Add ``identity`` to the file of verified books, atomically; a cache that cannot be written is no error."""
    if path is None:
        return
    lines = [*[k for k in known if k != identity], identity][-VERIFIED_KEEP:]
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="ascii") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def verify_once(fd: int, head: bytes, fields: tuple[int, int, int, int, int, int, int, bytes], name: str) -> None:
    """Check an opened book's SHA-256 against its header's, once per file: the result is remembered in this process and
    in `VERIFIED_FILE` by the file's identity (`_identity`), so a changed or replaced file is checked again; a
    mismatch is `BookError` (a damaged or edited book never answers). About 36 ms for the shipped 7.8 MB book, 0.04 ms
    remembered (bench/connect4_book_verify.py)."""
    identity = _identity(fd, fields[7])
    if identity in _verified_here:
        return
    where = _verified_path()
    known = _remembered(where)
    if identity in known:
        _verified_here.add(identity)
        return
    import hashlib

    hasher = hashlib.sha256(head[:HEADER_FIELDS])
    at, end = HEADER_SIZE, HEADER_SIZE + fields[6] * (fields[1] + 1)
    while at < end:
        chunk = os.pread(fd, min(1 << 20, end - at), at) if hasattr(os, "pread") else _read_at(fd, at, end)
        if not chunk:
            raise BookError(f"the book file {name} is truncated")
        hasher.update(chunk)
        at += len(chunk)
    if hasher.digest() != fields[7]:
        raise BookError(
            f"the book file {name} is corrupt: its header and entries do not match the header's checksum "
            "(reinstall gridgames, or --no-book)"
        )
    _verified_here.add(identity)
    _remember(where, known, identity)


def _read_at(fd: int, at: int, end: int) -> bytes:
    """Bytes from ``at`` (at most 1 MiB, to ``end``) without ``os.pread`` (Windows)."""
    os.lseek(fd, at, os.SEEK_SET)
    return os.read(fd, min(1 << 20, end - at))


def shipped_path(width: int, height: int, connect: int) -> str | None:
    """The path of the book shipped in the package for this board when it lies in a folder on disk, else None."""
    folder = package_data()
    if not isinstance(folder, str | os.PathLike):
        return None
    path = os.path.join(folder, book_name(width, height, connect))
    return path if os.path.isfile(path) else None
