"""``gridgames connect4 analyze MOVES [--json] [--weak] [--no-book]`` answered without typer, numpy, attrs or the
rules.

The console script (`gridgames.launch`) finds `answer` through the ``gridgames.quick`` entry point before it
imports anything heavier (the registry, the game protocol, attrs: about 30 ms of a fresh process, more than the
peer's whole process). A position the shipped book covers, or one near the end whose search fits a small budget
in Python (`gridgames_connect4.solve.endgame`), is answered in about the time Python takes to start; the modules used
are plain (`book_file`, `book_keys`, `endgame`, `report`, `sizes`). Any other position of a one-word board goes
to the solver here (numpy and its kernels built ahead of time, but not typer, rich or the rules) when standard
error is no terminal (a terminal gets the full command's progress line) and the kernels are built. Any other
argument (``--help``, ``--book``, ``--think``...), a move string in any but the plain forms, or bad input is
declined: the full command (`gridgames_connect4.surfaces.cli`) then runs, and says what is wrong where something is. The
answer printed is the full command's: the same words (`gridgames_connect4.teach.report`), as JSON or as lines, and
Ctrl-C prints the columns solved so far and exits with 130 as it does.
"""

from __future__ import annotations

from gridgames_connect4.position.geometry import fits_one_word
from gridgames_connect4.solve.book_keys import FULL, UNKNOWN, BookKeys
from gridgames_connect4.position.sizes import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE

_SIZES = ("--width", "--height", "--connect")
WIDE_OPEN, WIDE_OPEN_BUDGET = 22, 500
"""Positions with this many empty cells or more get this budget of the endgame search (not `endgame.BUDGET`).

Measured on 7x6 (30 seeded positions of 22-24 empty cells): a budget of 500 positions answers as many of them as
8000 (a third: those the first checks settle), in 1.3 ms instead of 20 ms a position; the others need the solver.
With 18-21 empty cells, 8000 answers 29 of 40 against 14 of 40 with 500: the solver costs ~150 ms of a process."""
SMALL_TABLE_MB, SMALL_TABLE_EMPTY = 4, 31
"""The solver's table here for positions of at most this many empty cells (the default, 56 MiB, otherwise).

The first use of a 56 MiB table costs its pages: 11-120 ms of CPU in a fresh process on this 2-core machine
(page faults and zeroing, more under load) and 54 MiB of memory, against 3-4 ms for 4 MiB; the searches of the 30
seeded positions of plies 11-20 of bench/startup.py were no slower with 4 MiB (plies 11-12: 321 against 870 ms
in all, 13-16: 158 against 176, 17-20: 21 against 26)."""
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
    from gridgames_connect4.solve.book_file import open_entries, shipped_path

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
    if not fits_one_word(width, height):
        return None
    moves = _columns(text, width)
    if moves is None:
        return None
    from gridgames_connect4.solve import endgame
    from gridgames_connect4.teach import report
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
    if row is not None:
        columns = [None if s == FULL else s for s in row]
    else:
        budget = endgame.BUDGET if geometry.cells - len(moves) < WIDE_OPEN else WIDE_OPEN_BUDGET
        columns = endgame.column_scores(geometry.geometry, moves, budget)
    stopped = None
    if columns is None:
        solved = _solve(geometry, moves, weak, no_book)
        if solved is None:
            return None
        columns, stopped = solved
    elif weak:
        columns = [None if s is None else (s > 0) - (s < 0) for s in columns]
    legal = [geometry.geometry.can_play(mask, c) for c in range(width)]
    known = [s for s in columns if s is not None]
    top = max(known) if known else None
    unsolved = [c + 1 for c, s in enumerate(columns) if s is None and legal[c]] if stopped else []
    # every column solved as the budget ran out: exact after all
    if stopped == "time" and not unsolved:
        stopped = None
    best = [] if stopped else [c + 1 for c, s in enumerate(columns) if s == top]
    notation = ("".join if width <= 9 else ",".join)(str(c + 1) for c in moves)
    if as_json:
        import json

        print(json.dumps(report.analysis_dict(notation, top, columns, best, stopped, unsolved)))
    else:
        print(
            "\n".join(
                report.analysis_lines(
                    notation, (width, height, connect), len(moves), top, columns, legal, best, weak, stopped, unsolved
                )
            )
        )
    if stopped == "interrupted":
        import sys

        sys.stdout.flush()
        return EXIT_INTERRUPTED
    return 0


EXIT_INTERRUPTED = 130
"""The exit code of an analysis stopped by Ctrl-C (as the full command's, `gridgames.cli_support`)."""


def _solve(
    geometry: BookKeys, moves: list[int], weak: bool, no_book: bool
) -> tuple[list[int | None], str | None] | None:
    """Every column's score by the solver, as `analysis.analyze_position` gets them (the shipped book given when the
    position is at most one disc past it), and "interrupted" after Ctrl-C; None when the full command should run:
    standard error is a terminal (its progress line), the board needs two words, or the kernels are not built."""
    import os

    if geometry.cells - len(moves) < 1 or not geometry.geometry.fits_one_word or os.isatty(2):
        return None
    from gridgames_connect4.solve import solver as solver_module

    if not solver_module.kernels_compiled():  # the full command says that it compiles them
        return None
    book = None
    if not no_book:
        from gridgames_connect4.solve.book import default_book

        book = default_book(geometry.width, geometry.height, geometry.connect)
        if book is not None and len(moves) > book.depth + 1:
            book = None
    table_mb = SMALL_TABLE_MB if geometry.cells - len(moves) <= SMALL_TABLE_EMPTY else None
    solver = solver_module.Solver(
        geometry.width, geometry.height, geometry.connect, jobs=1, book=book, table_mb=table_mb
    )
    scores: list[int | None] = [None] * geometry.width
    import time

    deadline = time.monotonic() + ANALYZE_SECONDS
    # the search runs in slices: Ctrl-C gets through, and the watcher stops it at the full command's budget
    try:
        solver.analyze(moves, weak=weak, into=scores, on_progress=lambda _progress: time.monotonic() < deadline)
    except KeyboardInterrupt:
        return scores, "interrupted"
    return scores, "time" if time.monotonic() >= deadline else None


ANALYZE_SECONDS = 60.0
"""The time an analysis may take, as the full command's default ``--think`` (`cli_review.DEFAULT_REVIEW_SECONDS`):
columns unsolved then are marked ? and the answer says it is not exact."""
