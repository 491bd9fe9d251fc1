"""The optional hooks a game offers ``gridgames serve``, beyond the generic protocol.

A `GameSpec` may carry ``web=FACTORY``: a function returning an object with any of the
methods below, each typed by a `typing.Protocol` of this module (`MoveTargets`,
`MoveScores`, `ReviewGame`, `Drill`, `ComputerMove`, `Prepare`, `Presets`, `PuzzleFromText`,
`PresetPuzzle`, `HandTiling`): an
object offers a hook when it has the method (`has`; a missing one means the page does
without), and ``isinstance(hooks, MoveScores)`` says the same. The web
framework never imports a game module: whatever is particular to a game reaches the
page through these hooks, which any plugin may implement.

Board pictures (no hook needed): a board that is not square (`Grid.lattice` hexagonal or
triangular) is drawn from the state's SVG (`State.svg`, by default
`gridgames.drawing.board_svg`). Every element with ``data-row``/``data-col`` (each cell of
``board_svg``) is clickable when its cell is a target of a legal move, and a game's own SVG
may mark any element with ``data-move="MOVE TEXT"`` (the move in the game's notation,
`Game.format_move`): the page plays that move on a click while it is legal.

Turn-based games (the payloads are `typing.TypedDict`s of this module, named after each):

* ``move_targets(state) -> dict[Move, list[Cell]]``: the board cells a click plays each
  legal move on (default: the cells the move fills, found by playing it on a copy);
* ``move_scores(state, budget) -> MoveScoresPayload``: ``{"scores": {move: int | None}, "exact": bool,
  "note": str}``, the exact value of every legal move for the side to move (shown
  over the board on demand), None where the budget ran out; optionally ``"ends": {move text:
  int}`` (the moves to the end with best play after each move) and ``"explanation": [str]``
  (the position in words, a claim a line), shown beside the board;
* ``review(state, budget) -> list[ReviewEntry]``: after the end, one entry per move played:
  ``{"number", "player", "move", "score", "best", "mark"}`` (mark: "mistake",
  "inaccuracy" or None), optionally ``"grade"`` (best, good, inaccuracy, mistake, blunder) and
  ``"value"`` (0 to 1: the move's share of its player's accuracy; the page shows their mean) or
  ``"player_accuracy"`` (the mover's accuracy over the game in percent, by the game's own formula: the page
  shows it instead);
* ``computer_move(state, level, rng, think) -> (move, note)``: a computer level's move (instead of
  ``Game.computer_player(level, rng).choose``), e.g. to guard a solver shared between threads;

* ``drill_positions(state, budget) -> list[DrillPositionPayload]``: the positions to drill in the game played up
  to ``state`` (those before its mistakes), one ``{"ply": int, ...}`` each (the position after the first ``ply``
  moves; any other keys, JSON-ready with moves as text, reach the page: ``number``, ``player``, ``played``,
  ``grade``, ``best``); with ``drill_answer(state, move, budget) -> DrillAnswerPayload``: ``{"right": bool,
  "best": [move text], "lines": [str]}``, whether ``move`` is best in ``state`` and why. Both give the game the
  drill page (``/drill/GAME``, `gridgames.web.drills`);

Players' names and colours, and save files, need no hook: the page names and draws each player after
`GameInfo.player_names` and `Game.player_styles`, and saves and loads `gridgames.saves`' files as the
terminal does (a game's older formats converted on read, `GameSpec.save_upgrades`).

Any game:

* ``prepare(say) -> None``: slow one-time setup the other hooks need (e.g. compiling a
  solver), run by ``gridgames serve`` (`gridgames.web.app.prepare_games`) before it takes
  requests, so the first request does not wait for it; ``say(text)`` tells the person
  starting the server what it does.

Puzzles:

* ``presets() -> list[PresetEntry]``: named puzzles, ``{"name", "description", "options"}``;
* ``puzzle_from_text(board, pieces, one_sided) -> Puzzle``: a puzzle from a pasted
  board picture and piece list;
* ``preset_puzzle(name) -> Puzzle``: the puzzle of a preset the options cannot express (a preset
  entry with ``"options": None``, e.g. a board of triangles), built from ``{"preset": NAME}``.

Tiling by hand (`gridgames.web.hand`), for a puzzle whose solutions are pieces placed on cells:

* ``hand_pieces(puzzle) -> HandPiecesPayload``: ``{"lattice": "square" | "triangular" | "hexagonal" |
  "cubic", "cells": [coord, ...], "pieces": [{"name", "count", "orientations": [[coord, ...],
  ...]}, ...]}``, coordinates as `gridgames.lattices` names them;
* ``hand_rest(puzzle, placed) -> object``: the completions of ``placed`` (a sequence of
  `Placement`), as an object with a puzzle's ``count(on_progress=...)`` and
  ``solutions(limit=..., on_progress=...)``, solutions in the same coordinates (the page counts
  completions and takes hints from it).

`gridgames.web.hand_hooks.TilingHooks` gives both for any puzzle with a ``board`` Grid and
``pieces`` (on the tiling engine, from the placed pieces).

Long hooks (``move_scores``, ``review``) get a ``budget``: call ``budget.keep_going(nodes)``
often (it is False once the time or node budget is spent or the page went away) and
``budget.report(fraction, found, text)`` to show progress; ``budget.partial`` (JSON-ready,
moves as text) is shown before the end (Connect Four: the columns solved so far).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, runtime_checkable

from gridgames.errors import GridGamesError
from gridgames.game import GameSpec, Move, Placement, Puzzle, State
from gridgames.grid import Cell
from gridgames.web.validate import WebError, one_line

if TYPE_CHECKING:
    from gridgames.web.jobs import Budget

__all__ = [
    "HOOKS",
    "ComputerMove",
    "HookError",
    "Drill",
    "DrillAnswerPayload",
    "DrillPositionPayload",
    "HandPiece",
    "HandPiecesPayload",
    "HandTiling",
    "MoveScores",
    "MoveScoresPayload",
    "MoveTargets",
    "Prepare",
    "PresetEntry",
    "PresetPuzzle",
    "Presets",
    "PuzzleFromText",
    "ReviewEntry",
    "ReviewGame",
    "has",
    "hooks_of",
]


class MoveScoresPayload(TypedDict):
    """What ``move_scores`` returns: every legal move's exact value for the side to move (None where the budget ran
    out), whether all are exact, and a note for the page."""

    scores: Mapping[Move, int | None]
    exact: bool
    note: str
    ends: NotRequired[Mapping[str, int]]
    """Optional: the moves to the end with best play after each move (by move text)."""
    explanation: NotRequired[Sequence[str]]
    """Optional: the position in words, a claim a line, shown beside the board."""


class ReviewEntry(TypedDict):
    """One move of a ``review``: its number, its player's name, the move as text and its score, the best score, and a
    mark ("mistake", "inaccuracy" or None); other keys (JSON-ready) reach the page too."""

    number: int
    player: str
    move: str
    score: int | None
    best: int | None
    mark: str | None
    grade: NotRequired[str]
    """Optional: best, good, inaccuracy, mistake or blunder."""
    value: NotRequired[float]
    """Optional: 0 to 1, the move's share of its player's accuracy."""
    best_moves: NotRequired[Sequence[str]]
    """Optional: the best moves, as text."""
    moves_lost: NotRequired[int]
    """Optional: the best score minus the move's (one point of the score is one move)."""


class DrillPositionPayload(TypedDict, total=False):
    """One position to drill: the position after the first ``ply`` moves; the other keys (JSON-ready, moves as text)
    reach the page."""

    ply: int
    number: int
    player: str
    played: str
    grade: str
    best: Sequence[str]
    scores: Mapping[str, int]


class DrillAnswerPayload(TypedDict):
    """Whether a drill's answer is best, the best moves (as text) and why (lines of text)."""

    right: bool
    best: Sequence[str]
    lines: Sequence[str]


class PresetEntry(TypedDict):
    """A named puzzle: its name, a description, and the options that make it (None: ``preset_puzzle`` builds it)."""

    name: str
    description: str
    options: Mapping[str, Any] | None


class HandPiece(TypedDict):
    """A piece to place by hand: its name, how many copies, and each orientation's cells (`gridgames.lattices`
    coordinates)."""

    name: str
    count: int
    orientations: Sequence[Sequence[Sequence[int]]]


class HandPiecesPayload(TypedDict):
    """What ``hand_pieces`` returns: the lattice ("square", "triangular", "hexagonal" or "cubic"), the board's
    cells and the pieces."""

    lattice: str
    cells: Sequence[Sequence[int]]
    pieces: Sequence[HandPiece]


@runtime_checkable
class MoveTargets(Protocol):
    """The board cells a click plays each legal move on."""

    def move_targets(self, state: State) -> Mapping[Move, Sequence[Cell]]:
        """``{move: [cell, ...]}`` for the legal moves of ``state``."""


@runtime_checkable
class ComputerMove(Protocol):
    """A computer level's move, instead of ``Game.computer_player(level, rng).choose``."""

    def computer_move(self, state: State, level: str, rng: random.Random, think: float) -> tuple[Move, str]:
        """The move of ``level`` (thinking at most ``think`` seconds) and a note about it ('' for none)."""


@runtime_checkable
class MoveScores(Protocol):
    """The exact value of every legal move, within the page's budget."""

    def move_scores(self, state: State, budget: Budget) -> MoveScoresPayload:
        """Every legal move's exact value (`MoveScoresPayload`; None where the budget ran out)."""


@runtime_checkable
class ReviewGame(Protocol):
    """After the end, every move played scored against the best."""

    def review(self, state: State, budget: Budget) -> Sequence[ReviewEntry]:
        """One `ReviewEntry` per move played."""


@runtime_checkable
class Drill(Protocol):
    """Drills from a played game: the positions before its mistakes, each answer judged and explained."""

    def drill_positions(self, state: State, budget: Budget) -> Sequence[DrillPositionPayload]:
        """One `DrillPositionPayload` per position to drill (the position after the first ``ply`` moves)."""

    def drill_answer(self, state: State, move: Move, budget: Budget) -> DrillAnswerPayload:
        """Whether ``move`` is best in ``state``, and why (`DrillAnswerPayload`)."""


@runtime_checkable
class Prepare(Protocol):
    """Slow one-time setup, run when ``gridgames serve`` starts."""

    def prepare(self, say: Callable[[str], None]) -> None:
        """Do the setup, telling the person starting the server what it does through ``say``."""


@runtime_checkable
class Presets(Protocol):
    """Named puzzles."""

    def presets(self) -> Sequence[PresetEntry]:
        """The named puzzles, one `PresetEntry` each."""


@runtime_checkable
class PuzzleFromText(Protocol):
    """A puzzle from a pasted board picture and piece list."""

    def puzzle_from_text(self, board: str, pieces: str, one_sided: bool) -> Puzzle:
        """The puzzle of the pasted ``board`` and ``pieces``."""


@runtime_checkable
class PresetPuzzle(Protocol):
    """The puzzle of a preset that the options cannot express."""

    def preset_puzzle(self, name: str) -> Puzzle:
        """The puzzle of the preset ``name``."""


@runtime_checkable
class HandTiling(Protocol):
    """What the page needs to let a person tile the board by hand, with the solver beside them."""

    def hand_pieces(self, puzzle: Puzzle) -> HandPiecesPayload:
        """The lattice, cells and pieces of the puzzle (`HandPiecesPayload`)."""

    def hand_rest(self, puzzle: Puzzle, placed: Sequence[Placement]) -> Any:
        """The completions of ``placed``: an object with a puzzle's ``count`` and ``solutions``."""


HOOKS = (
    "move_targets",
    "computer_move",
    "move_scores",
    "review",
    "drill_positions",
    "drill_answer",
    "prepare",
    "presets",
    "puzzle_from_text",
    "preset_puzzle",
    "hand_pieces",
    "hand_rest",
)
"""The hooks' method names (one per protocol above)."""


class HookError(WebError):
    """A game's web hook failed or answered something it must not: the page shows this line (HTTP 422), at once."""

    def __init__(self, game: str, hook: str, problem: str) -> None:
        super().__init__(one_line(f"{game}'s {hook} hook failed: {problem}")[:300], 422)


class _NoHooks:
    """A game without web hooks."""


class _Guarded:
    """A game's hooks object whose hooks turn any exception but a `GridGamesError` (bad input, said in one line) or a
    cancellation into a `HookError`: a plugin's bug is a clear error on the page, never an HTTP 500."""

    def __init__(self, game: str, inner: Any) -> None:
        self._game, self._inner = game, inner
        for name in HOOKS:
            if has(inner, name):
                setattr(self, name, self._guard(name, getattr(inner, name)))

    def _guard(self, name: str, hook: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return hook(*args, **kwargs)
            except GridGamesError:
                raise
            except Exception as error:  # a plugin's hook may fail in any way
                raise HookError(self._game, name, f"{type(error).__name__}: {error}") from None

        return guarded

    # anything else the game's own code keeps on its hooks object
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner, name)


def game_of(hooks: Any) -> str:
    """The name of the game whose (guarded) hooks these are, for error messages."""
    return hooks._game if isinstance(hooks, _Guarded) else "the game"


def hooks_of(spec: GameSpec) -> Any:
    """The game's hooks object, each hook guarded (`HookError`); an empty one when it declares none or its factory
    fails."""
    if spec.web is None:
        return _NoHooks()
    try:
        return _Guarded(spec.name, spec.web())
    except Exception:  # a plugin's hooks may fail in any way: the generic pages still work
        return _NoHooks()


def has(hooks: Any, name: str) -> bool:
    """True when the hooks object offers ``name``."""
    return callable(getattr(hooks, name, None))
