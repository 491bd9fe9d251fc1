"""The tiling engine on the triangular, hexagonal and cubic lattices: against a tiny brute-force solver, and known
counts."""

from __future__ import annotations

import pytest

from gridgames.errors import PuzzleError
from gridgames.lattices import (
    AXIS_ORDERS,
    CUBIC,
    HEXAGONAL,
    TRIANGULAR,
    Lattice,
    board_symmetries,
    cell_at,
    free_forms,
    one_sided_forms,
)
from gridgames.pieces import LatticePiece, is_lattice_tiling
from gridgames.search.tiling import TilingProblem, count, planning, solve
from gridgames.search.tiling.unique import board_permutations

Tiling = frozenset[tuple[str, frozenset[tuple[int, ...]]]]


def brute_force(lattice: Lattice, board: list[tuple[int, ...]], pieces: list[LatticePiece]) -> set[Tiling]:
    """Every tiling, by covering the least uncovered cell with every orientation and cell of every piece left."""
    cells = sorted(board)
    on_board = set(board)
    found: set[Tiling] = set()

    def placements(piece: LatticePiece, blank: tuple[int, ...]) -> list[frozenset[tuple[int, ...]]]:
        kind = "fixed" if piece.kind == "fixed" else piece.kind
        out = []
        for orientation in lattice.orientations(piece.cells, kind):
            for anchor in orientation:
                shift = [b - a for a, b in zip(anchor, blank)]
                if lattice is TRIANGULAR and sum(shift) != 0:  # a translation keeps up triangles up
                    continue
                moved = frozenset(tuple(v + d for v, d in zip(c, shift)) for c in orientation)
                if moved <= on_board:
                    out.append(moved)
        return out

    def search(
        covered: set[tuple[int, ...]], left: list[int], chosen: list[tuple[str, frozenset[tuple[int, ...]]]]
    ) -> None:
        blank = next((c for c in cells if c not in covered), None)
        if blank is None:
            found.add(frozenset(chosen))
            return
        for i, piece in enumerate(pieces):
            if not left[i]:
                continue
            for moved in placements(piece, blank):
                if covered.isdisjoint(moved):
                    left[i] -= 1
                    search(covered | moved, left, [*chosen, (piece.name, moved)])
                    left[i] += 1

    search(set(), [p.count for p in pieces], [])
    return found


def as_tilings(solutions: object) -> set[Tiling]:
    return {frozenset((p.piece, frozenset(p.cells)) for p in s) for s in solutions}  # type: ignore[attr-defined]


def pieces_of(lattice: Lattice, sizes: dict[int, int], one_sided: bool = False) -> list[LatticePiece]:
    """Every form of each size, each with the given number of copies."""
    out = []
    for size, copies in sizes.items():
        forms = one_sided_forms(lattice, size) if one_sided else free_forms(lattice, size)
        kind = "one-sided" if one_sided else "free"
        out += [LatticePiece(f"{size}{chr(97 + i)}", lattice.name, form, copies, kind) for i, form in enumerate(forms)]
    return out


def parallelogram(lattice: Lattice, rows: int, cols: int) -> list[tuple[int, ...]]:
    if lattice is TRIANGULAR:
        return [(a, b, s - a - b) for a in range(rows) for b in range(cols) for s in (1, 2)]
    return [(x, -x - z, z) for z in range(rows) for x in range(cols)]


CASES = [
    # (lattice, board, pieces): small enough for the brute force, with copies, several sizes and symmetric boards
    (TRIANGULAR, parallelogram(TRIANGULAR, 3, 3), {4: 1, 3: 2}),
    # a triangle
    (TRIANGULAR, [cell_at(TRIANGULAR, (r, c)) for r in range(3) for c in range(-r, r + 1)], {3: 3}),
    # hexagon
    (TRIANGULAR, [(a, b, s - a - b) for s in (1, 2) for a in (0, 1) for b in (0, 1) if 0 <= s - a - b <= 1], {2: 3}),
    (HEXAGONAL, parallelogram(HEXAGONAL, 3, 4), {3: 2, 2: 3}),
    (HEXAGONAL, [(x, y, -x - y) for x in (-1, 0, 1) for y in (-1, 0, 1) if abs(x + y) <= 1], {3: 1, 2: 2}),
    (CUBIC, [(x, y, z) for x in range(2) for y in range(2) for z in range(3)], {3: 2}),
    (CUBIC, [(x, y, z) for x in range(2) for y in range(2) for z in range(2)], {3: 2, 2: 1}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("lattice", "board", "sizes"), CASES)
def test_engine_finds_exactly_the_brute_force_tilings(
    lattice: Lattice, board: list[tuple[int, ...]], sizes: dict[int, int]
) -> None:
    pieces = pieces_of(lattice, sizes)
    # where the pieces cover more than the board, some stay unused
    expected = brute_force(lattice, board, pieces)
    assert expected  # a case worth checking
    problem = TilingProblem.build(board, pieces, lattice=lattice)
    found = as_tilings(solve(problem))
    assert found == expected
    assert count(problem).count == len(expected)
    assert count(problem, multiword=True).count == len(expected)
    assert all(is_lattice_tiling(lattice, board, pieces, tuple(s)) for s in solve(problem, limit=5))


@pytest.mark.parametrize(("lattice", "board", "sizes"), CASES)
def test_unique_count_is_the_number_of_orbits(
    lattice: Lattice, board: list[tuple[int, ...]], sizes: dict[int, int]
) -> None:
    pieces = pieces_of(lattice, sizes)
    problem = TilingProblem.build(board, pieces, lattice=lattice)
    everything = as_tilings(solve(problem))
    maps = board_symmetries(lattice, board)
    distinct = as_tilings(solve(problem, unique=True))
    orbits = [{frozenset((name, frozenset(g[c] for c in cells)) for name, cells in t) for g in maps} for t in distinct]
    # every tiling is in some orbit...
    assert set().union(*orbits) == everything if orbits else not everything
    # ...and the orbits of the distinct ones do not overlap
    assert sum(len(o) for o in orbits) == len(everything)
    assert count(problem, unique=True).count == len(distinct)
    assert count(problem, unique="canonical").count == len(distinct)


def test_one_sided_pieces_never_flip() -> None:
    board = parallelogram(TRIANGULAR, 3, 3)
    free = pieces_of(TRIANGULAR, {4: 1, 3: 2})
    problem = TilingProblem.build(board, free, lattice=TRIANGULAR, one_sided=True)
    expected = brute_force(
        TRIANGULAR, board, [LatticePiece(p.name, p.lattice, p.cells, p.count, "one-sided") for p in free]
    )
    assert as_tilings(solve(problem)) == expected
    assert len(expected) < len(brute_force(TRIANGULAR, board, free))


def test_board_symmetries_as_permutations_map_the_board_onto_itself() -> None:
    # hexagon of side 3
    board = [(x, y, -x - y) for x in range(-2, 3) for y in range(-2, 3) if abs(x + y) <= 2]
    problem = TilingProblem.build(board, pieces_of(HEXAGONAL, {1: 19}), lattice=HEXAGONAL)
    perms = board_permutations(problem)
    assert perms.shape == (12, 19)
    assert (perms[0] == range(19)).all()
    assert all(sorted(p) == list(range(19)) for p in perms.tolist())
    assert len({tuple(p) for p in perms.tolist()}) == 12


@pytest.mark.slow
def test_boards_over_64_cells_use_the_multi_word_kernel() -> None:
    # the 12 hexiamonds on the 6x6 rhombus: 72 triangles, 156 tilings up to symmetry (O'Beirne; Knuth, TAOCP 4B)
    board = parallelogram(TRIANGULAR, 6, 6)
    pieces = [LatticePiece(chr(65 + i), "triangular", f) for i, f in enumerate(free_forms(TRIANGULAR, 6))]
    problem = TilingProblem.build(board, pieces, lattice=TRIANGULAR)
    assert problem.words == 2 and problem.one_word is None
    distinct = count(problem, unique=True)
    assert distinct.count == 156
    # the rhombus's group has 4 elements and no tiling is symmetric
    assert count(problem).count == 156 * 4
    # up to symmetry, one piece is restricted to a placement per orbit: well under half the tree of every tiling
    plain = count(problem, method="search")
    assert plain.count == 624 and distinct.nodes < plain.nodes / 2 and distinct.method.startswith("restricted")


def test_flat_pentacubes_fill_the_2x3x10_box_in_12_ways() -> None:
    from gridgames.shapes import PENTOMINOES

    pieces = [
        LatticePiece(n, "cubic", [(0, r, c) for r, c in s.cells], kind="one-sided") for n, s in PENTOMINOES.items()
    ]
    board = [(x, y, z) for x in range(2) for y in range(3) for z in range(10)]
    problem = TilingProblem.build(board, pieces, lattice=CUBIC)
    assert count(problem, unique=True).count == 12  # published (e.g. Gardner)
    assert count(problem).count == 12 * 8


def test_a_cubic_board_counts_alike_in_every_axis_order() -> None:
    from gridgames.shapes import PENTOMINOES

    pieces = [
        LatticePiece(n, "cubic", [(0, r, c) for r, c in PENTOMINOES[n].cells], kind="one-sided") for n in "LPNUVY"
    ]
    board = [(x, y, z) for x in range(2) for y in range(3) for z in range(5)]
    problem = TilingProblem.build(board, pieces, lattice=CUBIC)
    plain = count(problem, method="search").count
    assert plain > 0
    for order in AXIS_ORDERS:
        other = problem.reordered(order)
        assert other.order == order and sorted(other.cells) == sorted(problem.cells)
        assert count(other, method="search").count == count(other).count == plain, order
        assert count(other, unique=True).count == count(problem, unique=True).count, order


@pytest.mark.slow
def test_a_count_on_a_cubic_board_chooses_the_axis_order_of_the_least_tree() -> None:
    from gridgames.shapes import PENTOMINOES

    pieces = [
        LatticePiece(n, "cubic", [(0, r, c) for r, c in s.cells], kind="one-sided") for n, s in PENTOMINOES.items()
    ]
    board = [(x, y, z) for x in range(2) for y in range(5) for z in range(6)]
    problem = TilingProblem.build(board, pieces, lattice=CUBIC)
    searched, _ = planning.plan_count(problem)
    # the build's order runs the longest axis slowest ("zyx"): 13.6 M nodes by orbits, where "xzy" needs 5.3 M
    assert searched.order in AXIS_ORDERS and searched.order != "zyx"
    found = count(problem, unique=True)
    # 2,112 tilings, 8 symmetries
    assert found.count == 264 and f"cells in {searched.order} order" in found.method


def test_pieces_of_another_lattice_are_refused() -> None:
    board = parallelogram(HEXAGONAL, 2, 2)
    with pytest.raises(PuzzleError, match="not on the hexagonal lattice"):
        TilingProblem.build(board, pieces_of(TRIANGULAR, {2: 2}), lattice=HEXAGONAL)
    with pytest.raises(PuzzleError, match="LatticePieces"):
        TilingProblem.build(board, ["not a piece"], lattice=HEXAGONAL)


def firsts(lattice: Lattice, spec: list[tuple[int, int]]) -> list[LatticePiece]:
    """The first k free forms of each size, one copy each: (size, k) pairs."""
    return [
        LatticePiece(f"{size}{chr(97 + i)}", lattice.name, form)
        for size, k in spec
        for i, form in enumerate(free_forms(lattice, size)[:k])
    ]


SPLIT_CASES = [
    # boards with odd sides, where some placements of every piece used once are fixed by a symmetry
    (CUBIC, [(0, y, z) for y in range(3) for z in range(3)], [(3, 2), (2, 1), (1, 1)]),
    (HEXAGONAL, parallelogram(HEXAGONAL, 3, 3), [(3, 2), (2, 1), (1, 1)]),
    (TRIANGULAR, parallelogram(TRIANGULAR, 3, 3), [(4, 3), (3, 1), (2, 1), (1, 1)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("lattice", "board", "spec"), SPLIT_CASES)
def test_split_by_stabilisers_counts_the_orbits(
    lattice: Lattice, board: list[tuple[int, ...]], spec: list[tuple[int, int]]
) -> None:
    from gridgames.search.tiling.stabilisers import count_split, stabiliser_parts

    pieces = firsts(lattice, spec)
    everything = brute_force(lattice, board, pieces)
    maps = board_symmetries(lattice, board)
    orbits = {min(tuple(sorted((n, tuple(sorted(g[c] for c in cs))) for n, cs in t)) for g in maps) for t in everything}
    problem = TilingProblem.build(board, pieces, lattice=lattice)
    split = stabiliser_parts(problem)
    # some kept placement has a symmetry: canonical parts
    assert split is not None and len(split[1]) > 1
    assert [unique for _, unique in split[1][1:]] == ["canonical"] * (len(split[1]) - 1)
    result = count_split(problem)
    assert result is not None
    assert result.count == len(orbits) == count(problem, unique="canonical").count
    assert len(everything) > len(orbits) > 0
