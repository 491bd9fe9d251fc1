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

Turn-based games:

* ``move_targets(state) -> dict[Move, list[Cell]]``: the board cells a click plays each
  legal move on (default: the cells the move fills, found by playing it on a copy);
* ``move_scores(state, budget) -> dict``: ``{"scores": {move: int | None}, "exact": bool,
  "note": str}``, the exact value of every legal move for the side to move (shown
  over the board on demand), None where the budget ran out; optionally ``"ends": {move text:
  int}`` (the moves to the end with best play after each move) and ``"explanation": [str]``
  (the position in words, a claim a line), shown beside the board;
* ``review(state, budget) -> list[dict]``: after the end, one entry per move played:
  ``{"number", "player", "move", "score", "best", "mark"}`` (mark: "mistake",
  "inaccuracy" or None), optionally ``"grade"`` (best, good, inaccuracy, mistake, blunder) and
  ``"value"`` (0 to 1: the move's share of its player's accuracy; the page shows their mean) or
  ``"player_accuracy"`` (the mover's accuracy over the game in percent, by the game's own formula: the page
  shows it instead);
* ``computer_move(state, level, rng, think) -> (move, note)``: a computer level's move (instead of
  ``Game.computer_player(level, rng).choose``), e.g. to guard a solver shared between threads;

* ``drill_positions(state, budget) -> list[dict]``: the positions to drill in the game played up to ``state``
  (those before its mistakes), one ``{"ply": int, ...}`` each (the position after the first ``ply`` moves; any
  other keys, JSON-ready with moves as text, reach the page: ``number``, ``player``, ``played``, ``grade``,
  ``best``); with ``drill_answer(state, move, budget) -> dict``: ``{"right": bool, "best": [move text],
  "lines": [str]}``, whether ``move`` is best in ``state`` and why. Both give the game the drill page
  (``/drill/GAME``, `gridgames.web.drills`);

Players' names and colours, and save files, need no hook: the page names and draws each player after
`GameInfo.player_names` and `Game.player_styles`, and saves and loads `gridgames.saves`' files as the
terminal does (a game's older formats converted on read, `GameSpec.save_upgrades`).

Any game:

* ``prepare(say) -> None``: slow one-time setup the other hooks need (e.g. compiling a
  solver), run by ``gridgames serve`` (`gridgames.web.app.prepare_games`) before it takes
  requests, so the first request does not wait for it; ``say(text)`` tells the person
  starting the server what it does.

Puzzles:

* ``presets() -> list[dict]``: named puzzles, ``{"name", "description", "options"}``;
* ``puzzle_from_text(board, pieces, one_sided) -> Puzzle``: a puzzle from a pasted
  board picture and piece list;
* ``preset_puzzle(name) -> Puzzle``: the puzzle of a preset the options cannot express (a preset
  entry with ``"options": None``, e.g. a board of triangles), built from ``{"preset": NAME}``.

Tiling by hand (`gridgames.web.hand`), for a puzzle whose solutions are pieces placed on cells:

* ``hand_pieces(puzzle) -> dict``: ``{"lattice": "square" | "triangular" | "hexagonal" |
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
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from gridgames.game import GameSpec, Move, Placement, Puzzle, State
from gridgames.grid import Cell

if TYPE_CHECKING:
    from gridgames.web.jobs import Budget

__all__ = [
    "HOOKS",
    "ComputerMove",
    "Drill",
    "HandTiling",
    "MoveScores",
    "MoveTargets",
    "Prepare",
    "PresetPuzzle",
    "Presets",
    "PuzzleFromText",
    "ReviewGame",
    "has",
    "hooks_of",
]


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

    def move_scores(self, state: State, budget: Budget) -> Mapping[str, Any]:
        """``{"scores": {move: int | None}, "exact": bool, "note": str}`` (None where the budget ran out)."""


@runtime_checkable
class ReviewGame(Protocol):
    """After the end, every move played scored against the best."""

    def review(self, state: State, budget: Budget) -> Sequence[Mapping[str, Any]]:
        """One ``{"number", "player", "move", "score", "best", "mark"}`` per move played."""


@runtime_checkable
class Drill(Protocol):
    """Drills from a played game: the positions before its mistakes, each answer judged and explained."""

    def drill_positions(self, state: State, budget: Budget) -> Sequence[Mapping[str, Any]]:
        """One ``{"ply": int, ...}`` per position to drill (the position after the first ``ply`` moves)."""

    def drill_answer(self, state: State, move: Move, budget: Budget) -> Mapping[str, Any]:
        """``{"right": bool, "best": [move text], "lines": [str]}``: whether ``move`` is best in ``state``, and why."""


@runtime_checkable
class Prepare(Protocol):
    """Slow one-time setup, run when ``gridgames serve`` starts."""

    def prepare(self, say: Callable[[str], None]) -> None:
        """Do the setup, telling the person starting the server what it does through ``say``."""


@runtime_checkable
class Presets(Protocol):
    """Named puzzles."""

    def presets(self) -> Sequence[Mapping[str, Any]]:
        """``[{"name", "description", "options"}, ...]``."""


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

    def hand_pieces(self, puzzle: Puzzle) -> Mapping[str, Any]:
        """``{"lattice", "cells", "pieces": [{"name", "count", "orientations"}]}`` of the puzzle."""

    def hand_rest(self, puzzle: Puzzle, placed: Sequence[Placement]) -> Any:
        """The completions of ``placed``: an object with a puzzle's ``count`` and ``solutions``."""


HOOKS = (
    "move_targets", "computer_move", "move_scores", "review", "drill_positions", "drill_answer", "prepare", "presets",
    "puzzle_from_text", "preset_puzzle", "hand_pieces", "hand_rest",
)
"""The hooks' method names (one per protocol above)."""


class _NoHooks:
    """A game without web hooks."""


def hooks_of(spec: GameSpec) -> Any:
    """The game's hooks object (an empty one when it declares none or its factory fails)."""
    if spec.web is None:
        return _NoHooks()
    try:
        return spec.web()
    except Exception:  # a plugin's hooks may fail in any way: the generic pages still work
        return _NoHooks()


def has(hooks: Any, name: str) -> bool:
    """True when the hooks object offers ``name``."""
    return callable(getattr(hooks, name, None))
