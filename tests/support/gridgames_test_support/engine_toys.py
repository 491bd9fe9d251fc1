"""Multi-pile Nim for testing the generic search engines, with an exact reference solver.

Nim: piles of objects; a move takes one or more objects from one pile; whoever
takes the last object wins. A position is lost for the player to move exactly
when the piles' xor is 0 (Bouton). `nim_distance` gives the exact length of the
game with best play (the winner hurries, the loser stalls), by plain minimax.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, reduce
from operator import xor

import attrs

from gridgames.errors import IllegalMoveError, NotationError
from gridgames.game import Game, GameInfo, Move, Outcome, State


@attrs.frozen
class PileNim(Game):
    """Nim on the given piles; with ``evaluation`` states score positions by Bouton's rule; with ``extra_turn`` emptying
    a pile earns another move."""

    piles: tuple[int, ...]
    evaluation: bool = False
    extra_turn: bool = False

    @property
    def biggest(self) -> int:
        """The largest pile at the start (moves take 1..biggest)."""
        return max(self.piles)

    @property
    def info(self) -> GameInfo:
        """Two players; one action per (pile, how many taken)."""
        return GameInfo(2, len(self.piles) * self.biggest, ("First", "Second"), sum(self.piles))

    def new_state(self) -> PileNimState:
        """The starting piles, First to move."""
        return PileNimState(self)

    def parse_move(self, text: str) -> Move:
        """``"2:3"``: take 3 from pile 2 (piles counted from 1)."""
        try:
            pile, take = (int(part) for part in text.split(":"))
        except ValueError:
            raise NotationError(f"a Nim move is PILE:COUNT, not {text!r}") from None
        if not (1 <= pile <= len(self.piles) and 1 <= take <= self.biggest):
            raise NotationError(f"no such move {text!r}")
        return (pile - 1) * self.biggest + take - 1

    def format_move(self, move: Move) -> str:
        """The text of a move, such as ``"2:3"``."""
        pile, take = divmod(move, self.biggest)
        return f"{pile + 1}:{take + 1}"


class PileNimState(State):
    """A Nim position."""

    def __init__(self, game: PileNim) -> None:
        self.game: PileNim = game
        self.piles = list(game.piles)
        self._history: list[Move] = []
        self._to_move: list[int] = [0]  # the player to move before each move, and now

    @property
    def current_player(self) -> int:
        """Players alternate, First (0) first (with ``extra_turn``, emptying a pile keeps the turn)."""
        return self._to_move[-1]

    def legal_moves(self) -> Iterator[Move]:
        """Take 1..n from any pile of n."""
        size = self.game.biggest
        return (i * size + t for i, n in enumerate(self.piles) for t in range(n))

    def play(self, move: Move) -> None:
        """Take the objects."""
        self.check_playable(move)
        pile, take = divmod(move, self.game.biggest)
        self.piles[pile] -= take + 1
        self._history.append(move)
        again = self.game.extra_turn and self.piles[pile] == 0 and any(self.piles)
        self._to_move.append(self.current_player if again else 1 - self.current_player)

    def undo(self) -> Move:
        """Put the last objects taken back."""
        if not self._history:
            raise IllegalMoveError("nothing to undo")
        move = self._history.pop()
        self._to_move.pop()
        pile, take = divmod(move, self.game.biggest)
        self.piles[pile] += take + 1
        return move

    @property
    def outcome(self) -> Outcome | None:
        """Whoever took the last object has won."""
        if any(self.piles):
            return None
        return Outcome(self._to_move[-2], "took the last object")

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self._history)

    def copy(self) -> PileNimState:
        """An independent copy."""
        other = PileNimState(self.game)
        other.piles = list(self.piles)
        other._history = list(self._history)
        other._to_move = list(self._to_move)
        return other

    def to_text(self) -> str:
        """The pile sizes."""
        return " ".join(str(n) for n in self.piles)

    def evaluate(self) -> float | None:
        """+0.5 when the piles' xor is not 0 (a win for the player to move), else -0.5; None without evaluation."""
        if not self.game.evaluation:
            return None
        return 0.5 if reduce(xor, self.piles, 0) else -0.5


@cache
def nim_distance(piles: tuple[int, ...]) -> tuple[int, int]:
    """(+1 win / -1 loss for the player to move, plies to the end with best play) by plain minimax."""
    if not any(piles):
        return -1, 0  # the previous player took the last object
    results = []
    for i, n in enumerate(piles):
        for take in range(1, n + 1):
            after = tuple(sorted(piles[:i] + (n - take,) + piles[i + 1 :]))
            value, plies = nim_distance(after)
            results.append((-value, plies + 1))
    wins = [plies for value, plies in results if value > 0]
    if wins:
        return 1, min(wins)
    return -1, max(plies for _, plies in results)


def nim_xor(piles: list[int] | tuple[int, ...]) -> int:
    """The piles' xor (0 for a lost position)."""
    return reduce(xor, piles, 0)


@cache
def nim_value(piles: tuple[int, ...], extra_turn: bool) -> int:
    """+1 when the player to move wins with best play, else -1 (plain minimax; extra turns as in `PileNim`)."""
    best = -1
    for i, n in enumerate(piles):
        for take in range(1, n + 1):
            after = piles[:i] + (n - take,) + piles[i + 1 :]
            if not any(after):
                return 1  # took the last object
            again = extra_turn and n == take
            value = nim_value(tuple(sorted(after)), extra_turn)
            best = max(best, value if again else -value)
    return best
