"""Lines and posts, a game for the tests that draws itself: no `State.board`, its own `State.svg` with click targets.

Two players take turns. Three *lines* (``l1``..``l3``) are drawn as bars marked ``data-move`` in the picture;
three *posts* (``p1``..``p3``) are the cells of a row of squares marked ``data-row``/``data-col`` and named by
`State.move_cells`. Each move claims one, once. The player who claims more lines wins; otherwise a draw. The page
can play it only from the picture: there is no board for it to draw or guess from.

>>> state = Pictured().new_state()
>>> for text in ("l1", "p2", "l3", "l2", "p1", "p3"):
...     state.play(state.game.parse_move(text))
>>> state.outcome.winner, state.outcome.reason
(0, 'First claims 2 of the 3 lines')
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from gridgames.errors import GameOverError, IllegalMoveError, NotationError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Outcome, State
from gridgames.grid import Cell

NAMES = ("l1", "l2", "l3", "p1", "p2", "p3")
PLAYERS = ("First", "Second")
COLOURS = ("#d55e00", "#0072b2")


@attrs.frozen
class Pictured(Game):
    """The rules (no options)."""

    @property
    def info(self) -> GameInfo:
        """Two players, six moves, six plies."""
        return GameInfo(num_players=2, num_actions=6, player_names=PLAYERS, max_game_length=6)

    def new_state(self) -> PicturedState:
        """Nothing claimed, First to move."""
        return PicturedState(self)

    def parse_move(self, text: str) -> int:
        """``l1``..``l3``, ``p1``..``p3``."""
        if text.strip() not in NAMES:
            raise NotationError(f"a move is one of {', '.join(NAMES)}, not {text!r}")
        return NAMES.index(text.strip())

    def format_move(self, move: int) -> str:
        """The move's name."""
        return NAMES[move]


class PicturedState(State):
    """Who claimed what (None: nobody yet)."""

    def __init__(self, game: Pictured) -> None:
        self.game = game
        self.owner: list[int | None] = [None] * 6
        self._history: list[int] = []

    @property
    def current_player(self) -> int:
        """They alternate, First first."""
        return len(self._history) % 2

    def legal_moves(self) -> Iterator[int]:
        """The unclaimed lines and posts."""
        return iter([m for m in range(6) if self.owner[m] is None] if len(self._history) < 6 else [])

    def play(self, move: int) -> None:
        """Claim a line or post."""
        if self.is_over:
            raise GameOverError("the game is over")
        if not 0 <= move < 6 or self.owner[move] is not None:
            raise IllegalMoveError(f"{NAMES[move] if 0 <= move < 6 else move} is taken")
        self.owner[move] = self.current_player
        self._history.append(move)

    def undo(self) -> int:
        """Give the last claim back."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        move = self._history.pop()
        self.owner[move] = None
        return move

    @property
    def outcome(self) -> Outcome | None:
        """After six claims: more lines wins."""
        if len(self._history) < 6:
            return None
        first = sum(1 for m in range(3) if self.owner[m] == 0)
        if first == 2 or first == 3:
            return Outcome(0, f"First claims {first} of the 3 lines")
        return Outcome(1, f"Second claims {3 - first} of the 3 lines")

    @property
    def history(self) -> tuple[int, ...]:
        """The claims so far."""
        return tuple(self._history)

    def copy(self) -> PicturedState:
        """An independent copy."""
        other = PicturedState(self.game)
        other.owner, other._history = list(self.owner), list(self._history)
        return other

    def to_text(self) -> str:
        """Each move and its owner's initial (``.`` unclaimed)."""
        return " ".join(f"{n}:{'.' if o is None else PLAYERS[o][0]}" for n, o in zip(NAMES, self.owner))

    def move_cells(self, move: int) -> tuple[Cell, ...] | None:
        """A post is played by a click on its square (row 0, column k); lines by their own ``data-move`` bars."""
        return ((0, move - 3),) if move >= 3 else None

    def svg(self) -> str:
        """Three bars (``data-move``) over a row of three squares (``data-row``/``data-col``), claimed ones coloured."""
        fill = ["#eeeeee" if o is None else COLOURS[o] for o in self.owner]
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">']
        for k in range(3):
            out.append(
                f'<rect x="{20 + 60 * k}" y="10" width="40" height="14" fill="{fill[k]}" stroke="#333333" '
                f'data-move="{NAMES[k]}"/>'
            )
            out.append(
                f'<rect x="{20 + 60 * k}" y="50" width="40" height="40" fill="{fill[3 + k]}" stroke="#333333" '
                f'data-row="0" data-col="{k}"/>'
            )
        out.append("</svg>")
        return "\n".join(out) + "\n"


SPEC = GameSpec(
    name="pictured",
    summary="Lines and posts: a test game drawn only by its own SVG",
    kind=GameKind.TURN_BASED,
    create=Pictured,
)
