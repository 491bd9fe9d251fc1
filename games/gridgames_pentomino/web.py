"""The pentomino puzzle's hooks for ``gridgames serve`` (see `gridgames.web.hooks`): presets (the square boards'
and the lattice boards'), pasted puzzles, tiling by hand."""

from __future__ import annotations

from typing import Any

from gridgames_pentomino.boards import PRESETS, Board
from gridgames_pentomino.pieces import DEFAULT_PIECES, PieceSet, spec_area

from gridgames.errors import PuzzleError
from gridgames.web.hand_hooks import TilingHooks

__all__ = ["PentominoWeb"]

_PIECES_OF = {"8x8": "pentominoes+O"}  # presets whose usual pieces are not the 12 pentominoes


class PentominoWeb(TilingHooks):
    """The web hooks of the pentomino puzzle (tiling by hand from `TilingHooks`, on the puzzle's own problem)."""

    def prepare(self, say: Any) -> None:
        """Load (or compile) the tiling kernels now, so that the first count or check by hand does not wait."""
        from gridgames_pentomino.puzzle import TilingPuzzle

        say("pentomino: loading the tiling kernels")
        TilingPuzzle.create("3x20").count()

    def presets(self) -> list[dict[str, Any]]:
        """The preset boards, each with its usual pieces."""
        return [
            {
                "name": name,
                "description": description,
                "options": {"board": name, "pieces": _PIECES_OF.get(name, DEFAULT_PIECES)},
                "board_text": Board.preset(name).to_text(),
            }
            for name, (description, _) in PRESETS.items()
        ] + self._lattice_presets()

    @staticmethod
    def _lattice_presets() -> list[dict[str, Any]]:
        from gridgames_pentomino.lattice_web import lattice_presets

        return lattice_presets()

    def preset_puzzle(self, name: str) -> Any:
        """The puzzle of a lattice preset (``triangle:6x6``, ``cube:2x3x10``...): the options name square boards
        only."""
        from gridgames_pentomino.lattice_web import lattice_puzzle

        return lattice_puzzle(name)

    def hand_pieces(self, puzzle: Any) -> dict[str, Any]:
        """The board's cells and each piece's orientations, for tiling by hand (any lattice)."""
        from gridgames_pentomino.lattice_web import LatticeWebPuzzle

        if not isinstance(puzzle, LatticeWebPuzzle):
            return super().hand_pieces(puzzle)
        inner = puzzle.inner
        return {
            "lattice": inner.lattice,
            "cells": [list(c) for c in inner.layout.cells],
            "pieces": [
                {
                    "name": p.name,
                    "count": p.count,
                    "orientations": [list(map(list, o)) for o in p.orientations(inner.one_sided)],
                }
                for p in inner.pieces
            ],
        }

    def puzzle_from_text(self, board: str, pieces: str, one_sided: bool) -> Any:
        """A puzzle from a pasted board picture ('.' cells) and pieces: a specification (pentominoes+O) or a pieces
        file's text."""
        from gridgames_pentomino.puzzle import TilingPuzzle

        layout = Board.from_text(board, name="the pasted board")
        text = pieces.strip() or DEFAULT_PIECES
        if "#" in text:  # a pieces file: name lines and '#' pictures
            piece_set = PieceSet.from_text(text, source="the pasted pieces")
        else:
            area = spec_area(text)
            if area != layout.area:
                raise PuzzleError(f"the pasted board has {layout.area} cells but the pieces ({text}) cover {area}")
            piece_set = PieceSet.parse(text)
        return TilingPuzzle(layout, piece_set, one_sided=bool(one_sided))
