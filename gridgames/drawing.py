"""Default pictures of any puzzle's solutions: plain text and SVG, labelled by the pieces' names.

Both drawings work from the board and the placements alone (`Placement.piece` and
`Placement.cells`), so every `Puzzle` can draw itself and no puzzle runs out of
symbols: a cell shows its piece's *name* (padded to the longest name), and lines
between cells of different placements outline each piece, so two dominoes both
named ``D`` side by side stay two dominoes::

    >>> from gridgames.game import Placement
    >>> from gridgames.grid import Grid
    >>> solution = (
    ...     Placement("H", [(0, 0), (0, 1)]), Placement("V", [(1, 0), (2, 0)]), Placement("V", [(1, 1), (2, 1)])
    ... )
    >>> print(to_text(Grid.empty(3, 2), solution))
    H H
    -+-
    V|V
    V|V

Holes are ``#`` and uncovered board cells ``.``. `to_svg` draws the same outlines with
one colour per piece name (a stable hue from the name, so a piece keeps its colour
across solutions and runs) and the name written once on each piece, in black or white
by the colour's luminance (WCAG relative luminance, whichever contrasts more).
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol
from xml.sax.saxutils import escape

import attrs

from gridgames.errors import GridGamesError
from gridgames.grid import Cell, Grid

__all__ = [
    "EDGES",
    "MARK_KINDS",
    "Drawn",
    "Mark",
    "Picture",
    "Placed",
    "board_svg",
    "cell_owners",
    "cell_polygons",
    "lattice_svg",
    "lattice_text",
    "letter_colour",
    "piece_colour",
    "svg_document",
    "tile_colour",
    "to_svg",
    "to_text",
]


class Placed(Protocol):
    """What a drawing reads of a placement: the piece's name and the cells it covers (`gridgames.game.Placement`
    is one; this module comes before the game protocol's, so it names no class of it)."""

    @property
    def piece(self) -> str: ...

    @property
    def cells(self) -> tuple[Cell, ...]: ...


Drawn = Sequence[Placed]
"""A solution as the drawings read it (`gridgames.game.Solution` is one)."""

CELL = 28.0  # an SVG cell's side, in user units
MARGIN = 6.0


def cell_owners(solution: Iterable[Placed]) -> dict[Cell, int]:
    """Which placement (its index in the solution) covers each cell."""
    return {cell: index for index, placement in enumerate(solution) for cell in placement.cells}


def to_text(board: Grid, solution: Drawn) -> str:
    """The solution as text: each cell shows its piece's name, and ``|`` / ``-`` separate different placements."""
    owners = cell_owners(solution)
    names = [p.piece for p in solution]
    width = max([len(n) for n in names] + [1])

    def owner(r: int, c: int) -> object:
        if (r, c) in owners:
            return owners[(r, c)]
        return "hole" if not board.on_board((r, c)) else ("blank", r, c)

    def label(r: int, c: int) -> str:
        if (r, c) in owners:
            return names[owners[(r, c)]].ljust(width)
        return ("." if board.on_board((r, c)) else "#") * width

    lines = []
    for r in range(board.height):
        row = label(r, 0)
        for c in range(1, board.width):
            row += ("|" if owner(r, c - 1) != owner(r, c) else " ") + label(r, c)
        lines.append(row.rstrip())
        if r + 1 < board.height:
            cuts = [owner(r, c) != owner(r + 1, c) for c in range(board.width)]
            if not any(cuts):  # only vertical lines go on: no line of its own
                continue
            between = ""
            for c in range(board.width):
                if c:
                    across = cuts[c - 1] or cuts[c]
                    down = owner(r, c - 1) != owner(r, c) or owner(r + 1, c - 1) != owner(r + 1, c)
                    between += "+" if across and down else "-" if across else "|" if down else " "
                between += ("-" if cuts[c] else " ") * width
            lines.append(between.rstrip())
    return "\n".join(lines)


def piece_colour(name: str) -> str:
    """A stable, fairly light colour for a piece name (``#rrggbb``)."""
    hue = (zlib.crc32(name.encode()) % 360) / 360
    r, g, b = colorsys.hls_to_rgb(hue, 0.62, 0.65)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _luminance(colour: str) -> float:
    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def letter_colour(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (``#rrggbb``)."""
    light = _luminance(background)
    return "#000000" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "#ffffff"


def _label_cell(cells: Sequence[Cell]) -> Cell:
    """The cell nearest the placement's centre (where its name is written)."""
    mr = sum(r for r, _ in cells) / len(cells)
    mc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda cell: ((cell[0] - mr) ** 2 + (cell[1] - mc) ** 2, cell))


def _svg_start(width: float, height: float, title: str) -> list[str]:
    """The opening lines of a standalone SVG picture of that size: the svg element, and its title when there is one."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} '
        f'{height:g}">',
        f"<title>{escape(title)}</title>" if title else "",
    ]


def to_svg(board: Grid, solution: Drawn, *, title: str = "") -> str:
    """One solution as a standalone SVG document: coloured pieces, outlines, names."""
    owners = cell_owners(solution)
    width, height = board.width * CELL + 2 * MARGIN, board.height * CELL + 2 * MARGIN
    out = _svg_start(width, height, title)
    for r in range(board.height):
        for c in range(board.width):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            if (r, c) in owners:
                fill = piece_colour(solution[owners[(r, c)]].piece)
            elif board.on_board((r, c)):
                fill = "#ffffff"
            else:
                continue
            out.append(
                f'<rect x="{x:g}" y="{y:g}" width="{CELL:g}" height="{CELL:g}" fill="{fill}" stroke="#d0d0d0" '
                'stroke-width="0.5"/>'
            )
    segments = []

    def who(r: int, c: int) -> object:
        return owners.get((r, c), "board" if board.on_board((r, c)) else None)

    for r in range(board.height + 1):
        for c in range(board.width + 1):
            if c < board.width and who(r - 1, c) != who(r, c):  # horizontal edge above (r, c)
                segments.append(f"M{MARGIN + c * CELL:g} {MARGIN + r * CELL:g}h{CELL:g}")
            if r < board.height and who(r, c - 1) != who(r, c):  # vertical edge left of (r, c)
                segments.append(f"M{MARGIN + c * CELL:g} {MARGIN + r * CELL:g}v{CELL:g}")
    if segments:
        out.append(
            f'<path d="{"".join(segments)}" stroke="#222222" stroke-width="2" fill="none" stroke-linecap="square"/>'
        )
    size = max(7.0, min(14.0, CELL * 0.9 / max(1, max((len(p.piece) for p in solution), default=1)) * 1.6))
    for placement in solution:
        if not placement.cells:
            continue
        r, c = _label_cell(placement.cells)
        colour = letter_colour(piece_colour(placement.piece))
        out.append(
            f'<text x="{MARGIN + (c + 0.5) * CELL:g}" y="{MARGIN + (r + 0.5) * CELL:g}" font-family="sans-serif" '
            f'font-size="{size:.1f}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{colour}">{escape(placement.piece)}</text>'
        )
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


def svg_document(drawings: Sequence[str], *, title: str = "", gap: float = 12.0) -> str:
    """Several standalone SVG drawings stacked top to bottom in one document (each nested as an ``<svg>``)."""
    import xml.etree.ElementTree as ET

    ns = "http://www.w3.org/2000/svg"
    ET.register_namespace("", ns)
    root = ET.Element(f"{{{ns}}}svg")
    if title:
        ET.SubElement(root, f"{{{ns}}}title").text = title
    y, width = 0.0, 0.0
    for text in drawings:
        child = ET.fromstring(text)
        w, h = float(child.get("width", "0")), float(child.get("height", "0"))
        child.set("x", "0")
        child.set("y", f"{y:g}")
        root.append(child)
        y += h + gap
        width = max(width, w)
    height = max(0.0, y - gap)
    root.set("width", f"{width:g}")
    root.set("height", f"{height:g}")
    root.set("viewBox", f"0 0 {width:g} {height:g}")
    return ET.tostring(root, encoding="unicode") + "\n"


MARK_KINDS = ("piece", "king", "line-h", "line-v", "dot", "tile")
"""What a `Mark` may be: a player's piece (a disc), a promoted piece (a king: a disc with a crown), a neutral line
across the cell (horizontal or vertical: a drawn line of Dots and Boxes), a small dot, a tile (a square, a number)."""
EDGES = ("top", "bottom", "left", "right")
"""The board's sides a game may give to players (`gridgames.game.Game.edges`: Hex's)."""


def _check_kind(instance: Any, attribute: Any, value: str) -> None:
    if value not in MARK_KINDS:
        raise GridGamesError(f"a mark's kind is one of {', '.join(MARK_KINDS)}, not {value!r}")


@attrs.frozen
class Mark:
    """What one cell shows beyond a player's plain piece (`gridgames.game.State.marks`): a piece kind, a neutral mark,
    a number.

    ``player``: whose it is (its colour), None for a neutral mark; ``kind``: one of `MARK_KINDS`;
    ``label``: the text written on it (default: the player's initial, a tile's number); ``number``: a
    tile's value; ``colour``: its own fill (``#rrggbb``), e.g. one colour per placed piece.

    >>> Mark(0, "king").kind, Mark(number=2048, kind="tile").text(("Red",))
    ('king', '2048')
    """

    player: int | None = None
    kind: str = attrs.field(default="piece", validator=_check_kind)
    label: str = ""
    number: int | None = None
    colour: str | None = None

    def text(self, player_names: Sequence[str]) -> str:
        """What is written on it: the label, else a tile's number, else the player's initial (a king's doubled)."""
        if self.label:
            return self.label
        if self.number is not None:
            return str(self.number)
        if self.player is None or self.kind not in ("piece", "king"):
            return ""
        name = player_names[self.player] if 0 <= self.player < len(player_names) else str(self.player + 1)
        return (name[:1] or "?") * (2 if self.kind == "king" else 1)

    def view(self) -> dict[str, Any]:
        """The mark as JSON (the web page draws it; a tile's colour is its number's when it has none of its own)."""
        colour = self.colour
        if colour is None and self.kind == "tile" and self.number is not None:
            colour = tile_colour(self.number)
        return {"player": self.player, "kind": self.kind, "label": self.label, "number": self.number, "colour": colour}


def tile_colour(number: int) -> str:
    """A tile's fill by its number: pale for small numbers, deeper as they double (2, 4, ... 2048)."""
    import math

    step = min(11, max(0, round(math.log2(max(1, abs(number))))))
    r, g, b = colorsys.hls_to_rgb((40 - step * 3.5) / 360, 0.9 - step * 0.045, 0.75)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


PLAYER_COLOURS = ("#d55e00", "#f0e442", "#0072b2", "#009e73", "#cc79a7", "#56b4e9")
"""Okabe and Ito's colour-blind-safe palette, one colour per player (each also marked by a letter)."""


def board_svg(
    grid: Grid,
    player_names: Sequence[str],
    *,
    highlight: Iterable[Cell] = (),
    title: str = "",
    colours: Sequence[str] = PLAYER_COLOURS,
    marks: Mapping[Cell, Mark] | None = None,
    edges: Mapping[str, int] | None = None,
) -> str:
    """A turn-based game's board as SVG: player p's cells (value p + 1) a disc in p's colour with p's initial; holes
    dark.

    Squares, pointy-top hexagons (each row half a cell right of the one above: a Hex rhombus)
    or triangles (alternately up and down), as ``grid.lattice`` says. Every cell's element
    carries ``data-row`` and ``data-col``, which the web page uses to make it clickable;
    ``colours`` are the players' disc colours, in player order. ``marks`` (`Mark`, by cell)
    draw kings, neutral lines, dots and numbered tiles instead of the plain discs; ``edges``
    (side name of `EDGES` to player) draw those sides of the board in the player's colour.
    """
    if grid.lattice != "square":
        return _lattice_board_svg(
            grid,
            player_names,
            highlight=set(highlight),
            title=title,
            colours=colours,
            marks=marks or {},
            edges=edges or {},
        )
    marked, marks = set(highlight), marks or {}
    width, height = grid.width * CELL + 2 * MARGIN, grid.height * CELL + 2 * MARGIN
    out = _svg_start(width, height, title)
    for r in range(grid.height):
        for c in range(grid.width):
            x, y, value = MARGIN + c * CELL, MARGIN + r * CELL, int(grid.cells[r, c])
            fill = "#444444" if value < 0 else "#ffffff"
            out.append(
                f'<rect x="{x:g}" y="{y:g}" width="{CELL:g}" height="{CELL:g}" fill="{fill}" stroke="#999999" '
                'stroke-width="1" '
                f'data-row="{r}" data-col="{c}"/>'
            )
            centre = (x + CELL / 2, y + CELL / 2)
            if (r, c) in marks:
                out.extend(_mark(marks[(r, c)], player_names, centre, CELL, (r, c) in marked, colours))
            elif value > 0:
                out.extend(
                    _stone(
                        value,
                        player_names,
                        centre,
                        CELL * 0.4,
                        (r, c) in marked,
                        font=CELL * 0.45,
                        colours=colours,
                        extra=' pointer-events="none"',
                    )
                )
    corners = [(MARGIN, MARGIN), (width - MARGIN, MARGIN), (width - MARGIN, height - MARGIN), (MARGIN, height - MARGIN)]
    sides = {"top": corners[0:2], "right": corners[1:3], "bottom": corners[2:4], "left": [corners[3], corners[0]]}
    out.extend(_edges(edges or {}, sides, colours))
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


def _edges(
    edges: Mapping[str, int], sides: Mapping[str, Sequence[tuple[float, float]]], colours: Sequence[str]
) -> list[str]:
    """The sides of the board a game gives its players, as thick lines of their colours (``data-edge``: the side)."""
    out = []
    for side, player in edges.items():
        if side not in sides:
            raise GridGamesError(f"a board's edge is one of {', '.join(EDGES)}, not {side!r}")
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in sides[side])
        colour = colours[player % len(colours)]
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="5" stroke-linecap="round" '
            f'stroke-linejoin="round" pointer-events="none" data-edge="{side}" data-player="{player}"/>'
        )
    return out


def _mark(
    mark: Mark,
    player_names: Sequence[str],
    centre: tuple[float, float],
    size: float,
    ringed: bool,
    colours: Sequence[str],
) -> list[str]:
    """One cell's `Mark` centred at ``centre`` in a cell about ``size`` across (clicks go through to the cell)."""
    x, y = round(centre[0], 2), round(centre[1], 2)
    own = colours[mark.player % len(colours)] if mark.player is not None else "#333333"
    fill = mark.colour or own
    text = mark.text(player_names)
    extra = ' pointer-events="none"'
    out: list[str] = []
    if mark.kind in ("piece", "king"):
        radius = round(size * 0.4, 2)
        ring = ' stroke="#000000" stroke-width="3"' if ringed else f' stroke="{own}" stroke-width="2"'
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{fill}"{ring}{extra} data-kind="{mark.kind}"/>')
        if mark.kind == "king":  # a crown: a second ring inside, gold
            out.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{radius * 0.72:.2f}" fill="none" stroke="#ffd700" '
                f'stroke-width="2.5"{extra}/>'
            )
    elif mark.kind in ("line-h", "line-v"):
        long, thin = size, size * 0.2
        w, h = (long, thin) if mark.kind == "line-h" else (thin, long)
        out.append(
            f'<rect x="{x - w / 2:.2f}" y="{y - h / 2:.2f}" width="{w:.2f}" height="{h:.2f}" rx="{thin / 2:.2f}" '
            f'fill="{fill}"{extra} data-kind="{mark.kind}"/>'
        )
    elif mark.kind == "dot":
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{size * 0.12:.2f}" fill="{fill}"{extra} data-kind="dot"/>')
    else:  # a tile
        fill = mark.colour or (tile_colour(mark.number) if mark.number is not None else own)
        side = size * 0.9
        out.append(
            f'<rect x="{x - side / 2:.2f}" y="{y - side / 2:.2f}" width="{side:.2f}" height="{side:.2f}" rx="3" '
            f'fill="{fill}"{extra} data-kind="tile"/>'
        )
    if text:
        base = mark.colour or fill
        font = size * (0.45 if len(text) <= 2 else 1.1 / len(text))
        out.append(
            f'<text x="{x:g}" y="{y:g}" font-family="sans-serif" font-size="{font:.2f}" font-weight="bold" '
            'text-anchor="middle" dominant-baseline="central" '
            f'fill="{letter_colour(base) if base.startswith("#") and len(base) == 7 else "#000000"}"{extra}>'
            f"{escape(text)}</text>"
        )
    return out


def grid_svg(grid: Grid, *, title: str = "") -> str:
    """A grid of values as SVG, as its text shows it: each value's character (`gridgames.grid.ALPHABET`) on a colour of
    its own; holes left out."""
    from gridgames.grid import ALPHABET

    width, height = grid.width * CELL + 2 * MARGIN, grid.height * CELL + 2 * MARGIN
    out = _svg_start(width, height, title)
    for r in range(grid.height):
        for c in range(grid.width):
            x, y, value = MARGIN + c * CELL, MARGIN + r * CELL, int(grid.cells[r, c])
            if value < 0:
                continue
            char = ALPHABET[value - 1] if 0 < value <= len(ALPHABET) else ("" if value == 0 else str(value))
            fill = piece_colour(char) if value > 0 else "#ffffff"
            out.append(
                f'<rect x="{x:g}" y="{y:g}" width="{CELL:g}" height="{CELL:g}" fill="{fill}" stroke="#999999" '
                'stroke-width="1" '
                f'data-row="{r}" data-col="{c}"/>'
            )
            if char:
                out.append(
                    f'<text x="{x + CELL / 2:g}" y="{y + CELL / 2:g}" font-family="sans-serif" '
                    f'font-size="{CELL * 0.5:g}" '
                    'text-anchor="middle" dominant-baseline="central" '
                    f'fill="{letter_colour(fill)}">{escape(char)}</text>'
                )
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


def _stone(
    value: int,
    player_names: Sequence[str],
    centre: tuple[float, float],
    radius: float,
    marked: bool,
    *,
    font: float,
    colours: Sequence[str] = PLAYER_COLOURS,
    extra: str = "",
) -> list[str]:
    """A player's disc with the player's initial, at ``centre`` (``extra``: more attributes for both elements)."""
    x, y = centre
    colour = colours[(value - 1) % len(colours)]
    name = player_names[value - 1] if value - 1 < len(player_names) else str(value)
    ring = ' stroke="#000000" stroke-width="3"' if marked else ' stroke="#333333" stroke-width="1"'
    x, y, radius, font = round(x, 2), round(y, 2), round(radius, 2), round(font, 2)
    return [
        f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{colour}"{ring}{extra}/>',
        f'<text x="{x:g}" y="{y:g}" font-family="sans-serif" font-size="{font:g}" '
        'text-anchor="middle" dominant-baseline="central" '
        f'fill="{letter_colour(colour)}"{extra}>{escape(name[:1] or "?")}</text>',
    ]


def cell_polygons(grid: Grid, size: float = CELL) -> dict[Cell, list[tuple[float, float]]]:
    """The corners of every cell of a grid as drawn (square, hexagon or triangle by ``grid.lattice``), top left at (0,
    0)."""
    polygons = {}
    for r in range(grid.height):
        for c in range(grid.width):
            if grid.lattice == "hexagonal":
                polygons[(r, c)] = _polygon("hexagonal", (r, 2 * c + r), size / _ROOT3, 0.0)
            elif grid.lattice == "triangular":
                polygons[(r, c)] = _polygon("triangular", (r, c), size, 0.0)
            else:
                polygons[(r, c)] = _polygon("square", (r, c), size, 0.0)
    x0 = min(x for poly in polygons.values() for x, _ in poly)
    y0 = min(y for poly in polygons.values() for _, y in poly)
    return {cell: [(x - x0, y - y0) for x, y in poly] for cell, poly in polygons.items()}


def _lattice_board_svg(
    grid: Grid,
    player_names: Sequence[str],
    *,
    highlight: set[Cell],
    title: str,
    colours: Sequence[str],
    marks: Mapping[Cell, Mark],
    edges: Mapping[str, int],
) -> str:
    """`board_svg` on hexagons or triangles: one ``<polygon>`` per cell."""
    size = CELL * (1.0 if grid.lattice == "hexagonal" else 1.3)
    polygons = cell_polygons(grid, size)
    width = max(x for poly in polygons.values() for x, _ in poly) + 2 * MARGIN
    height = max(y for poly in polygons.values() for _, y in poly) + 2 * MARGIN
    out = _svg_start(round(width, 2), round(height, 2), title)
    for (r, c), poly in polygons.items():
        value = int(grid.cells[r, c])
        if value < 0 and grid.lattice == "hexagonal":
            continue  # a hole of a hexagonal board is not drawn (the rhombus may hold any board)
        fill = "#444444" if value < 0 else "#ffffff"
        points = " ".join(f"{x + MARGIN:.2f},{y + MARGIN:.2f}" for x, y in poly)
        out.append(
            f'<polygon points="{points}" fill="{fill}" stroke="#999999" stroke-width="1" data-row="{r}" '
            f'data-col="{c}"/>'
        )
    for (r, c), poly in polygons.items():
        value = int(grid.cells[r, c])
        if (r, c) in marks:
            x, y = _centre(poly)
            out.extend(
                _mark(
                    marks[(r, c)],
                    player_names,
                    (x + MARGIN, y + MARGIN),
                    size * (1.0 if grid.lattice == "hexagonal" else 0.5),
                    (r, c) in highlight,
                    colours,
                )
            )
        elif value > 0:
            x, y = _centre(poly) if grid.lattice == "hexagonal" else _incentre(poly)
            radius = size * (0.4 if grid.lattice == "hexagonal" else 0.2)
            out.extend(
                _stone(
                    value,
                    player_names,
                    (x + MARGIN, y + MARGIN),
                    radius,
                    (r, c) in highlight,
                    font=radius * 1.1,
                    colours=colours,
                    extra=' pointer-events="none"',
                )
            )  # a click on a stone reaches its cell
    if edges and grid.lattice == "hexagonal":  # a triangular board's sides are not drawn
        out.extend(_edges(edges, _hex_sides(grid, polygons), colours))
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


def _hex_sides(
    grid: Grid, polygons: Mapping[Cell, Sequence[tuple[float, float]]]
) -> dict[str, list[tuple[float, float]]]:
    """The four sides of a hexagonal rhombus as the corners along them (a hexagon's corners: 0 lower right, 1 bottom,
    2 lower left, 3 upper left, 4 top, 5 upper right)."""
    n, m = grid.height, grid.width

    def along(cells: Iterable[Cell], corners: Sequence[int]) -> list[tuple[float, float]]:
        return [(polygons[cell][k][0] + MARGIN, polygons[cell][k][1] + MARGIN) for cell in cells for k in corners]

    return {
        "top": along(((0, c) for c in range(m)), (3, 4, 5)),
        "bottom": along(((n - 1, c) for c in range(m)), (2, 1, 0)),
        "left": along(((r, 0) for r in range(n)), (3, 2)),
        "right": along(((r, m - 1) for r in range(n)), (4, 5, 0)),
    }


def _incentre(triangle: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The centre of an equilateral triangle's inscribed circle (its centroid)."""
    return _centre(triangle)


# ----------------------------------------------------------------------------------------------
# the other lattices (gridgames.lattices): triangles, hexagons, and cubes as a row of layers
# ----------------------------------------------------------------------------------------------
def _letters(solution: Drawn, letters: Mapping[str, str] | None) -> dict[str, str]:
    """One character per piece name: the given ones, the name itself when it is one character, else A, B, ..."""
    out = dict(letters or {})
    spare = iter(
        ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" if ch not in out.values()
    )
    for placement in solution:
        name = placement.piece
        if name not in out:
            out[name] = name if len(name) == 1 and name not in out.values() else next(spare, "?")
    return out


def lattice_text(
    lattice: str, cells: Iterable[tuple[int, ...]], solution: Drawn, letters: Mapping[str, str] | None = None
) -> str:
    """A solution on a triangular, hexagonal or cubic board as text: one character per cell ('.' uncovered).

    The layout is `gridgames.lattices.picture`'s (triangles alternate up and down along a row,
    hexagons sit two columns apart, a box's layers stand side by side).
    """
    from gridgames.lattices import lattice_named, picture

    chars = _letters(solution, letters)
    labels = {tuple(cell): "." for cell in cells}
    for placement in solution:
        for cell in placement.cells:
            labels[tuple(cell)] = chars[placement.piece]
    return picture(lattice_named(lattice), labels, across=True)


_ROOT3 = 3**0.5


def _polygon(lattice: str, pos: tuple[int, ...], size: float, layer_step: float) -> list[tuple[float, float]]:
    """The corners of a cell drawn at a position (`gridgames.lattices.position`), side ``size``."""
    if lattice == "triangular":
        row, col = pos
        h = size * _ROOT3 / 2
        left, right, middle = col * size / 2, (col / 2 + 1) * size, (col + 1) * size / 2
        if (row + col) % 2 == 0:  # pointing up
            return [(left, (row + 1) * h), (right, (row + 1) * h), (middle, row * h)]
        return [(left, row * h), (right, row * h), (middle, (row + 1) * h)]
    if lattice == "hexagonal":
        row, col = pos
        width = _ROOT3 * size
        cx, cy = (col + 1) * width / 2, row * 1.5 * size + size
        return [(cx + size * _cos(a), cy + size * _sin(a)) for a in (30, 90, 150, 210, 270, 330)]
    if lattice == "cubic":
        layer, row, col = pos
        x, y = layer * layer_step + col * size, row * size
    else:
        row, col = pos
        x, y = col * size, row * size
    return [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]


def _cos(degrees: float) -> float:
    import math

    return math.cos(math.radians(degrees))


def _sin(degrees: float) -> float:
    import math

    return math.sin(math.radians(degrees))


def lattice_svg(
    lattice: str,
    cells: Iterable[tuple[int, ...]],
    solution: Drawn,
    *,
    title: str = "",
    colours: Mapping[str, str] | None = None,
    letters: Mapping[str, str] | None = None,
    size: float = CELL,
) -> str:
    """One solution on a triangular, hexagonal or cubic board as a standalone SVG document.

    Triangles and hexagons are drawn as such; a box is drawn as a row of its layers, left to
    right, each cell labelled. Thick lines separate pieces, thin ones cells.
    """
    from gridgames.lattices import lattice_named, position

    grid = lattice_named(lattice)
    cells = [tuple(cell) for cell in cells]
    owners = {tuple(cell): i for i, placement in enumerate(solution) for cell in placement.cells}
    chars = _letters(solution, letters)
    places = {cell: position(grid, cell) for cell in cells}
    layer_step = 0.0
    if grid.name == "cubic":
        layer_step = (1 + max(p[2] for p in places.values()) - min(p[2] for p in places.values())) * size + size
    polygons = {cell: _polygon(grid.name, places[cell], size, layer_step) for cell in cells}
    xs = [x for poly in polygons.values() for x, _ in poly]
    ys = [y for poly in polygons.values() for _, y in poly]
    dx, dy = MARGIN - min(xs), MARGIN - min(ys)
    width, height = max(xs) - min(xs) + 2 * MARGIN, max(ys) - min(ys) + 2 * MARGIN

    def point(x: float, y: float) -> str:
        return f"{x + dx:.2f},{y + dy:.2f}"

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}" height="{height:.2f}" viewBox="0 0 {width:.2f} '
        f'{height:.2f}">',
        f"<title>{escape(title)}</title>" if title else "",
    ]
    edges: dict[tuple[tuple[float, float], tuple[float, float]], list[object]] = {}
    for cell, poly in polygons.items():
        who = owners.get(cell)
        fill = (
            "#ffffff" if who is None else (colours or {}).get(solution[who].piece) or piece_colour(solution[who].piece)
        )
        out.append(
            f'<polygon points="{" ".join(point(x, y) for x, y in poly)}" fill="{fill}" stroke="#d0d0d0" '
            'stroke-width="0.5"/>'
        )
        for a, b in zip(poly, poly[1:] + poly[:1]):
            low, high = sorted(((round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1))))
            edges.setdefault((low, high), []).append(who if who is not None else ("blank", cell))
    thick = [f"M{point(*a)}L{point(*b)}" for (a, b), sides in edges.items() if len(sides) == 1 or sides[0] != sides[1]]
    if thick:
        out.append(f'<path d="{"".join(thick)}" stroke="#222222" stroke-width="2" fill="none" stroke-linecap="round"/>')
    font = size * (0.42 if grid.name == "triangular" else 0.55)
    for placement in solution:
        spots = [tuple(c) for c in placement.cells if tuple(c) in polygons]
        if not spots:
            continue
        if grid.name != "cubic":  # one label per piece, in the cell nearest its centre
            centres = {c: _centre(polygons[c]) for c in spots}
            mx = sum(x for x, _ in centres.values()) / len(spots)
            my = sum(y for _, y in centres.values()) / len(spots)
            spots = [min(spots, key=lambda c: ((centres[c][0] - mx) ** 2 + (centres[c][1] - my) ** 2, c))]
        fill = (colours or {}).get(placement.piece) or piece_colour(placement.piece)
        for cell in spots:
            x, y = _centre(polygons[cell])
            out.append(
                f'<text x="{x + dx:.2f}" y="{y + dy:.2f}" font-family="sans-serif" font-size="{font:.1f}" '
                'text-anchor="middle" '
                f'dominant-baseline="central" fill="{letter_colour(fill)}">{escape(chars[placement.piece])}</text>'
            )
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


class Picture:
    """An SVG picture that draws itself in Jupyter (``_repr_svg_``) and shows its text elsewhere."""

    def __init__(self, svg: str, text: str = "") -> None:
        self.svg = svg
        self.text = text

    def _repr_svg_(self) -> str:
        """The SVG document (Jupyter displays it)."""
        return self.svg

    def __repr__(self) -> str:
        return self.text or "<Picture (SVG)>"


def _centre(polygon: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return sum(x for x, _ in polygon) / len(polygon), sum(y for _, y in polygon) / len(polygon)
