"""Pascal Pons' and Christophe Steininger's Connect Four test sets in the shared benchmark data (never copied here)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
# the shared benchmark data sits in "shared" next to the repository, or next to the folder of git worktrees
_WHERE = Path("shared", "bench", "data", "connect4")
DATA = next((folder / _WHERE for folder in REPO.parents if (folder / _WHERE).is_dir()), REPO.parent / _WHERE)


def read_set(name: str, count: int | None = None) -> list[tuple[str, int]]:
    """(moves, score) lines of one of Pons' test sets, skipping the test when the shared data is absent."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared benchmark data not found at {path}")
    rows = [(moves, int(score)) for moves, score in (line.split() for line in path.read_text().splitlines())]
    return rows[:count] if count else rows
