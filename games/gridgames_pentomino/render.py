"""Drawing tilings: plain letters, colour for the terminal (rich), and SVG sheets.

Each piece gets one character (its name when that is one character; the lower-case
letter for a mirror image such as F'; else its first character when no other piece
starts with it; else a free letter or digit) and one colour. Holes are drawn blank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from attrs import frozen
from rich.text import Text

from gridgames.game import Placement, Solution
from gridgames.grid import HOLE, Cell, Grid

PALETTE = (
    "#e6194b",
    "#3cb44b",
    "#ffe119",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#46f0f0",
    "#f032e6",
    "#bcf60c",
    "#fabebe",
    "#008080",
    "#e6beff",
    "#9a6324",
    "#fffac8",
    "#800000",
    "#aaffc3",
    "#808000",
    "#ffd8b1",
    "#000075",
    "#808080",
)
"""Distinct colours (Sasha Trubetskoy's list), used in order and then reused with a different shade."""

_SPARE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%&$"


def _shade(colour: str, round_: int) -> str:
    """The colour darkened a little more on each reuse of the palette."""
    if round_ == 0:
        return colour
    factor = 0.75**round_
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(int(v * factor) for v in (r, g, b)))


def relative_luminance(colour: str) -> float:
    """The WCAG 2 relative luminance of a ``#rrggbb`` colour: 0 for black, 1 for white."""
    channels = []
    for i in (1, 3, 5):
        v = int(colour[i : i + 2], 16) / 255
        channels.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def letter_colour(fill: str) -> str:
    """Black or white, whichever contrasts more with the fill (by its luminance): black on yellow and pale fills."""
    return "#000000" if contrast_ratio(fill, "#000000") >= contrast_ratio(fill, "#ffffff") else "#ffffff"


@frozen
class Palette:
    """A character and a colour for every piece name."""

    letters: dict[str, str]
    colours: dict[str, str]

    @classmethod
    def for_pieces(cls, names: Sequence[str]) -> Palette:
        """One distinct character and colour per piece, in the order given."""
        letters: dict[str, str] = {}
        firsts = [name[:1] for name in names]
        for name in names:
            if len(name) == 1 and name not in letters.values():
                letters[name] = name
        for name in names:  # a mirror image F' of a one-letter piece: the lower-case letter
            if name not in letters and len(name) == 2 and name[1] == "'" and name[0].lower() not in letters.values():
                letters[name] = name[0].lower()
        for name in names:
            if name not in letters and firsts.count(name[:1]) == 1 and name[:1] not in letters.values():
                letters[name] = name[:1]
        spare = iter(ch for ch in _SPARE_CHARS if ch not in letters.values())
        for name in names:
            if name not in letters:
                letters[name] = next(spare, "?")
        colours = {name: _shade(PALETTE[i % len(PALETTE)], i // len(PALETTE)) for i, name in enumerate(names)}
        return cls(letters, colours)

    def letter(self, piece: str) -> str:
        """The character of a piece ('?' for an unknown one)."""
        return self.letters.get(piece, "?")

    def colour(self, piece: str) -> str:
        """The colour of a piece (grey for an unknown one)."""
        return self.colours.get(piece, "#808080")


def cell_owners(solution: Iterable[Placement]) -> dict[Cell, tuple[int, str]]:
    """For each covered cell, the index of its placement in the solution and the piece's name."""
    owners: dict[Cell, tuple[int, str]] = {}
    for index, placement in enumerate(solution):
        for cell in placement.cells:
            owners[(int(cell[0]), int(cell[1]))] = (index, placement.piece)
    return owners


def to_text(board: Grid, solution: Solution, palette: Palette) -> str:
    """The tiling as plain text: each cell its piece's character, holes blank, '.' for an uncovered cell."""
    owners = cell_owners(solution)
    lines = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            if int(board.cells[r, c]) == HOLE:
                row.append(" ")
            elif (r, c) in owners:
                row.append(palette.letter(owners[(r, c)][1]))
            else:
                row.append(".")
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def to_rich(board: Grid, solution: Solution, palette: Palette) -> Text:
    """The tiling in colour for the terminal: two characters per cell, the piece's letter on its colour."""
    owners = cell_owners(solution)
    text = Text()
    for r in range(board.height):
        for c in range(board.width):
            if int(board.cells[r, c]) == HOLE:
                text.append("  ")
            elif (r, c) in owners:
                piece = owners[(r, c)][1]
                background = palette.colour(piece)
                text.append(f"{palette.letter(piece)} ", style=f"bold {letter_colour(background)} on {background}")
            else:
                text.append(". ")
        if r < board.height - 1:
            text.append("\n")
    return text


def board_text(board: Grid) -> str:
    """The empty board: '.' for a cell to fill, blank for a hole."""
    return "\n".join("".join(" " if int(v) == HOLE else "." for v in row).rstrip() for row in board.cells)


def _outline(board: Grid, owners: dict[Cell, tuple[int, str]], size: float) -> str:
    """SVG path data of every cell edge between two placements, or between the board and outside."""

    def owner(r: int, c: int) -> object:
        if not board.on_board((r, c)):
            return None
        return owners.get((r, c), ("empty", r, c))

    parts = []
    for r in range(board.height):
        for c in range(board.width):
            if not board.on_board((r, c)):
                continue
            here = owner(r, c)
            x, y = c * size, r * size
            if owner(r - 1, c) != here:
                parts.append(f"M{x:g} {y:g}h{size:g}")
            if owner(r + 1, c) != here and owner(r + 1, c) is None:
                parts.append(f"M{x:g} {y + size:g}h{size:g}")
            if owner(r, c - 1) != here:
                parts.append(f"M{x:g} {y:g}v{size:g}")
            if owner(r, c + 1) != here and owner(r, c + 1) is None:
                parts.append(f"M{x + size:g} {y:g}v{size:g}")
    return "".join(parts)


def _label_cell(cells: Sequence[Cell]) -> Cell:
    """The cell of a placement nearest its centre, where its letter goes."""
    mr = sum(r for r, _ in cells) / len(cells)
    mc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda rc: ((rc[0] - mr) ** 2 + (rc[1] - mc) ** 2, rc))


def _drawing(board: Grid, solution: Solution, palette: Palette, size: float, title: str) -> list[str]:
    """The SVG elements of one tiling, drawn from (0, 0)."""
    owners = cell_owners(solution)
    out = [f"<title>{escape(title)}</title>"]
    for (r, c), (_, piece) in sorted(owners.items()):
        out.append(
            f'<rect x="{c * size:g}" y="{r * size:g}" width="{size:g}" height="{size:g}" '
            f'fill="{palette.colour(piece)}"/>'
        )
    for r, c in board.empty_cells():
        if (r, c) not in owners:
            out.append(f'<rect x="{c * size:g}" y="{r * size:g}" width="{size:g}" height="{size:g}" fill="#ffffff"/>')
    out.append(
        f'<path d="{_outline(board, owners, size)}" fill="none" stroke="#000000" stroke-width="{max(size / 10, 1):g}" '
        'stroke-linecap="square"/>'
    )
    for placement in solution:
        r, c = _label_cell([(int(a), int(b)) for a, b in placement.cells])
        colour = letter_colour(palette.colour(placement.piece))
        out.append(
            f'<text x="{(c + 0.5) * size:g}" y="{(r + 0.5) * size:g}" font-size="{size * 0.6:g}" fill="{colour}" '
            'text-anchor="middle" dominant-baseline="central" '
            f'font-family="sans-serif">{escape(palette.letter(placement.piece))}</text>'
        )
    return out


def to_svg(
    board: Grid,
    solutions: Sequence[Solution],
    palette: Palette,
    *,
    cell: float = 16,
    columns: int | None = None,
    title: str = "tilings",
    numbers: Sequence[int] | None = None,
) -> str:
    """An SVG sheet of tilings: a grid of small drawings, one per solution, each captioned with its number."""
    count = max(len(solutions), 1)
    if columns is None:
        columns = max(1, min(count, round(math.sqrt(count * board.height / board.width))))
    rows = math.ceil(count / columns)
    gap, caption = cell, cell * 0.9
    step_x = board.width * cell + gap
    step_y = board.height * cell + caption + gap
    width, height = columns * step_x + gap, rows * step_y + gap
    numbers = list(numbers) if numbers is not None else list(range(1, len(solutions) + 1))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} '
        f'{height:g}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
    ]
    for i, solution in enumerate(solutions):
        x = gap + (i % columns) * step_x
        y = gap + (i // columns) * step_y
        label = f"solution {numbers[i]}"
        out.append(f'<g transform="translate({x:g},{y:g})" id={quoteattr(f"solution-{numbers[i]}")}>')
        out.append(
            f'<text x="0" y="{caption * 0.75:g}" font-size="{caption * 0.8:g}" font-family="sans-serif" '
            f'fill="#333333">{escape(label)}</text>'
        )
        out.append(f'<g transform="translate(0,{caption:g})">')
        out.extend(_drawing(board, solution, palette, cell, label))
        out.append("</g></g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def lattice_rich(picture: str, palette: Palette) -> Text:
    """A lattice puzzle's text picture (`LatticePuzzle.text`) in colour: each piece's character on its colour."""
    colours = {palette.letter(name): palette.colour(name) for name in palette.letters}
    text = Text()
    for ch in picture:
        background = colours.get(ch)
        text.append(ch, style=f"bold {letter_colour(background)} on {background}" if background else None)
    return text
