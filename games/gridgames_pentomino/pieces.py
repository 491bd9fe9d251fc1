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
from typing import Any

from attrs import field, frozen

from gridgames.errors import PuzzleError, ShapeError
from gridgames.files import MAX_PUZZLE_FILE_BYTES, read_user_text
from gridgames.pieces import Piece
from gridgames.shapes import Shape, TooLargeError, piece_set, set_area, set_size
from gridgames.parsing import clip, parse_whole

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


def _unique(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """The pieces as a tuple, refusing a bad or repeated name."""
    out = tuple(pieces)
    seen: set[str] = set()
    for piece in out:
        check_name(piece.name)
        if piece.name in seen:
            raise PuzzleError(
                f"duplicate piece name {piece.name!r}: use {piece.name}*N for copies, or rename one (e.g. "
                "tetromino:L=l)"
            )
        seen.add(piece.name)
    return out


class PieceCollection:
    """What every piece set has, on any lattice: iteration, names, area, copies, a description (needs ``pieces``,
    ``label``)."""

    __slots__ = ()
    pieces: tuple[Any, ...]
    label: str

    def __iter__(self) -> Iterator[Any]:
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

    def describe(self) -> str:
        """A short human description: the label, or the number of pieces."""
        return self.label or f"{self.copies} pieces"


@frozen
class PieceSet(PieceCollection):
    """The pieces of a puzzle, with unique names, and a short description of where they came from."""

    pieces: tuple[Piece, ...] = field(converter=_unique)
    label: str = ""

    # --- construction ---------------------------------------------------
    @classmethod
    def parse(cls, spec: str = DEFAULT_PIECES) -> PieceSet:
        """Read a piece specification such as ``pentominoes``, ``pentominoes+O`` or ``L*3,tetromino:O``."""
        pieces = [piece for term in _read_terms(spec) for piece in term.pieces()]
        return cls(tuple(pieces), label=spec.strip())

    @classmethod
    def standard(cls, name: str) -> PieceSet:
        """A whole standard set by name: ``pentominoes``, ``one-sided tetrominoes``, ``6-ominoes``..."""
        return cls(_standard_set(name), label=name)

    @classmethod
    def from_text(cls, text: str, source: str = "pieces file") -> PieceSet:
        """Read a pieces file's text: blocks separated by blank lines, a name line then a '#' picture."""
        pieces = [_parse_block(block, first, source) for block, first in text_blocks(text)]
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

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def by_name(self) -> dict[str, Piece]:
        """The pieces by name."""
        return {p.name: p for p in self.pieces}


def _standard_set(name: str) -> tuple[Piece, ...]:
    """Every piece of a standard set (with its kind), or PuzzleError."""
    try:
        shapes = piece_set(name)
    except ShapeError as error:  # TooLargeError too
        raise PuzzleError(str(error)) from None
    words = " ".join(name.lower().split())
    kind = (
        "fixed" if words.startswith("fixed") else "one-sided" if words.startswith(("one-sided", "onesided")) else "free"
    )
    return tuple(Piece(n, s, 1, kind) for n, s in shapes.items())


def _is_set_name(text: str) -> bool:
    """True when the text names a whole standard set; PuzzleError when that set is too large to enumerate."""
    try:
        set_size(text)
    except TooLargeError as error:
        raise PuzzleError(str(error)) from None
    except ShapeError:
        return False
    return True


@frozen
class _Term:
    """One term of a piece specification, read but not yet enumerated: its area is known without the pieces."""

    text: str
    count: int
    new_name: str | None
    whole_set: bool

    @property
    def area(self) -> int:
        """Cells covered by the term's pieces (for a whole set, from the known counts: nothing is enumerated)."""
        if self.whole_set:
            return set_area(self.text) * self.count
        return _lookup(self.text).size * self.count

    def pieces(self) -> list[Piece]:
        """The term's pieces, with their counts and new name."""
        if self.whole_set:
            return [p.with_count(self.count) for p in _standard_set(self.text)]
        piece = _lookup(self.text).with_count(self.count)
        return [piece.renamed(self.new_name) if self.new_name else piece]


def _read_terms(spec: str) -> list[_Term]:
    """The terms of a specification (checked, not enumerated)."""
    terms = [t.strip() for t in re.split(r"[,+]", spec)]
    if not spec.strip() or not all(terms):
        raise PuzzleError(f"bad piece specification {spec!r}: empty term (separate terms with ',' or '+')")
    return [_read_term(term) for term in terms]


def _read_term(term: str) -> _Term:
    """One term: SET, [SET:]NAME, with an optional =NEW rename and *N count."""
    count = 1
    match = _COUNT_RE.match(term)
    if match:
        term, count = match["item"], parse_whole(match["count"], what=f"the count in {term[:40]!r}", error=PuzzleError)
        if count < 1:
            raise PuzzleError(f"bad count in {match.string!r}: a count must be at least 1")
    new_name = None
    if "=" in term and not re.match(r"^\s*n\s*=", term, re.IGNORECASE):
        term, new_name = (part.strip() for part in term.rsplit("=", 1))
        check_name(new_name, f"renaming {term!r}")
    whole_set = ":" not in term and _is_set_name(term)
    if whole_set and new_name is not None:
        raise PuzzleError(f"cannot rename the whole set {term!r}; rename its pieces one by one")
    return _Term(term, count, new_name, whole_set)


CHEAP_SIZE = 8
"""Whole sets of pieces up to this size are listed at once (369 free 8-ominoes); larger ones only when needed."""


def cheap_to_list(spec: str) -> bool:
    """True when every whole set a specification names is small enough to list at once."""
    return all(not t.whole_set or set_size(t.text)[0] <= CHEAP_SIZE for t in _read_terms(spec))


def spec_area(spec: str) -> int:
    """Cells covered by the pieces of a specification, without enumerating whole sets (checks the area first)."""
    return sum(term.area for term in _read_terms(spec))


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
        f"unknown piece or set {clip(term)!r}: try a set (pentominoes, tetrominoes, 6-ominoes) or a piece (F, O, "
        "tetromino:L)"
    )


def _match_name(pieces: dict[str, Piece], name: str) -> Piece | None:
    """The piece named exactly ``name``, else the only one whose name matches ignoring case."""
    if name in pieces:
        return pieces[name]
    folded = [p for n, p in pieces.items() if n.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else None


def text_blocks(text: str) -> Iterator[tuple[list[str], int]]:
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


def block_head(lines: list[str], first: int, source: str) -> tuple[str, int]:
    """A pieces file block's name and count (``NAME`` or ``NAME*N``), checked, with a picture below it."""
    head = lines[0].strip()
    count = 1
    match = _COUNT_RE.match(head)
    if match:
        head, count = (
            match["item"],
            parse_whole(match["count"], what=f"{source}, line {first}: the count", error=PuzzleError),
        )
        if count < 1:
            raise PuzzleError(f"{source}, line {first}: a count must be at least 1")
    check_name(head, f"{source}, line {first}")
    if len(lines) == 1:
        raise PuzzleError(f"{source}, line {first}: piece {head!r} has no picture below its name")
    return head, count


def _parse_block(lines: list[str], first: int, source: str) -> Piece:
    """One piece of a pieces file: its name line (NAME or NAME*N) and picture lines."""
    head, count = block_head(lines, first, source)
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
        raise PuzzleError(
            f"{source}, line {first}: piece {head!r} is not connected (squares must touch edge to edge)"
        ) from None
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
