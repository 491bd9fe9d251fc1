"""The game protocol: what every game module implements.

Two kinds of game plug into gridgames:

* **Turn-based games** between players (`Game` + `State`). A `Game` is an immutable
  rules object holding its parameters, with a factory for a fresh mutable `State`
  (as in OpenSpiel). Moves are integer actions (``0 <= move < info.num_actions``);
  the game turns them to and from text with `Game.parse_move` / `Game.format_move`.
  A state plays and undoes moves (``play`` / ``undo``), lists its legal moves lazily,
  and reports the end of the game as data: an `Outcome` with a winner and a reason.
  A whole game round-trips through text: ``game.from_notation(state.notation())``.
  Optional methods with defaults tell generic tools more: a game's own computer
  levels (`Game.computer_levels`), and for learning environments (`gridgames.rl`)
  a legal-action mask, the board as a `Grid` and observation planes.

* **Placement puzzles** (`Puzzle`): a board and a set of pieces (or any exact-cover
  problem), with a solution generator, a counter and an independent checker.

A game module exposes one `GameSpec` (name, summary, kind, options, factory and,
optionally, its own typer sub-app), found through the ``gridgames.games`` entry-point
group by `gridgames.registry`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

import attrs

from gridgames.errors import GameOverError, GridGamesError, IllegalMoveError, InvalidMoveError, OptionError, PluginError
from gridgames.grid import Cell, Grid
from gridgames.parsing import clip

if TYPE_CHECKING:  # numpy: imported where an array is made; typer: only by game modules with their own commands
    import numpy as np
    import typer

    from gridgames.placement_moves import PieceMoves

Move = int

PASS_TEXT = "pass"
"""The notation of a pass (`Game.pass_move`) in every game that has one."""


class GameKind(str, Enum):
    """What kind of game a module provides."""

    TURN_BASED = "turn-based"
    PUZZLE = "puzzle"


class Termination(str, Enum):
    """Why a game ended, as data a program can test (the text is in `Outcome.reason`)."""

    LINE = "line"  # a player completed a line (Connect Four, m,n,k-games)
    BOARD_FULL = "board full"  # the board filled up with no winner
    NO_MOVES = "no moves"  # the player to move has no legal move (Domineering, Cram)
    RULE = "rule"  # any other rule of the game


def _scores(values: Iterable[float] | None) -> tuple[float, ...] | None:
    return None if values is None else tuple(values)


@attrs.frozen
class Outcome:
    """How a game ended: the winner (a player index) or None for a draw, why, the deciding cells, the kind of end and,
    optionally, each player's score.

    >>> outcome = Outcome(0, "Red wins with four in a row", ((0, 0), (0, 1), (0, 2), (0, 3)), Termination.LINE)
    >>> outcome.value_for(0), outcome.value_for(1), outcome.is_draw
    (1.0, -1.0, False)
    >>> Outcome(None, "the board is full", termination=Termination.BOARD_FULL).termination.value
    'board full'

    With ``scores`` (in player order, e.g. Othello's disc counts) a bigger win is worth more
    (see `value_for`), and `margin_for` gives the difference:

    >>> scored = Outcome(0, "Black has more discs", scores=(40, 24))
    >>> scored.margin_for(0), scored.margin_for(1)
    (16.0, -16.0)
    >>> round(scored.value_for(0), 4), round(scored.value_for(1), 4)
    (0.9706, -0.9706)
    >>> round(Outcome(0, "by one disc", scores=(32, 31)).value_for(0), 4)
    0.75
    """

    winner: int | None
    reason: str
    cells: tuple[Cell, ...] = ()
    termination: Termination = attrs.field(default=Termination.RULE, converter=Termination)
    scores: tuple[float, ...] | None = attrs.field(default=None, converter=_scores, kw_only=True)
    """Each player's score in player order (e.g. disc counts), or None when the game keeps no score."""

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def margin_for(self, player: int) -> float:
        """``player``'s score minus the best score of the other players (0.0 when the outcome has no scores)."""
        if self.scores is None or len(self.scores) < 2:
            return 0.0
        others = [s for i, s in enumerate(self.scores) if i != player]
        return float(self.scores[player]) - float(max(others))

    def value_for(self, player: int) -> float:
        """The result for ``player`` in [-1, 1]: +1 win, -1 loss, 0 draw; with scores, a win of margin m is worth 1/2 +
        1/2 * m / (m + 1).

        Without ``scores`` the values are exactly +1, -1 and 0. With them the winner gets
        ``1/2 + 1/2 * m / (m + 1)`` for a margin ``m`` (their score minus the best other
        score; at least 0), every other player minus the winner's value, and a draw is 0:
        a win is always worth at least 1/2, and more the bigger the margin, so searches
        that maximise `value_for` (negamax, MCTS) prefer bigger wins by themselves.
        """
        if self.winner is None:
            return 0.0
        sign = 1.0 if self.winner == player else -1.0
        if self.scores is None:
            return sign
        margin = max(0.0, self.margin_for(self.winner))
        return sign * (0.5 + 0.5 * margin / (margin + 1.0))


@attrs.frozen
class GameInfo:
    """Declarative metadata that generic algorithms read instead of checking classes."""

    num_players: int
    num_actions: int
    player_names: tuple[str, ...]
    max_game_length: int
    deterministic: bool = True
    perfect_information: bool = True
    zero_sum: bool = True


class Game(ABC):
    """Immutable rules of a turn-based game with its parameters; a factory for states."""

    @property
    @abstractmethod
    def info(self) -> GameInfo:
        """The game's metadata."""

    @abstractmethod
    def new_state(self) -> State:
        """A fresh state at the start of the game."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The action a move's text stands for; raises `NotationError` when malformed."""

    @abstractmethod
    def format_move(self, move: Move) -> str:
        """The text of an action (parses back with `parse_move`)."""

    def split_notation(self, text: str) -> list[str]:
        """Split a whole game's notation into move texts (comma- or space-separated by default)."""
        return [part for part in text.replace(",", " ").split() if part]

    def join_notation(self, moves: Sequence[Move]) -> str:
        """The notation of a sequence of moves (parses back with `from_notation`)."""
        return " ".join(self.format_move(m) for m in moves)

    def from_notation(self, text: str) -> State:
        """The state reached by playing a whole game's notation from the start; errors name the move number."""
        state = self.new_state()
        for i, part in enumerate(self.split_notation(text), start=1):
            try:
                state.play(self.parse_move(part))
            except (InvalidMoveError, IllegalMoveError) as error:  # errors name the move: "move 3 ('x'): ..."
                raise type(error)(f"move {i} ({clip(part)!r}): {error}") from None
        return state

    def from_moves(self, moves: Sequence[Move]) -> State:
        """The state reached by playing ``moves`` from the start."""
        state = self.new_state()
        for move in moves:
            state.play(move)
        return state

    # --- optional: passing ------------------------------------------------------
    @property
    def pass_move(self) -> Move | None:
        """The action that passes, or None when the game has no passes (the default).

        A game with passes makes `State.legal_moves` yield exactly ``[pass_move]`` when the
        side to move must pass (never the pass beside other moves), formats it as
        `PASS_TEXT` (``"pass"``) and parses ``"pass"`` back; the terminal, the web page's
        Pass button and `gridgames.testing.check_game` read this property.
        """
        return None

    # --- optional: how the players are drawn ----------------------------------
    def player_styles(self) -> tuple[int, ...]:
        """Each player's drawing style (colour and mark; 0 is the first) in turn order; by default player i in style
        i."""
        return tuple(range(self.info.num_players))

    # --- optional: the game's own computer players --------------------------
    def computer_levels(self) -> tuple[str, ...]:
        """The names of the game's own computer players, weakest first (none by default: generic AIs play it)."""
        return ()

    def computer_player(self, level: str, rng: random.Random | None = None) -> Player:
        """A computer player of one of `computer_levels` (seeded by ``rng``); raises `OptionError` for any other."""
        raise OptionError(f"{type(self).__name__} has no computer player {level!r} of its own (levels: none)")

    # --- optional: moves that place a whole piece (the web page offers a piece picker for them) ---
    @property
    def piece_moves(self) -> PieceMoves | None:
        """The game's whole-piece moves (`gridgames.placement_moves.PieceMoves`, its actions the game's), or None (the
        default)."""
        return None

    # --- optional: an exact solver (the learning environments' judge scores moves with it) ---
    def exact_solver(self, table_bits: int | None = None) -> ExactSolver | None:
        """An exact solver of this game's positions (`ExactSolver`), or None when the game has none (the default)."""
        return None


class State(ABC):
    """A mutable position of a turn-based game: play, undo, legal moves, outcome."""

    game: Game

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Index of the player to move (0 moves first)."""

    @abstractmethod
    def legal_moves(self) -> Iterator[Move]:
        """The legal moves, lazily; none once the game is over."""

    @abstractmethod
    def play(self, move: Move) -> None:
        """Play a move; raises `IllegalMoveError` (or `GameOverError`) and changes nothing if it is not legal."""

    @abstractmethod
    def undo(self) -> Move:
        """Take back the last move and return it; raises `IllegalMoveError` at the start."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The end of the game as data, or None while it goes on."""

    @property
    @abstractmethod
    def history(self) -> tuple[Move, ...]:
        """The moves played so far."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy of this state."""

    @abstractmethod
    def to_text(self) -> str:
        """A plain-text picture of the position."""

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be played now."""
        return any(m == move for m in self.legal_moves())

    def search_order(self) -> list[Move]:
        """The legal moves in the order a search should try them, likeliest best first (default: `legal_moves`'
        order)."""
        return list(self.legal_moves())

    def notation(self) -> str:
        """The whole game so far as text (parses back with `Game.from_notation`)."""
        return self.game.join_notation(self.history)

    def evaluate(self) -> float | None:
        """A heuristic value for the player to move in [-1, 1], or None when the game provides none."""
        return None

    def svg(self) -> str | None:
        """The position as a standalone SVG picture, or None; by default drawn from `board` (discs with the players'
        initials)."""
        grid = self.board()
        if grid is None:
            return None
        from gridgames.drawing import board_svg

        outcome = self.outcome
        return board_svg(grid, self.game.info.player_names, highlight=outcome.cells if outcome is not None else ())

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture of the position (`svg`)."""
        return self.svg()

    def move_cells(self, move: Move) -> tuple[Cell, ...] | None:
        """The board cells a click plays ``move`` on (a Lights Out press: the pressed cell), or None (the default).

        With None the web page guesses them: the cells that go from empty to filled when ``move`` is played.
        """
        return None

    def check_playable(self, move: Move) -> None:
        """Raise `GameOverError` or `IllegalMoveError` unless ``move`` is legal now."""
        if self.is_over:
            raise GameOverError(f"the game is over; no move can follow ({self.game.format_move(move)!r})")
        if not self.is_legal(move):
            raise IllegalMoveError(f"move {self.game.format_move(move)!r} is not legal here")

    # --- optional: what learning environments read (gridgames.rl) ----------
    def legal_mask(self) -> np.ndarray:
        """An int8 array of ``num_actions`` entries: 1 where the action is legal now, else 0."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        mask = np.zeros(self.game.info.num_actions, dtype=np.int8)
        mask[list(self.legal_moves())] = 1
        return mask

    def board(self) -> Grid | None:
        """The board (0 empty, player p's pieces p + 1, -1 holes; do not modify), or None; by default a `Grid` attribute
        ``grid``."""
        grid = getattr(self, "grid", None)
        return grid if isinstance(grid, Grid) else None

    def planes(self) -> np.ndarray | None:
        """The position as 0/1 int8 planes, shape (height, width, players + extra): player p's pieces in plane p, then
        the game's own planes; None without a `board`."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        grid = self.board()
        if grid is None:
            return None
        return np.stack([grid.cells == p + 1 for p in range(self.game.info.num_players)], axis=-1).astype(np.int8)


class ExactSolver(Protocol):
    """What a game's exact solver offers the judge: scores from the view of the player to move.

    Positive: a forced win (the bigger, the sooner); zero: a draw; negative: a forced loss.
    """

    def solve(self, moves: Sequence[int]) -> int:
        """The exact score of the position after ``moves`` (actions from the start; the game is not over there)."""
        ...

    def win_score(self, moves_before: int) -> int:
        """The score of winning with the next move, after ``moves_before`` moves have been played."""
        ...


@runtime_checkable
class Player(Protocol):
    """Anything that, given a state, returns a move: a human at the terminal or a computer level."""

    name: str

    def choose(self, state: State) -> Move:
        """The move to play in ``state`` (which is not over)."""
        ...


# ----------------------------------------------------------------------------------------------
# Placement puzzles
# ----------------------------------------------------------------------------------------------
def _sorted_cells(cells: Iterable[Iterable[int]]) -> tuple[Cell, ...]:
    # a lattice's coordinates may have more than two numbers: a Cell in the type, any length in fact
    return tuple(sorted(cast(Cell, tuple(int(v) for v in cell)) for cell in cells))


@attrs.frozen
class Placement:
    """One piece put on the board: the piece's name and the cells it covers ((row, col), or a lattice's coordinates)."""

    piece: str
    cells: tuple[Cell, ...] = attrs.field(converter=_sorted_cells)

    def __iter__(self) -> Iterator[Any]:
        """Unpack as ``piece, cells = placement``."""
        return iter((self.piece, self.cells))


Solution = tuple[Placement, ...]
ProgressCallback = Callable[[float, int], None]
"""Called with (fraction of the search done, or NaN when unknown; solutions found so far); may raise `Cancelled`."""


class Cancelled(KeyboardInterrupt):
    """Raised by an ``on_progress`` callback to stop a search: the web page's Cancel button and time budget do so.

    The rule for a puzzle: call ``on_progress`` often (every fraction of a second) from `Puzzle.solutions` and
    `Puzzle.count`, and let it raise. `count` catches it and returns the count so far with ``partial=True``;
    `solutions` may simply stop. It is a ``KeyboardInterrupt`` on purpose, so that one ``except
    KeyboardInterrupt`` handles both it and Ctrl-C at the terminal, as gridgames' own engines do, and a plugin's
    ``except Exception`` does not swallow it.
    """


@attrs.frozen
class CountResult:
    """The result of counting solutions: the count, whether it is partial (interrupted), the time taken."""

    count: int
    partial: bool = False
    unique: bool = False
    seconds: float = 0.0
    nodes: int = 0
    method: str = "all"
    """How the count was made (for unique counts: which symmetry reduction)."""


class Puzzle(ABC):
    """A placement puzzle: a board and pieces, with solutions, a counter and an independent checker."""

    @property
    @abstractmethod
    def board(self) -> Grid:
        """The empty board (holes mark cells that are not part of it)."""

    @abstractmethod
    def solutions(
        self, *, limit: int | None = None, unique: bool = False, on_progress: ProgressCallback | None = None
    ) -> Iterator[Solution]:
        """Solutions, lazily (up to the board's symmetries when ``unique``), at most ``limit`` of them."""

    @abstractmethod
    def count(self, *, unique: bool = False, on_progress: ProgressCallback | None = None) -> CountResult:
        """Count every solution (or one per symmetry class); partial when interrupted."""

    @abstractmethod
    def is_solution(self, solution: Solution) -> bool:
        """True when ``solution`` is a valid solution, checked independently of the solver."""

    def picture(self, solution: Solution) -> Grid:
        """The board with each placement's cells set to its piece's number (1, 2, ... in order)."""
        grid = self.board.copy()
        for i, placement in enumerate(solution, start=1):
            for cell in placement.cells:
                grid.set(cell, i)
        return grid

    def to_text(self, solution: Solution) -> str:
        """A plain-text picture of a solution: pieces by name, outlined (a puzzle that overrides `picture` gets that
        grid's text)."""
        if type(self).picture is not Puzzle.picture:  # the puzzle draws its own grid (e.g. 'Q' for each queen)
            return self.picture(solution).to_text()
        from gridgames.drawing import to_text

        return to_text(self.board, solution)

    def svg(self, solution: Solution, *, title: str = "") -> str:
        """A standalone SVG picture of a solution: one colour per piece name, outlines, names written on the pieces.

        A puzzle that overrides `picture` gets that grid drawn instead: each cell's character of its text, on a
        colour of its value (`gridgames.drawing.grid_svg`), as `to_text` shows the same grid.
        """
        if type(self).picture is not Puzzle.picture:  # the puzzle draws its own grid (givens, lit cells, queens)
            from gridgames.drawing import grid_svg

            return grid_svg(self.picture(solution), title=title)
        from gridgames.drawing import to_svg

        return to_svg(self.board, solution, title=title)

    def show(self, solution: Solution) -> Any:
        """A `gridgames.drawing.Picture` of a solution: Jupyter draws it (``_repr_svg_``), elsewhere its text."""
        from gridgames.drawing import Picture

        return Picture(self.svg(solution), self.to_text(solution))


# ----------------------------------------------------------------------------------------------
# What a game module exposes
# ----------------------------------------------------------------------------------------------
@attrs.frozen
class Option:
    """One parameter of a game, as the CLI offers it (``--name VALUE``)."""

    name: str
    type: type = attrs.field(validator=attrs.validators.in_((int, str, float, bool)))
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] = attrs.field(default=(), kw_only=True)
    """The values allowed, when a short list (the web page offers them as a menu); () for any of the type."""


def _check_name(instance: Any, attribute: attrs.Attribute[str], value: str) -> None:
    if not value or not all(ch.isalnum() or ch in "-_" for ch in value):
        raise PluginError(f"a game name must be letters, digits, '-' or '_', not {value!r}")


@attrs.frozen
class GameSpec:
    """What a game module exposes through the ``gridgames.games`` entry point."""

    name: str = attrs.field(validator=_check_name)
    summary: str
    kind: GameKind
    create: Callable[..., Game | Puzzle]
    options: tuple[Option, ...] = ()
    doc: str = ""
    app: Callable[[], typer.Typer] | None = None
    """A factory for the game's own typer sub-app (commands such as ``play``, ``solve``, ``show``)."""
    web: Callable[[], Any] | None = None
    """A factory for the game's optional hooks in ``gridgames serve`` (exact move scores, review, own save files,
    presets...; see `gridgames.web.hooks`); None: the generic pages only."""
    save_upgrades: Mapping[str, Callable[[dict[str, Any], str], dict[str, Any]]] = attrs.field(factory=dict)
    """The game's older save formats, read on load: format name -> ``upgrade(data, where)`` turning such a file's
    JSON object into a `gridgames.saves` one (``where`` names the file in its `SaveFileError`s)."""
    quick: Callable[[list[str]], int | None] | None = None
    """Answers ``gridgames NAME ARGS...`` before the command-line library is imported, given ARGS: the exit code, or
    None to decline (then the game's own commands, `app`, run as usual). For the commands people run most, where a
    process costs more than the work (docs/startup.md); it must print exactly what the full command would."""

    def make(self, **options: Any) -> Game | Puzzle:
        """A game (or puzzle) built with the given options; unknown options are an error, and so is a ``create``
        that fails in any other way than a `GridGamesError` (an exception, ``sys.exit``): one `PluginError` line."""
        known = {o.name for o in self.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise OptionError(
                f"{self.name} has no option {unknown[0]!r} (options: {', '.join(sorted(known)) or 'none'})"
            )
        try:
            return self.create(**options)
        except GridGamesError:
            raise
        except (Exception, SystemExit) as error:  # a plugin's bug: not a traceback, not its exit code (issue 38)
            what = f"sys.exit({error.code!r})" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
            raise PluginError(f"{self.name} could not create its game: {what}"[:300]) from None
