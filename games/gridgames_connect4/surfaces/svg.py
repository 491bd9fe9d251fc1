"""Connect Four positions as SVG, told apart by mark as well as colour (colour-blind safe).

Red discs are a dark vermilion with a white cross, yellow discs a light yellow with a
dark ring (Okabe and Ito's palette: the two differ in lightness too, so they stay apart
in grey). The last disc has a dot, a winning line a thick black outline; column numbers
run under the board. Jupyter shows a state this way (`Connect4State._repr_svg_`); the web
page draws the same marks.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

TYPE_CHECKING = False
if TYPE_CHECKING:  # the rules import this module to draw a state: no import back at run time
    from gridgames_connect4.position.rules import Connect4State

__all__ = ["DISC_COLOURS", "state_svg"]

DISC_COLOURS = {"red": "#d55e00", "yellow": "#f0e442"}
CELL = 40.0
FRAME = "#1f4e9c"


def _disc(colour: str, x: float, y: float, radius: float, outline: str) -> list[str]:
    out = [f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{DISC_COLOURS[colour]}" {outline}/>']
    if colour == "red":  # a white cross
        d = radius * 0.45
        out.append(
            f'<path d="M{x - d:g} {y - d:g}L{x + d:g} {y + d:g}M{x - d:g} {y + d:g}L{x + d:g} {y - d:g}" '
            f'stroke="#ffffff" stroke-width="{radius * 0.22:g}" stroke-linecap="round"/>'
        )
    else:  # a dark ring
        out.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{radius * 0.5:g}" fill="none" stroke="#333333" '
            f'stroke-width="{radius * 0.18:g}"/>'
        )
    return out


def state_svg(state: Connect4State, *, first: str = "red", title: str = "") -> str:
    """The position as a standalone SVG document (``first``: the colour of the player who moved first)."""
    game = state.game
    colours = ("red", "yellow") if first == "red" else ("yellow", "red")
    width, height = game.width * CELL, game.height * CELL + CELL * 0.6
    grid = state.board()
    last = state.last_cell
    winning = set(state.outcome.cells) if state.outcome is not None else set()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} '
        f'{height:g}">',
        f"<title>{escape(title or 'Connect Four ' + (state.notation() or '(empty board)'))}</title>",
        f'<rect width="{width:g}" height="{game.height * CELL:g}" fill="{FRAME}" rx="6"/>',
    ]
    radius = CELL * 0.4
    for r in range(game.height):
        for c in range(game.width):
            x, y = (c + 0.5) * CELL, (r + 0.5) * CELL
            value = int(grid.cells[r, c])
            if not value:
                out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="#ffffff"/>')
                continue
            outline = 'stroke="#000000" stroke-width="4"' if (r, c) in winning else 'stroke="#222222" stroke-width="1"'
            out.extend(_disc(colours[value - 1], x, y, radius, outline))
            if (r, c) == last:
                out.append(f'<circle cx="{x:g}" cy="{y + radius * 0.75:g}" r="{radius * 0.12:g}" fill="#000000"/>')
    for c in range(game.width):
        out.append(
            f'<text x="{(c + 0.5) * CELL:g}" y="{game.height * CELL + CELL * 0.45:g}" font-family="sans-serif" '
            f'font-size="{CELL * 0.4:g}" text-anchor="middle">{c + 1}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
