"""Random small tiling problems, counted by a brute-force backtracking written here, against the engine (issue 45).

`random_problem` draws a board with holes on the square, triangular, hexagonal or cubic lattice and a
multiset of pieces: the board's area, less (no tiling), more (some copies stay unused, as the engine
allows), or right but often impossible. `brute_force` lists every tiling by covering the least uncovered
cell with every placement of every piece left, with placements of its own (each orientation of
`gridgames.lattices`, translated onto the board): nothing of the engine. Copies of a piece are
interchangeable, as in the engine, so a tiling is the set of its (piece name, cells) pairs. `distinct`
counts the orbits of the tilings under the board's symmetries (`gridgames.lattices.board_symmetries`)
that map each piece's placements onto its own, by the least image of each tiling. `check` compares
every count and listing path of the engine (`gridgames.search.tiling`) and of the puzzles built from
board and piece text (`gridgames_pentomino`) with them; used by tests/gridgames/search/test_tiling_property.py
and bench/tiling_property.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from attrs import frozen

from gridgames.errors import PuzzleError
from gridgames.lattices import (
    HEXAGONAL,
    SQUARE,
    TRIANGULAR,
    Lattice,
    board_symmetries,
    free_forms,
    lattice_named,
    scan_sorted,
)

Cell = tuple[int, ...]
Tiling = frozenset[tuple[str, frozenset[Cell]]]
LATTICE_NAMES = ("square", "triangular", "hexagonal", "cubic")


@frozen
class PieceSpec:
    """A piece of a random problem: its name, cells (a form of its lattice) and copies."""

    name: str
    cells: tuple[Cell, ...]
    count: int


@frozen
class Problem:
    """A random problem: the lattice's name, the board's cells, the pieces, and whether they only turn (one-sided)."""

    lattice: str
    board: tuple[Cell, ...]
    pieces: tuple[PieceSpec, ...]
    one_sided: bool = False

    @property
    def grid(self) -> Lattice:
        return lattice_named(self.lattice)

    @property
    def kind(self) -> str:
        return "one-sided" if self.one_sided else "free"

    @property
    def area(self) -> int:
        return sum(len(p.cells) * p.count for p in self.pieces)

    @property
    def exact(self) -> bool:
        """The pieces cover the board's area: every copy is used (else the puzzles refuse it)."""
        return self.area == len(self.board)

    def engine_pieces(self) -> list[Any]:
        """The pieces as `gridgames.search.tiling.TilingProblem.build` takes them."""
        from gridgames.pieces import LatticePiece, Piece
        from gridgames.shapes import Shape

        if self.lattice == "square":
            return [Piece(p.name, Shape(p.cells), p.count, self.kind) for p in self.pieces]
        return [LatticePiece(p.name, self.lattice, p.cells, p.count, self.kind) for p in self.pieces]

    def build(self) -> Any:
        """The engine's problem."""
        from gridgames.search.tiling import TilingProblem

        return TilingProblem.build(self.board, self.engine_pieces(), one_sided=self.one_sided, lattice=self.lattice)

    def board_text(self) -> str:
        """The board as a square board file ('.' a cell, '#' a hole)."""
        rows = [r for r, _ in self.board]
        cols = [c for _, c in self.board]
        on = set(self.board)
        lines = (
            "".join("." if (r, c) in on else "#" for c in range(min(cols), max(cols) + 1))
            for r in range(min(rows), max(rows) + 1)
        )
        return "\n".join(lines) + "\n"

    def pieces_text(self) -> str:
        """The pieces as a square pieces file (NAME*N, then a '#' picture)."""
        blocks = []
        for p in self.pieces:
            h = 1 + max(r for r, _ in p.cells)
            w = 1 + max(c for _, c in p.cells)
            picture = "\n".join("".join("#" if (r, c) in p.cells else "." for c in range(w)) for r in range(h))
            blocks.append(f"{p.name}*{p.count}\n{picture}")
        return "\n\n".join(blocks) + "\n"

    def describe(self) -> str:
        """Everything needed to rebuild the problem, on one line."""
        pieces = ", ".join(f"{p.name}*{p.count} {list(p.cells)}" for p in self.pieces)
        return f"{self.lattice}{' one-sided' if self.one_sided else ''} board {sorted(self.board)} pieces {pieces}"


# --- random problems -----------------------------------------------------------------------------


def _region(lattice: Lattice, rng: random.Random) -> list[Cell]:
    """A small parallelogram (a box in space) of at most 16 cells."""
    if lattice is SQUARE:
        h, w = rng.randint(1, 4), rng.randint(2, 4)
        return [(r, c) for r in range(h) for c in range(w)]
    if lattice is TRIANGULAR:
        rows, cols = rng.choice([(1, 2), (1, 3), (2, 2), (2, 3), (2, 4), (3, 3), (1, 4), (2, 1)])
        return [(a, b, s - a - b) for a in range(rows) for b in range(cols) for s in (1, 2)]
    if lattice is HEXAGONAL:
        rows, cols = rng.randint(1, 4), rng.randint(2, 4)
        return [(x, -x - z, z) for z in range(rows) for x in range(cols)]
    dims = rng.choice([(1, 2, 3), (1, 3, 3), (2, 2, 2), (2, 2, 3), (2, 2, 4), (1, 2, 4), (2, 3, 2), (1, 4, 4)])
    return [(x, y, z) for x in range(dims[0]) for y in range(dims[1]) for z in range(dims[2])]


def _pieces_of_area(
    lattice: Lattice, area: int, rng: random.Random, biggest: int, smallest: int = 1
) -> list[PieceSpec]:
    """Random forms of ``smallest`` (or 1, rarely) to ``biggest`` cells, with copies, whose area is ``area`` (at most
    4 different pieces; a monomino only where nothing else fits)."""
    chosen: dict[tuple[Cell, ...], int] = {}
    left = area
    while left > 0:
        low = max(smallest, 2) if left > 1 and (smallest > 1 or rng.random() < 0.85) else 1
        options = list(range(min(low, left), min(biggest, left) + 1))
        if len(chosen) >= 4:  # enough different pieces: another copy of one that fits
            fitting = [f for f in chosen if len(f) <= left]
            form = rng.choice(fitting) if fitting else free_forms(lattice, 1)[0]
        else:
            form = rng.choice(free_forms(lattice, rng.choice(options)))
        chosen[form] = chosen.get(form, 0) + 1
        left -= len(form)
    return [PieceSpec(f"P{i}", form, count) for i, (form, count) in enumerate(chosen.items())]


def random_problem(rng: random.Random) -> Problem:
    """A board of at most 16 cells with random holes (15%: its first cell cut off), and pieces of its area (60%), less
    (15%) or more (25%); 15% one-sided."""
    lattice = lattice_named(rng.choice(LATTICE_NAMES))
    region = _region(lattice, rng)
    holes = rng.choice([0.0, 0.0, 0.1, 0.2, 0.3])
    board = [c for c in region if rng.random() >= holes]
    if len(board) < 2:
        board = region
    biggest = rng.choice([3, 4, 4, 5]) if lattice is not TRIANGULAR else rng.choice([3, 4, 5, 6])
    alone = rng.random() < 0.15 and len(board) >= 4
    # issue 45's kind: the first cell scanned is cut off, so no piece of 2 or more cells covers it
    if alone:
        first = scan_sorted(lattice, board)[0] if lattice is not SQUARE else min(board)
        board = [c for c in board if c not in lattice.neighbours(first)]
    pieces = _pieces_of_area(lattice, len(board), rng, biggest, smallest=2 if alone else 1)
    mode = rng.random()
    if mode < 0.15:  # too little area: no tiling
        first = pieces[0]
        pieces[0] = PieceSpec(first.name, first.cells, first.count - 1)
        if pieces[0].count == 0:
            pieces.pop(0)
        if not pieces:
            pieces = [PieceSpec("P0", free_forms(lattice, 1)[0], len(board) - 1)]
    elif mode < 0.40:  # too much: some copies stay unused
        k = rng.randrange(len(pieces))
        extra = pieces[k]
        pieces[k] = PieceSpec(extra.name, extra.cells, extra.count + rng.randint(1, 2))
    return Problem(lattice.name, tuple(board), tuple(pieces), one_sided=rng.random() < 0.15)


def random_problems(seed: int, n: int) -> list[Problem]:
    """``n`` random problems from one seed (the same seed gives the same problems)."""
    rng = random.Random(seed)
    return [random_problem(rng) for _ in range(n)]


# --- the brute force -----------------------------------------------------------------------------


def placements(problem: Problem) -> dict[str, set[frozenset[Cell]]]:
    """Every placement of every piece: each orientation translated (keeping up triangles up) onto the board."""
    grid = problem.grid
    on_board = set(problem.board)
    out: dict[str, set[frozenset[Cell]]] = {}
    for piece in problem.pieces:
        found: set[frozenset[Cell]] = set()
        for orientation in grid.orientations(piece.cells, problem.kind):
            first = orientation[0]
            for target in problem.board:
                shift = tuple(b - a for a, b in zip(first, target))
                if grid is TRIANGULAR and sum(shift) != 0:
                    continue
                moved = frozenset(tuple(v + d for v, d in zip(c, shift)) for c in orientation)
                if moved <= on_board:
                    found.add(moved)
        out[piece.name] = found
    return out


def brute_force(problem: Problem) -> set[Tiling]:
    """Every tiling: cover the least uncovered cell with each placement of each piece with copies left, recursively."""
    by_cell: dict[Cell, list[tuple[str, frozenset[Cell]]]] = {c: [] for c in problem.board}
    for name, cells in placements(problem).items():
        for placed in cells:
            # each placement listed once, at its least cell
            by_cell[min(placed)].append((name, placed))
    order = sorted(problem.board)
    left = {p.name: p.count for p in problem.pieces}
    found: set[Tiling] = set()
    chosen: list[tuple[str, frozenset[Cell]]] = []

    def search(covered: frozenset[Cell], start: int) -> None:
        i = start
        while i < len(order) and order[i] in covered:
            i += 1
        if i == len(order):
            found.add(frozenset(chosen))
            return
        for name, placed in by_cell[order[i]]:
            if left[name] and covered.isdisjoint(placed):
                left[name] -= 1
                chosen.append((name, placed))
                search(covered | placed, i + 1)
                chosen.pop()
                left[name] += 1

    search(frozenset(), 0)
    return found


def symmetries(problem: Problem) -> list[dict[Cell, Cell]]:
    """The board's symmetries that map every piece's placements onto placements of that piece."""
    placed = placements(problem)
    return [
        g
        for g in board_symmetries(problem.grid, problem.board)
        if all({frozenset(g[c] for c in cells) for cells in each} == each for each in placed.values())
    ]


def distinct(problem: Problem, tilings: Iterable[Tiling]) -> int:
    """The number of orbits of the tilings under `symmetries`: the least image of each, counted once."""
    group = symmetries(problem)

    def least(tiling: Tiling) -> tuple:
        return min(tuple(sorted((name, tuple(sorted(g[c] for c in cells))) for name, cells in tiling)) for g in group)

    return len({least(t) for t in tilings})


# --- the comparison ------------------------------------------------------------------------------


@frozen
class Outcome:
    """One problem checked: the brute-force counts, the engine paths that disagreed, and the one that raised."""

    problem: Problem
    tilings: int
    distinct: int
    mismatches: tuple[str, ...]
    crash: str | None


def as_tilings(solutions: Iterable[Iterable[Any]]) -> list[Tiling]:
    """Solutions (placements with .piece and .cells) as (name, cells) sets, duplicates kept."""
    return [frozenset((p.piece, frozenset(tuple(c) for c in p.cells)) for p in s) for s in solutions]


def engine_answers(problem: Problem) -> list[tuple[str, bool, Callable[[], Any]]]:
    """Each path of the engine and the puzzles: (name, whether it answers up to symmetry, the call)."""
    from gridgames.search import tiling

    try:
        built = problem.build()
    # the engine refuses a board no piece fits anywhere on, with a one-line error: 0 tilings
    except PuzzleError:
        built = None
    paths: list[tuple[str, bool, Callable[[], Any]]] = (
        [] if built is not None else [("build: no piece fits", False, lambda: 0)]
    )
    paths += (
        []
        if built is None
        else [
            ("count", False, lambda: tiling.count(built).count),
            ("count method=search", False, lambda: tiling.count(built, method="search").count),
            ("count method=orbits", False, lambda: tiling.count(built, method="orbits").count),
            ("count mrv", False, lambda: tiling.count(built, mrv=True).count),
            ("count multiword", False, lambda: tiling.count(built, multiword=True).count),
            (
                "count by parts",
                False,
                lambda: sum(tiling.count_part(built, part).count for part in tiling.split(built, 3)),
            ),
            ("solve", False, lambda: as_tilings(tiling.solve(built))),
            ("solve method=search", False, lambda: as_tilings(tiling.solve(built, method="search"))),
            ("solve limit=2", False, lambda: as_tilings(tiling.solve(built, limit=2))),
            ("count unique", True, lambda: tiling.count(built, unique=True).count),
            ("count unique=canonical", True, lambda: tiling.count(built, unique="canonical").count),
            ("count unique multiword", True, lambda: tiling.count(built, unique=True, multiword=True).count),
            ("solve unique", True, lambda: as_tilings(tiling.solve(built, unique=True))),
        ]
    )
    puzzle = _puzzle(problem)
    if puzzle is not None:
        paths += [
            ("puzzle count", False, lambda: puzzle.count().count),
            ("puzzle solutions", False, lambda: as_tilings(puzzle.solutions())),
            ("puzzle count unique", True, lambda: puzzle.count(unique=True).count),
        ]
    return paths


def _puzzle(problem: Problem) -> Any:
    """The pentomino game's puzzle of the problem (square: from board and pieces text), or None (areas differ)."""
    from gridgames_pentomino.boards import Board
    from gridgames_pentomino.lattice_boards import LatticeBoard
    from gridgames_pentomino.lattice_pieces import LatticePieceSet
    from gridgames_pentomino.lattice_puzzle import LatticePuzzle
    from gridgames_pentomino.pieces import PieceSet
    from gridgames_pentomino.puzzle import TilingPuzzle

    try:
        if problem.lattice == "square":
            return TilingPuzzle(
                Board.from_text(problem.board_text()),
                PieceSet.from_text(problem.pieces_text()),
                one_sided=problem.one_sided,
            )
        board = LatticeBoard("random", problem.lattice, tuple(sorted(problem.board)))
        return LatticePuzzle(
            board, LatticePieceSet(problem.lattice, tuple(problem.engine_pieces())), one_sided=problem.one_sided
        )
    except PuzzleError:
        if problem.exact:
            raise
        # the puzzles refuse pieces whose area differs from the board's, with a one-line error
        return None


def _shifted(problem: Problem, tilings: set[Tiling]) -> set[Tiling]:
    """The tilings in the coordinates of the square puzzle's board (its picture starts at row 0, column 0)."""
    if problem.lattice != "square":
        return tilings
    dr = min(r for r, _ in problem.board)
    dc = min(c for _, c in problem.board)
    return {frozenset((n, frozenset((r - dr, c - dc) for r, c in cells)) for n, cells in t) for t in tilings}


def check(problem: Problem) -> Outcome:
    """Every path's answer against the brute force: counts equal, listings the same tilings once each (those up to
    symmetry one per orbit); a path that raises is the crash (the rest are not tried)."""
    everything = brute_force(problem)
    orbits = distinct(problem, everything)
    mismatches: list[str] = []
    name = "the paths"
    try:
        for name, unique, call in engine_answers(problem):
            got = call()
            expected = orbits if unique else len(everything)
            if isinstance(got, list):
                wanted = _shifted(problem, everything) if name.startswith("puzzle") else everything
                limit = 2 if name.endswith("limit=2") else None
                ok = len(set(got)) == len(got) and set(got) <= wanted
                ok = ok and (len(got) == min(expected, limit) if limit else len(got) == expected)
                if not unique and limit is None:
                    ok = ok and set(got) == wanted
                if unique and ok:
                    ok = distinct(problem, got) == orbits  # one per orbit: no two in the same one
                if not ok:
                    mismatches.append(f"{name}: {len(got)} listed, expected {expected}")
            elif got != expected:
                mismatches.append(f"{name}: {got}, expected {expected}")
    except Exception as error:  # a crash is what the check reports
        return Outcome(problem, len(everything), orbits, tuple(mismatches), f"{name}: {type(error).__name__}: {error}")
    return Outcome(problem, len(everything), orbits, tuple(mismatches), None)
