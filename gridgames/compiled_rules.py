"""Compiled rules: a game's rules as numba functions over a fixed-size array, for the framework's compiled engines.

A plugin may declare, beside its `Game` and `State`, its rules compiled: a `CompiledRules` returned by an optional
method ``Game.compiled_rules()`` (read with `rules_of`; a game without it behaves exactly as before). The
framework's compiled engines (`gridgames.search.crules`: MCTS, negamax with a transposition table, an exact
solver, perft) then run the plugin's rules inside their own compiled loops, and `make_ai` (hints, computer
levels, review, the web page) picks them up by itself.

The position is one int64 array of `CompiledRules.state_size` words (the plugin's layout: cells, bitboards,
counters...), the game's constants one int64 array `CompiledRules.params` (board size, neighbour tables,
placement masks): each rule function takes ``(s, p, ...)``, the state and the params. The functions are
``numba.njit(cache=True)`` functions defined at the top level of a module (the engines import them by name and
compile around them):

=================  ========================================  ===============================================
field              signature                                 does
=================  ========================================  ===============================================
``legal``          ``legal(s, p, mask) -> int``              writes 1 (legal) or 0 in ``mask`` (uint8, one
                                                             per action), returns the count (0 once over)
``play``           ``play(s, p, move) -> None``              plays a legal move in place (the engines copy
                                                             the array to take a move back)
``result``         ``result(s, p) -> int``                   `ONGOING` (-1), `DRAW` (-2), or the winner
``to_move``        ``to_move(s, p) -> int``                  the player to move
``score``          ``score(s, p, player) -> float``          optional: a player's score at the end
                                                             (as `Outcome.scores`: bigger wins worth more)
``evaluate``       ``evaluate(s, p) -> float``               optional: as `State.evaluate`, in [-1, 1]
``rollout``        ``rollout(s, p, mask, rng) -> int``       optional: MCTS's playout move (a legal one; the
                                                             game goes on); ``mask`` is scratch room,
                                                             ``rng`` for `rand_below` (default: uniform)
``hash``           ``hash(s, p) -> uint64``                  optional: a key for tables (default: a mix of
                                                             every word of ``s``)
``board``          ``board(s, p, out) -> None``              optional: the board's cell values, row by row
                                                             (for compiled vector environments)
=================  ========================================  ===============================================

``encode(state)`` turns a Python `State` into the array (the conversion the engines start from and the checks
compare with), and ``order`` (optional) lists the actions in the order searches should try them. The Python rules
stay the reference: `gridgames.testing.check_compiled` plays both move by move and counts positions and outcomes
(perft) to a depth, naming the first position where they differ. Chance events are not part of compiled rules
(yet): a game with chance keeps its Python rules only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from gridgames.errors import PluginError

if TYPE_CHECKING:
    import numpy as np

    from gridgames.game import Game, State

__all__ = ["DRAW", "ONGOING", "CompiledRules", "rules_of"]

ONGOING = -1
"""`CompiledRules.result` while the game goes on."""
DRAW = -2
"""`CompiledRules.result` of a game that ended without a winner."""

RULE_FUNCTIONS = ("legal", "play", "result", "to_move")
OPTIONAL_FUNCTIONS = ("score", "evaluate", "rollout", "hash", "board")


def _positive(instance: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise PluginError(f"CompiledRules.{attribute.name} must be a positive integer, not {value!r}")


@attrs.frozen(eq=False)
class CompiledRules:
    """A game's rules as numba functions over an int64 state array (see the module for each function's signature)."""

    name: str
    """A short name for messages and the cache's file names (the game's name)."""
    num_players: int = attrs.field(validator=_positive)
    num_actions: int = attrs.field(validator=_positive)
    state_size: int = attrs.field(validator=_positive)
    """Words of the int64 state array."""
    max_game_length: int = attrs.field(validator=_positive)
    """At most this many moves in a game (the engines' stacks are this deep)."""
    params: np.ndarray
    """The game's constants (int64), passed to every function as ``p``."""
    encode: Callable[[State], np.ndarray]
    """The array of a Python `State` (int64, ``state_size`` words)."""
    legal: Any
    play: Any
    result: Any
    to_move: Any
    score: Any = None
    evaluate: Any = None
    rollout: Any = None
    hash: Any = None
    board: Any = None
    """Optional: ``board(s, p, out)`` writes the board (as `State.board`: 0 empty, player p's pieces p + 1, -1 holes)
    row by row into the int64 ``out``; with it `gridgames.rl.vector.vector_env` steps the games compiled."""
    order: np.ndarray | None = None
    """The actions in the order searches try them, likeliest best first (None: action order)."""

    def __attrs_post_init__(self) -> None:
        for field in RULE_FUNCTIONS + OPTIONAL_FUNCTIONS:
            function = getattr(self, field)
            if function is None and field in OPTIONAL_FUNCTIONS:
                continue
            python = getattr(function, "py_func", None)
            if python is None:
                raise PluginError(f"CompiledRules.{field} of {self.name} must be a numba.njit function")
            if "<locals>" in python.__qualname__:
                raise PluginError(
                    f"CompiledRules.{field} of {self.name} must be defined at a module's top level, not inside "
                    f"{python.__qualname__.split('.<locals>')[0]}() (put the game's constants in params)"
                )

    def functions(self) -> dict[str, tuple[str, str] | None]:
        """Each rule function's (module, name), None for an optional one not given: what the engines import."""
        found: dict[str, tuple[str, str] | None] = {}
        for field in RULE_FUNCTIONS + OPTIONAL_FUNCTIONS:
            function = getattr(self, field)
            found[field] = None if function is None else (function.py_func.__module__, function.py_func.__qualname__)
        return found


def rules_of(game: Game) -> CompiledRules | None:
    """The game's compiled rules (its optional ``compiled_rules()``), or None when it declares none."""
    hook = getattr(game, "compiled_rules", None)
    if hook is None:
        return None
    rules = hook()
    if rules is not None and not isinstance(rules, CompiledRules):
        raise PluginError(
            f"{type(game).__name__}.compiled_rules() must return a CompiledRules, not {type(rules).__name__}"
        )
    return rules
