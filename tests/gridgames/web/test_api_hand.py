"""The hand-tiling API: the layout of a puzzle, checks after each placement (completions, dead cells), hints."""

from __future__ import annotations

from typing import Any

import pytest
from gridgames_pentomino.puzzle import TilingPuzzle
from gridgames_pentomino.web import PentominoWeb
from gridgames_test_support.web import Api

from gridgames.web.hand import build_layout, dead_cells

PENTOMINO = "/api/puzzle/pentomino"


def _placement_numbers(layout: dict[str, Any], solution: Any) -> list[int]:
    """The layout's numbers of a solution's placements (cells compared by drawing position: square cells are their
    own)."""
    index = {tuple(c): i for i, c in enumerate(layout["cells"])}
    names = [p["name"] for p in layout["pieces"]]
    lookup = {(names[p], tuple(cells)): n for n, (p, _, cells) in enumerate(layout["placements"])}
    return [lookup[(p.piece, tuple(sorted(index[tuple(c)] for c in p.cells)))] for p in solution]


def test_a_3x20_solution_placed_piece_by_piece_counts_down_to_one_and_is_checked(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    layout = api.ok("GET", f"{PENTOMINO}/hand")
    assert layout["version"] == 1 and layout["lattice"] == "square" and len(layout["cells"]) == 60
    assert sorted(p["name"] for p in layout["pieces"]) == sorted("FILNPTUVWXYZ")
    start = api.job(f"{PENTOMINO}/hand/check", {"placed": [], "seconds": 60})["result"]
    # the 3x20's 8 tilings
    assert start["count"] == 8 and not start["partial"] and start["completable"]
    solution = next(TilingPuzzle.create("3x20").solutions())
    numbers = _placement_numbers(layout, solution)
    counts = []
    for k in range(1, len(numbers) + 1):
        result = api.job(f"{PENTOMINO}/hand/check", {"placed": numbers[:k], "seconds": 60})["result"]
        counts.append(result["count"])
        assert result["dead"] == [] and result["left"] == 60 - 5 * k
    assert counts[-1] == 1 and counts == sorted(counts, reverse=True) and counts[0] < 8
    final = api.job(f"{PENTOMINO}/hand/check", {"placed": numbers, "seconds": 60})["result"]
    assert final["solved"] and final["valid"]


def test_hints_alone_finish_the_3x20_and_each_hint_keeps_it_completable(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    layout = api.ok("GET", f"{PENTOMINO}/hand")
    placed: list[int] = []
    for _ in range(12):
        hint = api.job(f"{PENTOMINO}/hand/hint", {"placed": placed, "seconds": 60})["result"]["hint"]
        assert isinstance(hint, int) and hint not in placed
        placed.append(hint)
        assert api.job(f"{PENTOMINO}/hand/check", {"placed": placed, "seconds": 60})["result"]["count"] >= 1
    covered = sorted(c for n in placed for c in layout["placements"][n][2])
    assert covered == list(range(60))
    assert api.job(f"{PENTOMINO}/hand/check", {"placed": placed, "seconds": 60})["result"]["solved"]


def test_a_corner_cut_off_by_the_x_is_a_dead_cell_and_no_completion() -> None:
    puzzle = TilingPuzzle.create("3x20")
    layout = build_layout(PentominoWeb().hand_pieces(puzzle))
    plus = {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)}
    x_first = next(
        n
        for n, (p, _, cells) in enumerate(layout.placements)
        if layout.pieces[p]["name"] == "X" and {layout.cells[i] for i in cells} == plus
    )
    assert [layout.cells[i] for i in dead_cells(layout, [x_first])] == [(0, 0), (2, 0)]
    assert dead_cells(layout, []) == []


@pytest.mark.slow
def test_lattice_presets_have_layouts_with_their_transforms(api: Api) -> None:
    for preset, lattice, cells, keys in [
        ("triangle:6x6", "triangular", 72, ["r", "f"]),
        ("hex:4x7", "hexagonal", 28, ["r", "f"]),
        ("cube:2x3x10", "cubic", 60, ["r", "t", "u"]),
    ]:
        view = api.ok("POST", f"{PENTOMINO}/new", {"preset": preset})
        assert view["source"] == {"preset": preset} and "<svg" in view["board_svg"]
        layout = api.ok("GET", f"{PENTOMINO}/hand")
        assert layout["lattice"] == lattice and len(layout["cells"]) == cells
        assert [t["key"] for t in layout["transforms"]] == keys
        # each map permutes a piece's orientations (free pieces)
        for transform in layout["transforms"]:
            for piece, mapping in zip(layout["pieces"], transform["maps"]):
                assert sorted(mapping) == list(range(len(piece["orientations"])))


def test_the_cube_box_counts_its_known_packings_by_hand(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"preset": "cube:2x3x10"})
    result = api.job(f"{PENTOMINO}/hand/check", {"placed": [], "seconds": 60})["result"]
    assert result["count"] == 12 * 8 and not result["partial"]  # 12 up to the box's 8 rotations


@pytest.mark.parametrize(
    ("placed", "needle"),
    [
        ("3", "list of placement numbers"),
        ([-1], "not a placement number"),
        ([10**6], "not a placement number"),
        ([True], "not a placement number"),
    ],
)
def test_bad_placed_lists_are_refused_with_a_message(api: Api, placed: Any, needle: str) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    response = api.post(f"{PENTOMINO}/hand/check", {"placed": placed})
    assert response.status_code == 400 and needle in response.json()["error"]


def test_overlaps_and_extra_copies_are_refused(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    layout = api.ok("GET", f"{PENTOMINO}/hand")
    first = layout["placements"][0]
    same_piece = next(
        n for n, p in enumerate(layout["placements"]) if p[0] == first[0] and not set(p[2]) & set(first[2])
    )
    overlap = next(n for n, p in enumerate(layout["placements"]) if p[0] != first[0] and set(p[2]) & set(first[2]))
    response = api.post(f"{PENTOMINO}/hand/check", {"placed": [0, overlap]})
    assert response.status_code == 400 and "covers a cell another piece covers" in response.json()["error"]
    response = api.post(f"{PENTOMINO}/hand/check", {"placed": [0, same_piece]})
    assert response.status_code == 400 and "copies" in response.json()["error"]


def test_a_game_without_the_hooks_says_so(api: Api) -> None:
    api.ok("POST", "/api/puzzle/nqueens/new", {"options": {}})
    response = api.get("/api/puzzle/nqueens/hand")
    assert response.status_code == 404 and "does not offer tiling by hand" in response.json()["error"]


def test_an_unknown_preset_is_a_400(api: Api) -> None:
    response = api.post(f"{PENTOMINO}/new", {"preset": "cube:9x9x9"})
    assert response.status_code == 400 and "no preset" in response.json()["error"]


def test_a_check_cut_short_by_its_budget_is_partial(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
    result = api.job(f"{PENTOMINO}/hand/check", {"placed": [], "seconds": 0.05})["result"]
    assert result["partial"] and result["stopped"] == "time" and result["count"] < 520 * 8
    response = api.post(f"{PENTOMINO}/hand/check", {"placed": [], "seconds": 0})
    assert response.status_code == 400 and "'seconds'" in response.json()["error"]


def test_the_pentomino_hooks_meet_the_protocols_and_connect4_offers_none() -> None:
    from gridgames_connect4 import SPEC as CONNECT4

    from gridgames.web.hooks import HandTiling, PresetPuzzle, hooks_of

    assert isinstance(PentominoWeb(), HandTiling) and isinstance(PentominoWeb(), PresetPuzzle)
    assert not isinstance(hooks_of(CONNECT4), HandTiling)


def test_a_lattice_preset_lists_checks_and_counts_like_any_puzzle(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"preset": "triangle:6x6"})
    # docs/lattices.md
    assert api.job(f"{PENTOMINO}/count", {"unique": True})["result"]["count"] == 156
    api.job(f"{PENTOMINO}/list", {"n": 2})
    first = api.ok("GET", f"{PENTOMINO}/solution/1")
    assert first["valid"] and len(first["placements"]) == 12 and first["svg"].lstrip().startswith("<svg")
    assert len(first["text"].splitlines()) >= 6


class _TwoTetrominoSets:
    """A plugin author's puzzle that only declares its board and pieces: two sets of tetrominoes on 4x10."""

    def __init__(self) -> None:
        from gridgames.grid import Grid
        from gridgames.pieces import Piece
        from gridgames.shapes import TETROMINOES

        self.board = Grid.empty(4, 10)
        self.pieces = [Piece.of(shape, count=2, name=name) for name, shape in TETROMINOES.items()]

    def is_solution(self, solution: Any) -> bool:
        from gridgames.pieces import as_pieces, is_tiling

        return bool(is_tiling(self.board, as_pieces(self.pieces), solution))


def test_any_puzzle_declaring_its_board_and_pieces_tiles_by_hand_through_tiling_hooks() -> None:
    from gridgames.web.hand import analyse
    from gridgames.web.hand_hooks import TilingHooks
    from gridgames.web.jobs import Budget

    puzzle, hooks = _TwoTetrominoSets(), TilingHooks()
    layout = build_layout(hooks.hand_pieces(puzzle))
    assert len(layout.cells) == 40 and [p["count"] for p in layout.pieces] == [2] * 5
    empty = analyse(layout, puzzle, hooks, [], Budget(60), hint=False)
    # the pentomino docs' `--pieces 'tetrominoes*2'` count
    assert empty["count"] == 1796 and not empty["partial"]
    placed: list[int] = []
    while True:
        result = analyse(layout, puzzle, hooks, placed, Budget(60), hint=True)
        if result.get("solved"):
            break
        assert result["hint"] is not None and result["hint"] not in placed
        placed.append(result["hint"])
    assert len(placed) == 10 and result["valid"]
    corner_i = next(
        n
        for n, (p, _, cells) in enumerate(layout.placements)
        if layout.pieces[p]["name"] == "I" and [layout.cells[i] for i in cells] == [(1, 0), (1, 1), (1, 2), (1, 3)]
    )
    line = {(1, 0), (1, 1), (1, 2), (1, 3)}
    # the tilings listed by the pentomino puzzle that hold that I: the completions, counted apart
    holding = sum(
        any(set(p.cells) == line for p in tiling) for tiling in TilingPuzzle.create("4x10", "tetrominoes*2").solutions()
    )
    after = analyse(layout, puzzle, hooks, [corner_i], Budget(60), hint=False)
    assert after["count"] == holding > 0 and after["dead"] == []


def test_the_empty_6x10_counts_all_its_tilings(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "6x10"}})
    result = api.job(f"{PENTOMINO}/hand/check", {"placed": [], "seconds": 120})["result"]
    assert result["count"] == 9356 and not result["partial"] and result["completable"]


@pytest.mark.parametrize(
    ("lattice", "family", "turn"),
    [
        ("square", "pentominoes", 4),
        ("triangle", "hexiamonds", 6),
        ("hex", "tetrahexes", 6),
        ("cube", "tetracubes", 4),
    ],
)
def test_rotate_is_a_turn_of_the_lattice_and_reaches_the_one_sided_orientations(
    lattice: str, family: str, turn: int
) -> None:
    from gridgames.lattices import lattice_named
    from gridgames_pentomino.lattice_pieces import LatticePieceSet

    grid = lattice_named(lattice)
    if grid.name == "square":
        puzzle = TilingPuzzle.create("6x10", family)
        spec = PentominoWeb().hand_pieces(puzzle)
        sided = [len(p.orientations(True)) for p in puzzle.pieces]
    else:
        pieces = LatticePieceSet.parse(grid, family)
        spec = {
            "lattice": grid.name,
            "cells": [list(grid.origin)],
            "pieces": [{"name": p.name, "count": 1, "orientations": p.orientations()} for p in pieces],
        }
        sided = [len(p.orientations(True)) for p in pieces]
    layout = build_layout(spec)
    rotate = layout.transforms[0]
    for p, piece in enumerate(layout.pieces):
        seen, at = [], 0
        for _ in range(turn):
            seen.append(at)
            at = rotate["maps"][p][at]
        assert at == 0  # a whole turn comes back
        # turning in the plane reaches its one-sided forms
        assert len(set(seen)) == sided[p] or grid.name == "cubic"
        # in space, the three quarter turns reach every orientation of the solid
        if grid.name == "cubic":
            reach, todo = {0}, [0]
            while todo:
                o = todo.pop()
                for t in layout.transforms:
                    if t["maps"][p][o] not in reach:
                        reach.add(t["maps"][p][o])
                        todo.append(t["maps"][p][o])
            assert len(reach) == len(piece["forms"]) == sided[p]
