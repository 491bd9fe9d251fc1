"""Building an opening book: list every position up to a depth, solve them in parts, checkpoint, write the book.

    report = build_book(7, 6, 4, depth=6, out="book.bin", jobs=2, on_progress=callback)

The positions (`enumerate_entries`) are every position reachable in play with at most ``depth`` discs,
a position and its mirror image once, that gets a book entry (see `gridgames_connect4.solve.book`). They are
ordered deepest first (ties by key). Only the deepest ply is searched: it is cut into parts (`plan_parts`:
at most ``part_size`` positions), a plan that depends only on the board and the depth. Every shallower
entry's score then follows from its children's (`derive_scores`: each child is an entry one ply deeper
or settled by a quick check), which costs a fraction of a second where solving the shallow plies
(the most expensive positions: on 7x6 about 7 s at ply 4 against 0.6 s at ply 8) cost most of a build.
The parts are solved exactly through `gridgames.search.parallel.run_parts`
(this process, local processes or a Dask cluster; one `Solver` per worker, kept between parts), in rounds
small enough that a worker's batch is about one part, so that every finished part reaches the checkpoint
at once (workers return results by batch); a round that took under ROUND_SECONDS is followed by one twice
as large, so quick builds do not pay for many rounds.

Every finished part is appended to a checkpoint next to the book, ``FILE.partial``: an 80-byte header
naming the board, depth and plan (a SHA-256 of the planned keys), then one record per part (part index
u32, count u32, the scores, a CRC32 of the three). Records are written in batches, each flushed and
fsync'ed; a record cut short by a crash fails its CRC and is dropped on resume. Running the same build
again reads the checkpoint and solves only the missing parts; the finished book is written atomically
and the checkpoint removed. Scores are exact and the entries sorted, so the book's bytes do not depend
on interruptions, the number of workers or the order parts finish in.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import attrs
import numpy as np

from gridgames.files import read_user_bytes

from gridgames_connect4.position.geometry import board_bits, fits_one_word
from gridgames_connect4.solve.book import UNKNOWN, Book, BookError, BookKeys, scores_of_keys

__all__ = [
    "BuildReport",
    "BookJob",
    "build_book",
    "check_bounds_book",
    "checkpoint_path",
    "derive_scores",
    "enumerate_entries",
    "plan_parts",
    "solve_part",
]

PART_SIZE = 64
"""Positions per part at most: small enough for a steady progress bar, big enough to share a worker's table."""
PARTS_PER_PLY = 64
"""Each ply is cut into at least this many parts (when it has that many positions): see `plan_parts`."""
FLUSH_SECONDS = 0.5
DASK_WINDOW = 64
"""Parts in the first Dask round: each round connects and sends the job once (a fraction of a second)."""
ROUND_SECONDS = 30.0
"""A round of parts that took less than this is followed by one twice as large."""
CHECKPOINT_MAGIC = b"GGC4PART"
CHECKPOINT_VERSION = 2  # 2: only the deepest ply is planned (1 planned every ply)
CHECKPOINT_HEADER = struct.Struct("<8sHBBBBxxIIQ32s16x")
RECORD_HEAD = struct.Struct("<II")
RECORD_TAIL = struct.Struct("<I")

ProgressFn = Callable[[int, int], None]
"""``on_progress(positions solved, positions in the book)``, called in this process."""


def enumerate_entries(width: int, height: int, connect: int, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical keys of the book's positions and their ply counts, deepest first then by key."""
    g = BookKeys(width, height, connect)
    p = np.zeros(1, dtype=np.uint64)
    mask = np.zeros(1, dtype=np.uint64)
    keys_by_ply, plies = [], []
    for n in range(min(depth, g.cells - 1) + 1):
        if n > 0:  # the children of ply n - 1 that are not over, one per mirror pair
            child_p, child_mask = [], []
            wins = g.wins(p, mask)
            for c in range(width):
                cell = g.geometry.drop(mask, c)
                ok = (cell != 0) & ((wins & cell) == 0)
                child_p.append((p ^ mask)[ok])
                child_mask.append((mask | cell)[ok])
            p, mask = np.concatenate(child_p), np.concatenate(child_mask)
            _, first = np.unique(g.canonical(p + mask), return_index=True)
            p, mask = p[first], mask[first]
        possible = g.geometry.playable(mask)
        entry = ((g.wins(p, mask) & possible) == 0) & (g.non_losing(p, mask) != 0)
        keys = np.sort(g.canonical(p + mask)[entry])
        keys_by_ply.append(keys)
        plies.append(np.full(keys.shape[0], n, dtype=np.int8))
    return np.concatenate(keys_by_ply[::-1]), np.concatenate(plies[::-1])


def derive_scores(
    width: int, height: int, connect: int, keys: np.ndarray, plies: np.ndarray, scores: np.ndarray
) -> np.ndarray:
    """Every entry's exact score, given those of the deepest ply first in ``scores``: the others from their children.

    ``keys`` and ``plies`` are as `enumerate_entries` gives them (deepest first, each ply sorted). A child of an
    entry is an entry one ply deeper, or its score follows from a quick check (a move that wins, a full board, a
    child whose side to move wins at once or must lose next move).
    """
    g = BookKeys(width, height, connect)
    out = np.zeros(keys.shape[0], dtype=np.int8)
    if keys.shape[0] == 0:
        return out
    out[: scores.shape[0]] = scores
    for n in range(int(plies[0]) - 1, -1, -1):
        at = np.flatnonzero(plies == n)
        below = np.flatnonzero(plies == n + 1)
        p, mask = g.decode(keys[at])
        children = g.child_scores(p, mask, n, lambda wanted: scores_of_keys(keys[below], out[below], wanted))  # noqa: B023 - called here
        if (children == UNKNOWN).any():
            raise BookError(f"a position at ply {n} has a child missing from ply {n + 1} (a bug)")
        # FULL is below every score, and some column is free before the board is full
        out[at] = children.max(axis=1)
    return out


def plan_parts(keys: np.ndarray, plies: np.ndarray, part_size: int = PART_SIZE) -> list[np.ndarray]:
    """The parts of a build: each ply's keys in parts of at most ``part_size``, and at least PARTS_PER_PLY parts per
    ply.

    Shallow positions cost far more (on 7x6 with the solver of 2026: ~250 s at ply 3 against ~3 s at ply 8), so
    a small ply is cut finely, down to one position per part, and its positions spread over the workers.
    """
    parts: list[np.ndarray] = []
    bounds = np.flatnonzero(np.diff(plies)) + 1
    for group in np.split(keys, bounds) if keys.shape[0] else []:
        size = max(1, min(part_size, group.shape[0] // PARTS_PER_PLY))
        parts.extend(group[i : i + size] for i in range(0, group.shape[0], size))
    return parts


@attrs.frozen
class BookJob:
    """What every worker needs: the board and the size of its solver's table (sent once per worker)."""

    width: int
    height: int
    connect: int
    table_bits: int | None = None


_SOLVER: list = []  # this process's (job, Solver): a table of ~43 MB is made once per worker


def solve_part(job: BookJob, keys: np.ndarray, lower: np.ndarray | None = None) -> np.ndarray:
    """Exact scores (int8) of the positions of some canonical keys, with this process's solver.

    ``lower``: each position's least score by its parents' (`BookKeys.parent_bounds`; UNKNOWN: none), which the
    solver tries first.
    """
    from gridgames_connect4.solve.solver import Solver

    if not _SOLVER or _SOLVER[0] != job:
        _SOLVER[:] = [job, Solver(job.width, job.height, job.connect, table_bits=job.table_bits)]
    solver = _SOLVER[1]
    g = BookKeys(job.width, job.height, job.connect)
    if lower is None:
        return np.array([solver.solve(g.moves_of_key(int(k))) for k in keys], dtype=np.int8)
    return np.array(
        [solver.solve(g.moves_of_key(int(k)), lower=None if b == UNKNOWN else int(b)) for k, b in zip(keys, lower)],
        dtype=np.int8,
    )


def _solve_bounded(job: BookJob, part: tuple[np.ndarray, np.ndarray | None]) -> np.ndarray:
    """`solve_part` of a (keys, lower bounds) part, as the build hands them to `run_parts`."""
    keys, lower = part
    return solve_part(job, keys) if lower is None else solve_part(job, keys, lower)


def checkpoint_path(out: str | os.PathLike[str]) -> Path:
    """Where a build of ``out`` keeps its finished parts: ``out`` + ``.partial``."""
    out = Path(out)
    return out.with_name(out.name + ".partial")


@attrs.frozen
class BuildReport:
    """How a build went: the entries, how many were solved now or read back, whether it finished, and where it wrote."""

    path: Path
    entries: int
    solved: int
    resumed: int
    partial: bool
    seconds: float
    reruns: int = 0
    checkpoint: Path | None = None
    derived: int = 0
    """Entries scored from their children's scores rather than searched (every ply but the deepest)."""
    to_search: int = 0
    """The deepest ply's entries: the positions a build searches, and what its progress counts."""


def build_book(
    width: int,
    height: int,
    connect: int,
    depth: int,
    out: str | os.PathLike[str],
    *,
    jobs: int | str | None = 1,
    scheduler: str | None = None,
    table_bits: int | None = None,
    part_size: int = PART_SIZE,
    on_progress: ProgressFn | None = None,
    bounds: Book | None = None,
) -> BuildReport:
    """Solve every book position of the board up to ``depth`` and write the book to ``out`` (resuming a checkpoint).

    ``bounds``: a book of the same board at least ``depth - 1`` deep, whose scores of the deepest ply's parents
    give each searched position a lower bound that the search tries first (the book is the same, found sooner).
    """
    from gridgames.search.parallel import run_parts
    from gridgames_connect4.solve.solver import Solver

    start = time.perf_counter()
    # the solver refuses a board it cannot handle, in one line
    Solver(width, height, connect, table_bits=10)
    # the solver takes 128-bit boards now; book keys stay one word
    if not fits_one_word(width, height):
        raise BookError(
            f"a {width}x{height} board needs {board_bits(width, height)} bits, more than the solver's 64-bit bitboard"
            " keys that books store"
        )
    if table_bits is not None and not (isinstance(table_bits, int) and 10 <= table_bits <= 30):
        raise BookError(f"--table-bits must be 10 to 30, not {table_bits!r}")
    if not isinstance(depth, int) or not 0 <= depth <= width * height:
        raise BookError(f"--depth must be 0 to {width * height} on a {width}x{height} board, not {depth!r}")
    if part_size < 1:
        raise BookError(f"part size must be positive, not {part_size}")
    out = Path(out)
    keys, plies = enumerate_entries(width, height, connect, depth)
    # the deepest ply: searched
    leaves = int(np.count_nonzero(plies == plies[0])) if keys.shape[0] else 0
    parts = plan_parts(keys[:leaves], plies[:leaves], part_size)
    lower = _lower_bounds(width, height, connect, depth, keys[:leaves], bounds)
    bounded = [
        (part, None if lower is None else lower[at : at + part.shape[0]])
        for part, at in zip(parts, np.cumsum([0] + [part.shape[0] for part in parts[:-1]]))
    ]
    header = CHECKPOINT_HEADER.pack(
        CHECKPOINT_MAGIC,
        CHECKPOINT_VERSION,
        width,
        height,
        connect,
        depth,
        part_size,
        len(parts),
        leaves,
        hashlib.sha256(keys[:leaves].tobytes()).digest(),
    )
    partial = checkpoint_path(out)
    scores = _read_checkpoint(partial, header, parts)
    resumed = sum(parts[i].shape[0] for i in scores)
    todo = [i for i in range(len(parts)) if i not in scores]
    total = int(keys.shape[0])
    done_count = [resumed]
    # progress counts the positions searched; the shallower plies take a second at the end
    if on_progress is not None:
        on_progress(resumed, leaves)
    with _Appender(partial, header) as appender:
        window = _window(jobs, scheduler, len(todo))
        reruns, interrupted, first = 0, False, 0
        # workers send results by batch: a round of `window` parts keeps batches ~1 part
        while first < len(todo):
            round_start = time.monotonic()

            def finished(index: int, result: np.ndarray, offset: int = first) -> None:
                part = todo[offset + index]
                scores[part] = result
                appender.add(part, result)
                done_count[0] += result.shape[0]
                if on_progress is not None:
                    on_progress(done_count[0], leaves)

            result = run_parts(
                _solve_bounded,
                [bounded[i] for i in todo[first : first + window]],
                jobs=jobs,
                scheduler=scheduler,
                shared=BookJob(width, height, connect, table_bits),
                on_result=finished,
                preload=("gridgames_connect4.solve.solver",),
                describe=lambda part: f"{part[0].shape[0]} positions from key {int(part[0][0]):#x}",
            )
            reruns += result.reruns
            if result.partial:
                interrupted = True
                break
            first += window
            # quick parts: fewer, larger rounds cost less
            if time.monotonic() - round_start < ROUND_SECONDS:
                window *= 2
    seconds = time.perf_counter() - start
    if interrupted or len(scores) < len(parts):
        return BuildReport(
            out, total, done_count[0] - resumed, resumed, True, seconds, reruns, partial, to_search=leaves
        )
    leaf_scores = np.concatenate([scores[i] for i in range(len(parts))]) if parts else np.zeros(0, np.int8)
    all_scores = derive_scores(width, height, connect, keys, plies, leaf_scores)
    if on_progress is not None:
        on_progress(leaves, leaves)
    Book.from_entries(width, height, connect, depth, keys, all_scores).save(out)
    partial.unlink(missing_ok=True)
    seconds = time.perf_counter() - start
    return BuildReport(
        out, total, total - resumed, resumed, False, seconds, reruns, derived=total - leaves, to_search=leaves
    )


def _lower_bounds(
    width: int, height: int, connect: int, depth: int, keys: np.ndarray, bounds: Book | None
) -> np.ndarray | None:
    """The deepest ply's lower bounds from the ``bounds`` book (None without one), after checking it fits the build."""
    if bounds is None or depth == 0:
        return None
    check_bounds_book(bounds, width, height, connect, depth)
    g = BookKeys(width, height, connect)
    return g.parent_bounds(keys, lambda wanted: scores_of_keys(bounds.keys, bounds.scores, wanted))


def check_bounds_book(bounds: Book, width: int, height: int, connect: int, depth: int) -> None:
    """Raise BookError unless ``bounds`` can bound a depth-``depth`` build of the board (same board, deep enough)."""
    name = f"the bounds book {bounds.path}" if bounds.path else "the bounds book"
    if (bounds.width, bounds.height, bounds.connect) != (width, height, connect):
        raise BookError(
            f"{name} is for {bounds.width}x{bounds.height} connect "
            f"{bounds.connect}, not {width}x{height} connect {connect}"
        )
    if bounds.depth < depth - 1:
        raise BookError(
            f"{name} has depth {bounds.depth}; a depth-{depth} build needs one of depth {depth - 1} or more"
        )


def _window(jobs: int | str | None, scheduler: str | None, parts: int) -> int:
    """Parts per call of run_parts: about one part per batch, so that every finished part reaches the checkpoint
    soon."""
    from gridgames.search.parallel import DASK_MIN_TASKS, LOCAL_TASKS_PER_WORKER, resolve_jobs

    if scheduler:
        return max(DASK_MIN_TASKS, DASK_WINDOW)  # batches of about 4 parts on two worker threads
    workers = resolve_jobs(jobs)
    return max(1, parts) if workers == 1 else workers * LOCAL_TASKS_PER_WORKER


def _read_checkpoint(path: Path, header: bytes, parts: list[np.ndarray]) -> dict[int, np.ndarray]:
    """The finished parts recorded in a checkpoint (a record cut short at its end is dropped and cut off)."""
    if not os.path.lexists(path):
        return {}
    # Through the bounded reader: a checkpoint that is a FIFO, a device (a symlink to /dev/zero) or larger than
    # every record of this build twice over is refused in one line, never read without end.
    most = len(header) + sum(RECORD_HEAD.size + part.shape[0] + RECORD_TAIL.size for part in parts)
    data = read_user_bytes(path, what="the checkpoint", max_bytes=2 * most + (1 << 20), error=BookError)
    if len(data) < len(header) or data[: len(header)] != header:
        if data[:8] != CHECKPOINT_MAGIC:
            raise BookError(f"{str(path)!r} is not a book build's checkpoint; move it away to build this book")
        raise BookError(
            f"the checkpoint {str(path)!r} belongs to another build (board, depth or plan differ): "
            "run that build again, or delete the checkpoint to start this one"
        )
    found: dict[int, np.ndarray] = {}
    at = len(header)
    while at + RECORD_HEAD.size <= len(data):
        index, count = RECORD_HEAD.unpack_from(data, at)
        end = at + RECORD_HEAD.size + count + RECORD_TAIL.size
        if end > len(data):
            break
        (crc,) = RECORD_TAIL.unpack_from(data, end - RECORD_TAIL.size)
        if zlib.crc32(data[at : end - RECORD_TAIL.size]) != crc:
            break
        if index >= len(parts) or count != parts[index].shape[0]:
            raise BookError(f"the checkpoint {str(path)!r} is corrupt: a record for part {index} of {count} positions")
        found[index] = np.frombuffer(data, dtype=np.int8, count=count, offset=at + RECORD_HEAD.size).copy()
        at = end
    # a record cut short by a crash: drop it so that appends follow the last good one
    if at < len(data):
        with open(path, "r+b") as handle:
            handle.truncate(at)
    return found


@attrs.define
class _Appender:
    """Appends part records to a checkpoint in fsync'ed batches (every FLUSH_SECONDS, and on exit)."""

    path: Path
    header: bytes
    _pending: list[bytes] = attrs.field(factory=list)
    _last: float = attrs.field(factory=time.monotonic)

    def __enter__(self) -> _Appender:
        if not self.path.exists():
            self._write(self.header, mode="wb")
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()

    def add(self, index: int, scores: np.ndarray) -> None:
        """Queue one finished part; write the queue when it is old enough."""
        head = RECORD_HEAD.pack(index, scores.shape[0]) + scores.astype(np.int8).tobytes()
        self._pending.append(head + RECORD_TAIL.pack(zlib.crc32(head)))
        if time.monotonic() - self._last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Write every queued record in one append, then fsync."""
        if self._pending:
            self._write(b"".join(self._pending), mode="ab")
            self._pending.clear()
        self._last = time.monotonic()

    def _write(self, data: bytes, mode: str) -> None:
        try:
            with open(self.path, mode) as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise BookError(f"cannot write the checkpoint {str(self.path)!r}: {error.strerror or error}") from None


@attrs.frozen
class UpgradeReport:
    """What `upgrade_legacy` checked and wrote."""

    path: Path
    old_version: int
    entries: int
    solved: int
    """Entries of the deepest ply solved again and found right."""


def check_entries(book: Book, name: str) -> tuple[str | None, str | None, int]:
    """What is wrong with a book's entries: its keys must be exactly the positions a book of its board and depth holds
    (`enumerate_entries`: no key that is no position, none missing), and every shallower score must follow from the
    deepest ply's (`derive_scores`). Returns what is wrong with the keys and with the scores (one line each, None
    when right) and how many entries are of the deepest ply (whose scores only the solver can check)."""
    claim = f"a {book.width}x{book.height} book of lines of {book.connect} to depth {book.depth}"
    keys, plies = enumerate_entries(book.width, book.height, book.connect, book.depth)
    leaves = int(np.count_nonzero(plies == plies[0])) if keys.shape[0] else 0
    order = np.argsort(keys, kind="stable")
    if keys.shape != book.keys.shape or not np.array_equal(keys[order], book.keys):
        return f"{name} does not hold the positions of {claim}, as its header says: its header is damaged", None, leaves
    stored = book.scores[np.searchsorted(book.keys, keys)]
    derived = derive_scores(book.width, book.height, book.connect, keys, plies, stored[:leaves])
    if not np.array_equal(derived, stored):
        wrong = int(np.count_nonzero(derived != stored))
        return None, f"{name} is not {claim}: {wrong} scores do not follow from the deepest ply's", leaves
    return None, None, leaves


def upgrade_legacy(
    source: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    samples: int = 32,
    seed: int = 0,
    table_bits: int | None = None,
) -> UpgradeReport:
    """Check a book of format 1 or 2 (whose checksum does not cover its header) and write it again in the current
    format.

    The header's board, line length and depth are trusted only once the entries prove them: the keys must be exactly
    the positions a book of that board and depth holds (`enumerate_entries`), every shallower score must follow from
    the deepest ply's (`derive_scores`), and ``samples`` random entries of the deepest ply must match the solver. A
    book that fails any check is refused (`BookError`) and nothing is written; ``out`` defaults to ``source``.
    """
    from gridgames_connect4.solve.book import FIRST_VERIFIED_VERSION, read_book_file, write_atomically

    name = repr(str(source))
    if samples < 1:
        raise BookError(f"the upgrade solves at least one entry again, not {samples}")
    book = Book.from_bytes(read_book_file(source), source=name, legacy=True)
    if book.version >= FIRST_VERIFIED_VERSION:
        raise BookError(f"{name} is already a book of format {book.version}: nothing to upgrade")
    claim = f"a {book.width}x{book.height} book of lines of {book.connect} to depth {book.depth}"
    bad_keys, bad_scores, leaves = check_entries(book, name)
    if bad_keys or bad_scores:
        raise BookError(bad_keys or bad_scores or "")
    keys = enumerate_entries(book.width, book.height, book.connect, book.depth)[0]
    stored = book.scores[np.searchsorted(book.keys, keys)]
    rng = np.random.default_rng(seed)
    chosen = (
        np.sort(rng.choice(leaves, size=min(samples, leaves), replace=False)) if leaves else np.zeros(0, dtype=np.int64)
    )
    solved = solve_part(BookJob(book.width, book.height, book.connect, table_bits), keys[chosen])
    if not np.array_equal(solved, stored[chosen]):
        wrong = int(np.count_nonzero(solved != stored[chosen]))
        raise BookError(f"{name} is not {claim}: {wrong} of {chosen.shape[0]} entries solved again differ")
    target = Path(source if out is None else out)
    upgraded = Book.from_entries(book.width, book.height, book.connect, book.depth, book.keys, book.scores)
    write_atomically(target, upgraded.to_bytes())
    return UpgradeReport(target, book.version, len(book), int(chosen.shape[0]))
