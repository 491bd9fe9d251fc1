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

# numpy: imported where an array is made; typer: only by game modules with their own commands
if TYPE_CHECKING:
    import numpy as np
    import typer

    from gridgames.drawing import Mark
    from gridgames.placement_moves import PieceMoves

Move = int

PASS_TEXT = "pass"
"""The notation of a pass (`Game.pass_move`) in every game that has one."""

CHANCE = -1
"""`State.current_player` at a chance point: no player moves, the framework draws one of `State.chance_outcomes`."""

AI_KINDS: tuple[str, ...] = ("ai", "negamax", "mcts", "random")
"""The generic computer players every game gets (`gridgames.search.players.make_ai` makes them): the seat kinds a
save file may name besides ``human`` and a game's own `Game.computer_levels`."""


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


def _number_text(value: float) -> str:
    """A score as text: a whole number with thousands separators (``1,352``), else as short as it goes."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


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

    def score_text(self) -> str:
        """The scores as text, the winner's first: ``40-24``, ``-33 to -37`` (a negative score), ``1,352`` (one
        player); '' without scores.

        >>> Outcome(1, "more points", scores=(-37, -33)).score_text()
        '-33 to -37'
        """
        if self.scores is None:
            return ""
        order = list(range(len(self.scores)))
        if self.winner is not None:
            order.remove(self.winner)
            order.insert(0, self.winner)
        texts = [_number_text(self.scores[i]) for i in order]
        return (" to " if any(self.scores[i] < 0 for i in order) else "-").join(texts)

    def headline(self, player_names: Sequence[str]) -> str:
        """The result in a few words: ``Black wins 40-24``, ``Draw``, ``Game over: 1,352`` (a one-player score).

        >>> Outcome(None, "no move left", scores=(1352,)).headline(("Player",))
        'Game over: 1,352'
        """
        scores = self.score_text()
        if self.winner is not None:
            return f"{player_names[self.winner]} wins" + (f" {scores}" if scores else "")
        if self.scores is not None and len(self.scores) == 1:
            return f"Game over: {scores}"
        return "Draw" + (f" {scores}" if scores else "")

    def margin_for(self, player: int) -> float:
        """``player``'s score minus the best score of the other players (0.0 when the outcome has no scores); in a
        one-player game, the score itself.

        >>> Outcome(None, "no move left", scores=(1352,)).margin_for(0)
        1352.0
        """
        if self.scores is None:
            return 0.0
        if len(self.scores) == 1:
            return float(self.scores[0])
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

        A one-player game's outcome with a score ``s`` and no winner is worth ``s / (|s| + 1)``:
        in (-1, 1), and the bigger the score the bigger the value (a win with a score: the win's
        formula with ``s`` as its margin).

        >>> round(Outcome(None, "no move left", scores=(1352,)).value_for(0), 5)
        0.99926
        >>> Outcome(None, "no move left", scores=(-3,)).value_for(0)
        -0.75
        """
        if self.winner is None:
            if self.scores is not None and len(self.scores) == 1:
                score = float(self.scores[0])
                return score / (abs(score) + 1.0)
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
    max_game_length: int | None = None
    """The most moves a game can last (chance outcomes included), or None when it has no natural bound."""
    deterministic: bool = True
    """False when the game has chance points (`State.chance_outcomes`)."""
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
                state.play(state.parse_move(part))
            # errors name the move: "move 3 ('x'): ..."
            except (InvalidMoveError, IllegalMoveError) as error:
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
        Pass button and `gridgames.testing.check_game` read this property. A game whose
        pass is legal at every turn (Go) says so with `pass_always_legal`.
        """
        return None

    @property
    def pass_always_legal(self) -> bool:
        """True when `pass_move` is legal at every turn beside the other moves (Go), not only alone (False, the
        default: Othello's pass when a player has no move)."""
        return False

    # --- optional: how the players are drawn ----------------------------------
    def player_styles(self) -> tuple[int, ...]:
        """Each player's drawing style (colour and mark; 0 is the first) in turn order; by default player i in style
        i."""
        return tuple(range(self.info.num_players))

    @property
    def edges(self) -> Mapping[str, int]:
        """The board's sides each player owns (``{"top": 0, "bottom": 0, "left": 1, "right": 1}`` in Hex: a goal to
        join), drawn in the player's colour by the default `State.svg` and the web page; none by default."""
        return {}

    def player_colours(self) -> tuple[str, ...] | None:
        """Each player's colour (``#rrggbb``) in turn order, as the game names its players (Go's Black ``#111111``),
        or None for gridgames' palette (the default); the pictures and the web page draw the pieces in them."""
        return None

    # --- optional: the game's own computer players --------------------------
    def computer_levels(self) -> tuple[str, ...]:
        """The names of the game's own computer players, weakest first (none by default: generic AIs play it)."""
        return ()

    def computer_player(self, level: str, rng: random.Random | None = None) -> Player:
        """A computer player of one of `computer_levels` (seeded by ``rng``); raises `OptionError` for any other."""
        raise OptionError(f"{type(self).__name__} has no computer player {level!r} of its own (levels: none)")

    # --- optional: how Monte Carlo playouts run (gridgames.search.mcts) ---
    @property
    def playout_plies(self) -> int | None:
        """How many moves a Monte Carlo playout plays before `State.evaluate` scores the position (cheap playouts in
        games whose moves cost much to list), or None (the default): playouts run to the end of the game."""
        return None

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
        """A heuristic value for the player to move in [-1, 1], or None when the game provides none.

        In a one-player game that keeps a score, an estimate of the final `Outcome.value_for` (negamax compares the
        two directly; a finished game is not worth more than an unfinished one there).
        """
        return None

    def playout_move(self, rng: random.Random) -> Move | None:
        """The move a Monte Carlo playout plays next (a playout policy: cheap, need not be uniform), or None (the
        default) for a uniformly random legal move; must be legal when given, so None once the game is over."""
        return None

    # --- optional: chance -------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance point (`current_player` is `CHANCE`): each outcome's action and its probability (together 1);
        else ``[]`` (the default: a game without chance).

        At a chance point `legal_moves` lists the same actions and `play` plays the one drawn, so history, undo,
        notation and saves record the outcomes like moves; the framework draws them (`play_chance`), never a player.
        """
        return []

    # --- optional: the score during the game -------------------------------------
    def scores(self) -> tuple[float, ...] | None:
        """Each player's score now, in player order (discs on the board, points so far), or None; by default the
        outcome's scores once the game is over. ``reward="score"`` in `gridgames.rl` pays its changes step by step."""
        outcome = self.outcome
        return None if outcome is None else outcome.scores

    def svg(self) -> str | None:
        """The position as a standalone SVG picture, or None; by default drawn from `board` (discs with the players'
        initials, `marks`, the game's `Game.edges`).

        The web page shows a game's own (overridden) picture and plays by clicks on it: an element
        with ``data-row`` and ``data-col`` is that board cell (a click plays the moves whose
        `move_cells` hold it), an element with ``data-move`` plays that move's text when it is legal
        (`gridgames.drawing.board_svg` marks every cell so).
        """
        grid = self.board()
        if grid is None:
            return None
        from gridgames.drawing import board_svg

        outcome = self.outcome
        highlight = outcome.cells if outcome is not None else ()
        colours = self.game.player_colours()
        names = self.game.info.player_names
        if colours is None:
            return board_svg(grid, names, highlight=highlight, marks=self.marks(), edges=self.game.edges)
        return board_svg(grid, names, highlight=highlight, marks=self.marks(), edges=self.game.edges, colours=colours)

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture of the position (`svg`)."""
        return self.svg()

    def move_cells(self, move: Move) -> tuple[Cell, ...] | None:
        """The board cells a click plays ``move`` on (a Lights Out press: the pressed cell), or None (the default).

        With None the web page guesses them: the cells that go from empty to filled when ``move`` is played.
        """
        return None

    def parse_move(self, text: str) -> Move:
        """The action a move's text stands for here, where the position may resolve a short form (draughts' ``9x27``
        for the one jump path from 9 to 27); by default `Game.parse_move`, which needs no position.

        The terminal, the web page and `Game.from_notation` parse what a player types with it. An override
        accepts everything `Game.parse_move` does and raises `NotationError` naming the candidates when a
        short form is ambiguous (``'9x27' is ambiguous here: 9x18x27 or 9x14x27``).
        """
        return self.game.parse_move(text)

    def move_path(self, move: Move) -> tuple[Cell, ...] | None:
        """The cells a from->to move visits, the piece's own cell first (a draughts jump: from, each landing, to), or
        None (the default: the move is not a piece moving).

        With paths the web page plays a move by clicks on its cells in order: the piece, then its target (or
        each landing of a multi-step capture when the targets alone do not tell the moves apart).
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

    def marks(self) -> Mapping[Cell, Mark] | None:
        """What cells show beyond a player's plain piece (`gridgames.drawing.Mark`: a king, a neutral line, a numbered
        tile, a piece's own colour and label), by cell; None (the default): plain pieces from `board`."""
        return None

    def tally(self) -> Mapping[str, Sequence[float]] | None:
        """Running counts the game keeps, each one value per player (``{"discs": (30, 20)}``), which the web page shows
        beside the board; None (the default) without."""
        return None

    def planes(self) -> np.ndarray | None:
        """The position as 0/1 int8 planes, shape (height, width, players + extra): player p's pieces in plane p, then
        the game's own planes; None without a `board`."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        grid = self.board()
        if grid is None:
            return None
        return np.stack([grid.cells == p + 1 for p in range(self.game.info.num_players)], axis=-1).astype(np.int8)

    def planes_for(self, observer: int) -> np.ndarray | None:
        """`planes` seen from ``observer``: the players' planes turned so that the observer's own come first (then the
        next player's, round the table), the game's own planes as they are; the learning environments observe this.

        A game whose own planes are per player too (each player's captures, say) overrides it to turn those as well.
        """
        planes = self.planes()
        if planes is None:
            return None
        n = self.game.info.num_players
        order = [(observer + i) % n for i in range(n)] + list(range(n, planes.shape[2]))
        return planes[..., order]


def is_chance(state: State) -> bool:
    """True when ``state`` is at a chance point (its `State.current_player` is `CHANCE`)."""
    return state.current_player == CHANCE


def draw_chance(state: State, rng: random.Random) -> Move:
    """One of the chance point's outcomes, drawn from ``rng`` with their probabilities (`State.chance_outcomes`)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise IllegalMoveError("this position is not a chance point: there is no outcome to draw")
    moves = [move for move, _ in outcomes]
    return rng.choices(moves, weights=[probability for _, probability in outcomes])[0]


def play_chance(state: State, rng: random.Random) -> list[Move]:
    """Draw and play outcomes while ``state`` is at a chance point (and not over); the outcomes, in order.

    Every surface calls it where a chance point comes up: the terminal, the web page, the learning environments
    (from the seed they are given), `check_game`; the AIs see an outcome only once it is drawn.
    """
    drawn = []
    while not state.is_over and state.current_player == CHANCE:
        move = draw_chance(state, rng)
        state.play(move)
        drawn.append(move)
    return drawn


def mover_name(player_names: Sequence[str], player: int) -> str:
    """The name of ``player``: one of ``player_names``, or "chance" at a chance point."""
    return "chance" if player == CHANCE else player_names[player]


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
        # the puzzle draws its own grid (e.g. 'Q' for each queen)
        if type(self).picture is not Puzzle.picture:
            return self.picture(solution).to_text()
        from gridgames.drawing import to_text

        return to_text(self.board, solution)

    def svg(self, solution: Solution, *, title: str = "") -> str:
        """A standalone SVG picture of a solution: one colour per piece name, outlines, names written on the pieces.

        A puzzle that overrides `picture` gets that grid drawn instead: each cell's character of its text, on a
        colour of its value (`gridgames.drawing.grid_svg`), as `to_text` shows the same grid.
        """
        # the puzzle draws its own grid (givens, lit cells, queens)
        if type(self).picture is not Puzzle.picture:
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
        # a plugin's bug: not a traceback, not its exit code
        except (Exception, SystemExit) as error:
            what = f"sys.exit({error.code!r})" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
            raise PluginError(f"{self.name} could not create its game: {what}"[:300]) from None
