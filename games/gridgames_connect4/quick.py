"""``gridgames connect4 analyze MOVES [--json] [--weak] [--no-book]`` answered without typer, numpy, attrs or the
rules.

The console script (`gridgames.launch`) finds `answer` through the ``gridgames.quick`` entry point before it
imports anything heavier (the registry, the game protocol, attrs: about 30 ms of a fresh process, more than the
peer's whole process). A position the shipped book covers, or one near the end whose search fits a small budget
in Python (`gridgames_connect4.endgame`), is answered in about the time Python takes to start; the modules used
are plain (`book_file`, `book_keys`, `endgame`, `report`, `limits`). Any other argument (``--help``, ``--book``,
``--think``...), any other position, a move string in any but the plain forms, or bad input is declined: the
full command (`gridgames_connect4.cli`) then runs, and says what is wrong where something is. The answer
printed is the full command's: the same words (`gridgames_connect4.report`), as JSON or as lines.
"""

from __future__ import annotations

from gridgames_connect4.book_keys import FULL, UNKNOWN, BookKeys
from gridgames_connect4.limits import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE

_SIZES = ("--width", "--height", "--connect")
_MOST_DIGITS = 3
"""A column number of more digits than this is left to the full command's parser (and its error)."""


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
            if len(rest[i + 1]) > _MOST_DIGITS:
                return None
            size[arg[2:]] = int(rest[i + 1])
            i += 1
        elif moves is None and not arg.startswith("-"):
            moves = arg
        else:
            return None
        i += 1
    return moves or "", size, as_json, weak, no_book


def _columns(text: str, width: int) -> list[int] | None:
    """The 0-based columns of a move string in the forms `notation.split_moves` reads ('4453', '4,4,5,3', '4 4 5 3'),
    or None for anything it would refuse or that is not plain (the full command parses it then)."""
    text = text.strip()
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        if parts and parts[-1] == "":
            parts.pop()  # one trailing comma is harmless
    elif width <= 9:
        parts = [ch for token in text.split() for ch in token]
    else:
        parts = text.split()
    out = []
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > _MOST_DIGITS or not 1 <= int(part) <= width:
            return None
        out.append(int(part) - 1)
    return out


def _book_columns(geometry: BookKeys, moves: list[int], p: int, mask: int) -> list[int] | None:
    """Each column's score from the shipped book (`Book.column_scores`' rule, `FULL` for a full column), None when
    it has none for this board or does not cover the position."""
    from gridgames_connect4.book_file import open_entries, shipped_path
    path = shipped_path(geometry.width, geometry.height, geometry.connect)
    if path is None:
        return None
    (_, _, width, height, connect, depth, _, _), entries = open_entries(path)
    try:
        if (width, height, connect) != (geometry.width, geometry.height, geometry.connect):
            return None
        if len(moves) >= min(depth, geometry.cells):
            return None
        row = geometry.child_scores_of(p, mask, len(moves), entries.score_of_key)
    finally:
        entries.close()
    return None if UNKNOWN in row else row


def answer(args: list[str]) -> int | None:
    """Print the analysis and return 0, or None when the full command must run (see the module docstring)."""
    parsed = _arguments(args)
    if parsed is None:
        return None
    text, size, as_json, weak, no_book = parsed
    width, height, connect = size["width"], size["height"], size["connect"]
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE and MIN_CONNECT <= connect <= MAX_CONNECT):
        return None
    if (height + 1) * width > 64:
        return None
    moves = _columns(text, width)
    if moves is None:
        return None
    from gridgames_connect4 import endgame, report
    from gridgames.errors import GridGamesError

    geometry = BookKeys(width, height, connect)
    try:
        p, mask, over = geometry.replay(moves)
        if over or len(moves) == geometry.cells:
            return None
        row = None if no_book else _book_columns(geometry, moves, p, mask)
    except GridGamesError:  # bad input or a bad book: the full command reports it, in its words
        return None
    columns: list[int | None] | None
    columns = [None if s == FULL else s for s in row] if row is not None else endgame.column_scores(geometry, moves)
    if columns is None:
        return None
    if weak:
        columns = [None if s is None else (s > 0) - (s < 0) for s in columns]
    top = max(s for s in columns if s is not None)
    best = [c + 1 for c, s in enumerate(columns) if s == top]
    notation = ("".join if width <= 9 else ",".join)(str(c + 1) for c in moves)
    if as_json:
        import json

        print(json.dumps(report.analysis_dict(notation, top, columns, best)))
    else:
        legal = [s is not None for s in columns]
        print("\n".join(report.analysis_lines(notation, (width, height, connect), len(moves), top, columns, legal,
                                              best, weak)))
    return 0
