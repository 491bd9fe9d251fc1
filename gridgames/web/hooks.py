"""The optional hooks a game offers ``gridgames serve``, beyond the generic protocol.

A `GameSpec` may carry ``web=FACTORY``: a function returning an object with any of the
methods below (duck-typed; a missing method means the page does without). The web
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
  under the board on demand), None where the budget ran out;
* ``review(state, budget) -> list[dict]``: after the end, one entry per move played:
  ``{"number", "player", "move", "score", "best", "mark"}`` (mark: "mistake",
  "inaccuracy" or None);
* ``computer_move(state, level, rng, think) -> (move, note)``: a computer level's move (instead of
  ``Game.computer_player(level, rng).choose``), e.g. to guard a solver shared between threads;
* ``player_styles(state) -> list[tuple[str, int]]``: each player's name and the colour and mark
  (an index: 0 is the first colour) the page draws its pieces with, in turn order (default: the
  game's `GameInfo.player_names`, player i in style i); e.g. a Connect Four game whose
  first mover is yellow;
* ``save_text(state, seats, think, seed) -> str`` and ``load_text(text) -> (state, seats)``:
  the game's own save-file format (the one its terminal game writes), instead of
  `gridgames.saves`; ``seats`` is one player kind per player, in turn order.

Any game:

* ``prepare(say) -> None``: slow one-time setup the other hooks need (e.g. compiling a
  solver), run by ``gridgames serve`` (`gridgames.web.app.prepare_games`) before it takes
  requests, so the first request does not wait for it; ``say(text)`` tells the person
  starting the server what it does.

Puzzles:

* ``presets() -> list[dict]``: named puzzles, ``{"name", "description", "options"}``;
* ``puzzle_from_text(board, pieces, one_sided) -> Puzzle``: a puzzle from a pasted
  board picture and piece list.

Long hooks (``move_scores``, ``review``) get a ``budget``: call ``budget.keep_going(nodes)``
often (it is False once the time or node budget is spent or the page went away) and
``budget.report(fraction, found, text)`` to show progress; ``budget.partial`` (JSON-ready,
moves as text) is shown before the end (Connect Four: the columns solved so far).
"""

from __future__ import annotations

from typing import Any

from gridgames.game import GameSpec

__all__ = ["HOOKS", "hooks_of"]

HOOKS = ("move_targets", "computer_move", "move_scores", "review", "player_styles", "save_text", "load_text", "prepare",
         "presets", "puzzle_from_text")


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
