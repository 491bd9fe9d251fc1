"""Duo, a Blokus-Duo-sized test game (issue 53) written as a plugin author would, on `PieceMoves` alone.

Two players each own the 21 polyominoes of one to five squares (91 fixed orientations:
13,729 placements on the 14 x 14 board). A player's first piece covers their start
cell (e10 for Violet, j5 for Orange); every later one touches one of their own pieces
corner to corner and shares no edge with any of them. A player who cannot place a piece
passes (then only); the game ends when neither can, and the player who placed more
squares wins. Moves are written as in `gridgames.placement_moves` (``X1@d11``, ``I4-2@a1``)
or ``pass``.

Listing the ~400 legal moves of a position is one numpy pass over every placement
(`PieceMoves.legal`, about 0.2 ms); issue 53's plugin took about 1 ms, which
``listing_seconds`` adds (spent by ``spend``: a busy wait, or a fake clock's advance in
tests; ``move_seconds`` likewise for each move played). A generic search pays it for
each position it expands: the game the AI budgets are measured on
(bench/ai_budgets_heavy.py). It declares a playout policy (`State.playout_move`: a
random placement drawn without listing them all, `PieceMoves.sample`) and cheap
playouts (`Game.playout_plies`: 4 moves, then its evaluation).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import attrs
import numpy as np

from gridgames.errors import GameOverError, IllegalMoveError, OptionError
from gridgames.game import PASS_TEXT, Game, GameInfo, GameKind, GameSpec, Move, Option, Outcome, State, Termination
from gridgames.grid import Grid
from gridgames.placement_moves import Adjacency, PieceMoves
from gridgames.shapes import Shape, piece_set

PLAYERS = ("Violet", "Orange")
RULE = Adjacency(touch_corner=True, avoid_edges=True)
SMALL = {"1": "monominoes", "2": "dominoes"}


def busy(seconds: float) -> None:
    """Spend ``seconds`` of CPU time."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def pieces() -> dict[str, Shape]:
    """The 21 pieces: the monomino "1", the domino "2", trominoes I3 V3, tetrominoes I4 O4 T4 S4 L4, pentominoes."""
    out = {name: next(iter(piece_set(kind).values())) for name, kind in SMALL.items()}
    trominoes = piece_set("trominoes")
    out |= {"I3": trominoes["I"], "V3": trominoes["L"]}
    out |= {f"{name}4": shape for name, shape in piece_set("tetrominoes").items()}
    return out | piece_set("pentominoes")


@attrs.frozen
class Duo(Game):
    """Duo on a size x size board (14 by default), start cells 5 squares in from opposite corners."""

    size: int = 14
    listing_seconds: float = 0.0
    """Extra time each listing of a player's placements costs."""
    move_seconds: float = 0.0
    """Extra time each move played costs."""
    spend: Callable[[float], None] = attrs.field(default=busy, eq=False, repr=False)
    cheap_playouts: bool = True
    """Declare the playout policy and `playout_plies`; False: MCTS's old uniform playouts to the end."""
    _moves: PieceMoves = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 6 <= self.size <= 20:
            raise OptionError(f"the board's side must be a whole number from 6 to 20, not {self.size!r}")
        object.__setattr__(self, "_moves", PieceMoves.build(Grid.empty(self.size, self.size), pieces()))

    @property
    def piece_moves(self) -> PieceMoves:
        """Every placement of every piece (actions 0..N-1; N is the pass)."""
        return self._moves

    @property
    def info(self) -> GameInfo:
        """Two players, one action per placement and the pass; 21 pieces each, passes only when stuck."""
        return GameInfo(num_players=2, num_actions=len(self._moves) + 1, player_names=PLAYERS, max_game_length=4 * 21)

    @property
    def playout_plies(self) -> int | None:
        """Playouts play 4 moves, then the evaluation scores them (to the end without ``cheap_playouts``)."""
        return 4 if self.cheap_playouts else None

    @property
    def pass_move(self) -> Move:
        """The last action."""
        return len(self._moves)

    def start_cell(self, player: int) -> int:
        """The bitmask of a player's start cell."""
        at = 4 if player == 0 else self.size - 5
        return self._moves.cells_mask([(at, at)])

    def new_state(self) -> DuoState:
        """An empty board, Violet to move."""
        return DuoState(self)

    def parse_move(self, text: str) -> Move:
        """A placement such as ``X1@d11``, or ``pass``."""
        return self.pass_move if text.strip().lower() == PASS_TEXT else self._moves.parse(text)

    def format_move(self, move: Move) -> str:
        """The text of an action."""
        return PASS_TEXT if move == self.pass_move else self._moves.format(move)


class DuoState(State):
    """A position: every player's cells and unused pieces as bitmasks, the moves so far."""

    def __init__(self, game: Duo) -> None:
        self.game: Duo = game
        self.own = [0, 0]
        self.available = list(game.piece_moves.pools(2))
        self.moves: list[Move] = []
        self._legal: dict[int, list[Move]] = {}  # each player's placements in this position

    @property
    def current_player(self) -> int:
        """Violet (0) and Orange (1) alternate; a stuck player passes."""
        return len(self.moves) % 2

    def _placements(self, player: int) -> list[Move]:
        if player not in self._legal:
            moves, own = self.game.piece_moves, self.own[player]
            found = moves.legal(
                self.own[0] | self.own[1],
                self.available[player],
                own=own,
                rule=RULE,
                start=self.game.start_cell(player),
            )
            self._legal[player] = found.tolist()
            if self.game.listing_seconds:
                self.game.spend(self.game.listing_seconds)
        return self._legal[player]

    def legal_moves(self) -> Iterator[Move]:
        """The placements of the player to move, or the pass alone when they have none (none once the game is
        over)."""
        placements = self._placements(self.current_player)
        if placements:
            return iter(placements)
        return iter([] if self.is_over else [self.game.pass_move])

    def _allows(self, move: Move) -> bool:
        player = self.current_player
        return self.game.piece_moves.allows(
            move,
            self.own[0] | self.own[1],
            self.available[player],
            own=self.own[player],
            rule=RULE,
            start=self.game.start_cell(player),
        )

    def is_legal(self, move: Move) -> bool:
        """True when the move may be played now (checked on bitmasks; the pass only when no placement is legal)."""
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= self.game.pass_move:
            return False
        if move == self.game.pass_move:
            return not self._placements(self.current_player) and not self.is_over
        return self._allows(move)

    def check_playable(self, move: Move) -> None:
        """Raise `GameOverError`, or `IllegalMoveError` saying why the move is refused."""
        if self.is_legal(move):
            return
        if self.is_over:
            raise GameOverError("the game is over: neither player can place a piece")
        if move == self.game.pass_move:
            raise IllegalMoveError("you can pass only when no piece fits")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < self.game.pass_move:
            raise IllegalMoveError(f"move {move!r} is outside 0..{self.game.pass_move}")
        player = self.current_player
        self.game.piece_moves.check(
            move,
            occupied=self.own[0] | self.own[1],
            available=self.available[player],
            own=self.own[player],
            rule=RULE,
            start=self.game.start_cell(player),
        )

    def play(self, move: Move) -> None:
        """Place a piece (or pass)."""
        self.check_playable(move)
        if self.game.move_seconds:
            self.game.spend(self.game.move_seconds)
        if move != self.game.pass_move:
            player, moves = self.current_player, self.game.piece_moves
            self.own[player] |= moves.mask(move)
            self.available[player] &= ~(1 << moves.piece_index(move))
        self.moves.append(move)
        self._legal = {}

    def undo(self) -> Move:
        """Take the last move back."""
        if not self.moves:
            raise IllegalMoveError("there is no move to undo")
        move = self.moves.pop()
        if move != self.game.pass_move:
            player, moves = self.current_player, self.game.piece_moves
            self.own[player] ^= moves.mask(move)
            self.available[player] |= 1 << moves.piece_index(move)
        self._legal = {}
        return move

    def squares(self) -> tuple[int, int]:
        """The squares each player has placed."""
        return self.own[0].bit_count(), self.own[1].bit_count()

    @property
    def outcome(self) -> Outcome | None:
        """Over when neither player can place a piece: more squares placed wins."""
        if self._placements(self.current_player) or self._placements(1 - self.current_player):
            return None
        scores = self.squares()
        winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        reason = "neither player can place a piece"
        return Outcome(winner, reason, termination=Termination.NO_MOVES, scores=scores)

    def evaluate(self) -> float:
        """The squares placed, mine minus theirs, over 89 (a full set)."""
        mine, theirs = self.squares()
        if self.current_player == 1:
            mine, theirs = theirs, mine
        return (mine - theirs) / 89

    def playout_move(self, rng: random.Random) -> Move | None:
        """A random placement drawn without listing every legal one (None: let the search list them)."""
        if not self.game.cheap_playouts:
            return None
        player = self.current_player
        return self.game.piece_moves.sample(
            rng,
            self.own[0] | self.own[1],
            self.available[player],
            own=self.own[player],
            rule=RULE,
            start=self.game.start_cell(player),
        )

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self.moves)

    def copy(self) -> DuoState:
        """An independent copy."""
        other = type(self).__new__(type(self))
        other.game, other.own, other.available = self.game, list(self.own), list(self.available)
        other.moves, other._legal = list(self.moves), dict(self._legal)
        return other

    def board(self) -> Grid:
        """Each player's cells hold their number + 1."""
        size = self.game.size
        cells = np.zeros(size * size, dtype=np.int64)
        for player, mask in enumerate(self.own):
            for bit in range(size * size):
                if (mask >> bit) & 1:
                    cells[bit] = player + 1
        return Grid(cells.reshape(size, size))

    def to_text(self) -> str:
        """The board: V and O for each player's squares."""
        return self.board().to_text(alphabet="VO")


SPEC = GameSpec(
    "duo",
    "Duo: a Blokus-Duo-sized test game of corner-touching polyominoes.",
    GameKind.TURN_BASED,
    Duo,
    (Option("size", int, 14, "the board's side (6-20)"),),
)
