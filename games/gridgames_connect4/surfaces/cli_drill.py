"""``gridgames connect4 drill [MOVES]``: the positions before your mistakes, asked again (CLI layer).

The game drilled is, in this order: the MOVES given, the game saved in ``--load FILE``, else the last game reviewed
(``gridgames connect4 review``, or ``r`` at the end of a terminal game, records it in the drill history: see
`gridgames_connect4.teach.drill`). A game given is reviewed first (as ``review`` does: the book, then the solver, at
most ``--think`` seconds) and becomes the last reviewed game. Each position is drawn and the best move asked for (a
column, ``s`` to skip, ``q`` to stop); after each answer, whether it was best and the explanation
(``connect4 explain``). Answers are read line by line from standard input, so a drill can be scripted. The drill
done is added to the history; ``--history`` lists the drills done; ``--url`` prints the web drill page's address
for the game instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

import typer

from gridgames.cli_support import EXIT_INTERRUPTED, whole_number
from gridgames.errors import GridGamesError, OptionError

__all__ = ["ask", "register"]

SKIP, QUIT = ("s", "skip"), ("q", "quit")


def _players(option: str | None, default: tuple[int, ...], colours: tuple[str, str]) -> tuple[int, ...]:
    if option is None:
        return default
    chosen = option.lower()
    if chosen == "both":
        return (0, 1)
    if chosen not in colours:
        raise OptionError(f"--player must be red, yellow or both, not {option!r}")
    return (colours.index(chosen),)


def _read(prompt: str) -> str | None:
    """One line of standard input after ``prompt`` (None at its end)."""
    typer.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        typer.echo("")
        return None
    return line.strip()


def ask(state: Any, width: int, read: Any = _read) -> int | None | str:
    """Ask for a column until one is playable: the 0-based column, None to skip, 'quit' to stop or at end of input."""
    from gridgames_connect4.position.notation import parse_column

    while True:
        line = read(f"Your move [1-{width}, s skip, q quit]: ")
        if line is None or line.lower() in QUIT:
            return "quit"
        if line.lower() in SKIP:
            return None
        try:
            column = parse_column(line, width)
            state.check_playable(column)
        except GridGamesError as problem:
            typer.echo(f"{str(problem)[:1].upper()}{str(problem)[1:]}. Type a column (1-{width}), s or q.")
            continue
        return column


def _drill(game: Any, positions: list[Any], book: Any, think: float, answers: list[Any]) -> None:
    """Ask each position; print the verdict and the explanation; add the answers to ``answers`` (stops at q or end
    of input)."""
    from gridgames_connect4.surfaces import render
    from gridgames_connect4.surfaces.terminal import console
    from gridgames_connect4.teach.drill import DrillAnswer
    from gridgames_connect4.teach.explain import OutOfTime, explain_position, lines

    out = console()
    colours = game.colours
    solver = None
    for i, pos in enumerate(positions, 1):
        state = game.from_moves(pos.moves)
        mover = colours[pos.player]
        typer.echo("")
        typer.echo(
            f"Drill {i} of {len(positions)}: before move {pos.number}, {mover} to move (the game's "
            f"{game.format_move(pos.played)} was a {pos.grade}). Find the best move."
        )
        out.print(render.board(state, first=game.first, plain=not render.shows_colour(out)), end="")
        answer = ask(state, game.width)
        if answer == "quit":
            break
        column = cast("int | None", answer)
        right = column is not None and pos.is_right(column)
        answers.append(DrillAnswer(pos.number, column, right))
        best = ", ".join(str(c + 1) for c in pos.best)
        if column is None:
            typer.echo(f"Skipped: the best is {best} (score {pos.best_score:+d}).")
        elif right:
            typer.echo(f"Right: {column + 1} is best (score {pos.best_score:+d}).")
        else:
            typer.echo(
                f"Not best: {column + 1} scores {pos.scores[column]:+d}; the best is {best} ({pos.best_score:+d})."
            )
        try:
            ex = explain_position(game, pos.moves, column, book=book, solver=solver, think=think)
        except OutOfTime as problem:
            typer.echo(f"  (no explanation: {problem})")
            continue
        for text in lines(ex, colours)[1:]:  # the position's own line: the board above says it
            typer.echo(f"  {text}")


def register(app: typer.Typer) -> None:
    """Add the ``drill`` command to the connect4 app."""
    from gridgames_connect4.surfaces.cli_review import BOOK_HELP, DEFAULT_REVIEW_SECONDS, NO_BOOK_HELP
    from gridgames_connect4.surfaces.share import DEFAULT_BASE

    @app.command("drill")
    def drill(
        moves: str = typer.Argument(
            "", help="A game's moves ('4453...', 1-based columns); default: the last game reviewed."
        ),
        load: Path | None = typer.Option(None, "--load", help="Drill a game saved with 's FILE'."),
        width: int | None = typer.Option(None, "--width", parser=whole_number, help="Columns, 4 to 10 (default 7)."),
        height: int | None = typer.Option(None, "--height", parser=whole_number, help="Rows, 4 to 10 (default 6)."),
        connect: int | None = typer.Option(
            None, "--connect", parser=whole_number, help="Line length that wins, 3 to 6 (default 4)."
        ),
        player: str | None = typer.Option(
            None,
            "--player",
            help="Whose mistakes: red, yellow or both (default: the human seats of a saved game, else both).",
        ),
        inaccuracies: bool = typer.Option(
            False, "--inaccuracies", help="Drill the inaccuracies too (slower wins, quicker losses)."
        ),
        book: Path | None = typer.Option(None, "--book", help=BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=NO_BOOK_HELP),
        think: float = typer.Option(
            DEFAULT_REVIEW_SECONDS, "--think", help="Seconds the review, and each explanation, may take."
        ),
        history: bool = typer.Option(False, "--history", help="List the drills done and stop."),
        url: bool = typer.Option(False, "--url", help="Print the web drill page's URL for the game instead."),
        base: str = typer.Option(DEFAULT_BASE, "--base", help="With --url: where gridgames serve runs."),
    ) -> None:
        """Drill the positions before a reviewed game's mistakes: find the best move, then read why."""
        from gridgames_connect4 import SPEC
        from gridgames_connect4.surfaces.cli_review import choose_book, run_review
        from gridgames_connect4.teach.drill import DrillHistory, drill_positions, record_review
        from gridgames_connect4.teach.review import STOPPED
        from gridgames_connect4.position.rules import Connect4
        from gridgames_connect4.surfaces.share import position_url
        from gridgames.parsing import check_seconds
        from gridgames.saves import load_play, restore

        check_seconds(think)
        if history or not (moves or load is not None):  # only what needs the history reads it
            saved = DrillHistory.load()  # a broken history file is one line, before any work
        if history:
            for text in saved.lines():
                typer.echo(text)
            return
        if moves and load is not None:
            raise OptionError("give the moves or --load FILE, not both")
        players: tuple[int, ...] = (0, 1)
        if moves or load is not None:
            first = "red"
            if load is not None:
                record = load_play(load, SPEC)
                game, state = restore(SPEC, record, source=str(load))
                if not isinstance(game, Connect4):
                    raise OptionError(f"{load} does not hold a Connect Four game")
                humans = tuple(p for p, kind in enumerate(record.seats) if kind == "human")
                players = humans if humans else players
                first = game.first
            else:
                game = Connect4(
                    7 if width is None else width, 6 if height is None else height, 4 if connect is None else connect
                )
                state = game.from_notation(moves)
            for name, given, kept in (
                ("width", width, game.width),
                ("height", height, game.height),
                ("connect", connect, game.connect),
            ):
                if given is not None and given != kept:
                    raise OptionError(f"--{name} {given} differs from the saved game's {kept}")
            if not state.history:
                raise OptionError("the game has no move: there is nothing to drill")
            if url:
                typer.echo(position_url(game, state.history, base, page="drill"))
                return
            chosen = choose_book(game.width, game.height, game.connect, book, no_book)
            report, _seconds = run_review(game, state.history, chosen, 1, first, think)
            if report.stopped == STOPPED:
                typer.echo(
                    f"The review stopped at its time budget ({think:g} s): only the moves reviewed are drilled.",
                    err=True,
                )
            problem = record_review(report, _players(player, players, game.colours))
            if problem is not None:
                typer.echo(problem, err=True)
            positions = drill_positions(report, _players(player, players, game.colours), inaccuracies)
            game_moves = report.moves
        else:
            last = saved.last
            if last is None:
                raise OptionError(
                    "no reviewed game to drill yet: give a game's MOVES or --load FILE, or review one "
                    "first (gridgames connect4 review MOVES)"
                )
            if any(v is not None for v in (width, height, connect)):
                raise OptionError(
                    "--width, --height and --connect go with MOVES; the last reviewed game has its own board"
                )
            game = last.game
            if url:
                typer.echo(position_url(game, last.moves, base, page="drill"))
                return
            chosen = choose_book(game.width, game.height, game.connect, book, no_book)
            if last.verified:
                found = last.positions(inaccuracies)
            else:  # a record without its checksum: its scores derived again, not trusted
                report, _seconds = run_review(game, last.moves, chosen, 1, game.first, think)
                found = drill_positions(report, last.players, inaccuracies)
            positions = [p for p in found if p.player in _players(player, last.players, game.colours)]
            game_moves = last.moves
        who = " and ".join(game.colours[p] for p in sorted({p.player for p in positions})) or "nobody"
        typer.echo(
            f"Drilling {game.join_notation(game_moves)} ({game.size}): {len(positions)} position(s), the "
            f"mistakes of {who}."
        )
        if not positions:
            typer.echo("No mistake to drill in this game" + (": try --inaccuracies." if not inaccuracies else "."))
            return
        interrupted = False
        answers: list[Any] = []
        try:
            _drill(game, positions, chosen, think, answers)
        except KeyboardInterrupt:
            interrupted = True
        if answers:
            try:
                done = DrillHistory.load()
                done.add(game, game_moves, answers)
                done.save()
            # a damaged history does not undo the drill: said, not fatal
            except GridGamesError as problem:
                typer.echo(f"the drill is not kept in the history: {problem}", err=True)
        right = sum(a.right for a in answers)
        typer.echo(f"Drill done: {right} of {len(answers)} answered best ({len(positions)} position(s)).")
        if interrupted:
            raise typer.Exit(EXIT_INTERRUPTED)
