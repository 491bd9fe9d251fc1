"""``gridgames connect4 review MOVES``: a finished (or unfinished) game, move by move, with its mistakes (CLI layer)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Optional

import typer

from gridgames.cli_support import whole_number
from gridgames.errors import OptionError

__all__ = ["BOOK_HELP", "NO_BOOK_HELP", "choose_book", "register", "review_lines"]

BOOK_HELP = "Use this opening book (default: the one shipped for the board, if any)."
NO_BOOK_HELP = "Use no opening book: the solver alone."


def choose_book(width: int, height: int, connect: int, book: Optional[Path], no_book: bool) -> Any:
    """The book a command uses: --book FILE, none with --no-book, else the one shipped for the board (or none)."""
    from gridgames_connect4.book import Book, default_book

    if book is not None and no_book:
        raise OptionError("--book FILE and --no-book contradict each other; choose one")
    if no_book:
        return None
    if book is not None:
        return Book.load(book, width=width, height=height, connect=connect)
    return default_book(width, height, connect)


def review_lines(game: Any, moves: Any, book: Any, start: int = 1) -> list[str]:
    """The text of ``gridgames connect4 review``: the review of ``moves`` (0-based) from move ``start``, then its timing."""
    from gridgames_connect4.review import review_game

    started = time.perf_counter()
    report = review_game(game, moves, book=book, first=start)
    seconds = time.perf_counter() - started
    source = f"; {report.from_book} position(s) from the book" if book is not None else ""
    return [*report.lines(), f"Reviewed {len(report.reviews)} move(s) in {seconds:.1f} s{source}."]


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the connect4 app."""

    @app.command("review")
    def review(
        moves: str = typer.Argument("", help="The game's moves: '4453' or '4,4,5,3' (1-based columns)."),
        width: Optional[int] = typer.Option(None, "--width", parser=whole_number, help="Columns, 4 to 10 (default 7)."),
        height: Optional[int] = typer.Option(None, "--height", parser=whole_number, help="Rows, 4 to 10 (default 6)."),
        connect: Optional[int] = typer.Option(None, "--connect", parser=whole_number, help="Line length that wins, 3 to 6 (default 4)."),
        load: Optional[Path] = typer.Option(None, "--load", help="Review a game saved with 's FILE'."),
        book: Optional[Path] = typer.Option(None, "--book", help=BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=NO_BOOK_HELP),
        start: int = typer.Option(1, "--from", parser=whole_number, help="Review from this move number on (the opening of a 7x6 game is slow without a book)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Review a game: every move's score, the best available, and the mistakes that changed the result."""
        from gridgames_connect4.review import review_game
        from gridgames_connect4.rules import Connect4
        from gridgames_connect4.save import load_game

        if load is not None:
            if moves:
                raise OptionError("give the moves or --load FILE, not both")
            state = load_game(load).state
            game = state.game
            for name, given, kept in (("width", width, game.width), ("height", height, game.height), ("connect", connect, game.connect)):
                if given is not None and given != kept:
                    raise OptionError(f"--{name} {given} differs from the saved game's {kept}")
        else:
            game = Connect4(width or 7, height or 6, connect or 4)
            state = game.from_notation(moves)
        chosen = choose_book(game.width, game.height, game.connect, book, no_book)
        if as_json:
            typer.echo(json.dumps(review_game(game, state.history, book=chosen, first=start).as_dict()))
            return
        for line in review_lines(game, state.history, chosen, start):
            typer.echo(line)
