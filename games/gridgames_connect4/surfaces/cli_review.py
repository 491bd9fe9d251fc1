"""``gridgames connect4 review MOVES``: a finished (or unfinished) game, move by move, with its mistakes (CLI layer).

A review that takes more than a second shows its progress on standard error (moves reviewed, of how many); Ctrl-C
prints the moves reviewed so far, marked partial, and exits with code 130. A review stops after ``--think`` seconds
(default `DEFAULT_REVIEW_SECONDS`): the moves not reviewed by then are listed, marked partial (exit code 0).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer

from gridgames.cli_support import EXIT_INTERRUPTED, whole_number
from gridgames.errors import OptionError
from gridgames.parsing import check_seconds

if TYPE_CHECKING:
    from rich.console import Console

    from gridgames_connect4.position.rules import Connect4State

__all__ = [
    "BOOK_HELP",
    "DEFAULT_REVIEW_SECONDS",
    "NO_BOOK_HELP",
    "ReviewProgress",
    "choose_book",
    "register",
    "review_lines",
    "review_text",
    "run_review",
]

BOOK_HELP = "Use this opening book (default: the one shipped for the board, if any)."
NO_BOOK_HELP = "Use no opening book: the solver alone."
DEFAULT_REVIEW_SECONDS = 60.0
"""How long a review may take unless ``--think`` says otherwise: an opening without a book can take days."""


def choose_book(width: int, height: int, connect: int, book: Path | None, no_book: bool) -> Any:
    """The book a command uses: --book FILE, none with --no-book, else the one shipped for the board (or none)."""
    from gridgames_connect4.solve.book import Book, default_book

    if book is not None and no_book:
        raise OptionError("--book FILE and --no-book contradict each other; choose one")
    if no_book:
        return None
    if book is not None:
        return Book.load(book, width=width, height=height, connect=connect)
    return default_book(width, height, connect)


class ReviewProgress:
    """A review's progress on standard error: after a second, a bar of the moves reviewed (only on a terminal)."""

    DELAY = 1.0

    def __init__(self, err: Console | None = None) -> None:
        if err is None:
            from gridgames_connect4.surfaces.terminal import error_console

            err = error_console()
        self.err = err
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None
        self.noticed = False

    def __enter__(self) -> ReviewProgress:
        return self

    def update(self, reviewed: int, total: int) -> None:
        """Show that ``reviewed`` of ``total`` moves are reviewed (and, once, that the solver compiles on first use)."""
        if not self.noticed and reviewed < total:
            self.noticed = True
            from gridgames_connect4.solve.solver import kernels_compiled

            if not kernels_compiled():
                self.err.print("Compiling the Connect Four solver (first use only)...", markup=False, highlight=False)
        if time.perf_counter() - self.start < self.DELAY or not self.err.is_terminal:
            return
        if self.bar is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("Reviewing: moves"),
                MofNCompleteColumn(),
                BarColumn(),
                TimeElapsedColumn(),
                console=self.err,
                transient=True,
            )
            self.task = self.bar.add_task("review", total=total)
            self.bar.start()
        self.bar.update(self.task, completed=reviewed, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def run_review(
    game: Any,
    moves: Any,
    book: Any,
    start: int = 1,
    first: str = "red",
    think: float = DEFAULT_REVIEW_SECONDS,
    inaccuracy_moves: int = 2,
) -> tuple[Any, float]:
    """The review of ``moves`` (0-based) from move ``start``, with progress on stderr (Ctrl-C: partial), and its
    seconds.

    ``first``: the colour of the player who moved first (the review names the players by colour); ``think``: the
    seconds the review may take (then it stops, partial).
    """
    from gridgames_connect4.surfaces.render import colour_names
    from gridgames_connect4.teach.review import review_game

    started = time.perf_counter()
    deadline = time.monotonic() + think

    def keep_going() -> bool:
        return time.monotonic() < deadline

    with ReviewProgress() as progress:
        report = review_game(
            game,
            moves,
            book=book,
            first=start,
            on_progress=progress.update,
            keep_going=keep_going,
            keep_partial=True,
            colours=colour_names(first),
            inaccuracy_moves=inaccuracy_moves,
        )
    return report, time.perf_counter() - started


def review_lines(
    game: Any, moves: Any, book: Any, start: int = 1, first: str = "red", think: float = DEFAULT_REVIEW_SECONDS
) -> list[str]:
    """The text of ``gridgames connect4 review``: the review of ``moves`` (0-based) from move ``start``, then its
    timing."""
    report, seconds = run_review(game, moves, book, start, first, think)
    return review_text(report, seconds, book, think)


def review_text(report: Any, seconds: float, book: Any, think: float = DEFAULT_REVIEW_SECONDS) -> list[str]:
    """The lines ``review`` prints: the review of ``report``, then its timing (and why it stopped early)."""
    from gridgames_connect4.teach.review import STOPPED

    source = f"; {report.from_book} position(s) from the book" if book is not None else ""
    lines = [*report.lines(), f"Reviewed {len(report.reviews)} move(s) in {seconds:.1f} s{source}."]
    if report.stopped == STOPPED:
        lines.append(
            f"The review stopped at its time budget ({think:g} s): give more with --think SECONDS, "
            "or review from a later move with --from N."
        )
    return lines


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the connect4 app."""

    @app.command("review")
    def review(
        moves: str = typer.Argument("", help="The game's moves: '4453' or '4,4,5,3' (1-based columns)."),
        width: int | None = typer.Option(None, "--width", parser=whole_number, help="Columns, 4 to 10 (default 7)."),
        height: int | None = typer.Option(None, "--height", parser=whole_number, help="Rows, 4 to 10 (default 6)."),
        connect: int | None = typer.Option(
            None, "--connect", parser=whole_number, help="Line length that wins, 3 to 6 (default 4)."
        ),
        load: Path | None = typer.Option(None, "--load", help="Review a game saved with 's FILE'."),
        book: Path | None = typer.Option(None, "--book", help=BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=NO_BOOK_HELP),
        start: int = typer.Option(
            1,
            "--from",
            parser=whole_number,
            help="Review from this move number on (the opening of a 7x6 game is slow without a book).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        think: float | None = typer.Option(
            None,
            "--think",
            help=f"Stop after this many seconds (default {DEFAULT_REVIEW_SECONDS:g}); the moves not reviewed are "
            "listed.",
        ),
        inaccuracy: int = typer.Option(
            2,
            "--inaccuracy",
            parser=whole_number,
            help="A move that keeps the result is an inaccuracy from this many of the mover's moves lost (a slower "
            "win, a quicker loss); default 2 (1: every delay). Smaller delays are graded good.",
        ),
    ) -> None:
        """Review a game: every move's score, the best available, and the mistakes that changed the result."""
        from gridgames_connect4.teach.review import INTERRUPTED
        from gridgames_connect4.position.rules import Connect4
        from gridgames_connect4 import SPEC
        from gridgames.saves import load_play, restore

        from gridgames_connect4.teach.review import check_inaccuracy_moves

        budget = DEFAULT_REVIEW_SECONDS if think is None else check_seconds(think)
        check_inaccuracy_moves(inaccuracy)
        colour = "red"
        humans: tuple[int, ...] = ()
        if load is not None:
            if moves:
                raise OptionError("give the moves or --load FILE, not both")
            record = load_play(load, SPEC)
            humans = tuple(p for p, kind in enumerate(record.seats) if kind == "human")
            game, state = restore(SPEC, record, source=str(load))
            if not isinstance(game, Connect4):  # SPEC makes Connect Four games
                raise OptionError(f"{load} does not hold a Connect Four game")
            colour = game.first
            for name, given, kept in (
                ("width", width, game.width),
                ("height", height, game.height),
                ("connect", connect, game.connect),
            ):
                if given is not None and given != kept:
                    raise OptionError(f"--{name} {given} differs from the saved game's {kept}")
        else:
            game = Connect4(
                7 if width is None else width, 6 if height is None else height, 4 if connect is None else connect
            )
            state = cast("Connect4State", game.from_notation(moves))
        chosen = choose_book(game.width, game.height, game.connect, book, no_book)
        report, seconds = run_review(game, state.history, chosen, start, colour, budget, inaccuracy)
        if report.reviews:  # ``connect4 drill`` drills it next
            from gridgames_connect4.teach.drill import record_review

            problem = record_review(report, humans or (0, 1))
            if problem is not None:
                typer.echo(problem, err=True)
        if as_json:
            typer.echo(json.dumps(report.as_dict()))
        else:
            for line in review_text(report, seconds, chosen, budget):
                typer.echo(line)
        if report.stopped == INTERRUPTED:
            raise typer.Exit(EXIT_INTERRUPTED)
