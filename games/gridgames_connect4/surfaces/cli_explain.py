"""``gridgames connect4 explain MOVES [COLUMN]``: why the position stands as it does (CLI layer: it only prints).

The claims come from `gridgames_connect4.teach.explain`; the scores from the opening book where it covers the position,
else from the solver.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from gridgames.cli_support import whole_number
from gridgames.parsing import check_seconds

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``explain`` command to the connect4 app."""
    from gridgames_connect4.surfaces.cli_review import BOOK_HELP, NO_BOOK_HELP

    @app.command("explain")
    def explain(
        moves: str = typer.Argument("", help="Moves from the start: '4453' or '4,4,5,3' (1-based columns)."),
        column: str | None = typer.Argument(None, help="A column to explain too (1-based)."),
        width: int = typer.Option(7, "--width", parser=whole_number, help="Columns, 4 to 10."),
        height: int = typer.Option(6, "--height", parser=whole_number, help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", parser=whole_number, help="Line length that wins, 3 to 6."),
        line: int = typer.Option(
            12, "--line", parser=whole_number, help="Show the forced line when the game ends within this many discs."
        ),
        think: float = typer.Option(
            60.0,
            "--think",
            help="Seconds the solver may take (positions the book does not answer); then a one-line error says so.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        book: Path | None = typer.Option(None, "--book", help=BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=NO_BOOK_HELP),
    ) -> None:
        """Explain a position: wins and blocks now, threats by parity, a claimeven or zugzwang proof, a forced line."""
        from gridgames_connect4.surfaces.cli_review import choose_book
        from gridgames_connect4.teach.explain import OutOfTime, explain_position, lines
        from gridgames_connect4.position.notation import parse_column
        from gridgames_connect4.position.rules import Connect4

        game = Connect4(width, height, connect)
        state = game.from_notation(moves)
        col = None if column is None else parse_column(column, width)
        chosen = choose_book(width, height, connect, book, no_book)
        check_seconds(think)
        try:
            ex = explain_position(game, state.history, col, book=chosen, line_plies=line, think=think)
        except OutOfTime as exc:
            raise OutOfTime(f"{exc} ({think:g} s): give more with --think SECONDS") from None
        if as_json:
            typer.echo(json.dumps(ex.as_dict()))
        else:
            for text in lines(ex):
                typer.echo(text)
