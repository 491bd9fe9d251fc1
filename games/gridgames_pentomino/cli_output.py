"""What the pentomino commands print: the console, the progress bar, the count line, the --json summary and the
pictures of solutions (text, SVG), and the help texts the commands share."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from gridgames.errors import PuzzleError
from gridgames.game import ProgressCallback, Solution

from gridgames_pentomino.boards import PRESETS
from gridgames_pentomino.lattice_puzzle import LatticePuzzle
from gridgames_pentomino.puzzle import TilingPuzzle

if TYPE_CHECKING:
    from rich.console import Console

    from gridgames.search.tiling.parallel_count import ParallelCount

    from gridgames_pentomino import render

BOARD_HELP = f"A preset ({', '.join(PRESETS)}) or any HxW rectangle."
PIECES_HELP = "Pieces: sets and pieces joined by ',' or '+', e.g. pentominoes+O, tetrominoes*2, 'L*3,tetromino:O'."


def stdout_console(color: bool | None) -> Console:
    """The standard-output console; colour when it is a terminal, unless told otherwise."""
    from rich.console import Console

    if color is None:
        return Console(highlight=False, soft_wrap=True)
    return Console(highlight=False, soft_wrap=True, force_terminal=color, color_system="truecolor" if color else None)


@contextmanager
def progress(description: str, show: bool) -> Iterator[ProgressCallback | None]:
    """The rich progress bar's callback on standard error (only on a terminal), or None."""
    # no bar: neither rich's import nor the searches' progress reports
    if not show or not stderr_may_be_a_terminal():
        yield None
        return
    from gridgames.progress import search_progress

    with search_progress(description) as on_progress:
        yield on_progress


def stderr_may_be_a_terminal() -> bool:
    """False when standard error is surely no terminal for rich (not a TTY, and no variable telling rich otherwise)."""
    if any(os.environ.get(name) for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS")):
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return True


def piece_labels(puzzle: TilingPuzzle | LatticePuzzle) -> list[str]:
    return [p.name if p.count == 1 else f"{p.name}*{p.count}" for p in puzzle.pieces]


def summary(
    puzzle: TilingPuzzle | LatticePuzzle, found: int, unique: bool, seconds: float, partial: bool, limit: int | None
) -> dict[str, Any]:
    """The --json object."""
    out: dict[str, Any] = {
        "board": puzzle.layout.name,
        "pieces": piece_labels(puzzle),
        "one_sided": puzzle.one_sided,
        "solutions": found,
        "unique": unique,
        "seconds": round(seconds, 4),
        "partial": partial,
    }
    if limit is not None:
        out["limit"] = limit
    return out


def count_line(
    puzzle: TilingPuzzle | LatticePuzzle, found: int, unique: bool, seconds: float, partial: bool, parts: str = ""
) -> str:
    what = "solution" if found == 1 else "solutions"
    sym = " up to symmetry" if unique else ""
    tail = (
        f" so far (partial: interrupted after {seconds:.2f} s{parts and '; ' + parts})"
        if partial
        else f" in {seconds:.2f} s"
    )
    tail += f" ({parts})" if parts and not partial else ""
    reason = puzzle.obstruction() if found == 0 else None
    return f"{found:,} {what}{sym} of {puzzle.describe()}{tail}" + (f" ({reason})" if reason else "")


def parts_note(result: ParallelCount) -> str:
    """Where the parts ran and whether all finished, e.g. '2 processes: all 1030 parts finished'."""
    if result.partial:
        why = f": {result.note}" if result.note and result.note != "interrupted" else ""
        return f"{result.parts_done:,} of {result.parts:,} parts finished on {result.runner}{why}"
    reruns = f", {result.reruns} rerun after a worker died" if result.reruns else ""
    return f"{result.runner}: all {result.parts:,} parts finished{reruns}"


def jsonl(index: int, solution: Solution, picture: str) -> str:
    placements = [{"piece": p.piece, "cells": [list(cell) for cell in p.cells]} for p in solution]
    return json.dumps({"solution": index, "placements": placements, "picture": picture})


def solution_text(puzzle: TilingPuzzle | LatticePuzzle, solution: Solution, palette: render.Palette) -> str:
    """A solution as plain text (a lattice puzzle draws its own)."""
    from gridgames_pentomino import render

    if isinstance(puzzle, LatticePuzzle):
        return puzzle.text(solution)
    return render.to_text(puzzle.board, solution, palette)


def write_svg(
    path: Path, puzzle: TilingPuzzle | LatticePuzzle, solutions: list[Solution], palette: render.Palette
) -> None:
    from gridgames_pentomino import render

    if isinstance(puzzle, LatticePuzzle):
        text = puzzle.svg(solutions)
    else:
        text = render.to_svg(puzzle.board, solutions, palette, title=puzzle.describe())
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise PuzzleError(f"cannot write the SVG file {str(path)!r}: {error.strerror or error}") from None
    typer.echo(f"wrote {len(solutions):,} drawing{'s' if len(solutions) != 1 else ''} to {path}", err=True)
