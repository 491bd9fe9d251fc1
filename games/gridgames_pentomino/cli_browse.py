"""The pentomino commands that draw and list: ``boards``, ``pieces`` and ``show`` (on any lattice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from gridgames.errors import PuzzleError

from gridgames_pentomino.boards import ALIASES, DEFAULT_BOARD, PRESETS, Board
from gridgames_pentomino.pieces import PieceSet, standard_set_names
from gridgames_pentomino.cli_output import BOARD_HELP, PIECES_HELP


def boards(
    lattice: str | None = typer.Option(
        None, "--lattice", "-L", help="List another lattice's boards: triangle, hex or cube."
    ),
) -> None:
    """List the preset boards (any HxW rectangle and board files work too)."""
    if lattice is not None and lattice.strip().lower() != "square":
        _lattice_boards(lattice)
        return
    width = max(len(name) for name in PRESETS)
    for name, (description, _) in PRESETS.items():
        board = Board.preset(name)
        typer.echo(f"{name:<{width}}  {board.area:>3} cells  {description}")
    aliases = ", ".join(f"{a} = {b}" for a, b in ALIASES.items())
    typer.echo(f"\nAlso: any HxW rectangle (--board 7x9); a board file (--board-file); aliases: {aliases}.")


def pieces(
    spec: str | None = typer.Argument(
        None, help="A piece specification to draw, e.g. pentominoes+O (omit for the list of sets)."
    ),
    pieces_file: Path | None = typer.Option(None, "--pieces-file", help="A pieces file to draw."),
    one_sided: bool = typer.Option(False, "--one-sided", help="Count orientations without reflections."),
    lattice: str | None = typer.Option(
        None, "--lattice", "-L", help="Pieces of another lattice: triangle, hex or cube."
    ),
) -> None:
    """List the standard piece sets, or draw the pieces of a specification or file."""
    if lattice is not None and lattice.strip().lower() != "square":
        _lattice_pieces(lattice, spec, pieces_file, one_sided)
        return
    if spec is None and pieces_file is None:
        width = max(len(name) for name in standard_set_names())
        for name, description in standard_set_names().items():
            typer.echo(f"{name:<{width}}  {description}")
        typer.echo(
            "\n"
            + PIECES_HELP
            + " A bare name is a pentomino first, then a tetromino, tromino, domino, monomino, hexomino."
        )
        return
    parts = ([PieceSet.parse(spec)] if spec is not None else []) + (
        [PieceSet.from_file(pieces_file)] if pieces_file is not None else []
    )
    piece_set = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    for piece in piece_set:
        orientations = len(piece.orientations(one_sided))
        copies = f", {piece.count} copies" if piece.count > 1 else ""
        kind = f", {piece.kind}" if piece.kind != "free" else ""
        typer.echo(
            f"{piece.name}  ({piece.size} squares, {orientations} "
            f"orientation{'s' if orientations != 1 else ''}{kind}{copies})"
        )
        typer.echo(
            "\n".join(
                line.replace(".", "  ").replace("#", "[]").rstrip() for line in piece.shape.to_text().splitlines()
            )
        )
        typer.echo("")
    typer.echo(f"{piece_set.copies:,} piece{'s' if piece_set.copies != 1 else ''}, {piece_set.area:,} squares in all")


def show(
    board: str = typer.Option(DEFAULT_BOARD, "--board", "-b", help=BOARD_HELP),
    board_file: Path | None = typer.Option(
        None, "--board-file", help="A board picture: '.' a cell to fill, '#' or space none."
    ),
    lattice: str | None = typer.Option(
        None, "--lattice", "-L", help="A board of another lattice: triangle, hex or cube."
    ),
) -> None:
    """Draw a board, with its number of cells and of symmetries."""
    if lattice is not None and lattice.strip().lower() != "square":
        _lattice_show(lattice, None if board == DEFAULT_BOARD else board, board_file)
        return
    layout = Board.from_file(board_file) if board_file is not None else Board.parse(board)
    from gridgames.search.symmetry import board_symmetries

    from gridgames_pentomino import render

    cells = layout.grid.board_cells()
    symmetries = len(board_symmetries(cells))
    typer.echo(render.board_text(layout.grid))
    typer.echo(
        f"{layout.name}: {layout.area} cells in a {layout.height}x{layout.width} box, {symmetries} "
        f"symmetr{'y' if symmetries == 1 else 'ies'}"
    )


def _lattice_of(name: str) -> Any:
    from gridgames.errors import ShapeError
    from gridgames.lattices import lattice_named

    try:
        return lattice_named(name.strip().lower())
    except ShapeError as error:
        raise PuzzleError(str(error)) from None


def _lattice_boards(lattice: str) -> None:
    from gridgames_pentomino.lattice_boards import DEFAULT_BOARDS, PRESETS, LatticeBoard

    grid = _lattice_of(lattice)
    width = max(len(name) for name in PRESETS[grid.name])
    for name, (description, _) in PRESETS[grid.name].items():
        typer.echo(f"{name:<{width}}  {LatticeBoard.parse(grid, name).area:>3} cells  {description}")
    shapes = (
        "AxBxC boxes"
        if grid.name == "cubic"
        else "RxC parallelograms, hexagon-N" + (", triangle-N" if grid.name == "triangular" else "")
    )
    typer.echo(
        f"\nAlso: {shapes}; a board file (--board-file, docs/lattices.md). Default: {DEFAULT_BOARDS[grid.name]}."
    )


def _lattice_pieces(lattice: str, spec: str | None, pieces_file: Path | None, one_sided: bool) -> None:
    from gridgames.lattices import picture

    from gridgames_pentomino.lattice_pieces import LatticePieceSet, known_families

    grid = _lattice_of(lattice)
    if spec is None and pieces_file is None:
        typer.echo(f"piece sets on the {grid.name} lattice: {', '.join(known_families(grid))}")
        return
    parts = ([LatticePieceSet.parse(grid, spec)] if spec is not None else []) + (
        [LatticePieceSet.from_file(grid, pieces_file)] if pieces_file is not None else []
    )
    piece_set = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    for piece in piece_set:
        orientations = len(piece.orientations(one_sided))
        copies = f", {piece.count} copies" if piece.count > 1 else ""
        typer.echo(
            f"{piece.name}  ({piece.size} cells, {orientations} orientation{'s' if orientations != 1 else ''}{copies})"
        )
        typer.echo(picture(grid, dict.fromkeys(piece.cells, "#"), across=True))
        typer.echo("")
    typer.echo(f"{piece_set.copies:,} piece{'s' if piece_set.copies != 1 else ''}, {piece_set.area:,} cells in all")


def _lattice_show(lattice: str, board: str | None, board_file: Path | None) -> None:
    from gridgames.lattices import board_symmetries

    from gridgames_pentomino.lattice_boards import LatticeBoard

    grid = _lattice_of(lattice)
    layout = LatticeBoard.from_file(grid, board_file) if board_file is not None else LatticeBoard.parse(grid, board)
    typer.echo(layout.to_text())
    symmetries = len(board_symmetries(grid, layout.cells))
    typer.echo(
        f"{layout.describe()} on the {grid.name} lattice, {symmetries} symmetr{'y' if symmetries == 1 else 'ies'}"
    )
