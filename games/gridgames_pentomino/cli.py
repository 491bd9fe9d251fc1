"""The pentomino commands: ``solve`` (also ``gridgames solve pentomino``), ``boards``, ``pieces``, ``show``.

This is the CLI layer: it prints, draws on the terminal and writes files; everything
below it (puzzle, boards, pieces, render) returns data.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import typer

from gridgames.cli_support import EXIT_INTERRUPTED, check_parallel_options, command_app, fail
from gridgames.errors import PuzzleError
from gridgames.game import CountResult, Solution

from gridgames_pentomino.boards import DEFAULT_BOARD, Board
from gridgames_pentomino.pieces import DEFAULT_PIECES, PieceSet
from gridgames_pentomino.lattice_puzzle import LatticePuzzle
from gridgames_pentomino.puzzle import TilingPuzzle
from gridgames_pentomino import cli_browse
from gridgames_pentomino.cli_output import (
    BOARD_HELP,
    PIECES_HELP,
    count_line,
    jsonl,
    parts_note,
    progress,
    solution_text,
    stdout_console,
    summary,
    write_svg,
)


def _puzzle(
    board: str, board_file: Path | None, pieces: str | None, pieces_file: Path | None, one_sided: bool
) -> TilingPuzzle:
    return TilingPuzzle.create(board, pieces, one_sided, board_file=board_file, pieces_file=pieces_file)


_LATTICE_HELP = (
    "Cells: square (the default), triangle, hex or cube; boards and pieces then come from that lattice"
    " (e.g. --lattice triangle --board 6x6 --pieces hexiamonds; --lattice cube --board 2x5x6 --pieces flat-pentacubes)."
)


def solve(
    board: str | None = typer.Option(None, "--board", "-b", help=BOARD_HELP + f" Default: {DEFAULT_BOARD}."),
    board_file: Path | None = typer.Option(
        None, "--board-file", help="A board picture: '.' a cell to fill, '#' or space none."
    ),
    pieces: str | None = typer.Option(None, "--pieces", "-p", help=PIECES_HELP + f" Default: {DEFAULT_PIECES}."),
    pieces_file: Path | None = typer.Option(
        None,
        "--pieces-file",
        help="Pieces separated by blank lines: a name line (NAME or NAME*N), then a '#' picture (added to --pieces if "
        "given).",
    ),
    one_sided: bool = typer.Option(False, "--one-sided", help="Pieces may turn but not flip over."),
    count: bool = typer.Option(False, "--count", "-c", help="Count every solution."),
    limit: int | None = typer.Option(
        None, "--limit", "-n", min=0, help="List up to N solutions (default 1; all with --jsonl)."
    ),
    unique: bool = typer.Option(False, "--unique", "-u", help="One solution per class of the board's symmetries."),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object: board, pieces, solutions (the count), unique, seconds, partial."
    ),
    as_jsonl: bool = typer.Option(
        False, "--jsonl", help="Stream solutions as JSON lines: solution, placements, picture."
    ),
    svg: Path | None = typer.Option(
        None, "--svg", help="Draw the solutions listed (or all, with --count) into an SVG file."
    ),
    mrv: bool = typer.Option(
        False, "--mrv", help="Branch on the most constrained cell instead of the first blank one."
    ),
    prune: bool = typer.Option(
        True, "--prune/--no-prune", help="Abandon placements that wall off an unfillable region."
    ),
    color: bool | None = typer.Option(
        None, "--color/--no-color", help="Colour drawings (default: when printing to a terminal)."
    ),
    jobs: str | None = typer.Option(
        None, "--jobs", "-j", help="Count by independent parts in N local processes (0 or auto: one per core)."
    ),
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Count by parts on a Dask cluster: the scheduler's address, tcp://HOST:8786 (pip install "
        '"gridgames[dask]").',
    ),
    plain: bool = typer.Option(
        False,
        "--plain",
        help="Count or list all tilings by the plain search, not from the distinct ones (orbits under the board's "
        "symmetries).",
    ),
    unlimited: bool = typer.Option(
        False,
        "--unlimited",
        help="Any number of copies of each piece (also: a '*' after every piece term, e.g. 'domino*'): count the "
        "tilings exactly by a frontier dynamic programme.",
    ),
    lattice: str | None = typer.Option(None, "--lattice", "-L", help=_LATTICE_HELP),
) -> None:
    """Solve a tiling puzzle: print the first solution, list some, count them all, or draw them."""
    if as_json and as_jsonl:
        raise fail("--json and --jsonl both write to standard output; choose one")
    pieces, starred = _unlimited_terms(pieces)
    if unlimited or starred:
        refused = {
            "--limit": limit is not None,
            "--jsonl": as_jsonl,
            "--svg": svg is not None,
            "--unique": unique,
            "--mrv": mrv,
            "--no-prune": not prune,
            "--plain": plain,
            "--jobs": jobs is not None,
            "--scheduler": scheduler is not None,
            "--lattice": lattice is not None and lattice.strip().lower() != "square",
        }
        if any(refused.values()):
            raise fail(
                "unlimited copies are counted by the frontier programme in one process, without listing: drop "
                f"{', '.join(k for k, v in refused.items() if v)}"
            )
        _solve_unlimited(
            board if board is not None else DEFAULT_BOARD, board_file, pieces, pieces_file, one_sided, as_json
        )
        return
    if count and limit is not None:
        raise fail("--count goes through every solution; drop --limit (or drop --count to list N)")
    counting = count or (as_json and limit is None)
    parallel = jobs is not None or scheduler is not None
    if parallel:
        _check_parallel(jobs, scheduler, listing=not counting or bool(as_jsonl or svg))
    method = "search" if plain else "auto"
    if lattice is not None and lattice.strip().lower() != "square":
        puzzle: TilingPuzzle | LatticePuzzle = _lattice_puzzle(
            lattice, board, board_file, pieces, pieces_file, one_sided
        )
    else:
        puzzle = _puzzle(board if board is not None else DEFAULT_BOARD, board_file, pieces, pieces_file, one_sided)
    _notice_compiling()
    if parallel and counting:
        _solve_count_parallel(
            puzzle, jobs=jobs, scheduler=scheduler, unique=unique, mrv=mrv, prune=prune, as_json=as_json, method=method
        )
        return
    if counting and not (as_jsonl or svg):
        plain_count = not (unique or plain or mrv or not prune)
        if plain_count and isinstance(puzzle, TilingPuzzle) and _count_by_frontier(puzzle, as_json):
            return
        _solve_count(puzzle, unique=unique, mrv=mrv, prune=prune, as_json=as_json, method=method)
        return
    wanted = None if counting or (as_jsonl and limit is None) else (1 if limit is None else limit)
    _solve_list(
        puzzle,
        wanted,
        unique=unique,
        mrv=mrv,
        prune=prune,
        as_json=as_json,
        as_jsonl=as_jsonl,
        svg=svg,
        counting=counting,
        color=color,
        method=method,
    )


def _notice_compiling() -> None:
    """Say that numba compiles the tiling kernels now when the module built with the package does not serve (no C
    compiler at install, ``GRIDGAMES_TILING_JIT``, or it does not verify) and numba has none cached."""
    from gridgames.search import tiling

    if not tiling.kernels_compiled():
        typer.echo("Compiling the tiling kernels (first use only, about 15 s)...", err=True)


def _unlimited_terms(spec: str | None) -> tuple[str | None, bool]:
    """The piece specification without a trailing '*' on its terms, and whether they had one (any number of copies)."""
    if spec is None:
        return None, False
    terms = [t.strip() for t in re.split(r"[,+]", spec)]
    starred = [t.endswith("*") for t in terms]
    if not any(starred):
        return spec, False
    if not all(starred):
        raise fail(
            "a '*' without a number means any number of copies: put it after every piece term (e.g. "
            "'domino*,tromino:L*') or use --unlimited"
        )
    return ",".join(t[:-1].strip() for t in terms), True


def _solve_unlimited(
    board: str, board_file: Path | None, spec: str | None, pieces_file: Path | None, one_sided: bool, as_json: bool
) -> None:
    """--unlimited (or 'domino*'): the exact count by the frontier programme, with progress; Ctrl-C stops it (no partial
    count)."""
    from gridgames.search.frontier import count_tilings, fixed_shapes, frontier_span

    layout = Board.from_file(board_file) if board_file is not None else Board.parse(board)
    if layout.area == 0:
        raise PuzzleError(f"the board {layout.name} has no cells to fill")
    parts = (
        [PieceSet.parse(spec if spec is not None else DEFAULT_PIECES)]
        if spec is not None or pieces_file is None
        else []
    ) + ([PieceSet.from_file(pieces_file)] if pieces_file is not None else [])
    piece_set = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    shapes = fixed_shapes(piece_set.pieces, one_sided)
    names = ", ".join(p.name for p in piece_set)
    what = f"{layout.name} ({layout.area} cells) with any number of {names}{', one-sided' if one_sided else ''}"
    started = time.perf_counter()
    try:
        with progress(f"Counting {layout.name}", frontier_span(layout.grid, shapes) >= 16) as on_progress:
            found = count_tilings(
                layout.grid, shapes, None if on_progress is None else (lambda fraction: on_progress(fraction, 0))
            )
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted after {time.perf_counter() - started:.2f} s: the frontier count of {what} has no partial "
            "result",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    seconds = time.perf_counter() - started
    if as_json:
        out = {
            "board": layout.name,
            "pieces": [p.name for p in piece_set],
            "unlimited": True,
            "one_sided": one_sided,
            "solutions": found,
            "unique": False,
            "seconds": round(seconds, 4),
            "partial": False,
            "method": "frontier",
        }
        typer.echo(json.dumps(out))
    else:
        typer.echo(f"{found:,} tiling{'' if found == 1 else 's'} of {what} in {seconds:.2f} s")


def _lattice_puzzle(
    lattice: str,
    board: str | None,
    board_file: Path | None,
    pieces: str | None,
    pieces_file: Path | None,
    one_sided: bool,
) -> LatticePuzzle:
    from gridgames.errors import ShapeError

    try:
        return LatticePuzzle.create(lattice, board, pieces, one_sided, board_file=board_file, pieces_file=pieces_file)
    except ShapeError as error:  # an unknown lattice name
        raise PuzzleError(str(error)) from None


def _count_by_frontier(puzzle: TilingPuzzle, as_json: bool) -> bool:
    """Count by the frontier programme when every piece is a copy of one and the copies cover the board exactly.

    Then each tiling of the board by any number of copies uses exactly that many, so the frontier count (seconds,
    memory by the board's narrow side) is the count: 'domino*500' on 2x500 (about 10^104 tilings, which the search
    would list one by one for ever) is exact at once. False (nothing printed) where it does not apply.
    """
    pieces = list(puzzle.pieces)
    if len(pieces) != 1 or pieces[0].area != puzzle.layout.area:
        return False
    # imports numba
    from gridgames.search.frontier import MAX_SPAN, count_tilings, fixed_shapes, frontier_span

    shapes = fixed_shapes(pieces, puzzle.one_sided)
    span = frontier_span(puzzle.layout.grid, shapes)
    if span > MAX_SPAN:
        return False
    started = time.perf_counter()
    try:
        with progress(f"Counting {puzzle.layout.name}", span >= 16) as on_progress:
            report = None if on_progress is None else (lambda fraction: on_progress(fraction, 0))
            found = count_tilings(puzzle.layout.grid, shapes, report)
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted after {time.perf_counter() - started:.2f} s: the frontier count of {puzzle.describe()} "
            "has no partial result",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    seconds = time.perf_counter() - started
    if as_json:
        typer.echo(json.dumps(summary(puzzle, found, False, seconds, False, None) | {"method": "frontier"}))
    else:
        typer.echo(count_line(puzzle, found, False, seconds, False))
    return True


def _solve_count(
    puzzle: TilingPuzzle | LatticePuzzle, *, unique: bool, mrv: bool, prune: bool, as_json: bool, method: str = "auto"
) -> None:
    """--count (and --json): count every solution with the fast counter."""
    verb = "Counting distinct" if unique else "Counting"
    with progress(f"{verb} {puzzle.layout.name}", True) as on_progress:
        result: CountResult = puzzle.count(unique=unique, on_progress=on_progress, mrv=mrv, prune=prune, method=method)
    if as_json:
        typer.echo(
            json.dumps(
                summary(puzzle, result.count, unique, result.seconds, result.partial, None) | {"method": result.method}
            )
        )
    else:
        typer.echo(count_line(puzzle, result.count, unique, result.seconds, result.partial))
    if result.partial:
        raise typer.Exit(EXIT_INTERRUPTED)


def _check_parallel(jobs: str | None, scheduler: str | None, *, listing: bool) -> None:
    """Refuse, in one line, what parallel runs do not do; check --jobs and that Dask is installed."""
    if listing and not (jobs is not None and scheduler is not None):
        raise fail(
            "--jobs and --scheduler count in parallel (--count or --json); listing solutions (--limit, --jsonl, --svg) "
            "runs in one process"
        )
    check_parallel_options(jobs, scheduler)


def _solve_count_parallel(
    puzzle: TilingPuzzle | LatticePuzzle,
    *,
    jobs: str | None,
    scheduler: str | None,
    unique: bool,
    mrv: bool,
    prune: bool,
    as_json: bool,
    method: str = "auto",
) -> None:
    """--count (and --json) with --jobs or --scheduler: count independent parts in parallel and add them up."""
    from gridgames.progress import search_progress_later

    verb = "Counting distinct" if unique else "Counting"
    with search_progress_later(f"{verb} {puzzle.layout.name}") as on_progress:
        result = puzzle.count_parallel(
            jobs=jobs, scheduler=scheduler, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune, method=method
        )
    if as_json:
        out = summary(puzzle, result.count, unique, result.seconds, result.partial, None)
        out.update(parts=result.parts, parts_done=result.parts_done, reruns=result.reruns, method=result.method)
        out.update({"note": result.note} if result.partial and result.note else {})
        out.update({"scheduler": result.scheduler} if result.scheduler else {"jobs": result.workers})
        typer.echo(json.dumps(out))
    else:
        typer.echo(
            count_line(
                puzzle,
                result.count,
                unique,
                result.seconds,
                result.partial,
                parts_note(result) if result.parts else "",
            )
        )
    if result.partial:
        raise typer.Exit(EXIT_INTERRUPTED)


def _solve_list(
    puzzle: TilingPuzzle | LatticePuzzle,
    wanted: int | None,
    *,
    unique: bool,
    mrv: bool,
    prune: bool,
    as_json: bool,
    as_jsonl: bool,
    svg: Path | None,
    counting: bool,
    color: bool | None,
    method: str = "auto",
) -> None:
    """List solutions (up to ``wanted``, or all): draw them, stream them as JSON lines, collect them for SVG."""
    from gridgames_pentomino import render

    palette = render.Palette.for_pieces(puzzle.pieces.names)
    console = stdout_console(color)
    draw = not (as_json or as_jsonl or counting)
    drawings: list[Solution] = []
    found = 0
    partial = False
    start = time.perf_counter()
    show_bar = wanted != 1
    verb = "Listing distinct" if unique else "Listing"
    try:
        with progress(f"{verb} {puzzle.layout.name}", show_bar) as on_progress:
            for solution in puzzle.solutions(
                limit=wanted, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune, method=method
            ):
                found += 1
                if as_jsonl:
                    typer.echo(jsonl(found, solution, solution_text(puzzle, solution, palette)))
                elif draw:
                    if wanted != 1:
                        typer.echo(f"Solution {found}:")
                    if isinstance(puzzle, LatticePuzzle):
                        picture = puzzle.text(solution)
                        if console.is_terminal:
                            console.print(render.lattice_rich(picture, palette))
                        else:
                            typer.echo(picture)
                    elif console.is_terminal:
                        console.print(render.to_rich(puzzle.board, solution, palette))
                    else:
                        typer.echo(render.to_text(puzzle.board, solution, palette))
                    if wanted != 1:
                        typer.echo("")
                if svg is not None:
                    drawings.append(solution)
    except KeyboardInterrupt:
        partial = True
    seconds = time.perf_counter() - start
    if svg is not None:
        write_svg(svg, puzzle, drawings, palette)
    if as_json:
        typer.echo(json.dumps(summary(puzzle, found, unique, seconds, partial, wanted)))
    elif counting or partial:
        typer.echo(count_line(puzzle, found, unique, seconds, partial), err=as_jsonl)
    elif found == 0:
        reason = puzzle.obstruction()
        typer.echo(f"no solution: {puzzle.describe()}" + (f" ({reason})" if reason else ""), err=as_jsonl)
    elif wanted != 1 and not as_jsonl:
        sym = " up to symmetry" if unique else ""
        more = f" (limit {wanted})" if wanted is not None and found == wanted else " (all)"
        typer.echo(f"{found:,} solution{'s' if found != 1 else ''}{sym} shown{more}")
    if partial:
        raise typer.Exit(EXIT_INTERRUPTED)


def make_app() -> typer.Typer:
    """The pentomino sub-app: solve, boards, pieces, show."""
    app = command_app(
        "Tile boards with pentominoes (or any polyominoes): solve, count, list boards and pieces.", no_args_is_help=True
    )
    app.command("solve")(solve)
    app.command("boards")(cli_browse.boards)
    app.command("pieces")(cli_browse.pieces)
    app.command("show")(cli_browse.show)
    return app


if __name__ == "__main__":  # pragma: no cover
    sys.exit(make_app()())
