"""pentomino: tile a board exactly with pentominoes (or any polyominoes) -- solve, count, list, draw.

Boards (--board, --board-file)
  Presets: 6x10, 5x12, 4x15, 3x20 (rectangles), 8x8 (for Dana Scott's problem with the
  2x2 square), 8x8-centre (8x8 without its central 2x2; alias 8x8-center), 8x8-corners
  (8x8 without its four corner cells). Any HxW rectangle: --board 7x9.
  A board file is a picture: '.' is a cell to fill; '#', a space, or the end of a short
  line is not part of the board. It is cropped to its cells.

Pieces (--pieces, --pieces-file, --one-sided)
  A list of terms joined by ',' or '+' (default: pentominoes):
    pentominoes, tetrominoes, trominoes, dominoes, monominoes, hexominoes, 7-ominoes ...
        a whole standard set; prefix 'one-sided ' (F and its mirror F' as two pieces that
        never flip) or 'fixed ' (every orientation a piece of its own);
    tetromino:O, pentomino:L, hexomino:H07
        one piece of a standard set; a bare name (F, O, X) is looked up in the
        pentominoes, then the tetrominoes, trominoes, dominoes, monomino, hexominoes;
    TERM*N   N copies of each piece of the term: L*3, tetrominoes*2 (quote it in the shell);
    PIECE=NEW   rename a piece, since names must be unique: tetromino:L=l.
  Examples: --pieces pentominoes+O  or  --pieces pentominoes,tetromino:O  (12 pentominoes
  and the 2x2 square, for --board 8x8); --pieces 'L*4,I*2'.
  A pieces file holds pieces separated by blank lines: a name line (NAME or NAME*N for N
  copies), then the picture, '#' a square and '.' or a space none. This one is the F
  pentomino and two 2x2 squares:
      F
      .##
      ##.
      .#.

      O*2
      ##
      ##
  With both --pieces and --pieces-file, the puzzle uses both (names must stay unique).
  Pieces are free (they turn and flip) unless --one-sided; each is used exactly once
  unless a count is given. The board's cells must equal the pieces' squares.

Solving: gridgames solve pentomino [OPTIONS]  (or: gridgames pentomino solve)
  (nothing)      print the first solution, one letter per piece, in colour on a terminal
  --limit N      list up to N solutions           --count    count them all
  --unique       one solution per symmetry class of the board (with --count: count those)
  --json         one object: board, pieces, one_sided, solutions (count), unique, seconds,
                 partial (with --limit N: solutions listed up to N)
  --jsonl        stream solutions, one JSON object per line: solution, placements
                 ([{"piece", "cells": [[r, c], ...]}]), picture (all, or up to --limit)
  --svg FILE     draw the solutions listed (all with --count) as an SVG sheet
  --mrv          branch on the most constrained cell   --no-prune   no dead-region pruning
  Long searches show a progress bar on standard error. Ctrl-C stops and prints the count
  so far, marked partial (exit code 130). Malformed puzzles (area mismatch, an empty
  board, a malformed file, a duplicate name, a set too large to list: over 10 squares)
  fail at once, exit 2; one with a piece that fits nowhere, or that chessboard colouring
  rules out (the 5 tetrominoes on 4x5), has 0 solutions at once and says why.

Other commands: gridgames pentomino boards | pieces [SPEC] | show --board NAME

Examples (the count each prints)
  gridgames solve pentomino --board 6x10 --count                                 9,356
  gridgames solve pentomino --board 6x10 --count --unique                        2,339
  gridgames solve pentomino --board 8x8-corners --count --unique                 2,170
  gridgames solve pentomino --board 8x8 --pieces pentominoes+O --count --unique  16,146
  gridgames solve pentomino --board 4x10 --pieces 'tetrominoes*2' --count        1,796
  gridgames solve pentomino --board 3x20 --limit 8 --svg 3x20.svg
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridgames.game import GameKind, GameSpec, Option

from gridgames_pentomino.boards import DEFAULT_BOARD
from gridgames_pentomino.pieces import DEFAULT_PIECES

if TYPE_CHECKING:  # imported when used: the registry reads SPEC without them
    import typer

    from gridgames_pentomino.lattice_web import LatticeWebPuzzle
    from gridgames_pentomino.puzzle import TilingPuzzle


def _create(
    board: str = DEFAULT_BOARD, pieces: str = DEFAULT_PIECES, one_sided: bool = False, lattice: str = "square"
) -> TilingPuzzle | LatticeWebPuzzle:
    """The TilingPuzzle of a board and a piece specification; on another lattice (triangle, hex, cube) its
    `LatticePuzzle` as a `gridgames.game.Puzzle` (``show``, ``svg(solution)``), the lattice's own defaults for a board
    or pieces not given."""
    if lattice.strip().lower() not in ("square", ""):
        from gridgames_pentomino.lattice_puzzle import LatticePuzzle
        from gridgames_pentomino.lattice_web import LatticeWebPuzzle

        return LatticeWebPuzzle(
            LatticePuzzle.create(
                lattice,
                None if board == DEFAULT_BOARD else board,
                None if pieces == DEFAULT_PIECES else pieces,
                one_sided,
            )
        )
    from gridgames_pentomino.puzzle import TilingPuzzle

    return TilingPuzzle.create(board, pieces, one_sided)


def _app() -> typer.Typer:
    """The pentomino sub-app (imported only when used)."""
    from gridgames_pentomino.cli import make_app

    return make_app()


def _web() -> object:
    """The pentomino hooks of gridgames serve (presets, pasted puzzles)."""
    from gridgames_pentomino.web import PentominoWeb

    return PentominoWeb()


SPEC = GameSpec(
    name="pentomino",
    summary="Tile a board exactly with pentominoes or any polyominoes: solve, count, list, draw.",
    kind=GameKind.PUZZLE,
    create=_create,
    options=(
        Option("board", str, DEFAULT_BOARD, "a preset (6x10, 5x12, 4x15, 3x20, 8x8, 8x8-centre, 8x8-corners) or HxW"),
        Option("pieces", str, DEFAULT_PIECES, "pieces, e.g. pentominoes, pentominoes+O, 'L*3,tetromino:O'"),
        Option("one_sided", bool, False, "pieces may turn but not flip over"),
        Option("lattice", str, "square", "cells: square, triangle, hex or cube (boards and pieces of that lattice)"),
    ),
    doc=__doc__ or "",
    app=_app,
    web=_web,
)

__all__ = ["SPEC"]
