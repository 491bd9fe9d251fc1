"""PieceMoves' contact rules (issue 53): corner touch, no shared edge, start cells, pools, sampling; against a naive
reference on cell sets."""

from __future__ import annotations

import random

import pytest

from gridgames.errors import IllegalMoveError
from gridgames.grid import Cell, Grid
from gridgames.placement_moves import Adjacency, PieceMoves
from gridgames.shapes import PENTOMINOES, TETROMINOES

RULES = [Adjacency(), Adjacency(touch_corner=True), Adjacency(avoid_edges=True), Adjacency(True, True)]
EDGES = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _near(cells: tuple[Cell, ...], steps: tuple[Cell, ...]) -> set[Cell]:
    return {(r + dr, c + dc) for r, c in cells for dr, dc in steps}


def _naive_allows(
    moves: PieceMoves,
    action: int,
    occupied: set[Cell],
    available: int,
    own: set[Cell],
    rule: Adjacency,
    start: set[Cell] | None,
) -> bool:
    """The rules read off cell sets, one action at a time."""
    cells = moves.cells(action)
    if occupied & set(cells) or not (available >> moves.piece_index(action)) & 1:
        return False
    if own:
        if rule.avoid_edges and _near(cells, EDGES) & own:
            return False
        return not rule.touch_corner or bool(_near(cells, DIAGONALS) & own)
    return start is None or bool(start & set(cells))


def _position(rng: random.Random, moves: PieceMoves, fill: float) -> tuple[set[Cell], set[Cell], int, set[Cell] | None]:
    """Random cells of the mover, of the others, a random pool and maybe start cells (own empty a quarter of the
    time)."""
    board = sorted(moves.on_board)
    own = {cell for cell in board if rng.random() < fill} if rng.random() < 0.75 else set()
    others = {cell for cell in board if cell not in own and rng.random() < fill}
    start = set(rng.sample(board, rng.randint(1, 3))) if rng.random() < 0.7 else None
    return own, own | others, rng.getrandbits(len(moves.names)), start


@pytest.mark.parametrize(("height", "width", "holes"), [(7, 7, ""), (6, 9, "b2 e4"), (11, 11, "")])
def test_legal_allows_and_refusal_agree_with_the_naive_rules(height: int, width: int, holes: str) -> None:
    rng = random.Random(height * width)
    board = Grid.empty(height, width)
    for name in holes.split():
        board.cells[height - int(name[1:]), ord(name[0]) - ord("a")] = -1
    moves = PieceMoves.build(board, PENTOMINOES | {f"{n}4": s for n, s in TETROMINOES.items()})
    seen = 0
    for trial in range(24):
        own, occupied, available, start = _position(rng, moves, rng.choice([0.03, 0.08, 0.15]))
        rule = RULES[trial % 4]
        start_mask = None if start is None else moves.cells_mask(start)
        masks = {"own": moves.cells_mask(own), "rule": rule, "start": start_mask}
        filled = moves.cells_mask(occupied)
        expected = [a for a in range(len(moves)) if _naive_allows(moves, a, occupied, available, own, rule, start)]
        assert moves.legal(filled, available, **masks).tolist() == expected
        assert [a for a in range(len(moves)) if moves.allows(a, filled, available, **masks)] == expected
        for action in range(0, len(moves), 17):
            refused = moves.refusal(action, occupied=filled, available=available, **masks)
            assert (refused is None) == (action in expected), refused
        seen += len(expected)
    assert seen > 100  # the positions are not all dead ends


def test_every_legal_action_can_be_sampled_and_nothing_else_is() -> None:
    moves = PieceMoves.build(Grid.empty(6, 6), {f"{n}4": s for n, s in TETROMINOES.items()})
    rule = Adjacency(touch_corner=True, avoid_edges=True)
    first = moves.parse("O4-1@a6")
    own = moves.mask(first)
    available = moves.all_pieces & ~(1 << moves.piece_index(first))
    legal = set(moves.legal(own, available, own=own, rule=rule).tolist())
    rng = random.Random(5)
    drawn = {moves.sample(rng, own, available, own=own, rule=rule) for _ in range(3000)}
    # the draws reach every legal action (the targets miss none)
    assert drawn == legal and len(legal) > 10


def test_a_first_piece_is_sampled_on_a_start_cell_and_a_dead_end_gives_none() -> None:
    moves = PieceMoves.build(Grid.empty(8, 8), PENTOMINOES)
    rule = Adjacency(touch_corner=True, avoid_edges=True)
    start = moves.cells_mask([(3, 3)])
    rng = random.Random(1)
    for _ in range(50):
        action = moves.sample(rng, 0, moves.all_pieces, own=0, rule=rule, start=start)
        assert action is not None and (3, 3) in moves.cells(action)
    # the mover's only cell, a corner hemmed in by the others' cells
    boxed = moves.cells_mask([(0, 0)])
    walls = moves.cells_mask([(0, 1), (1, 0), (1, 1)])
    assert moves.legal(boxed | walls, own=boxed, rule=rule).size == 0
    assert moves.sample(rng, boxed | walls, moves.all_pieces, own=boxed, rule=rule) is None


def test_refusals_name_the_rule_broken() -> None:
    moves = PieceMoves.build(Grid.empty(8, 8), PENTOMINOES)
    rule = Adjacency(touch_corner=True, avoid_edges=True)
    own = moves.mask(moves.parse("I1@a8"))  # a8 to e8
    with pytest.raises(IllegalMoveError, match=r"^X1@b7 shares an edge with your pieces at c8$"):
        moves.parse("X1@b7", occupied=own, own=own, rule=rule)
    with pytest.raises(IllegalMoveError, match=r"^X1@a3 touches none of your pieces at a corner$"):
        moves.parse("X1@a3", occupied=own, own=own, rule=rule)
    with pytest.raises(IllegalMoveError, match=r"^X1@e8 covers no start cell \(d5, e4\)$"):
        moves.parse("X1@e8", occupied=0, own=0, rule=rule, start=moves.cells_mask([(3, 3), (4, 4)]))
    # f7 meets e8
    assert moves.parse("X1@e7", occupied=own, own=own, rule=rule) == moves.action("X", 0, (1, 4))


def test_pools_give_each_player_their_pieces() -> None:
    moves = PieceMoves.build(Grid.empty(6, 6), PENTOMINOES)
    assert moves.pools(2) == (moves.all_pieces, moves.all_pieces)
    violet, orange = moves.pools([["X", "L"], ["I"]])
    assert {moves.piece_of(a) for a in moves.legal(0, violet).tolist()} == {"X", "L"}
    assert {moves.piece_of(a) for a in moves.legal(0, orange).tolist()} == {"I"}
    assert moves.remaining_planes([violet, orange])[0, 0].sum() == 3
