"""The generic ``solve`` command of puzzles, built from the `Puzzle` API.

``gridgames solve GAME`` draws a solution (``--limit N``: up to N; pieces by name,
outlined, `Puzzle.to_text`), writes them as SVG (``--svg FILE``, `Puzzle.svg`), counts
them (``--count``; ``--unique``: one per class of the puzzle's declared symmetries, the
method and its assumption printed) with a progress bar and time estimate on standard
error, in parallel for tilings (``--jobs N`` local processes, ``--scheduler ADDRESS`` a
Dask cluster), and reports as one JSON object (``--json``) or one line per solution
(``--jsonl``). JSON holds the placements as data, so it never depends on drawing.
Ctrl-C stops a count and reports the partial count as partial.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from gridgames.cli_generic import _command, _game_options, _game_parameters, _keyword, _summary_help
from gridgames.cli_support import EXIT_INTERRUPTED, check_parallel_options
from gridgames.errors import GridGamesError, OptionError, PluginError
from gridgames.files import write_user_text
from gridgames.game import Puzzle, Solution
from gridgames.progress import search_progress, search_progress_later

__all__ = ["solve_command", "solution_data"]

SOLVE_OPTIONS = ("count", "limit", "unique", "json", "jsonl", "svg", "jobs", "scheduler")


def solve_command(spec: Any) -> Any:
    """The generic ``solve`` command of a puzzle, as a click command."""
    parameters = [
        _keyword("count", False, bool, "--count", help_text="count every solution instead of drawing one"),
        _keyword("limit", None, int | None, "--limit", help_text="draw up to this many solutions"),
        _keyword(
            "unique", False, bool, "--unique", help_text="one solution per class of the puzzle's declared symmetries"
        ),
        _keyword(
            "as_json",
            False,
            bool,
            "--json",
            help_text="print one JSON object (game, options, solutions, placements, ...)",
        ),
        _keyword(
            "as_jsonl",
            False,
            bool,
            "--jsonl",
            help_text="print one JSON line per solution (its placements), then a summary line",
        ),
        _keyword("svg", None, Path | None, "--svg", help_text="draw the solutions listed into an SVG file"),
        _keyword(
            "jobs",
            None,
            str | None,
            "--jobs",
            "-j",
            help_text="count in N local processes (0 or auto: one per core; tilings)",
        ),
        _keyword(
            "scheduler", None, str | None, "--scheduler", help_text="count on a Dask cluster: tcp://HOST:8786 (tilings)"
        ),
        *_game_parameters(spec, SOLVE_OPTIONS),
    ]

    def body(
        count: bool,
        limit: int | None,
        unique: bool,
        as_json: bool,
        as_jsonl: bool,
        svg: Path | None,
        jobs: str | None,
        scheduler: str | None,
        **values: Any,
    ) -> int:
        options = _game_options(spec, values)
        if limit is not None and limit < 1:
            raise OptionError(f"--limit must be at least 1, got {limit}")
        if as_json and as_jsonl:
            raise OptionError("--json prints one object and --jsonl one line per solution; choose one")
        if jobs is not None or scheduler is not None:
            if not count:
                raise OptionError(
                    "--jobs and --scheduler count in parallel (with --count); drawing solutions runs in one process"
                )
            check_parallel_options(jobs, scheduler)
        puzzle = spec.make(**options)
        if not isinstance(puzzle, Puzzle):
            raise PluginError(f"{spec.name} is declared a puzzle but creates a {type(puzzle).__name__}")
        all_options = {o.name: o.default for o in spec.options} | options
        if count and not (svg or as_jsonl):
            return _count(spec.name, puzzle, all_options, unique, as_json, jobs, scheduler)
        return _draw(spec.name, puzzle, all_options, limit, unique, as_json, as_jsonl, svg, count)

    return _command("solve", _summary_help("Solve", spec), parameters, body)


def solution_data(solution: Solution) -> list[dict[str, Any]]:
    """A solution as JSON data: one ``{"piece", "cells"}`` object per placement."""
    return [{"piece": p.piece, "cells": [list(c) for c in p.cells]} for p in solution]


def _report(
    game: str, options: dict[str, Any], solutions: int, unique: bool, partial: bool, seconds: float, **extra: Any
) -> str:
    return json.dumps(
        {
            "game": game,
            "options": options,
            "solutions": solutions,
            "unique": unique,
            "partial": partial,
            "seconds": round(seconds, 6),
            **extra,
        }
    )


def _count(
    name: str,
    puzzle: Puzzle,
    options: dict[str, Any],
    unique: bool,
    as_json: bool,
    jobs: str | None,
    scheduler: str | None,
) -> int:
    extra: dict[str, Any] = {}
    if jobs is not None or scheduler is not None:
        counter = getattr(puzzle, "count_parallel", None)
        if counter is None:
            raise OptionError(
                f"{name} does not count in parallel (its puzzle has no count_parallel); drop --jobs/--scheduler"
            )
        with search_progress_later(f"Counting {name}") as on_progress:
            parallel = counter(jobs=jobs, scheduler=scheduler, unique=unique, on_progress=on_progress)
        result = parallel.as_count_result()
        extra = {"parts": parallel.parts, "parts_done": parallel.parts_done}
        extra.update({"scheduler": parallel.scheduler} if parallel.scheduler else {"jobs": parallel.workers})
        if parallel.note:
            extra["note"] = parallel.note
        group = getattr(puzzle, "placement_group", None)
        method = (group().describe() if unique and group else "all") + "; tiling kernel"
    else:
        with search_progress(f"Counting {name}") as on_progress:
            result = puzzle.count(unique=unique, on_progress=on_progress)
        method = result.method
    if as_json:
        typer.echo(_report(name, options, result.count, unique, result.partial, result.seconds, method=method, **extra))
        return EXIT_INTERRUPTED if result.partial else 0
    plural = "" if result.count == 1 else "s"
    what = f"distinct solution{plural} (up to symmetry)" if unique else f"solution{plural}"
    partial = " -- partial count: interrupted before the end" if result.partial else ""
    parts = f" ({extra['parts_done']}/{extra['parts']} parts)" if extra else ""
    typer.echo(f"{result.count:,} {what} in {result.seconds:.2f} s{parts}{partial}")
    if unique:
        typer.echo(f"symmetry: {method}")
    return EXIT_INTERRUPTED if result.partial else 0


def _picture(puzzle: Puzzle, solution: Solution) -> str | None:
    """The solution's text picture, or None when the puzzle's own drawing fails (JSON never depends on it)."""
    try:
        return puzzle.to_text(solution)
    except (GridGamesError, ValueError, KeyError, IndexError):
        return None


def _draw(
    name: str,
    puzzle: Puzzle,
    options: dict[str, Any],
    limit: int | None,
    unique: bool,
    as_json: bool,
    as_jsonl: bool,
    svg: Path | None,
    counting: bool,
) -> int:
    started = time.perf_counter()
    found: list[Solution] = []
    partial = False
    wanted = None if counting else (limit or 1)
    try:
        with search_progress(f"Solving {name}") as on_progress:
            for solution in puzzle.solutions(limit=wanted, unique=unique, on_progress=on_progress):
                found.append(solution)
                if as_jsonl:
                    typer.echo(json.dumps({"index": len(found), "placements": solution_data(solution)}))
    except KeyboardInterrupt:
        partial = True
    seconds = time.perf_counter() - started
    if svg is not None:
        from gridgames.drawing import svg_document

        drawings = [puzzle.svg(solution, title=f"{name} solution {i}") for i, solution in enumerate(found, start=1)]
        path = write_user_text(svg, svg_document(drawings, title=f"{name}: {len(found)} solution(s)"), what="SVG file")
    if as_jsonl:
        typer.echo(_report(name, options, len(found), unique, partial, seconds))
        return EXIT_INTERRUPTED if partial else 0
    if as_json:
        pictures = [_picture(puzzle, s) for s in found]
        typer.echo(
            _report(
                name,
                options,
                len(found),
                unique,
                partial,
                seconds,
                placements=[solution_data(s) for s in found],
                pictures=pictures,
            )
        )
        return EXIT_INTERRUPTED if partial else 0
    if not found:
        typer.echo("interrupted before a solution was found" if partial else "no solution")
        return EXIT_INTERRUPTED if partial else 0
    if svg is None:
        typer.echo("\n\n".join(_picture(puzzle, s) or "(the puzzle could not draw this solution)" for s in found))
    else:
        typer.echo(f"{len(found)} solution{'s' if len(found) != 1 else ''} drawn to {path}")
    if svg is None and (limit is not None or partial):
        typer.echo(
            f"\n{len(found)} solution{'s' if len(found) != 1 else ''} shown" + (" (interrupted)" if partial else "")
        )
    return EXIT_INTERRUPTED if partial else 0
