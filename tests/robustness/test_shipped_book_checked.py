"""The shipped Connect Four book is checked before its first answer (issue 55, case 2): a copy whose scores are negated,
first on the path, gives one line and exit 2 (never a wrong answer), on the quick path, `Book.open` and the full
command; the check is remembered per file identity; ``book verify`` checks every key and derived score by default."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gridgames_connect4
from gridgames.cli import app
from gridgames_connect4.solve import book_file
from gridgames_connect4.solve.book import Book
from gridgames_connect4.solve.book_file import HEADER_SIZE, BookError, open_entries

SHIPPED = Path(gridgames_connect4.__file__).parent / "data" / "book-7x6.bin"


def negated_copy(target: Path) -> Path:
    """The shipped book with every score byte negated (the header, its checksum included, kept)."""
    data = bytearray(SHIPPED.read_bytes())
    count = int.from_bytes(data[16:24], "little")
    key_bytes = data[10]
    start = HEADER_SIZE + count * key_bytes
    data[start:] = bytes((-(b - 256 if b > 127 else b)) & 0xFF for b in data[start:])
    target.write_bytes(bytes(data))
    return target


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(book_file, "_verified_here", set())
    return tmp_path / "cache" / "gridgames" / book_file.VERIFIED_FILE


def test_a_negated_book_is_refused_by_book_open(tmp_path: Path, cache: Path) -> None:
    path = negated_copy(tmp_path / "book-7x6.bin")
    with pytest.raises(BookError, match="is corrupt"):
        Book.open(path)
    with pytest.raises(BookError, match="is corrupt"):
        open_entries(str(path))  # the quick path's opening
    assert not cache.exists() or str(path) not in cache.read_text()


def test_the_check_is_remembered_by_the_files_identity(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "book-7x6.bin"
    shutil.copyfile(SHIPPED, path)
    hashed: list[int] = []
    real = book_file.os.pread

    def counting(fd: int, size: int, at: int) -> bytes:
        if size >= 1 << 20 or at == HEADER_SIZE:
            hashed.append(size)
        return real(fd, size, at)

    monkeypatch.setattr(book_file.os, "pread", counting)
    assert Book.open(path).score([]) == 1  # the empty 7x6 board: the first player wins (Allis)
    first = len(hashed)
    assert first > 0 and cache.read_text().count("\n") == 1
    # a new process: the cache file remembers
    monkeypatch.setattr(book_file, "_verified_here", set())
    Book.open(path)
    assert len(hashed) == first
    negated_copy(path)  # the same name, other bytes: another identity, checked again and refused
    with pytest.raises(BookError, match="is corrupt"):
        Book.open(path)


def test_analyze_with_a_negated_shipped_book_first_on_the_path_is_one_line(tmp_path: Path) -> None:
    package = tmp_path / "gridgames_connect4"
    shutil.copytree(SHIPPED.parents[1], package, ignore=shutil.ignore_patterns("__pycache__", "*.bin"))
    negated_copy(package / "data" / "book-7x6.bin")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *(p for p in sys.path if p)])
    for command in (["analyze", "4453", "--json"], ["explain", "4453"]):
        result = subprocess.run(
            [sys.executable, "-m", "gridgames", "connect4", *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            stdin=subprocess.DEVNULL,
        )
        assert result.returncode == 2, (result.stdout, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1 and "corrupt" in result.stderr
        assert result.stdout == ""


def test_verify_checks_every_entry_by_default(tmp_path: Path, cache: Path) -> None:
    book = Book.load(SHIPPED)
    keys = book.keys.copy()
    keys[-1] = keys[-1] + 1  # a key that is no position of the board (still increasing)
    path = tmp_path / "odd.bin"
    Book.from_entries(7, 6, 4, book.depth, keys, book.scores).save(path)
    result = CliRunner().invoke(app, ["connect4", "book", "verify", str(path), "--sample", "2"])
    assert result.exit_code == 1 and "does not hold the positions" in result.stdout
