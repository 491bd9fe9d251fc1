"""Tests of drawing tilings: piece letters and colours, plain text, rich colour, SVG sheets."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gridgames.game import Placement, Solution

from gridgames_pentomino import render
from gridgames_pentomino.boards import Board
from gridgames_pentomino.pieces import PieceSet
from gridgames_pentomino.puzzle import TilingPuzzle

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def centre() -> tuple[TilingPuzzle, list[Solution], render.Palette]:
    puzzle = TilingPuzzle.create("8x8-centre")
    return puzzle, list(puzzle.solutions(limit=3)), render.Palette.for_pieces(puzzle.pieces.names)


def picture_placements(text: str) -> dict[str, set[tuple[int, int]]]:
    """The cells of each letter of a plain-text picture."""
    cells: dict[str, set[tuple[int, int]]] = {}
    for r, line in enumerate(text.splitlines()):
        for c, ch in enumerate(line):
            if ch != " ":
                cells.setdefault(ch, set()).add((r, c))
    return cells


def test_pentomino_letters_are_their_names_with_distinct_colours() -> None:
    palette = render.Palette.for_pieces(list("FILNPTUVWXYZ"))
    assert palette.letters == {n: n for n in "FILNPTUVWXYZ"}
    assert len(set(palette.colours.values())) == 12


def test_mirror_images_are_drawn_in_lower_case() -> None:
    palette = render.Palette.for_pieces(PieceSet.parse("one-sided pentominoes").names)
    assert palette.letter("F'") == "f" and palette.letter("F") == "F" and palette.letter("Z'") == "z"


def test_long_or_clashing_names_still_get_distinct_single_characters() -> None:
    for spec in ("hexominoes", "one-sided pentominoes", "fixed tetrominoes"):
        names = PieceSet.parse(spec).names
        palette = render.Palette.for_pieces(names)
        assert all(len(palette.letter(n)) == 1 for n in names)
        assert len({palette.letter(n) for n in names}) == len(names), spec
        assert len(set(palette.colours.values())) == len(names), spec


def test_text_picture_has_one_letter_per_piece_and_blank_holes(
    centre: tuple[TilingPuzzle, list[Solution], render.Palette],
) -> None:
    puzzle, solutions, palette = centre
    text = render.to_text(puzzle.board, solutions[0], palette)
    lines = text.splitlines()
    assert len(lines) == 8 and lines[3][3:5] == "  " and lines[4][3:5] == "  "
    found = picture_placements(text)
    assert set(found) == set("FILNPTUVWXYZ")
    rebuilt = tuple(Placement(letter, cells) for letter, cells in found.items())
    assert puzzle.is_solution(rebuilt)


def test_uncovered_cells_show_as_dots() -> None:
    board = Board.parse("2x3").grid
    text = render.to_text(board, (Placement("L", [(0, 0), (1, 0), (1, 1)]),), render.Palette.for_pieces(["L"]))
    assert text == "L..\nLL."


def test_rich_drawing_colours_each_cell_with_its_piece(
    centre: tuple[TilingPuzzle, list[Solution], render.Palette],
) -> None:
    puzzle, solutions, palette = centre
    text = render.to_rich(puzzle.board, solutions[0], palette)
    plain = render.to_text(puzzle.board, solutions[0], palette)
    assert text.plain.replace(" ", "") == plain.replace(" ", "")
    coloured = {(span.style, text.plain[span.start]) for span in text.spans}
    assert len(coloured) == 12
    for style, letter in coloured:
        assert f"on {palette.colour(letter)}" in str(style)


def test_svg_is_valid_xml_with_one_drawing_per_solution(
    centre: tuple[TilingPuzzle, list[Solution], render.Palette],
) -> None:
    puzzle, solutions, palette = centre
    root = ET.fromstring(render.to_svg(puzzle.board, solutions, palette, title="8x8 & co <test>"))
    assert root.tag == f"{SVG}svg"
    groups = [g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("solution-")]
    assert [g.get("id") for g in groups] == ["solution-1", "solution-2", "solution-3"]
    for group, solution in zip(groups, solutions):
        rects = list(group.iter(f"{SVG}rect"))
        assert len(rects) == 60
        fills = {r.get("fill") for r in rects}
        assert fills == {palette.colour(p.piece) for p in solution}
        letters = sorted(t.text for t in group.iter(f"{SVG}text") if t.get("text-anchor") == "middle")
        assert letters == sorted("FILNPTUVWXYZ")
        assert group.find(f".//{SVG}path") is not None


def test_svg_places_each_cell_where_its_piece_is(centre: tuple[TilingPuzzle, list[Solution], render.Palette]) -> None:
    puzzle, solutions, palette = centre
    root = ET.fromstring(render.to_svg(puzzle.board, solutions[:1], palette, cell=10))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "solution-1")
    colour_at = {
        (int(float(r.get("y"))) // 10, int(float(r.get("x"))) // 10): r.get("fill") for r in group.iter(f"{SVG}rect")
    }
    expected = {cell: palette.colour(p.piece) for p in solutions[0] for cell in p.cells}
    assert colour_at == expected


def test_svg_escapes_odd_piece_names() -> None:
    pieces = PieceSet.from_text("<&>\n##\n\nq\"'\n##\n")
    puzzle = TilingPuzzle(Board.parse("2x2"), pieces)
    palette = render.Palette.for_pieces(pieces.names)
    root = ET.fromstring(render.to_svg(puzzle.board, list(puzzle.solutions()), palette, title='a "b" & <c>'))
    texts = {t.text for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle"}
    assert texts == {"<", "q"}


def test_empty_sheet_is_still_valid_svg() -> None:
    root = ET.fromstring(render.to_svg(Board.parse("2x2").grid, [], render.Palette.for_pieces(["O"])))
    assert root.tag == f"{SVG}svg"


# --- letter colour by the fill's luminance ---------------------------------------

YELLOW_AND_PALE = ["#ffe119", "#fffac8", "#bcf60c", "#46f0f0", "#fabebe", "#e6beff", "#aaffc3", "#ffd8b1", "#ffffff"]
DARK = ["#000075", "#800000", "#911eb4", "#008080", "#4363d8", "#000000"]


@pytest.mark.parametrize("fill", YELLOW_AND_PALE)
def test_letters_on_yellow_and_pale_fills_are_black(fill: str) -> None:
    assert render.letter_colour(fill) == "#000000"


@pytest.mark.parametrize("fill", DARK)
def test_letters_on_dark_fills_are_white(fill: str) -> None:
    assert render.letter_colour(fill) == "#ffffff"


def test_every_fill_gets_the_letter_colour_that_contrasts_more() -> None:
    # the palette and two darker shades
    palette = render.Palette.for_pieces([f"p{i}" for i in range(60)])
    for fill in palette.colours.values():
        chosen = render.letter_colour(fill)
        other = "#ffffff" if chosen == "#000000" else "#000000"
        assert render.contrast_ratio(fill, chosen) >= render.contrast_ratio(fill, other)
        # WCAG AA for text: always reachable with black or white
        assert render.contrast_ratio(fill, chosen) >= 4.5


def test_luminance_and_contrast_ends() -> None:
    assert render.relative_luminance("#000000") == 0 and render.relative_luminance("#ffffff") == pytest.approx(1)
    assert render.contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert render.contrast_ratio("#ffe119", "#ffe119") == 1


def test_svg_letters_follow_their_fill(centre: tuple[TilingPuzzle, list[Solution], render.Palette]) -> None:
    puzzle, solutions, palette = centre
    root = ET.fromstring(render.to_svg(puzzle.board, solutions[:1], palette))
    letters = {t.text: t.get("fill") for t in root.iter(f"{SVG}text") if t.text and len(t.text) == 1}
    assert letters and all(
        letters[palette.letter(name)] == render.letter_colour(palette.colour(name)) for name in puzzle.pieces.names
    )
    yellow = next(name for name in puzzle.pieces.names if palette.colour(name) == "#ffe119")
    assert letters[palette.letter(yellow)] == "#000000"
