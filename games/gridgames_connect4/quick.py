"""``gridgames connect4 analyze MOVES [--json] [--weak] [--no-book]`` answered without typer, numpy or numba.

The game's `GameSpec.quick` hook (`gridgames.launch`): a position the shipped book covers, or one near the end
whose search fits a small budget in Python (`gridgames_connect4.endgame`), is answered in about the time Python
takes to start, the command-line library not imported (docs/startup.md). Any other argument (``--help``,
``--book``, ``--think``...), any other position, or bad input is declined: the full command
(`gridgames_connect4.cli`) then runs, and says what is wrong where something is. The answer printed is the
full command's: the same `Analysis`, as JSON or as its lines.
"""

from __future__ import annotations

_SIZES = ("--width", "--height", "--connect")


def _arguments(args: list[str]) -> tuple[str, dict[str, int], bool, bool, bool] | None:
    """(moves, board size, --json, --weak, --no-book) of ``analyze``'s arguments, or None for anything else."""
    if not args or args[0] != "analyze":
        return None
    moves: str | None = None
    size = {"width": 7, "height": 6, "connect": 4}
    as_json = weak = no_book = False
    rest = args[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--json":
            as_json = True
        elif arg == "--weak":
            weak = True
        elif arg == "--no-book":
            no_book = True
        elif arg in _SIZES and i + 1 < len(rest) and rest[i + 1].isascii() and rest[i + 1].isdigit():
            size[arg[2:]] = int(rest[i + 1])
            i += 1
        elif moves is None and not arg.startswith("-"):
            moves = arg
        else:
            return None
        i += 1
    return moves or "", size, as_json, weak, no_book


def answer(args: list[str]) -> int | None:
    """Print the book's analysis and return 0, or None when the full command must run (see the module docstring)."""
    parsed = _arguments(args)
    if parsed is None:
        return None
    moves, size, as_json, weak, no_book = parsed
    from gridgames_connect4 import endgame
    from gridgames_connect4.analysis import analysis_of_columns, book_analysis
    from gridgames_connect4.book import default_book
    from gridgames_connect4.geometry import Geometry
    from gridgames_connect4.rules import Connect4, Connect4State
    from gridgames.errors import GridGamesError

    try:
        game = Connect4(size["width"], size["height"], size["connect"])
        state: Connect4State = game.from_notation(moves)  # type: ignore[assignment]
        if state.is_over:
            return None
        book = None if no_book else default_book(size["width"], size["height"], size["connect"])
        report = None if book is None else book_analysis(state, book, weak)
        if report is None and (size["height"] + 1) * size["width"] <= 64:
            columns = endgame.column_scores(Geometry.of(**size), list(state.history))
            if columns is not None:
                signs = [None if s is None else (s > 0) - (s < 0) for s in columns]
                report = analysis_of_columns(state, signs if weak else columns, weak)
    except GridGamesError:  # bad input: the full command reports it, in its words
        return None
    if report is None:
        return None
    if as_json:
        import json

        print(json.dumps(report.as_dict()))
    else:
        print("\n".join(report.lines()))
    return 0
