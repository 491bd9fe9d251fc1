"""Piece sets on the triangular, hexagonal and cubic lattices: families by name, and pieces files.

A family is every polyform of one size on one lattice (`gridgames.lattices`), named as
polyform fans name them: ``hexiamonds`` (the 12 of 6 triangles), ``tetrahexes`` (the 7 of 4
hexagons), ``pentacubes`` (the 29 of 5 cubes), or ``N-iamonds``, ``N-hexes``, ``N-cubes``.
Plane pieces are free (they may turn over) unless ``--one-sided``; ``one-sided hexiamonds``
lists each chiral piece and its mirror image as two pieces. Solid pieces turn in space but
cannot be mirrored, so ``pentacubes`` holds both pieces of each mirror pair (29 = 23 up to
reflection + 6 mirror images). ``flat-pentacubes`` are the 12 pentominoes as solid pieces
(letters F I L N P T U V W X Y Z), ``soma`` Piet Hein's 7 Soma pieces.

Pieces are named by letters in a fixed order (the families' canonical forms, sorted):
``A``, ``B``, ... then ``a``, ``b``, ... (`gridgames pentomino pieces --lattice hex tetrahexes`
draws them with their names).

A pieces file holds blocks separated by blank lines: a name line (``NAME`` or ``NAME*N`` for
N copies), then the piece's picture, ``#`` for a cell and ``.`` or a space for none, laid out
as the lattice's board pictures are (docs/lattices.md): triangles alternate up and down along
a line (up where line + column is even, counting from 0), hexagons sit two columns apart,
and a solid piece's layers are separated by a line of ``-``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from attrs import field, frozen

from gridgames.errors import PuzzleError, ShapeError
from gridgames.files import MAX_PUZZLE_FILE_BYTES, read_user_text
from gridgames.lattices import (
    CUBIC,
    MAX_FORM_SIZE,
    Lattice,
    free_forms,
    lattice_named,
    one_sided_forms,
    read_picture,
)
from gridgames.pieces import LatticePiece
from gridgames.shapes import PENTOMINOES

from gridgames_pentomino.pieces import PieceCollection, block_head, check_name, text_blocks
from gridgames.parsing import parse_whole

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

_PREFIX = {"triangular": ("mon", "d", "tr", "tetr", "pent", "hex", "hept", "oct", "non", "dec", "undec", "dodec")}
_SIZE_WORDS = ("mono", "di", "tri", "tetra", "penta", "hexa", "hepta", "octa", "nona", "deca", "undeca", "dodeca")
_SUFFIX = {"triangular": "iamonds", "hexagonal": "hexes", "cubic": "cubes"}
_NUMBERED = re.compile(r"^(\d+)-(iamonds?|hexe?s?|cubes?)$")


def _family_names(lattice: Lattice) -> dict[str, int]:
    """Family name -> size on a lattice: hexiamonds, tetrahexes, pentacubes..."""
    if lattice.name == "triangular":
        return {f"{p}iamonds": n for n, p in enumerate(_PREFIX["triangular"], start=1)}
    suffix = _SUFFIX[lattice.name]
    names = {f"{w}{suffix}": n for n, w in enumerate(_SIZE_WORDS, start=1)}
    # tetrahexes
    names.update({f"{w[:-1]}{suffix}": n for n, w in enumerate(_SIZE_WORDS, start=1) if w.endswith("a")})
    return names


def family_size(lattice: Lattice, name: str) -> int | None:
    """The size of the family called ``name`` on the lattice (``hexiamonds`` -> 6, ``7-iamonds`` -> 7), or None."""
    name = name.strip().lower()
    found = _family_names(lattice).get(name)
    if found is not None:
        return found
    match = _NUMBERED.match(name)
    if match and match[2].startswith({"triangular": "iamond", "hexagonal": "hex", "cubic": "cube"}[lattice.name]):
        return parse_whole(match[1], what="a family's size", error=ShapeError)
    return None


def piece_names(count: int) -> list[str]:
    """Names for ``count`` pieces: A..Z, a..z, then P53, P54..."""
    return [LETTERS[i] if i < len(LETTERS) else f"P{i + 1}" for i in range(count)]


def family(lattice: Lattice | str, name: str) -> tuple[LatticePiece, ...]:
    """The pieces of a named family on a lattice (see the module docstring); PuzzleError for an unknown name."""
    grid = lattice_named(lattice)
    text = name.strip().lower()
    if grid.name == "cubic" and text in ("flat-pentacubes", "solid-pentominoes", "flat pentacubes"):
        return tuple(
            LatticePiece.of(CUBIC, [(0, r, c) for r, c in shape.cells], letter, kind="one-sided")
            for letter, shape in PENTOMINOES.items()
        )
    if grid.name == "cubic" and text == "soma":
        return _soma()
    one_sided = text.startswith("one-sided ")
    size = family_size(grid, text.removeprefix("one-sided ").strip())
    if size is None:
        raise PuzzleError(
            f"unknown piece set {name.strip()!r} on the {grid.name} lattice; known: {', '.join(known_families(grid))}"
        )
    if not 1 <= size <= MAX_FORM_SIZE:
        raise PuzzleError(f"piece set {name.strip()!r}: sizes go from 1 to {MAX_FORM_SIZE}")
    if grid.name == "cubic":  # solid pieces cannot be mirrored: mirror pairs are two pieces
        forms = one_sided_forms(grid, size)
        kind = "one-sided"
    else:
        forms = one_sided_forms(grid, size) if one_sided else free_forms(grid, size)
        kind = "one-sided" if one_sided else "free"
    return tuple(LatticePiece(n, grid.name, f, 1, kind) for n, f in zip(piece_names(len(forms)), forms))


def _soma() -> tuple[LatticePiece, ...]:
    """Piet Hein's Soma pieces: the V tricube and the tetracubes that are neither flat bars nor squares (L, T, Z,
    the two screws A and B, and the branch P)."""
    cubes = {
        "V": [(0, 0, 0), (0, 1, 0), (0, 0, 1)],
        "L": [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 0, 1)],
        "T": [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1)],
        "Z": [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 2)],
        "A": [(0, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1)],
        "B": [(0, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)],
        "P": [(0, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0)],
    }
    return tuple(LatticePiece.of(CUBIC, cells, name, kind="one-sided") for name, cells in cubes.items())


def known_families(lattice: Lattice) -> list[str]:
    """The family names offered on a lattice, for help and errors."""
    out = {
        "triangular": ["triamonds", "tetriamonds", "pentiamonds", "hexiamonds", "heptiamonds", "N-iamonds"],
        "hexagonal": ["trihexes", "tetrahexes", "pentahexes", "hexahexes", "N-hexes"],
        "cubic": ["tricubes", "tetracubes", "pentacubes", "flat-pentacubes", "soma", "N-cubes"],
    }[lattice.name]
    return out + (["one-sided SET"] if lattice.name != "cubic" else [])


def default_pieces(lattice: Lattice) -> str:
    """The piece set used when none is given: hexiamonds, tetrahexes, flat-pentacubes."""
    return {"triangular": "hexiamonds", "hexagonal": "tetrahexes", "cubic": "flat-pentacubes"}[lattice.name]


@frozen
class LatticePieceSet(PieceCollection):
    """The pieces of a lattice puzzle, with unique names, and where they came from."""

    lattice: str
    pieces: tuple[LatticePiece, ...] = field()
    label: str = ""

    @pieces.validator
    def _check(self, _: object, pieces: tuple[LatticePiece, ...]) -> None:
        seen: set[str] = set()
        for piece in pieces:
            check_name(piece.name)
            if piece.name in seen:
                raise PuzzleError(f"duplicate piece name {piece.name!r}: use {piece.name}*N for copies, or rename one")
            seen.add(piece.name)

    @classmethod
    def parse(cls, lattice: Lattice | str, spec: str) -> LatticePieceSet:
        """Families joined by ',' or '+', e.g. ``hexiamonds`` or ``trihexes+tetrahexes`` (names must stay unique)."""
        grid = lattice_named(lattice)
        terms = [t for t in re.split(r"[,+]", spec) if t.strip()]
        if not terms:
            raise PuzzleError("the piece specification is empty")
        pieces: list[LatticePiece] = []
        for term in terms:
            found = family(grid, term)
            if len(terms) > 1:  # several families: each piece's name gets its size (A3, B3, A4...)
                found = tuple(p.renamed(f"{p.name}{p.size}") for p in found)
            pieces.extend(found)
        return cls(grid.name, tuple(pieces), spec.strip())

    @classmethod
    def from_text(cls, lattice: Lattice | str, text: str, source: str = "pieces file") -> LatticePieceSet:
        """Read a pieces file's text (see the module docstring)."""
        grid = lattice_named(lattice)
        pieces = [_parse_block(grid, block, first, source) for block, first in text_blocks(text)]
        if not pieces:
            raise PuzzleError(f"{source} has no pieces")
        return cls(grid.name, tuple(pieces), source)

    @classmethod
    def from_file(cls, lattice: Lattice | str, path: str | Path) -> LatticePieceSet:
        """Read a pieces file."""
        path = Path(path)
        text = read_user_text(path, what="pieces file", max_bytes=MAX_PUZZLE_FILE_BYTES, error=PuzzleError)
        return cls.from_text(lattice, text, source=path.name)

    def __add__(self, other: LatticePieceSet) -> LatticePieceSet:
        """Both sets together (names must stay unique)."""
        return LatticePieceSet(self.lattice, self.pieces + other.pieces, f"{self.label} + {other.label}")

    def __iter__(self) -> Iterator[LatticePiece]:
        return iter(self.pieces)


def _parse_block(lattice: Lattice, lines: list[str], first: int, source: str) -> LatticePiece:
    """One piece of a pieces file: its name line (NAME or NAME*N) and picture lines."""
    head, count = block_head(lines, first, source)
    try:
        cells = read_picture(lattice, "\n".join(lines[1:]), cell="#", empty=". ", what=f"{source}, piece {head!r}")
    except ShapeError as error:
        raise PuzzleError(_shift_lines(str(error), first)) from None
    if not _connected(lattice, cells):
        raise PuzzleError(f"{source}, line {first}: piece {head!r} is not connected (cells must share an edge or face)")
    kind = "one-sided" if lattice.name == "cubic" else "free"
    return LatticePiece(head, lattice.name, cells, count, kind)


def _shift_lines(message: str, first: int) -> str:
    """A picture error's line number counted in the file (the picture starts on the line after ``first``)."""
    return re.sub(r"line (\d+)", lambda m: f"line {int(m[1]) + first}", message, count=1)


def _connected(lattice: Lattice, cells: tuple[tuple[int, ...], ...]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    inside = set(cells)
    while todo:
        for near in lattice.neighbours(todo.pop()):
            if near in inside and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)
