"""Drills from your own games: the positions before the moves a review marked, asked again (``connect4 drill``).

VOCABULARY
  drill position  a position of a reviewed game just before a move graded a mistake or a blunder (with
                  ``inaccuracies``, an inaccuracy too): the moves before it, who was to move, the column played,
                  every column's exact score (from the review) and the best columns.
  right           an answer whose exact score equals the best score (any of the best columns).
  history         a small file in the user's data folder (`history_path`: ``$XDG_DATA_HOME/gridgames/
                  connect4-drills.json``, by default under ``~/.local/share``) holding the last reviewed game (so that
                  ``drill`` without a game drills it) and the last `HISTORY_KEEP` drills done (when, which game,
                  which positions, right or not). It is written atomically (`gridgames.files.write_user_text`, as
                  saves are): a failed write leaves the old file intact.

Nothing here prints or reads the terminal; `gridgames_connect4.surfaces.cli_drill` does.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from gridgames_connect4.teach.review import BLUNDER, INACCURACY, MISTAKE, Review
from gridgames_connect4.position.rules import Connect4
from gridgames.errors import GridGamesError
from gridgames.files import data_dir, read_user_text, write_user_text

__all__ = [
    "HISTORY_FORMAT",
    "HISTORY_KEEP",
    "DrillAnswer",
    "DrillHistory",
    "DrillHistoryError",
    "DrillPosition",
    "LastReview",
    "drill_positions",
    "history_path",
    "record_review",
]

HISTORY_FORMAT = "gridgames-connect4-drills"
HISTORY_VERSION = 1
HISTORY_KEEP = 100
"""Drills kept in the history file (the oldest beyond this are dropped when a new one is written)."""
MAX_HISTORY_BYTES = 2_000_000


class DrillHistoryError(GridGamesError, ValueError):
    """The drill history file cannot be read (not JSON, another format, a newer version)."""


@attrs.frozen
class DrillPosition:
    """A position to drill: the move number (1-based) about to be played, the moves before it (0-based columns),
    the column played then, its grade, every column's exact score (None: full) from the mover's view."""

    number: int
    moves: tuple[int, ...]
    played: int
    grade: str
    scores: tuple[int | None, ...]

    @property
    def player(self) -> int:
        """The side to move (0: the first mover)."""
        return len(self.moves) % 2

    @property
    def best_score(self) -> int:
        """The best column's exact score."""
        return max(s for s in self.scores if s is not None)

    @property
    def best(self) -> tuple[int, ...]:
        """The best columns (0-based)."""
        return tuple(c for c, s in enumerate(self.scores) if s == self.best_score)

    def is_right(self, column: int) -> bool:
        """True when ``column`` keeps the best score (`IndexError`-free: any other column is wrong)."""
        return 0 <= column < len(self.scores) and self.scores[column] == self.best_score

    def as_dict(self, game: Connect4) -> dict[str, Any]:
        """JSON form: 1-based columns, the moves before as notation."""
        return {
            "number": self.number,
            "moves": game.join_notation(self.moves),
            "player": game.colours[self.player],
            "played": self.played + 1,
            "grade": self.grade,
            "scores": list(self.scores),
            "best": [c + 1 for c in self.best],
            "best_score": self.best_score,
        }


def drill_positions(review: Review, players: Iterable[int] = (0, 1), inaccuracies: bool = False) -> list[DrillPosition]:
    """The positions before the reviewed moves of ``players`` graded mistake or blunder (and inaccuracy with
    ``inaccuracies``), in the game's order."""
    grades = {MISTAKE, BLUNDER} | ({INACCURACY} if inaccuracies else set())
    wanted = set(players)
    return [
        DrillPosition(r.number, review.moves[: r.number - 1], r.column, r.grade, r.columns)
        for r in review.reviews
        if r.player in wanted and r.grade in grades
    ]


@attrs.frozen
class DrillAnswer:
    """One answer of a drill: the move number of the position, the column answered (0-based; None: skipped)."""

    number: int
    answer: int | None
    right: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON form (1-based column)."""
        return {"number": self.number, "answer": None if self.answer is None else self.answer + 1, "right": self.right}


@attrs.frozen
class LastReview:
    """The last game reviewed: its board, who moved first, its moves, and each reviewed move's column scores."""

    width: int
    height: int
    connect: int
    first: str
    moves: tuple[int, ...]
    scores: tuple[tuple[int, tuple[int | None, ...]], ...]
    """(move number, every column's score before it) of each reviewed move."""
    players: tuple[int, ...] = (0, 1)
    """Whose mistakes to drill (0: the first mover): the human seats of a saved game, else both."""
    verified: bool = True
    """False for a record read without its checksum (written before there was one): its scores must be derived again
    (the drill reviews the game again) before they are trusted."""

    @classmethod
    def of(cls, review: Review, players: Sequence[int] = (0, 1)) -> LastReview:
        """The record of ``review``."""
        game = review.game
        return cls(
            game.width,
            game.height,
            game.connect,
            review.colours[0],
            review.moves,
            tuple((r.number, r.columns) for r in review.reviews),
            tuple(players),
        )

    @property
    def game(self) -> Connect4:
        """The game's board and rules."""
        return Connect4(self.width, self.height, self.connect, first=self.first)

    def positions(self, inaccuracies: bool = False) -> list[DrillPosition]:
        """The drill positions of the recorded review (see `drill_positions`)."""
        from gridgames_connect4.teach.review import MoveReview

        reviews = []
        for number, columns in self.scores:
            column = self.moves[number - 1]
            best = max(s for s in columns if s is not None)
            played = columns[column]
            if played is None:
                raise DrillHistoryError(
                    f"the drill history's last review scores no move {number} (column {column + 1})"
                )
            reviews.append(
                MoveReview(
                    number,
                    (number - 1) % 2,
                    column,
                    played,
                    best,
                    tuple(c for c, s in enumerate(columns) if s == best),
                    columns,
                )
            )
        review = Review(self.game, self.moves, tuple(reviews), colours=self.game.colours)
        return drill_positions(review, self.players, inaccuracies)

    def as_dict(self) -> dict[str, Any]:
        """JSON form, with the checksum of its content (``digest``: a damaged or edited record is never trusted)."""
        data: dict[str, Any] = {
            "width": self.width,
            "height": self.height,
            "connect": self.connect,
            "first": self.first,
            "moves": self.game.join_notation(self.moves),
            "players": list(self.players),
            "scores": [[n, list(s)] for n, s in self.scores],
        }
        data["digest"] = _digest(data)
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> LastReview:
        """Read the JSON form back; `DrillHistoryError` naming ``where`` when it is malformed."""
        try:
            game = Connect4(int(data["width"]), int(data["height"]), int(data["connect"]), first=str(data["first"]))
            state = game.from_notation(str(data["moves"]))
            scores = tuple((int(n), tuple(None if s is None else int(s) for s in cols)) for n, cols in data["scores"])
            players = tuple(int(p) for p in data.get("players", (0, 1)))
        except (KeyError, TypeError, ValueError, GridGamesError) as problem:
            raise DrillHistoryError(f"{where}: its last review is malformed ({problem})") from None
        moves = tuple(int(m) for m in state.history)
        for n, cols in scores:
            if not 1 <= n <= len(moves) or len(cols) != game.width or cols[moves[n - 1]] is None:
                raise DrillHistoryError(f"{where}: its last review scores move {n} wrongly")
        if not set(players) <= {0, 1}:
            raise DrillHistoryError(f"{where}: its last review names players {players!r}, not 0 or 1")
        record = cls(game.width, game.height, game.connect, game.first, moves, scores, players)
        digest = data.get("digest")
        if digest is None:  # written before records had a checksum: derived again before use
            return attrs.evolve(record, verified=False)
        if digest != record.as_dict()["digest"]:
            raise DrillHistoryError(
                f"{where}: its last review does not match its checksum (edited or damaged): review the game again"
            )
        return record


def _digest(data: dict[str, Any]) -> str:
    """The SHA-256 of a record's JSON form (its keys sorted), as hex."""
    import hashlib

    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def history_path() -> Path:
    """The drill history file: ``connect4-drills.json`` in gridgames' data folder (`gridgames.files.data_dir`:
    $XDG_DATA_HOME/gridgames, by default ~/.local/share/gridgames)."""
    return data_dir() / "connect4-drills.json"


@attrs.define
class DrillHistory:
    """The drill history file's content: the last reviewed game (or None) and the drills done, oldest first."""

    last: LastReview | None = None
    drills: list[dict[str, Any]] = attrs.field(factory=list)

    @classmethod
    def load(cls, path: Path | None = None) -> DrillHistory:
        """The history in ``path`` (default `history_path`); an empty one when the file does not exist."""
        path = history_path() if path is None else path
        if not path.exists():
            return cls()
        where = str(path)
        text = read_user_text(path, what="drill history", max_bytes=MAX_HISTORY_BYTES, error=DrillHistoryError)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python's stack
            raise DrillHistoryError(
                f"{where} is not a drill history (not JSON); move it away to start a new one"
            ) from None
        if not isinstance(data, dict) or data.get("format") != HISTORY_FORMAT:
            raise DrillHistoryError(f"{where} is not a drill history (format {HISTORY_FORMAT!r} expected)")
        version = data.get("version")
        if not isinstance(version, int) or not 1 <= version <= HISTORY_VERSION:
            raise DrillHistoryError(
                f"{where} is a drill history of version {version!r}; this gridgames reads version {HISTORY_VERSION}"
            )
        last = data.get("last_review")
        drills = data.get("drills", [])
        if not isinstance(drills, list) or not all(isinstance(d, dict) for d in drills):
            raise DrillHistoryError(f"{where}: its drills are not a list of objects")
        return cls(None if last is None else LastReview.from_dict(last, where), drills)

    def save(self, path: Path | None = None) -> Path:
        """Write the history atomically (creating the folder), keeping the last `HISTORY_KEEP` drills."""
        path = history_path() if path is None else path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as problem:
            raise DrillHistoryError(
                f"cannot create the folder {str(path.parent)!r}: {problem.strerror or problem}"
            ) from None
        last = None if self.last is None else self.last.as_dict()
        data = {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "last_review": last,
            "drills": self.drills[-HISTORY_KEEP:],
        }
        return write_user_text(path, json.dumps(data) + "\n", what="drill history", error=DrillHistoryError)

    def add(
        self, game: Connect4, moves: Sequence[int], answers: Sequence[DrillAnswer], when: float | None = None
    ) -> dict[str, Any]:
        """Record a drill done on the game of ``moves``: its answers; the entry added."""
        entry = {
            "when": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(time.time() if when is None else when)),
            "board": game.size,
            "connect": game.connect,
            "moves": game.join_notation(moves),
            "answers": [a.as_dict() for a in answers],
            "right": sum(a.right for a in answers),
            "asked": len(answers),
        }
        self.drills.append(entry)
        del self.drills[:-HISTORY_KEEP]
        return entry

    def lines(self) -> list[str]:
        """The drills done, one line each, newest last."""
        if not self.drills:
            return [
                "No drill done yet: review a game (gridgames connect4 review MOVES), then run gridgames connect4 drill."
            ]
        out = []
        for d in self.drills:
            out.append(
                f"{d.get('when', '?')}  {d.get('board', '?')}  {d.get('right', 0)} of {d.get('asked', 0)} "
                f"right  {d.get('moves', '')}"
            )
        return out


def record_review(report: Review, players: tuple[int, ...] = (0, 1)) -> str | None:
    """Keep ``report`` as the last reviewed game in the drill history; None, or why it could not."""
    try:
        history = DrillHistory.load()
        history.last = LastReview.of(report, players)
        history.save()
    except GridGamesError as problem:
        return f"the review is not kept for drills: {problem}"
    return None
