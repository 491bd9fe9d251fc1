"""Puzzles in the browser: build one (options, a preset, or a pasted board and pieces), list solutions, count them.

Solutions are listed from one resumable stream per puzzle (``list`` continues where the
last stopped); a session keeps at most `MAX_KEPT` of them (the oldest are dropped, their
numbers stay). Counting reports its progress and stops when cancelled or out of time,
with the count so far marked partial.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from gridgames.game import GameSpec, Puzzle, Solution
from gridgames.web.hooks import has
from gridgames.web.jobs import Budget, Job
from gridgames.web.sessions import PuzzleRun
from gridgames.web.validate import WebError, boolean, integer, option_values, text

__all__ = [
    "MAX_CELLS",
    "MAX_COPIES",
    "MAX_KEPT",
    "MAX_SETUP",
    "KEPT_CELLS",
    "MAX_SIDE",
    "check_size",
    "kept_limit",
    "count_work",
    "export_json",
    "list_work",
    "new_run",
    "solution_view",
    "view",
]

MAX_KEPT = 2000
MAX_LIST = 500
MAX_BOARD_TEXT = 5000
KEPT_CELLS = 120_000
"""The most cells of listed solutions a session keeps (`MAX_KEPT` solutions of 60 cells; fewer of bigger boards: 100
solutions of 2x500 dominoes held 18 MB)."""
MAX_SIDE = 1000
"""The most rows or columns of a board the web serves (a picture's size grows with them)."""
MAX_CELLS = 10_000
"""The most cells of a board the web serves: every picture stays small (a 100x100 board's SVG is 2.6 MB, where a
1000x1000 one was 116 MB)."""
MAX_COPIES = 1024
"""The most pieces (copies included) of a puzzle the web serves: the set-up before a tiling's first solution grows
with them (the colouring pre-check was quadratic in them once: 10,000 monominoes took 52 s)."""
MAX_SETUP = 8_000
"""The most distinct pieces times board cells of a puzzle the web serves: its set-up's memory grows with both (on a
pasted 16x16 board, 128 distinct dominoes peaked at 239 MB, 200 on 20x20 at 475 MB, 400 on 20x40 at 1,229 MB) and so
does its time, which no cancel can cut short (the 12 pentominoes on 30x30, 10,800: 5.7 s and 230 MB before the search
starts; on 20x30, 7,200: 0.6 s and 55 MB)."""


def check_size(thing: Any, name: str) -> None:
    """Refuse a puzzle or game state too large for the web (`MAX_SIDE`, `MAX_CELLS`, `MAX_COPIES`, `MAX_SETUP`), before
    any work."""
    board = getattr(thing, "board", None)
    # a state's board is a method, a puzzle's a property
    board = board() if callable(board) else board
    height, width = getattr(board, "height", None), getattr(board, "width", None)
    if not isinstance(height, int) or not isinstance(width, int):
        return  # no grid board: nothing to measure
    if height > MAX_SIDE or width > MAX_SIDE or height * width > MAX_CELLS:
        raise WebError(
            f"{name}: a {height}x{width} board is too large for the web page (at most {MAX_SIDE} rows or columns "
            f"and {MAX_CELLS} cells; the terminal commands have no such bound)",
            413,
        )
    pieces = getattr(thing, "pieces", None)
    if isinstance(thing, Puzzle) and pieces is not None and hasattr(pieces, "__iter__"):
        area = getattr(board, "area", height * width)
        listed, cells = list(pieces), int(area() if callable(area) else area)
        copies = sum(int(getattr(piece, "count", 1) or 1) for piece in listed)
        if copies > MAX_COPIES:
            raise WebError(
                f"{name}: {copies} pieces cost too much to set up for the web page (at most {MAX_COPIES}, copies "
                "included; the terminal commands have no such bound)",
                413,
            )
        distinct = len(listed)
        if distinct * cells > MAX_SETUP:
            raise WebError(
                f"{name}: {distinct} distinct pieces on {cells} cells cost too much to set up for the web page "
                f"(at most {MAX_SETUP:,} pieces x cells; copies of one piece count once)",
                413,
            )


def new_run(spec: GameSpec, hooks: Any, data: dict[str, Any]) -> PuzzleRun:
    """A puzzle from ``{"options": {...}}`` or, when the game can read them, ``{"board": PICTURE, "pieces": TEXT}``
    or ``{"preset": NAME}`` (a preset the options cannot express)."""
    if "preset" in data:
        if not has(hooks, "preset_puzzle"):
            raise WebError(f"{spec.name} has no presets beyond its options; give its options")
        name = text(data, "preset", limit=100)
        puzzle = hooks.preset_puzzle(name)
        source: dict[str, Any] = {"preset": name}
    elif "board" in data:
        if not has(hooks, "puzzle_from_text"):
            raise WebError(f"{spec.name} does not read pasted boards; give its options")
        board = text(data, "board", limit=MAX_BOARD_TEXT)
        pieces = text(data, "pieces", "", limit=MAX_BOARD_TEXT)
        one_sided = boolean(data, "one_sided")
        puzzle = hooks.puzzle_from_text(board, pieces, one_sided)
        source = {"board": board, "pieces": pieces, "one_sided": one_sided}
    else:
        options = option_values(spec, data.get("options"))
        puzzle = spec.make(**options)
        source = {"options": options}
    if not isinstance(puzzle, Puzzle):
        raise WebError(f"{spec.name} is a turn-based game, not a puzzle")
    check_size(puzzle, spec.name)
    return PuzzleRun(spec.name, puzzle, source)


def _describe(puzzle: Puzzle) -> str:
    describe = getattr(puzzle, "describe", None)
    return str(describe()) if callable(describe) else type(puzzle).__name__


def view(run: PuzzleRun) -> dict[str, Any]:
    """What the page shows of a puzzle: its description, the empty board, the solutions listed, the last count."""
    return {
        "game": run.name,
        "source": run.source,
        "describe": _describe(run.puzzle),
        "board_svg": run.puzzle.svg(()),
        "listed": run.first + len(run.solutions),
        "kept_from": run.first,
        "exhausted": run.exhausted,
        "count": run.count,
    }


def _stream(run: PuzzleRun, budget: Budget) -> Iterator[Solution]:
    """The run's stream of solutions, watched by this job's budget (a new stream skips what was listed before)."""
    run.budget = budget
    if run.stream is None:
        stream = iter(
            run.puzzle.solutions(on_progress=lambda fraction, found: run.budget.check() if run.budget else None)
        )
        # after a stopped listing: the order is the same every time
        for _ in range(run.first + len(run.solutions)):
            next(stream)
        run.stream = stream
    return run.stream


def kept_limit(run: PuzzleRun) -> int:
    """How many solutions the run keeps: `MAX_KEPT`, fewer on a board of more than 60 cells (`KEPT_CELLS`), at least
    20."""
    return max(20, min(MAX_KEPT, KEPT_CELLS // max(1, run.puzzle.board.area)))


def list_work(
    run: PuzzleRun, data: dict[str, Any], lock: Any, trim: Callable[[PuzzleRun], object] | None = None
) -> tuple[Any, Any]:
    """List the next ``n`` solutions (a job; at most what the run keeps): they join the run's kept solutions.

    ``trim`` (`SessionStore.trim_solutions`) then keeps the solutions of every session within the server's bound.
    """
    n = integer(data, "n", 20, 1, MAX_LIST) or 20
    n = min(n, kept_limit(run))
    if run.exhausted:
        raise WebError("every solution is listed already", 409)
    found: list[Solution] = []

    def work(budget: Budget) -> dict[str, Any]:
        try:
            stream = _stream(run, budget)
            while len(found) < n and budget.keep_going():
                try:
                    found.append(next(stream))
                    budget.report(len(found) / n, len(found), f"{len(found)} of {n} solutions")
                except StopIteration:
                    run.exhausted = True
                    break
        # stopped inside the search: the stream is spent, a new one resumes next time
        except KeyboardInterrupt:
            run.stream = None
        # what was found is dropped: so is the stream, which went past it
        if budget.stopped == "cancelled":
            run.stream = None
        return {"found": len(found), "exhausted": run.exhausted}

    def done(job: Job) -> None:
        with lock:
            run.solutions.extend(found)
            overflow = len(run.solutions) - kept_limit(run)
            if overflow > 0:
                del run.solutions[:overflow]
                run.first += overflow
            if trim is not None:
                trim(run)
            job.result["listed"] = run.first + len(run.solutions)

    return work, done


def count_work(run: PuzzleRun, data: dict[str, Any], lock: Any) -> tuple[Any, Any]:
    """Count every solution (or one per symmetry class) as a job; progress, cancellable, partial when stopped."""
    unique = boolean(data, "unique")

    def work(budget: Budget) -> dict[str, Any]:
        def progress(fraction: float, found: int) -> None:
            budget.report(fraction, found, f"{found:,} solutions so far")
            budget.check()

        result = run.puzzle.count(unique=unique, on_progress=progress)
        counted = {
            "count": result.count,
            "partial": bool(result.partial or budget.stopped),
            "unique": unique,
            "seconds": round(result.seconds, 3),
            "stopped": budget.stopped,
        }
        # `done` runs only for jobs not cancelled: a cancelled count is kept here
        if budget.stopped == "cancelled":
            with lock:
                run.count = counted
        return counted

    def done(job: Job) -> None:
        with lock:
            run.count = job.result

    return work, done


def _solution(run: PuzzleRun, number: int) -> Solution:
    index = number - 1 - run.first
    if not 0 <= index < len(run.solutions):
        kept = f"{run.first + 1} to {run.first + len(run.solutions)}" if run.solutions else "none yet"
        raise WebError(f"solution {number} is not listed (listed and kept: {kept})", 404)
    return run.solutions[index]


def solution_view(run: PuzzleRun, number: int) -> dict[str, Any]:
    """Solution ``number`` (1 first): its SVG, text and placements."""
    solution = _solution(run, number)
    return {
        "number": number,
        "svg": run.puzzle.svg(solution, title=f"solution {number}"),
        "text": run.puzzle.to_text(solution),
        "placements": [{"piece": p.piece, "cells": [list(c) for c in p.cells]} for p in solution],
        "valid": run.puzzle.is_solution(solution),
    }


def solution_svg(run: PuzzleRun, number: int) -> str:
    """Solution ``number`` as a standalone SVG document."""
    return run.puzzle.svg(_solution(run, number), title=f"{run.name} solution {number}")


def export_json(run: PuzzleRun) -> str:
    """The puzzle and its kept solutions as JSON (placements as piece names and cells)."""
    data = {
        "game": run.name,
        "puzzle": _describe(run.puzzle),
        "source": run.source,
        "first": run.first + 1,
        "solutions": [[{"piece": p.piece, "cells": [list(c) for c in p.cells]} for p in s] for s in run.solutions],
        "count": run.count,
    }
    return json.dumps(data, indent=1) + "\n"
