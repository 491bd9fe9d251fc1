"""Piece sets: the standard sets by name, single named pieces, counts, and pieces files.

A piece specification (``--pieces``) is a list of terms separated by ``,`` or ``+``:

* a standard set: ``pentominoes`` (the default), ``tetrominoes``, ``trominoes``,
  ``hexominoes``, ``7-ominoes`` ... (anything `gridgames.shapes.piece_set` reads,
  singular or plural); prefix ``one-sided`` for the one-sided set (each chiral
  piece and its mirror image ``F'`` as two pieces that never turn over) or
  ``fixed`` for the fixed set (every orientation a piece of its own);
* one piece of a standard set: ``tetromino:O``, ``pentomino:L``, ``hexomino:H07``;
  a bare name looks in the pentominoes first, then the tetrominoes, trominoes,
  dominoes, the monomino and the hexominoes (so ``O`` is the 2x2 square, ``L``
  the pentomino L, ``tetromino:L`` the tetromino L);
* ``TERM*N`` uses each piece of the term N times (``L*3``, ``tetrominoes*2``);
* ``PIECE=NEW`` renames one piece (``tetromino:L=l``), since names must be unique.

Examples: ``pentominoes+O`` or ``pentominoes,tetromino:O`` (Dana Scott's 8x8
problem), ``tetrominoes*2``, ``one-sided pentominoes``, ``L*4,I*2``.

A pieces file holds pieces separated by blank lines; each is a name line
(``NAME`` or ``NAME*N`` for N copies) and then its picture, ``#`` for a square and
``.`` or a space for none::

    F
    .##
    ##.
    .#.

    O*2
    ##
    ##
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from attrs import field, frozen

from gridgames.errors import PuzzleError, ShapeError
from gridgames.files import MAX_PUZZLE_FILE_BYTES, read_user_text
from gridgames.shapes import Shape, piece_set

KINDS = ("free", "one-sided", "fixed")
DEFAULT_PIECES = "pentominoes"

# Where a bare piece name is looked up, in order.
_LOOKUP_SETS = ("pentominoes", "tetrominoes", "trominoes", "dominoes", "monominoes", "hexominoes")
_NAME_RE = re.compile(r"^[^\s#.,+*:=]+$")
_COUNT_RE = re.compile(r"^(?P<item>.*?)\s*\*\s*(?P<count>\d+)$")
_SET_NAMES = {
    1: "monomino",
    2: "domino",
    3: "tromino",
    4: "tetromino",
    5: "pentomino",
    6: "hexomino",
}


def check_name(name: str, where: str = "") -> str:
    """Return ``name`` if it can name a piece (no spaces and none of ``#.,+*:=``), else raise PuzzleError."""
    if not _NAME_RE.match(name):
        place = f" ({where})" if where else ""
        raise PuzzleError(f"bad piece name {name!r}{place}: a name has no spaces and none of # . , + * : =")
    return name


def _positive(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise PuzzleError(f"{what}: a count must be a positive integer, got {value!r}")
    return value


@frozen
class Piece:
    """One piece of a puzzle: its name, shape, how many copies, and how it may turn (free, one-sided, fixed)."""

    name: str = field(validator=lambda _, __, v: check_name(v))
    shape: Shape
    count: int = field(default=1, validator=lambda s, _, v: _positive(v, f"piece {s.name!r}"))
    kind: str = field(default="free", validator=lambda _, __, v: _check_kind(v))

    @property
    def size(self) -> int:
        """Cells of one copy."""
        return self.shape.size

    @property
    def area(self) -> int:
        """Cells of all its copies."""
        return self.shape.size * self.count

    def orientations(self, one_sided: bool = False) -> tuple[Shape, ...]:
        """The fixed orientations this piece may take (rotations only when one-sided, itself only when fixed)."""
        if self.kind == "fixed":
            return (self.shape,)
        return self.shape.orientations(one_sided or self.kind == "one-sided")

    def with_count(self, count: int) -> Piece:
        """This piece with another number of copies."""
        return Piece(self.name, self.shape, count, self.kind)

    def renamed(self, name: str) -> Piece:
        """This piece under another name."""
        return Piece(name, self.shape, self.count, self.kind)


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise PuzzleError(f"unknown piece kind {kind!r}; expected one of {', '.join(KINDS)}")


def _unique(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """The pieces as a tuple, refusing a repeated name."""
    out = tuple(pieces)
    seen: set[str] = set()
    for piece in out:
        if piece.name in seen:
            raise PuzzleError(
                f"duplicate piece name {piece.name!r}: use {piece.name}*N for copies, or rename one (e.g. tetromino:L=l)"
            )
        seen.add(piece.name)
    return out


@frozen
class PieceSet:
    """The pieces of a puzzle, with unique names, and a short description of where they came from."""

    pieces: tuple[Piece, ...] = field(converter=_unique)
    label: str = ""

    # --- construction ---------------------------------------------------
    @classmethod
    def parse(cls, spec: str = DEFAULT_PIECES) -> PieceSet:
        """Read a piece specification such as ``pentominoes``, ``pentominoes+O`` or ``L*3,tetromino:O``."""
        terms = [t.strip() for t in re.split(r"[,+]", spec)]
        if not spec.strip() or not all(terms):
            raise PuzzleError(f"bad piece specification {spec!r}: empty term (separate terms with ',' or '+')")
        pieces: list[Piece] = []
        for term in terms:
            pieces.extend(_parse_term(term))
        return cls(tuple(pieces), label=spec.strip())

    @classmethod
    def standard(cls, name: str) -> PieceSet:
        """A whole standard set by name: ``pentominoes``, ``one-sided tetrominoes``, ``6-ominoes``..."""
        return cls(_standard_set(name), label=name)

    @classmethod
    def from_text(cls, text: str, source: str = "pieces file") -> PieceSet:
        """Read a pieces file's text: blocks separated by blank lines, a name line then a '#' picture."""
        pieces = [_parse_block(block, first, source) for block, first in _blocks(text)]
        if not pieces:
            raise PuzzleError(f"{source} has no pieces")
        return cls(tuple(pieces), label=source)

    @classmethod
    def from_file(cls, path: str | Path) -> PieceSet:
        """Read a pieces file."""
        path = Path(path)
        text = read_user_text(path, what="pieces file", max_bytes=MAX_PUZZLE_FILE_BYTES, error=PuzzleError)
        return cls.from_text(text, source=path.name)

    def __add__(self, other: PieceSet) -> PieceSet:
        """Both sets together (names must stay unique)."""
        label = " + ".join(x for x in (self.label, other.label) if x)
        return PieceSet(self.pieces + other.pieces, label=label)

    # --- properties -------------------------------------------------------
    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    @property
    def names(self) -> tuple[str, ...]:
        """The pieces' names, in order."""
        return tuple(p.name for p in self.pieces)

    @property
    def area(self) -> int:
        """Cells covered by all pieces and their copies."""
        return sum(p.area for p in self.pieces)

    @property
    def copies(self) -> int:
        """Number of pieces counting copies."""
        return sum(p.count for p in self.pieces)

    def by_name(self) -> dict[str, Piece]:
        """The pieces by name."""
        return {p.name: p for p in self.pieces}

    def describe(self) -> str:
        """A short human description: the label, or the number of pieces."""
        if self.label:
            return self.label
        return f"{self.copies} pieces"


def _standard_set(name: str) -> tuple[Piece, ...]:
    """Every piece of a standard set (with its kind), or PuzzleError."""
    try:
        shapes = piece_set(name)
    except ShapeError as error:
        raise PuzzleError(str(error)) from None
    words = " ".join(name.lower().split())
    kind = "fixed" if words.startswith("fixed") else "one-sided" if words.startswith(("one-sided", "onesided")) else "free"
    return tuple(Piece(n, s, 1, kind) for n, s in shapes.items())


def _is_set_name(text: str) -> bool:
    try:
        piece_set(text)
    except ShapeError:
        return False
    return True


def _parse_term(term: str) -> list[Piece]:
    """The pieces of one term: SET, [SET:]NAME, with an optional =NEW rename and *N count."""
    count = 1
    match = _COUNT_RE.match(term)
    if match:
        term, count = match["item"], int(match["count"])
        if count < 1:
            raise PuzzleError(f"bad count in {match.string!r}: a count must be at least 1")
    new_name = None
    if "=" in term and not re.match(r"^\s*n\s*=", term, re.IGNORECASE):
        term, new_name = (part.strip() for part in term.rsplit("=", 1))
        check_name(new_name, f"renaming {term!r}")
    if ":" not in term and _is_set_name(term):
        if new_name is not None:
            raise PuzzleError(f"cannot rename the whole set {term!r}; rename its pieces one by one")
        return [p.with_count(count) for p in _standard_set(term)]
    piece = _lookup(term).with_count(count)
    return [piece.renamed(new_name) if new_name else piece]


def _lookup(term: str) -> Piece:
    """One named piece: ``SET:NAME`` or a bare name found in the lookup sets."""
    if ":" in term:
        set_name, name = (part.strip() for part in term.split(":", 1))
        pieces = {p.name: p for p in _standard_set(set_name)}
        found = _match_name(pieces, name)
        if found is None:
            raise PuzzleError(f"no piece {name!r} in {set_name} (its pieces: {' '.join(pieces)})")
        return found
    for set_name in _LOOKUP_SETS:
        found = _match_name({p.name: p for p in _standard_set(set_name)}, term)
        if found is not None:
            return found
    raise PuzzleError(
        f"unknown piece or set {term!r}: try a set (pentominoes, tetrominoes, 6-ominoes) or a piece (F, O, tetromino:L)"
    )


def _match_name(pieces: dict[str, Piece], name: str) -> Piece | None:
    """The piece named exactly ``name``, else the only one whose name matches ignoring case."""
    if name in pieces:
        return pieces[name]
    folded = [p for n, p in pieces.items() if n.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else None


def _blocks(text: str) -> Iterator[tuple[list[str], int]]:
    """The blank-line separated blocks of a file, each with the number of its first line."""
    block: list[str] = []
    first = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not block:
                first = number
            block.append(line.rstrip())
        elif block:
            yield block, first
            block = []
    if block:
        yield block, first


def _parse_block(lines: list[str], first: int, source: str) -> Piece:
    """One piece of a pieces file: its name line (NAME or NAME*N) and picture lines."""
    head = lines[0].strip()
    count = 1
    match = _COUNT_RE.match(head)
    if match:
        head, count = match["item"], int(match["count"])
        if count < 1:
            raise PuzzleError(f"{source}, line {first}: a count must be at least 1")
    check_name(head, f"{source}, line {first}")
    if len(lines) == 1:
        raise PuzzleError(f"{source}, line {first}: piece {head!r} has no picture below its name")
    for offset, line in enumerate(lines[1:], start=1):
        bad = next((ch for ch in line if ch not in "#. "), None)
        if bad is not None:
            raise PuzzleError(
                f"{source}, line {first + offset}: unexpected {bad!r} in the picture of {head!r} "
                "(use '#' for a square, '.' or a space for none, and a blank line between pieces)"
            )
    picture = "\n".join(lines[1:])
    if "#" not in picture:
        raise PuzzleError(f"{source}, line {first + 1}: the picture of {head!r} has no '#' square")
    try:
        shape = Shape.from_text(picture, head)
    except ShapeError:
        raise PuzzleError(f"{source}, line {first}: piece {head!r} is not connected (squares must touch edge to edge)") from None
    return Piece(head, shape, count)


def standard_set_names() -> dict[str, str]:
    """The standard sets offered by name, with a one-line description each."""
    return {
        "monominoes": "the single square M",
        "dominoes": "the domino D",
        "trominoes": "the 2 trominoes I L",
        "tetrominoes": "the 5 tetrominoes I O T S L",
        "pentominoes": "the 12 pentominoes F I L N P T U V W X Y Z (the default)",
        "hexominoes": "the 35 hexominoes H01..H35",
        "N-ominoes": "all free polyominoes of N squares, e.g. 7-ominoes (108)",
        "one-sided SET": "a set's one-sided pieces: each chiral one and its mirror F' (18 pentominoes)",
        "fixed SET": "a set's fixed pieces: every orientation its own piece (63 pentominoes)",
    }


def set_name(size: int) -> str:
    """The singular name of the standard set of pieces with ``size`` squares (``pentomino``), or ``N-omino``."""
    return _SET_NAMES.get(size, f"{size}-omino")
