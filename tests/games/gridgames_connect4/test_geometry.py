"""The one bitboard geometry against naive references on random positions."""

from __future__ import annotations

import random

import pytest

from gridgames_connect4.position.geometry import Geometry

SIZES = [(7, 6, 4), (6, 5, 3), (8, 7, 5), (5, 4, 4), (10, 9, 6), (4, 4, 3)]


def _random_position(geom: Geometry, rng: random.Random) -> list[int]:
    """0-based columns of a random legal game, stopped before a line or a full board."""
    moves: list[int] = []
    mask = 0
    for _ in range(rng.randrange(geom.cells)):
        cur = geom.position(moves)[0]
        col = rng.choice([c for c in range(geom.width) if geom.can_play(mask, c)])
        cell = geom.drop(mask, col)
        if geom.has_line(cur | cell) or len(moves) + 1 == geom.cells:
            break
        moves.append(col)
        mask |= cell
    return moves


def _naive_winning_cells(geom: Geometry, discs: int, mask: int) -> int:
    found = 0
    for window in geom.windows:
        empty = window & ~discs
        if empty.bit_count() == 1 and not empty & mask:
            found |= empty
    return found


@pytest.mark.parametrize(("width", "height", "connect"), SIZES)
def test_winning_cells_and_lines_match_a_scan_of_every_window(width: int, height: int, connect: int) -> None:
    geom = Geometry.of(width, height, connect)
    rng = random.Random(width * 100 + height * 10 + connect)
    for _ in range(60):
        moves = _random_position(geom, rng)
        cur, mask = geom.position(moves)
        for discs in (cur, cur ^ mask):
            assert geom.winning_cells(discs, mask) == _naive_winning_cells(geom, discs, mask), moves
            assert geom.has_line(discs) == any(w & discs == w for w in geom.windows)
        assert geom.wins_at_once(cur, mask) == geom.winning_cells(cur, mask) & geom.playable(mask)


@pytest.mark.parametrize(("width", "height", "connect"), SIZES)
def test_keys_mirror_and_give_back_their_mask(width: int, height: int, connect: int) -> None:
    geom = Geometry.of(width, height, connect)
    rng = random.Random(connect)
    for _ in range(40):
        moves = _random_position(geom, rng)
        cur, mask = geom.position(moves)
        assert geom.mask_of_key(cur + mask) == mask
        mirrored = geom.position([width - 1 - c for c in moves])
        assert geom.mirror(cur + mask) == sum(mirrored)
        assert geom.mirror(geom.mirror(cur + mask)) == cur + mask
        assert geom.canonical(cur + mask) == min(cur + mask, sum(mirrored))


def test_the_constants_of_the_usual_board() -> None:
    geom = Geometry.of(7, 6, 4)
    assert geom.order == (3, 2, 4, 1, 5, 0, 6)
    assert len(geom.windows) == 69  # the 69 lines of four on 7x6
    # the bottom centre cell lies on 7 lines
    assert geom.cell_values[geom.bit(0, 3).bit_length() - 1] == 7
    assert geom.playable(0) == geom.bottom and geom.board.bit_count() == 42
    assert geom.column_of(geom.bit(5, 6)) == 6
    # the odd rows (1, 3, 5 counted from 1) and the lower cell of each pair (rows 1, 3, 5 on an even height)
    assert geom.odd_rows == geom.bottom * 0b010101 and geom.lower_rows == geom.bottom * 0b010101


def test_a_geometry_is_immutable_cached_and_pickles_as_itself() -> None:
    import pickle

    from gridgames_connect4.solve.book_keys import BookKeys

    g = Geometry.of(7, 6, 4)
    assert Geometry.of(7, 6, 4) is g and g != Geometry.of(7, 6, 5) and hash(g) == hash(Geometry.of(7, 6, 4))
    assert pickle.loads(pickle.dumps(g)) is g
    with pytest.raises(AttributeError):
        g.width = 8  # type: ignore[misc]
    keys = BookKeys(7, 6, 4)
    assert keys.geometry is g and pickle.loads(pickle.dumps(keys)) == keys and keys != BookKeys(6, 7, 4)
    with pytest.raises(AttributeError):
        keys.width = 8  # type: ignore[misc]


@pytest.mark.parametrize(("width", "height", "connect"), SIZES)
def test_drop_and_playable_on_arrays_match_the_ints(width: int, height: int, connect: int) -> None:
    np = pytest.importorskip("numpy")
    geom = Geometry.of(width, height, connect)
    if not geom.fits_one_word:
        with pytest.raises(OverflowError):  # two-word boards have no uint64 arrays of masks
            np.array([geom.board], dtype=np.uint64)
        return
    rng = random.Random(width * 100 + height)
    masks = [geom.position(_random_position(geom, rng))[1] for _ in range(40)]
    array = np.array(masks, dtype=np.uint64)
    assert [int(x) for x in geom.playable(array)] == [geom.playable(m) for m in masks]
    for col in range(width):
        assert [int(x) for x in geom.drop(array, col)] == [geom.drop(m, col) for m in masks]


def test_the_board_sizes_in_bits() -> None:
    from gridgames_connect4.position.geometry import board_bits, fits_one_word, key_bytes

    # a naive count: every cell and one guard cell above each column
    for width, height in [(7, 6), (8, 7), (9, 6), (10, 6), (10, 10), (4, 4)]:
        naive = len([(c, r) for c in range(width) for r in range(height + 1)])
        assert board_bits(width, height) == naive == Geometry.of(width, height, 4).bits
        assert fits_one_word(width, height) == (naive <= 64)
        assert key_bytes(width, height) * 8 >= naive > (key_bytes(width, height) - 1) * 8
