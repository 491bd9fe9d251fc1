"""``gridgames connect4 analyze MOVES [--json] [--weak]`` answered from the shipped opening book without typer.

The game's `GameSpec.quick` hook (`gridgames.launch`): a position the book covers is answered in about the time
Python takes to start, the command-line library not imported (docs/startup.md). Any other argument (``--help``,
``--book``, ``--think``...), a position the book does not cover, or bad input is declined: the full command
(`gridgames_connect4.cli`) then runs, and says what is wrong where something is. The answer printed is the
full command's: the same `Analysis`, as JSON or as its lines.
"""

from __future__ import annotations

_SIZES = ("--width", "--height", "--connect")


def _arguments(args: list[str]) -> tuple[str, dict[str, int], bool, bool] | None:
    """(moves, board size, --json, --weak) of ``analyze``'s arguments, or None for anything else."""
    if not args or args[0] != "analyze":
        return None
    moves: str | None = None
    size = {"width": 7, "height": 6, "connect": 4}
    as_json = weak = False
    rest = args[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--json":
            as_json = True
        elif arg == "--weak":
            weak = True
        elif arg in _SIZES and i + 1 < len(rest) and rest[i + 1].isascii() and rest[i + 1].isdigit():
            size[arg[2:]] = int(rest[i + 1])
            i += 1
        elif moves is None and not arg.startswith("-"):
            moves = arg
        else:
            return None
        i += 1
    return moves or "", size, as_json, weak


def answer(args: list[str]) -> int | None:
    """Print the book's analysis and return 0, or None when the full command must run (see the module docstring)."""
    parsed = _arguments(args)
    if parsed is None:
        return None
    moves, size, as_json, weak = parsed
    from gridgames_connect4.analysis import book_analysis
    from gridgames_connect4.book import default_book
    from gridgames_connect4.rules import Connect4
    from gridgames.errors import GridGamesError

    try:
        state = Connect4(**size).from_notation(moves)
        book = default_book(size["width"], size["height"], size["connect"])
        report = None if book is None or state.is_over else book_analysis(state, book, weak)
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
