"""Connect Four on any board from 4x4 to 10x10, winning with lines of 3 to 6 discs.

RULES
  Red and yellow take turns dropping a disc into a column that is not full; it
  falls to the lowest empty cell. Red moves first. The first to line up --connect
  discs (4 by default) in a row, a column or a diagonal wins at once; a full board
  without such a line is a draw.

OPTIONS
  --width W     columns, 4 to 10 (default 7)
  --height H    rows, 4 to 10 (default 6)
  --connect N   line length that wins, 3 to 6 (default 4)

MOVES AND NOTATION
  A move is a column number, 1 on the left. A game is written as its moves, either
  one digit per move ("4453", boards up to 9 wide) or separated by commas ("4,4,5,3",
  any width: "10,1"). A cell is named by its column letter and its row counted from
  the bottom: d1 is the bottom cell of column 4. A win is announced by columns and
  cells: "Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)".
  A position picture has one line per row, top row first: X red, O yellow, . empty;
  it parses back only if it is reachable (discs rest on discs, red has as many discs
  as yellow or one more, at most one finished line).
  In Python the actions are 0-based columns (OpenSpiel style): gridgames_connect4.Connect4.

PLAY
  gridgames play connect4                      you (red) against the computer (medium)
  gridgames play connect4 --red easy --yellow human
  gridgames play connect4 --red human --yellow human
  gridgames play connect4 --red perfect --yellow hard --seed 1
  Players: human, random, easy, medium, hard, perfect. Every level takes an immediate
  win and blocks an immediate loss; hard and perfect use the exact solver (perfect
  plays a best move; hard is strong but beatable). --think S bounds each computer
  move (default 2 seconds): if the solver cannot finish in time the computer plays
  the best move of a depth-limited search and says so (on 7x6 that happens in the
  opening; give perfect more --think for exact play sooner). --seed N makes computer
  play reproducible. --first yellow lets yellow move first: only the colours on the
  screen change (in pictures and in Python the first mover is always X, player 0);
  save files record it.
  At the prompt: a column number plays; u undoes your last move (and the computer's
  reply); h gives a hint (every column's score, saying whether the opening book or the
  solver gave it, and a line saying why; or a search's choice); s FILE saves; q quits. When the game is over:
  r reviews it (every move's score against the best, mistakes marked, as the review
  command below; Ctrl-C stops it and shows the moves reviewed so far), s FILE saves it,
  q leaves. Input may come from a pipe, one command per line:
    printf '4\\n4\\n5\\n5\\n6\\n6\\n7\\n' | gridgames play connect4 --red human --yellow human
  --load FILE resumes a saved game (a small JSON file: board size, line length, first
  colour, moves, seats; the files of gridgames 0.1 load too);
  --resume resumes the last interrupted game (saved automatically on Ctrl-C or at the
  end of input).
  --book FILE gives hard, perfect, hints and the review an opening book (default: the
  one shipped for the board, if any); --no-book uses none (the solver alone).

COMMANDS
  gridgames connect4 show 4453 [--width W --height H --connect N] [--picture]
      prints the position (or, with --picture, its plain picture; with --url [--base URL], the
      web page's address for it: the moves in the pos parameter, as gamesolver.org's); given a save
      file (show game.json), the position it holds, in its colours.
  gridgames connect4 analyze 4453 [--weak] [--json] [--think S] [--table-mb M]
                                   [--jobs N | --scheduler tcp://HOST:8786] [--book FILE | --no-book]
      solves the position: its score and every column's from the side to move's view
      (Pons' scores: + wins, bigger is sooner; 0 draws; - loses), and the best columns.
      --think S stops after S seconds and marks the unsolved columns (the answer is then
      not exact); Ctrl-C prints the columns solved so far, marked partial (exit code 130).
      --jobs N solves the columns in N local processes, --scheduler on a Dask cluster.
      A position the opening book covers is answered from it (--book FILE: another
      book; --no-book: the solver alone).
  gridgames connect4 explain 4453 [COLUMN] [--json] [--line N] [--think S] [--book FILE | --no-book]
      why the position stands as it does: the result with best play and when the game ends, wins now,
      forced blocks, moves that let the opponent win above them, each player's threats (odd or even row),
      Allis' claimeven or zugzwang when it proves the result, the forced line when the end is within N discs (12),
      and for COLUMN its score against the best.
  gridgames connect4 review 4453 [--load FILE] [--from N] [--json] [--inaccuracy M] [--book FILE | --no-book]
      every move's score against the best one available, graded exactly: blunder (a win
      into a loss), mistake (a win into a draw, a draw into a loss), inaccuracy (the result
      kept but won M or more of the mover's moves later, or lost as much sooner; M = 1 by
      default: every delay), best; and each player's accuracy (100 x the mean of the moves'
      values: 1 best, 0 a changed result, score / best for a slower win, best / score for a
      quicker loss). The book
      answers the positions it covers, the solver the others (the last moves first);
      Ctrl-C prints the moves reviewed so far, marked partial (exit code 130). The game
      reviewed is kept for drill.
  gridgames connect4 drill [4453 | --load FILE] [--player red|yellow|both] [--inaccuracies] [--history]
      asks again the positions before the mistakes of a game (default: the last one reviewed):
      a column, s skips, q stops; after each answer, whether it was best and why (as explain).
      The drills done are kept in the data folder ($XDG_DATA_HOME/gridgames/connect4-drills.json).
  gridgames connect4 book build --depth D --out FILE [--width W --height H] [--jobs N]
      solves every position up to D discs into an opening book (Ctrl-C keeps the work:
      run it again to continue); book info FILE and book verify FILE --sample N check one;
      book upgrade FILE checks a book of an older format and rewrites it in the current one.
  gridgames doctor [--rebuild]
      says whether the solver's kernels compiled with the package verify (boards up to
      64 bits search on them without loading numba); --rebuild compiles them again into
      the user's cache folder (needs a C compiler).

EXACT SOLVING
  The solver is exact on every board this game offers: its bitboards need a bit
  per cell and one above each column, one 64-bit word up to 64 (7x6, 8x7, 9x6...) and two words
  up to 128 (10x6, 9x7, 8x8, 10x10...; about 2.5 times slower per position). Exact means
  exact when it finishes: the empty 7x6 board takes about half a minute, bigger boards
  with few discs can take hours or more. Within --think, perfect and hints fall back on
  a depth-limited search when the solver does not finish, and say so.
"""

from __future__ import annotations

# (no typing at import: a quick answer imports this package, see `__getattr__`)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from gridgames_connect4.position.rules import ColumnFullError, ColumnOutOfRangeError, Connect4, Connect4State
    from gridgames_connect4.spec import SPEC

_LAZY = {
    "SPEC": "gridgames_connect4.spec",
    **dict.fromkeys(
        ("Connect4", "Connect4State", "ColumnFullError", "ColumnOutOfRangeError"), "gridgames_connect4.position.rules"
    ),
}


def __getattr__(name: str) -> Any:
    """`SPEC` and the rules' names, imported when first asked for: the registry's entry point reads `SPEC`, while
    a fresh process's quick answer (`gridgames_connect4.surfaces.quick`) imports neither the rules nor the game protocol
    (attrs), about 30 ms of its start (docs/startup.md)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gridgames_connect4' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["SPEC", "Connect4", "Connect4State", "ColumnFullError", "ColumnOutOfRangeError"]
