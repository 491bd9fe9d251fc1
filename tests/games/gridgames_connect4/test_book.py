"""Opening books: built on small boards and checked entry by entry against the solver; resume, format, CLI."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.solve.book import (
    HEADER_SIZE,
    UNKNOWN,
    Book,
    BookError,
    BookKeys,
    default_book,
    scores_of_keys,
)
from gridgames_connect4.solve import book_build
from gridgames_connect4.solve.book_build import (
    build_book,
    checkpoint_path,
    derive_scores,
    enumerate_entries,
    plan_parts,
    solve_part,
)
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver, parse_pons_moves
from gridgames_test_support.connect4_sets import read_set
from gridgames.cli import app
from gridgames.errors import IllegalMoveError
from gridgames.search.parallel import start_method

runner = CliRunner()
# width, height, depth: each builds in seconds
BOARDS = [(5, 4, 6), (4, 5, 6), (4, 4, 8), (5, 5, 3), (6, 4, 3)]


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], Path]:
    folder = tmp_path_factory.mktemp("books")
    paths = {}
    for width, height, depth in BOARDS:
        path = folder / f"{width}x{height}.bin"
        report = build_book(width, height, 4, depth, path, table_bits=18)
        assert not report.partial and report.entries == len(Book.load(path))
        paths[width, height] = path
    return paths


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "depth"), BOARDS)
def test_every_entry_is_the_solvers_score(
    books: dict[tuple[int, int], Path], width: int, height: int, depth: int
) -> None:
    book = Book.load(books[width, height], width=width, height=height, connect=4)
    assert (book.width, book.height, book.connect, book.depth) == (width, height, 4, depth)
    solver = Solver(width, height, 4, table_bits=18)
    geometry = book.geometry
    for key, score in zip(book.keys.tolist(), book.scores.tolist()):
        moves = geometry.moves_of_key(key)
        assert len(moves) <= depth
        assert solver.solve(moves) == score, moves


def _positions_by_rules(width: int, height: int, depth: int) -> set[str]:
    """Every book position, found with the game's rules alone: canonical picture (min of it and its mirror)."""
    game = Connect4(width, height, 4)
    found: set[str] = set()
    seen: set[str] = set()
    frontier = [game.new_state()]
    for _ply in range(depth + 1):
        nxt = []
        for state in frontier:
            picture = state.to_text()
            mirror = "\n".join(line[::-1] for line in picture.split("\n"))
            canonical = min(picture, mirror)
            if canonical in seen:
                continue
            seen.add(canonical)
            children = []
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                children.append(child)
            wins_at_once = any(c.outcome is not None and c.outcome.winner is not None for c in children)
            loses_next = all(
                any(
                    (g := c.copy()).play(m) is None and g.outcome is not None and g.outcome.winner is not None
                    for m in c.legal_moves()
                )
                for c in children
                if c.outcome is None
            ) and all(c.outcome is None for c in children)
            if not wins_at_once and not loses_next:
                found.add(canonical)
            nxt.extend(c for c in children if c.outcome is None)
        frontier = nxt
    return found


@pytest.mark.parametrize(("width", "height", "depth"), [(4, 4, 6), (5, 4, 5)])
def test_the_positions_are_exactly_those_the_rules_give(width: int, height: int, depth: int) -> None:
    keys, plies = enumerate_entries(width, height, 4, depth)
    geometry = BookKeys(width, height, 4)
    game = Connect4(width, height, 4)
    pictures = set()
    for key, ply in zip(keys.tolist(), plies.tolist()):
        moves = geometry.moves_of_key(key)
        assert len(moves) == ply
        picture = game.from_moves(moves).to_text()
        pictures.add(min(picture, "\n".join(line[::-1] for line in picture.split("\n"))))
    assert len(pictures) == len(keys)
    assert pictures == _positions_by_rules(width, height, depth)


@pytest.mark.slow
def test_the_plan_cuts_small_plies_finely() -> None:
    keys, plies = enumerate_entries(7, 6, 4, 6)
    parts = plan_parts(keys, plies)
    assert np.array_equal(np.concatenate(parts), keys)  # every position once, in the plan's order
    for ply in range(7):
        mine = [part for part in parts if part[0] in set(keys[plies == ply].tolist())]
        count = int((plies == ply).sum())
        assert len(mine) >= min(count, 64) and all(len(part) <= 64 for part in mine)
        assert sum(len(part) for part in mine) == count
    # plies 0 to 3: 1 + 4 + 25 + 121 positions, one per part
    assert [len(part) for part in parts[-151:]] == [1] * 151
    assert len(parts[-152]) == 8  # ply 4: 568 positions in parts of 568 // 64


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 5), (9, 6)])
def test_keys_decode_to_the_stones_they_were_made_from(width: int, height: int) -> None:
    geometry = BookKeys(width, height, 4)
    rng = random.Random(width * 10 + height)
    positions = [geometry.replay(_random_position(rng, width, height, rng.randrange(0, 20))) for _ in range(200)]
    keys = np.array([p + mask for p, mask, _ in positions], dtype=np.uint64)
    p, mask = geometry.decode(keys)
    assert p.tolist() == [q for q, _, _ in positions] and mask.tolist() == [m for _, m, _ in positions]
    column = (1 << height) - 1
    heights = [[(m >> c * (height + 1) & column).bit_count() for c in range(width)] for _, m, _ in positions]
    assert geometry.heights(keys).tolist() == heights


def test_a_build_searches_only_the_deepest_ply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[int] = []

    def counting(job: book_build.BookJob, keys: np.ndarray) -> np.ndarray:
        searched.extend(keys.tolist())
        return solve_part(job, keys)

    monkeypatch.setattr(book_build, "solve_part", counting)
    progress: list[tuple[int, int]] = []
    report = build_book(
        5,
        4,
        4,
        5,
        tmp_path / "b.bin",
        table_bits=16,
        part_size=64,
        on_progress=lambda done, total: progress.append((done, total)),
    )
    keys, plies = enumerate_entries(5, 4, 4, 5)
    assert sorted(searched) == sorted(keys[plies == 5].tolist())
    assert report.derived == int((plies < 5).sum()) > 0 and report.solved == report.entries == len(keys)
    # progress counts the positions searched, not the entries scored from them at the end
    assert report.to_search == len(searched) and {total for _, total in progress} == {len(searched)}
    assert progress[0][0] == 0 and progress[-1][0] == len(searched) and len(progress) > 2
    book = Book.load(tmp_path / "b.bin")
    solver = Solver(5, 4, 4, table_bits=16)
    for key in keys[plies < 5].tolist():  # the scores derived from the children's are the solver's
        assert solver.solve(book.geometry.moves_of_key(key)) == book.score_of_key(key)


def _random_position(rng: random.Random, width: int, height: int, plies: int) -> list[int]:
    state = Connect4(width, height, 4).new_state()
    for _ in range(plies):
        move = rng.choice(list(state.legal_moves()))
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            break
        state = child
    return list(state.history)


def test_lookups_agree_with_the_solver_and_with_the_mirror_image(books: dict[tuple[int, int], Path]) -> None:
    book = Book.load(books[5, 4])
    solver = Solver(5, 4, 4, table_bits=18)
    geometry = book.geometry
    rng = random.Random(3)
    in_book = settled = 0
    for _ in range(300):
        moves = _random_position(rng, 5, 4, rng.randrange(0, 9))
        mirror = [4 - m for m in moves]
        p, mask, _ = geometry.replay(moves)
        key = p + mask
        assert geometry.canonical(key) == min(key, geometry.mirror(key)) == geometry.canonical(geometry.mirror(key))
        score = book.score(moves)
        assert score == book.score(mirror)
        quick = geometry.quick_score(p, mask, len(moves))
        if len(moves) > book.depth:
            assert score is None
        elif quick is not None:
            # not in the book: the quick check answers
            assert score is None and quick == solver.solve(moves)
        else:
            assert score == solver.solve(moves)
            in_book += 1
        columns = book.column_scores(moves)
        if len(moves) < book.depth:
            assert columns == solver.analyze(moves)
            assert book.column_scores(mirror) == columns[::-1]
            settled += 1
        else:
            assert columns is None
    assert in_book > 50 and settled > 50


def test_a_finished_game_is_not_in_the_book(books: dict[tuple[int, int], Path]) -> None:
    book = Book.load(books[4, 4])
    won = [0, 1, 0, 1, 0, 1, 0]  # red's four in column 1
    assert book.score(won) is None and book.column_scores(won) is None
    with pytest.raises(ValueError, match="already won"):
        book.score([*won, 2])


def _bytes_of_a_build(folder: Path, **options: object) -> bytes:
    path = folder / "book.bin"
    report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, **options)  # type: ignore[arg-type]
    assert not report.partial
    assert not checkpoint_path(path).exists()
    return path.read_bytes()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return _bytes_of_a_build(tmp_path_factory.mktemp("reference"))


class Stop:
    """An on_progress callback that interrupts the build after ``calls`` progress reports."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    def __call__(self, done: int, total: int) -> None:
        self.calls -= 1
        if self.calls < 0:
            raise KeyboardInterrupt


@pytest.mark.parametrize("stops", [[3], [1, 5, 2]])
def test_an_interrupted_build_resumes_to_the_same_bytes(tmp_path: Path, reference: bytes, stops: list[int]) -> None:
    path = tmp_path / "book.bin"
    solved = []
    for calls in stops:
        report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, on_progress=Stop(calls))
        assert report.partial and not path.exists() and checkpoint_path(path).exists()
        solved.append(report.solved)
    assert all(n > 0 for n in solved)
    report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16)
    assert not report.partial and report.resumed == sum(solved) and report.solved == report.entries - sum(solved)
    assert path.read_bytes() == reference
    assert not checkpoint_path(path).exists()


def test_a_record_cut_short_by_a_crash_is_dropped(tmp_path: Path, reference: bytes) -> None:
    path = tmp_path / "book.bin"
    build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, on_progress=Stop(4))
    partial = checkpoint_path(path)
    # half a record
    partial.write_bytes(partial.read_bytes() + b"\x07\x00\x00\x00\x10\x00\x00\x00\x01\x02")
    report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16)
    assert report.resumed > 0 and path.read_bytes() == reference


def test_a_checkpoint_of_another_build_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "book.bin"
    build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, on_progress=Stop(2))
    with pytest.raises(BookError, match="belongs to another build"):
        build_book(4, 5, 4, 5, path, table_bits=16, part_size=16)


def test_two_processes_give_the_same_bytes(tmp_path: Path, reference: bytes) -> None:
    assert _bytes_of_a_build(tmp_path, jobs=2) == reference


def _dies_once(job: object, keys: np.ndarray) -> np.ndarray:
    """A part function whose first call (in any process) kills its worker."""
    marker = Path(os.environ["GRIDGAMES_TEST_MARKER"])
    if not marker.exists():
        marker.write_text("died")
        os._exit(3)
    return solve_part(job, keys)  # type: ignore[arg-type]


def test_a_worker_that_dies_has_its_part_run_again(
    tmp_path: Path, reference: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    if start_method() != "fork":
        pytest.skip("the patched part function reaches the workers only when they are forked")
    monkeypatch.setenv("GRIDGAMES_TEST_MARKER", str(tmp_path / "died"))
    monkeypatch.setattr(book_build, "solve_part", _dies_once)
    path = tmp_path / "book.bin"
    report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, jobs=2)
    assert (tmp_path / "died").exists() and report.reruns > 0 and not report.partial
    assert path.read_bytes() == reference


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_bytes(tmp_path: Path, reference: bytes, dask_scheduler: str) -> None:
    assert _bytes_of_a_build(tmp_path, scheduler=dask_scheduler) == reference


def test_bounds_from_a_shallower_book_give_the_same_bytes(
    tmp_path: Path, reference: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    shallow = tmp_path / "d5.bin"
    build_book(4, 5, 4, 5, shallow, table_bits=16, part_size=16)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def recording(job: book_build.BookJob, keys: np.ndarray, lower: np.ndarray | None = None) -> np.ndarray:
        assert lower is not None
        scores = solve_part(job, keys, lower)
        seen.append((lower, scores))
        return scores

    monkeypatch.setattr(book_build, "solve_part", recording)
    assert _bytes_of_a_build(tmp_path, bounds=Book.load(shallow)) == reference
    lower = np.concatenate([bound for bound, _ in seen])
    scores = np.concatenate([score for _, score in seen]).astype(np.int64)
    known = lower != UNKNOWN
    assert known.mean() > 0.9 and (lower[known] <= scores[known]).all()
    # a parent's best move: settled by the first null window
    assert (lower[known] == scores[known]).mean() > 0.2


def test_a_shallower_cut_of_a_book_is_the_book_built_to_that_depth(
    books: dict[tuple[int, int], Path], tmp_path: Path
) -> None:
    book = Book.load(books[5, 4])  # depth 6
    build_book(5, 4, 4, 4, tmp_path / "d4.bin", table_bits=16)
    assert book.shallower(4).to_bytes() == (tmp_path / "d4.bin").read_bytes()
    assert book.shallower(6) is book and book.shallower(9) is book
    with pytest.raises(BookError, match="whole number"):
        book.shallower(-1)


def test_a_plain_build_interrupted_resumes_with_bounds_to_the_same_bytes(tmp_path: Path, reference: bytes) -> None:
    shallow = tmp_path / "d5.bin"
    build_book(4, 5, 4, 5, shallow, table_bits=16, part_size=16)
    path = tmp_path / "book.bin"
    first = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, on_progress=Stop(3))
    assert first.partial and first.solved > 0
    report = build_book(4, 5, 4, 6, path, table_bits=16, part_size=16, bounds=Book.load(shallow))
    assert report.resumed == first.solved and path.read_bytes() == reference


def test_parent_bounds_are_minus_the_best_parents_score(books: dict[tuple[int, int], Path]) -> None:
    book = Book.load(books[5, 4])  # depth 6
    g = book.geometry
    keys, plies = enumerate_entries(5, 4, 4, 6)
    expected: dict[int, int] = {}
    for key in keys[plies == 5].tolist():  # every parent in the book, every move it has
        parent = g.moves_of_key(key)
        for move in range(5):
            try:
                p, mask, _ = g.replay([*parent, move])
            except IllegalMoveError:  # a full column
                continue
            child_key = int(g.canonical(np.array([p + mask], dtype=np.uint64))[0])
            expected[child_key] = max(expected.get(child_key, -99), -int(book.score_of_key(key)))
    deepest = keys[plies == 6]
    found = g.parent_bounds(deepest, lambda wanted: scores_of_keys(book.keys, book.scores, wanted))
    for key, bound in zip(deepest.tolist(), found.tolist()):
        assert bound == expected.get(key, UNKNOWN), g.moves_of_key(key)
        assert bound == UNKNOWN or bound <= book.score_of_key(key)
    assert (found != UNKNOWN).mean() > 0.9


def test_a_bounds_book_of_another_board_or_too_shallow_is_refused(
    tmp_path: Path, books: dict[tuple[int, int], Path]
) -> None:
    with pytest.raises(BookError, match="is for 5x4 connect 4, not 4x5 connect 4"):
        build_book(4, 5, 4, 6, tmp_path / "a.bin", table_bits=16, bounds=Book.load(books[5, 4]))
    with pytest.raises(BookError, match="has depth 3; a depth-6 build needs one of depth 5 or more"):
        build_book(6, 4, 4, 6, tmp_path / "b.bin", table_bits=16, bounds=Book.load(books[6, 4]))
    # made in memory: no path
    with pytest.raises(BookError, match="^the bounds book has depth 2; a depth-6"):
        build_book(6, 4, 4, 6, tmp_path / "c.bin", table_bits=16, bounds=Book.load(books[6, 4]).shallower(2))
    assert not (tmp_path / "a.bin").exists() and not checkpoint_path(tmp_path / "a.bin").exists()


def _damaged(books: dict[tuple[int, int], Path], tmp_path: Path, how: str) -> Path:
    data = bytearray(books[5, 4].read_bytes())
    if how == "flipped":
        data[HEADER_SIZE + 100] ^= 0x10
    elif how == "truncated":
        data = data[:-5]
    elif how == "header only":
        data = data[:40]
    elif how == "magic":
        data[:8] = b"NOTABOOK"
    elif how == "version":
        data[8] = 9
    elif how == "extra":
        data += b"\0"
    elif how == "key width":
        data[10] = 8
    elif how == "height":  # the header names another board: 5x5 instead of 5x4 (the same key width)
        data[12] = 5
    elif how == "connect":
        data[13] = 5
    elif how == "depth":
        data[14] = 5
    elif how == "reserved":
        data[60] = 1
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("flipped", "is corrupt: its header and entries do not match the header's checksum"),
        ("height", "is corrupt: its header and entries do not match the header's checksum"),
        ("connect", "is corrupt: its header and entries do not match the header's checksum"),
        ("depth", "is corrupt: its header and entries do not match the header's checksum"),
        ("reserved", "is corrupt: the header's reserved bytes are not zero"),
        ("truncated", "is truncated"),
        ("header only", "shorter than the 64-byte header"),
        ("magic", "is not a gridgames Connect Four book"),
        ("version", "newer gridgames"),
        ("extra", "bytes after its"),
        ("key width", "has 8-byte keys; a version-3 book of 5x4 has 4-byte keys"),
    ],
)
def test_a_damaged_book_is_refused_in_one_line(
    books: dict[tuple[int, int], Path], tmp_path: Path, how: str, message: str
) -> None:
    path = _damaged(books, tmp_path, how)
    with pytest.raises(BookError, match=message):
        Book.load(path)
    result = runner.invoke(app, ["connect4", "book", "info", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(("width", "height", "key_bytes"), [(5, 4, 4), (4, 5, 3), (6, 4, 4)])
def test_a_book_file_stores_keys_in_the_fewest_bytes_that_hold_the_board(
    books: dict[tuple[int, int], Path], width: int, height: int, key_bytes: int
) -> None:
    data = books[width, height].read_bytes()
    book = Book.load(books[width, height])
    assert (data[8], data[10]) == (3, key_bytes)
    assert len(data) == HEADER_SIZE + len(book) * (key_bytes + 1) == book.file_size
    assert Book.from_bytes(data).keys.tolist() == sorted(set(book.keys.tolist()))
    highest = (1 << (height + 1) * width) - 1  # every bit of the board's bitboard: the widest key
    edge = Book.from_entries(width, height, 4, 1, np.array([highest, 1], dtype=np.uint64), np.array([3, -2]))
    assert Book.from_bytes(edge.to_bytes()).keys.tolist() == [1, highest]
    with pytest.raises(BookError, match=f"has more bits than a {width}x{height} board's"):
        Book.from_entries(width, height, 4, 1, np.array([highest + 1], dtype=np.uint64), np.array([0]))


def _legacy_file(
    book: Book, version: int, path: Path, *, connect: int | None = None, height: int | None = None
) -> Path:
    """``book`` written as a file of format 1 (8-byte keys) or 2, whose checksum covers the entries only."""
    import hashlib
    import struct

    key_bytes = 8 if version == 1 else (book.width * (book.height + 1) + 7) // 8
    keys = book.keys.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :key_bytes].tobytes()
    body = keys + book.scores.astype(np.int8).tobytes()
    header = struct.pack(
        "<8sHBBBBBxQ32s8x",
        b"GGC4BOOK",
        version,
        key_bytes,
        book.width,
        height or book.height,
        connect or book.connect,
        book.depth,
        len(book),
        hashlib.sha256(body).digest(),
    )
    path.write_bytes(header + body)
    return path


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_book_is_refused_until_upgraded_and_then_holds_the_same_entries(
    books: dict[tuple[int, int], Path], tmp_path: Path, version: int
) -> None:
    book = Book.load(books[5, 4])
    old = _legacy_file(book, version, tmp_path / f"v{version}.bin")
    with pytest.raises(BookError, match=f"is a book of format {version}, whose checksum does not cover its header"):
        Book.load(old)
    result = runner.invoke(app, ["connect4", "analyze", "", "--book", str(old), "--width", "5", "--height", "4"])
    assert result.exit_code == 2 and "connect4 book upgrade" in result.stderr and "Traceback" not in result.stderr
    result = runner.invoke(app, ["connect4", "book", "upgrade", str(old), "--sample", "8"])
    assert result.exit_code == 0, result.output
    assert f"format {version} -> the current one" in result.stdout
    loaded = Book.load(old)
    assert loaded.version == 3 and np.array_equal(loaded.keys, book.keys) and np.array_equal(loaded.scores, book.scores)
    assert old.read_bytes() == books[5, 4].read_bytes()  # the same bytes as a book built here
    result = runner.invoke(app, ["connect4", "book", "upgrade", str(old)])
    assert result.exit_code == 2 and "nothing to upgrade" in result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"connect": 5},
            "scores do not follow from the deepest ply's|entries solved again differ|does not hold the positions",
        ),
        ({"height": 5}, "does not hold the positions of a 5x5 book"),
    ],
)
def test_an_older_book_whose_header_names_another_board_is_refused_by_the_upgrade(
    books: dict[tuple[int, int], Path], tmp_path: Path, change: dict[str, int], message: str
) -> None:
    old = _legacy_file(Book.load(books[5, 4]), 2, tmp_path / "lying.bin", **change)
    before = old.read_bytes()
    result = runner.invoke(app, ["connect4", "book", "upgrade", str(old), "--out", str(tmp_path / "new.bin")])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    import re

    assert re.search(message, result.stderr), result.stderr
    assert old.read_bytes() == before and not (tmp_path / "new.bin").exists()


def test_a_book_whose_header_names_another_board_never_answers(
    books: dict[tuple[int, int], Path], tmp_path: Path
) -> None:
    """The issue's case: height 4 -> 5 on a 5x4 book answered five of twelve positions wrong; now it is refused."""
    data = bytearray(books[5, 4].read_bytes())
    data[12] = 5
    (tmp_path / "5x5.bin").write_bytes(bytes(data))
    result = runner.invoke(
        app, ["connect4", "analyze", "", "--book", str(tmp_path / "5x5.bin"), "--width", "5", "--height", "5", "--json"]
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert "do not match the header's checksum" in result.stderr


def test_a_book_for_another_board_is_refused(books: dict[tuple[int, int], Path]) -> None:
    with pytest.raises(BookError, match="is a book for 5x4 with lines of 4, not 6x5 with lines of 4"):
        Book.load(books[5, 4], width=6, height=5, connect=4)
    result = runner.invoke(
        app, ["connect4", "review", "1", "--width", "6", "--height", "5", "--book", str(books[5, 4])]
    )
    assert result.exit_code == 2 and "is a book for 5x4" in result.stderr


def test_missing_book_and_none_shipped_for_small_boards(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="no such file"):
        Book.load(tmp_path / "nothing.bin")
    assert default_book(5, 4, 4) is None


def test_cli_build_info_and_verify(tmp_path: Path, books: dict[tuple[int, int], Path]) -> None:
    path = tmp_path / "cli.bin"
    result = runner.invoke(
        app,
        [
            "connect4",
            "book",
            "build",
            "--width",
            "5",
            "--height",
            "4",
            "--depth",
            "6",
            "--out",
            str(path),
            "--table-bits",
            "18",
        ],
    )
    assert result.exit_code == 0, result.output
    assert f"Wrote {path}: 2,281 positions" in result.stdout
    assert path.read_bytes() == books[5, 4].read_bytes()
    result = runner.invoke(app, ["connect4", "book", "info", str(path)])
    assert result.exit_code == 0
    assert "5x4, lines of 4" in result.stdout and "depth 6: 2,281 positions" in result.stdout
    assert "empty board: +0" in result.stdout
    result = runner.invoke(app, ["connect4", "book", "info", str(path), "--json"])
    data = json.loads(result.stdout)
    assert (data["width"], data["height"], data["depth"], data["entries"], data["root"]) == (5, 4, 6, 2281, 0)
    assert sum(data["plies"].values()) == 2281 and data["plies"]["0"] == 1
    assert data["wins"] + data["draws"] + data["losses"] == 2281 and data["bytes"] == path.stat().st_size
    result = runner.invoke(app, ["connect4", "book", "verify", str(path), "--sample", "40"])
    assert result.exit_code == 0 and "40 of 40 entries right." in result.stdout


def test_cli_interrupted_build_says_how_far_it_got(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def interrupting(job: book_build.BookJob, keys: np.ndarray) -> np.ndarray:
        calls.append(keys.shape[0])
        if len(calls) > 2:
            raise KeyboardInterrupt
        return solve_part(job, keys)

    monkeypatch.setattr(book_build, "solve_part", interrupting)
    path = tmp_path / "cli.bin"
    argv = [
        "connect4",
        "book",
        "build",
        "--width",
        "5",
        "--height",
        "4",
        "--depth",
        "5",
        "--out",
        str(path),
        "--table-bits",
        "16",
    ]
    result = runner.invoke(app, argv)
    keys, plies = enumerate_entries(5, 4, 4, 5)
    deepest = int((plies == 5).sum())
    assert result.exit_code != 0 and not path.exists() and checkpoint_path(path).exists()
    assert (
        f"Interrupted: {sum(calls[:2]):,} of the {deepest:,} deepest positions searched (the other "
        f"{len(keys) - deepest:,} are scored from them at the end)"
    ) in result.stderr, result.stderr


def test_verify_finds_a_wrong_score(tmp_path: Path, books: dict[tuple[int, int], Path]) -> None:
    book = Book.load(books[4, 4])
    scores = book.scores.copy()
    scores[0] = scores[0] + 1 if scores[0] < 0 else scores[0] - 1
    path = tmp_path / "wrong.bin"
    Book.from_entries(4, 4, 4, book.depth, book.keys, scores).save(path)
    result = runner.invoke(app, ["connect4", "book", "verify", str(path), "--sample", "0"])
    assert result.exit_code == 1
    assert f"{len(book) - 1} of {len(book)} entries right." in result.stdout and "wrong: " in result.stdout


def test_bad_build_options_fail_in_one_line(tmp_path: Path) -> None:
    out = str(tmp_path / "x.bin")
    for args, message in [
        (["--width", "9", "--height", "7"], "more than the solver's 64-bit bitboard"),
        (["--width", "5", "--height", "4", "--jobs", "2", "--scheduler", "tcp://x:1"], "choose one"),
        (["--width", "5", "--height", "4", "--depth", "21"], "--depth must be 0 to 20"),
    ]:
        argv = ["connect4", "book", "build", "--out", out, *args]
        if "--depth" not in args:
            argv += ["--depth", "2"]
        result = runner.invoke(app, argv)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
    assert np.all([not Path(out).exists()])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # 7x6: the shipped book (depth D) bounds a build one ply deeper than itself
        (["--depth", "D+1"], "shipped"),
        (["--depth", "D+2"], None),  # too shallow for that
        (["--depth", "D+1", "--no-bounds"], None),
        (["--depth", "6", "--width", "5", "--height", "4"], None),  # no book ships for 5x4
        (["--depth", "6", "--width", "5", "--height", "4", "--bounds-from", "BOOK"], "5x4"),
    ],
)
def test_cli_build_takes_bounds_from_the_book_it_is_given_or_the_shipped_one(
    tmp_path: Path,
    books: dict[tuple[int, int], Path],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    expected: str | None,
) -> None:
    shipped = default_book()
    if shipped is None and "--width" not in args:
        pytest.skip("no 7x6 book ships")
    given: list[Book | None] = []

    def fake(width: int, height: int, connect: int, depth: int, out: Path, **options: object) -> book_build.BuildReport:
        given.append(options["bounds"])  # type: ignore[arg-type]
        return book_build.BuildReport(Path(out), 1, 1, 0, False, 0.1)

    monkeypatch.setattr(book_build, "build_book", fake)
    depth = {"D+1": 1, "D+2": 2}
    argv = [
        str(books[5, 4]) if arg == "BOOK" else str(shipped.depth + depth[arg]) if arg in depth else arg for arg in args
    ]
    result = runner.invoke(app, ["connect4", "book", "build", "--out", str(tmp_path / "x.bin"), *argv])
    assert result.exit_code == 0, result.output
    if expected is None:
        assert given == [None] and "Lower bounds" not in result.stderr
    elif expected == "shipped":
        assert given[0] is not None and (given[0].path, given[0].depth) == (shipped.path, shipped.depth)
        assert f"Lower bounds from the depth-{shipped.depth} book" in result.stderr
    else:
        assert given[0] is not None and given[0].path == str(books[5, 4])


def test_cli_build_refuses_bounds_of_another_board_or_both_bounds_options(
    tmp_path: Path, books: dict[tuple[int, int], Path]
) -> None:
    out = str(tmp_path / "x.bin")
    for args, message in [
        (["--bounds-from", str(books[4, 5])], "is for 4x5 connect 4, not 5x4 connect 4"),
        (["--bounds-from", str(books[4, 5]), "--no-bounds"], "choose one"),
        (["--bounds-from", str(tmp_path / "none.bin")], "no such file"),
    ]:
        result = runner.invoke(
            app, ["connect4", "book", "build", "--width", "5", "--height", "4", "--depth", "5", "--out", out, *args]
        )
        assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output, result.output
        assert len(result.stderr.strip().splitlines()) == 1
    assert not Path(out).exists() and not checkpoint_path(Path(out)).exists()


@pytest.mark.parametrize(
    "surface", [["connect4", "book", "info"], ["connect4", "book", "verify"], ["connect4", "review", "1", "--book"]]
)
def test_book_files_go_through_the_bounded_reader(surface: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target, message in [
        ("/dev/zero", "is a device, not a regular file"),
        (str(fifo), "is a pipe (FIFO)"),
        (str(tmp_path), "is a directory"),
        (str(tmp_path / "absent"), "no such file"),
    ]:
        result = runner.invoke(app, [*surface, target])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and "book file" in result.stderr, (
            result.stderr
        )
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_reader_of_binary_files_is_bounded(tmp_path: Path) -> None:
    from gridgames.files import UserFileError, read_user_bytes

    path = tmp_path / "b.bin"
    path.write_bytes(bytes(range(256)) * 4)
    assert read_user_bytes(path, what="book file", max_bytes=1024) == bytes(range(256)) * 4
    with pytest.raises(UserFileError, match="too large"):
        read_user_bytes(path, what="book file", max_bytes=1023)


def test_the_shipped_book_is_found_and_checked(
    tmp_path: Path, books: dict[tuple[int, int], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gridgames_connect4.solve import book as book_module

    monkeypatch.setattr(book_module, "_package_data", lambda: tmp_path)
    (tmp_path / "book-5x4.bin").write_bytes(books[5, 4].read_bytes())
    default_book.cache_clear()
    try:
        found = default_book(5, 4, 4)
        assert found is not None and len(found) == len(Book.load(books[5, 4])) and found.score([]) == 0
        assert default_book(4, 5, 4) is None and default_book(5, 4, 3) is None
        # a 5x4 book under the 4x5 name
        (tmp_path / "book-4x5.bin").write_bytes(books[5, 4].read_bytes())
        default_book.cache_clear()
        with pytest.raises(BookError, match="is a book for 5x4"):
            default_book(4, 5, 4)
    finally:
        default_book.cache_clear()


def test_the_shipped_7x6_book_gives_the_known_opening_scores() -> None:
    book = default_book(7, 6, 4)
    assert book is not None and book.depth >= 7
    # the first player wins, on its last disc (Allis, Tromp; Pons' convention)
    assert book.score([]) == 1
    # only the centre column wins (Pons' solver)
    assert book.column_scores([]) == [-2, -1, 0, 1, 0, -1, -2]


@pytest.mark.parametrize("name", ["Test_L1_R1", "Test_L1_R2", "Test_L1_R3"])
def test_the_shipped_7x6_book_agrees_with_pons_begin_sets(name: str) -> None:
    book = default_book(7, 6, 4)
    assert book is not None
    covered = [(moves, score) for moves, score in read_set(name) if len(moves) <= book.depth]
    assert covered  # Begin-Easy, -Medium and -Hard have 128, 89 and 654 lines of at most 7 moves
    for moves, score in covered:
        assert book.score(parse_pons_moves(moves)) == score, moves


@pytest.mark.slow
def test_the_shipped_7x6_books_shallower_entries_follow_from_its_deepest_ply() -> None:
    book = default_book(7, 6, 4)
    assert book is not None
    keys, plies = enumerate_entries(7, 6, 4, book.depth)
    # the book holds exactly the positions a build plans
    assert np.array_equal(np.sort(keys), book.keys)
    stored = book.scores[np.searchsorted(book.keys, keys)]
    assert np.array_equal(derive_scores(7, 6, 4, keys, plies, stored[plies == book.depth]), stored)


def test_entries_of_the_shipped_7x6_books_deepest_ply_are_the_solvers() -> None:
    book = default_book(7, 6, 4)
    assert book is not None
    geometry = book.geometry
    plies = geometry.heights(book.keys).sum(axis=1)
    deepest = book.keys[plies == book.depth].tolist()
    solver = Solver()
    for key in random.Random(5).sample(deepest, 3):  # a few seconds each
        solver.reset()
        assert solver.solve(geometry.moves_of_key(key)) == book.score_of_key(key)


def _random_positions(width: int, height: int, plies: range, count: int, seed: int) -> list[list[int]]:
    """Seeded random move lists of the given lengths that end in no win (the positions a book is asked about)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        state = Connect4(width, height, 4).new_state()
        target = rng.choice(list(plies))
        while len(state.history) < target and not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over:
            out.append(list(state.history))
    return out


@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 4)])
def test_one_position_without_numpy_scores_children_as_the_array_rule(
    books: dict[tuple[int, int], Path], width: int, height: int
) -> None:
    book = Book.load(books[width, height])
    geometry = book.geometry
    for moves in _random_positions(width, height, range(0, width * height), 300, seed=width):
        p, mask, _ = geometry.replay(moves)
        array_rule = geometry.child_scores(
            np.array([p], dtype=np.uint64),
            np.array([mask], dtype=np.uint64),
            len(moves),
            lambda wanted: scores_of_keys(book.keys, book.scores, wanted),
        )[0].tolist()
        one = geometry.child_scores_of(p, mask, len(moves), book.score_of_key)
        assert one == array_rule, moves
        as_numpy = geometry.quick_score(np.uint64(p), np.uint64(mask), len(moves))
        assert geometry.quick_score(p, mask, len(moves)) == as_numpy


def test_lookups_in_place_agree_with_a_sorted_search_present_or_absent(books: dict[tuple[int, int], Path]) -> None:
    from gridgames_connect4.solve.book_file import Entries as _Entries

    book = Book.load(books[5, 4])
    keys, scores = book.keys, book.scores
    rng = random.Random(7)
    wanted = [int(k) for k in keys[:: max(1, len(keys) // 500)]] + [int(keys[0]), int(keys[-1])]
    wanted += [int(k) + 1 for k in wanted] + [0, rng.getrandbits(30), (1 << 30) - 1, 1 << 56]
    data = Path(books[5, 4]).read_bytes()
    entries = _Entries(data, HEADER_SIZE, len(keys), 4)
    # the first lookups bisect in place, later ones use the sparse index
    for phase in ("bisect", "index"):
        entries.INDEX_AFTER = 0 if phase == "index" else 1 << 40
        for key in wanted:
            i = int(np.searchsorted(keys, np.uint64(key)))
            expected = int(scores[i]) if i < len(keys) and int(keys[i]) == key else None
            assert entries.score_of_key(key) == expected == book.score_of_key(key), (phase, key)
        assert (entries.index is not None) == (phase == "index")


def test_a_key_found_across_two_entries_is_not_taken_for_an_entry() -> None:
    from gridgames_connect4.solve.book_file import Entries as _Entries

    # keys 0x0201 and 0x0403 (2-byte little-endian: 01 02 03 04): the bytes 02 03 at offset 1 read 0x0302
    entries = _Entries(bytes([1, 2, 3, 4, 5, 0xFB]), 0, 2, 2)
    entries.INDEX_AFTER = 0
    assert entries.score_of_key(0x0302) is None
    assert entries.score_of_key(0x0201) == 5 and entries.score_of_key(0x0403) == -5


def test_the_shipped_book_is_read_in_place_and_checked_when_opened(
    tmp_path: Path, books: dict[tuple[int, int], Path]
) -> None:
    import pickle

    path = tmp_path / "b.bin"
    path.write_bytes(books[5, 4].read_bytes())
    loaded = Book.load(path)
    opened = Book.open(path, width=5, height=4)
    assert opened._keys is None and len(opened) == len(loaded) and opened.score([]) == loaded.score([])
    # single lookups read neither arrays nor the file
    assert opened._keys is None and opened._entries.data is None
    assert opened.column_scores([2]) == loaded.column_scores([2])
    assert np.array_equal(opened.keys, loaded.keys) and np.array_equal(opened.scores, loaded.scores)
    # a worker process gets the arrays, not the file mapping
    again = pickle.loads(pickle.dumps(opened))
    assert np.array_equal(again.keys, loaded.keys) and again.score([]) == loaded.score([])
    with pytest.raises(BookError, match="is a book for 5x4"):
        Book.open(path, width=4, height=5)
    data = bytearray(path.read_bytes())
    data[HEADER_SIZE + 5] ^= 0xFF  # a corrupt key: the header is intact, the checksum is not
    path.write_bytes(bytes(data))
    # checked at the opening, before any answer (issue 55)
    with pytest.raises(BookError, match="corrupt"):
        Book.open(path)
    path.write_bytes(bytes(data[:100]))
    with pytest.raises(BookError, match="truncated"):
        Book.open(path)


@pytest.mark.parametrize(("width", "height"), [(5, 4), (4, 5)])
def test_one_positions_parent_bound_is_the_array_rules(
    books: dict[tuple[int, int], Path], width: int, height: int
) -> None:
    book = Book.load(books[width, height])
    geometry = book.geometry
    for moves in _random_positions(width, height, range(1, book.depth + 3), 300, seed=3 * width):
        p, mask, _ = geometry.replay(moves)
        key = geometry.canonical(p + mask)
        array_rule = int(
            geometry.parent_bounds(
                np.array([key], dtype=np.uint64), lambda wanted: scores_of_keys(book.keys, book.scores, wanted)
            )[0]
        )
        one = geometry.parent_bound_of(p, mask, book.score_of_key)
        assert (UNKNOWN if one is None else one) == array_rule, moves
        assert Solver(width, height, 4, table_bits=12, book=book).driver.parents_bounds([p + mask]) == [one]


def test_batched_lookups_keep_the_order_asked_with_repeats_and_absent_keys(books: dict[tuple[int, int], Path]) -> None:
    book = Book.load(books[5, 4])
    table = {int(k): int(s) for k, s in zip(book.keys, book.scores)}
    rng = random.Random(11)
    present = [int(k) for k in book.keys]
    wanted = [rng.choice(present) for _ in range(300)] + [rng.getrandbits(30) for _ in range(100)] + present[:3] * 2
    rng.shuffle(wanted)
    found = book.scores_of_keys(np.array(wanted, dtype=np.uint64)).tolist()
    assert found == [table.get(k, UNKNOWN) for k in wanted]
    assert book.scores_of_keys(np.array([], dtype=np.uint64)).tolist() == []
