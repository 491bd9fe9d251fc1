"""``gridgames connect4 book build|info|verify|upgrade``: make, describe, check and convert opening books (CLI layer:
prints here)."""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from gridgames.cli_support import EXIT_INTERRUPTED, check_parallel_options, command_app, whole_number
from gridgames.errors import OptionError
from gridgames.parsing import check_memory

__all__ = ["build_progress", "make_book_app"]


@contextmanager
def build_progress(description: str, *, force: bool = False) -> Iterator[Callable[[int, int], None]]:
    """A context giving ``on_progress(done, total)`` that drives a rich bar with the time left, on standard error."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(file=sys.stderr)
    if not (force or console.is_terminal):
        yield lambda done, total: None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(description, total=None)
        started: list[int] = []

        def on_progress(done: int, total: int) -> None:
            if not started:  # positions read back from a checkpoint do not count for the rate
                started.append(done)
                progress.reset(task, total=total, completed=done)
                return
            progress.update(task, total=total, completed=done)

        yield on_progress


def _check_out(out: Path) -> Path:
    """``out`` if it can name the book file to write, else `OptionError` (an empty --out is the folder '.')."""
    if not out.name or out.name in (".", "..") or out.is_dir():
        raise OptionError(f"--out must name a file to write, not the folder {str(out) or '.'!r}")
    return out


def _check_table(table_bits: int | None) -> None:
    """Refuse, in one line, a --table-bits table that cannot be allocated (8 bytes an entry at most, per process)."""
    if table_bits is not None and 0 < table_bits <= 40:  # the solver names the range itself
        check_memory(8 << table_bits, what=f"--table-bits {table_bits}")


def make_book_app() -> typer.Typer:
    """The ``book`` sub-group: build, info, verify, upgrade."""
    app = command_app("Opening books: build one with the solver, describe it, check it.", no_args_is_help=True)

    @app.command("build")
    def build(
        out: Path = typer.Option(..., "--out", "-o", help="The book file to write (its checkpoint: FILE.partial)."),
        depth: int = typer.Option(
            ..., "--depth", parser=whole_number, help="Solve every position with at most this many discs."
        ),
        width: int = typer.Option(
            7, "--width", parser=whole_number, help="Columns, 4 to 10 (a bit per cell and one per column: at most 64)."
        ),
        height: int = typer.Option(6, "--height", parser=whole_number, help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", parser=whole_number, help="Line length that wins, 3 to 6."),
        jobs: str | None = typer.Option(
            None, "--jobs", "-j", help="Solve in N local processes (0 or auto: one per core)."
        ),
        scheduler: str | None = typer.Option(None, "--scheduler", help="Solve on a Dask cluster: tcp://HOST:8786."),
        table_bits: int | None = typer.Option(
            None,
            "--table-bits",
            parser=whole_number,
            help="Each worker's table: 2^B entries (default 23 on 7x6, about 43 MB).",
        ),
        bounds_from: Path | None = typer.Option(
            None,
            "--bounds-from",
            help="A book of this board at least DEPTH - 1 deep: its scores bound the searched positions' (default: the "
            "shipped book when deep enough).",
        ),
        no_bounds: bool = typer.Option(
            False, "--no-bounds", help="Search every position without bounds from a shallower book."
        ),
    ) -> None:
        """Solve every position up to --depth exactly and write a book; Ctrl-C keeps the work, run again to continue."""
        from gridgames_connect4.solve.book import Book, default_book
        from gridgames_connect4.solve.book_build import build_book, check_bounds_book, checkpoint_path
        from gridgames_connect4.position.rules import Connect4

        check_parallel_options(jobs, scheduler)
        _check_out(out)
        Connect4(width, height, connect)  # the board's ranges, in one line
        _check_table(table_bits)
        if no_bounds and bounds_from is not None:
            raise OptionError("--bounds-from names the book to take bounds from and --no-bounds takes none; choose one")
        bounds = None
        if bounds_from is not None:
            bounds = Book.load(bounds_from)
        elif not no_bounds:
            shipped = default_book(width, height, connect)
            bounds = shipped if shipped is not None and 0 < depth <= shipped.depth + 1 else None
        # a bad option is told before the kernels' first-use build
        if bounds is not None and depth > 0:
            check_bounds_book(bounds, width, height, connect, depth)
        from gridgames_connect4.surfaces.terminal import error_console, prepare_solver

        if scheduler is None:  # the local workers then load the kernels built ahead of time
            prepare_solver(error_console, True)
        # a FIFO or a device is refused next, without a word of resuming
        if checkpoint_path(out).is_file():
            typer.echo(f"Resuming from {checkpoint_path(out)}.", err=True)
        if bounds is not None and depth > 0:
            typer.echo(f"Lower bounds from the depth-{bounds.depth} book {bounds.path}.", err=True)
        with build_progress(f"Book {width}x{height} depth {depth}") as on_progress:
            report = build_book(
                width,
                height,
                connect,
                depth,
                out,
                jobs=jobs if scheduler is None else None,
                scheduler=scheduler,
                table_bits=table_bits,
                on_progress=on_progress,
                bounds=bounds,
            )
        done = report.solved + report.resumed
        if report.partial:
            typer.echo(
                f"Interrupted: {done:,} of the {report.to_search:,} deepest positions searched (the other "
                f"{report.entries - report.to_search:,} are scored from them at the end), kept in "
                f"{report.checkpoint}; run the same command again to continue.",
                err=True,
            )
            raise typer.Exit(EXIT_INTERRUPTED)
        searched = report.solved - report.derived
        rate = searched / report.seconds if report.seconds > 0 else 0.0
        resumed = f" ({report.resumed:,} read back from the checkpoint)" if report.resumed else ""
        reruns = f"; {report.reruns} parts rerun after a worker died" if report.reruns else ""
        typer.echo(
            f"Wrote {report.path}: {report.entries:,} positions{resumed}, {searched:,} searched in "
            f"{report.seconds:.1f} s ({rate:,.1f} positions/s), {report.derived:,} scored from their "
            f"children{reruns}."
        )

    @app.command("info")
    def info(
        file: Path = typer.Argument(..., help="A book file."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Describe a book (after checking it): board, depth, entries by ply and score, checksum."""
        from gridgames_connect4.solve.book import Book

        started = time.perf_counter()
        book = Book.load(file)
        seconds = time.perf_counter() - started
        data = describe(book)
        if as_json:
            typer.echo(json.dumps(data))
            return
        typer.echo(
            f"{file}: Connect Four book, format {data['format']}, {book.width}x{book.height}, lines of {book.connect}"
        )
        typer.echo(
            f"depth {book.depth}: {len(book):,} positions ({data['bytes']:,} bytes, loaded and checked in "
            f"{seconds * 1000:.0f} ms)"
        )
        typer.echo("by ply: " + ", ".join(f"{ply}: {count:,}" for ply, count in data["plies"].items()))
        typer.echo(f"side to move wins {data['wins']:,}, draws {data['draws']:,}, loses {data['losses']:,}")
        root = data["root"]
        typer.echo(f"empty board: {'not in the book' if root is None else f'{root:+d}'}")
        typer.echo(f"sha256 of the entries: {data['sha256']}")

    @app.command("verify")
    def verify(
        file: Path = typer.Argument(..., help="A book file."),
        sample: int = typer.Option(
            100, "--sample", parser=whole_number, help="How many random entries to solve again (0: all)."
        ),
        seed: int = typer.Option(0, "--seed", parser=whole_number, help="Seed for the choice of entries."),
        table_bits: int | None = typer.Option(
            None, "--table-bits", parser=whole_number, help="The solver's table: 2^B entries."
        ),
    ) -> None:
        """Check every entry (each key a position of the board, every shallower score following from the deepest
        ply's), then solve random entries again with the solver (no book) and compare; exit 1 on any difference."""
        from gridgames_connect4.solve.book import Book
        from gridgames_connect4.solve.book_build import BookJob, check_entries, solve_part

        if sample < 0:
            raise typer.BadParameter("--sample must be 0 (all) or positive")
        book = Book.load(file)
        bad_keys, bad_scores, leaves = check_entries(book, repr(str(file)))
        for problem in (bad_keys, bad_scores):
            if problem:
                typer.echo(f"wrong: {problem}")
        if bad_keys:  # keys that are no position of the board: nothing to solve again
            raise typer.Exit(1)
        if not bad_scores:
            typer.echo(
                f"All {len(book):,} keys are the positions of the board to depth {book.depth}; the scores of the "
                f"{len(book) - leaves:,} shallower ones follow from the {leaves:,} of depth {book.depth}."
            )
        chosen = sorted(random.Random(seed).sample(range(len(book)), min(sample or len(book), len(book))))
        keys = book.keys[chosen]
        found = solve_part(BookJob(book.width, book.height, book.connect, table_bits), keys)
        wrong = [(int(k), int(book.scores[i]), int(s)) for i, k, s in zip(chosen, keys, found) if book.scores[i] != s]
        geometry = book.geometry
        for key, stored, solved in wrong[:10]:
            moves = "".join(str(c + 1) for c in geometry.moves_of_key(key))
            typer.echo(f"wrong: {moves or '(empty)'} is {stored:+d} in the book, {solved:+d} by the solver")
        skipped = len(book) - len(chosen)
        typer.echo(
            f"{len(chosen) - len(wrong)} of {len(chosen)} entries right."
            + (f" (solved again; {skipped:,} not solved again: --sample 0 solves all)" if skipped else "")
        )
        if wrong or bad_scores:
            raise typer.Exit(1)

    @app.command("upgrade")
    def upgrade(
        file: Path = typer.Argument(..., help="A book file of format 1 or 2."),
        out: Path | None = typer.Option(
            None, "--out", "-o", help="Where to write the book in the current format [default: FILE itself]."
        ),
        sample: int = typer.Option(
            32, "--sample", parser=whole_number, help="How many entries of the deepest ply to solve again (at least 1)."
        ),
        seed: int = typer.Option(0, "--seed", parser=whole_number, help="Seed for the choice of entries."),
    ) -> None:
        """Check an older book against its header's board (every entry, and a sample solved again), then rewrite it."""
        from gridgames_connect4.solve.book_build import upgrade_legacy

        report = upgrade_legacy(file, None if out is None else _check_out(out), samples=sample, seed=seed)
        typer.echo(
            f"Wrote {report.path}: {report.entries:,} positions, format {report.old_version} -> the current one "
            f"(every entry checked against the header's board, {report.solved} solved again)."
        )

    return app


def describe(book: Any) -> dict[str, Any]:
    """A book's description as JSON-ready data."""
    import numpy as np

    geometry = book.geometry
    plies = geometry.heights(book.keys).sum(axis=1)
    counts = np.bincount(plies, minlength=book.depth + 1) if len(book) else np.zeros(book.depth + 1, dtype=np.int64)
    return {
        "format": book.version,
        "width": book.width,
        "height": book.height,
        "connect": book.connect,
        "depth": book.depth,
        "entries": len(book),
        "bytes": book.file_size,
        "plies": {str(ply): int(n) for ply, n in enumerate(counts.tolist())},
        "wins": int((book.scores > 0).sum()),
        "draws": int((book.scores == 0).sum()),
        "losses": int((book.scores < 0).sum()),
        "root": book.score([]) if geometry.cells else None,
        "sha256": book.checksum.hex(),
    }
