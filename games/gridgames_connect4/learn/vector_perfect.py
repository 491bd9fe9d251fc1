"""The vector environment's ``perfect`` opponent past the book: a move that keeps the position's value, by null windows.

Vocabulary:

* value: a position's game-theoretic result for the side to move: win, draw or loss (the sign of its score);
* score: Pons' exact score (positive: a win, the bigger the sooner; negative: a loss, the nearer 0 the later);
* a move keeps the value when the position after it has the same value for its mover as the one before it;
* null window at ``t``: a search asking only "is the score above ``t``?", answered with a fail-soft bound.

What ``perfect`` guarantees: its move always keeps the value (it never lets a win slip, never turns a draw into a
loss), uniformly at random among the moves that keep it, and when every move loses, one that loses as late as
possible (the best score). It does not look for the fastest win or the best drawing line: a won position is
won by any move that keeps the win, the game being finite (42 discs at most on 7x6), so the win still comes.
That costs null windows only, not exact scores: the children in a random order, each asked "is it lost for the
opponent?" (the first that is: that column; the first of a random order within a set is uniform over it), then
those that may be drawn, "is it at most a draw?"; only a lost position scores its children exactly. The table is
kept from call to call, so successive positions of a game (and its siblings in the batch) share their subtrees.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from attrs import define

from gridgames_connect4.solve.solver import Solver

__all__ = ["ValueSolver"]

_UNLIMITED = 1 << 62


@define
class ValueSolver(Solver):
    """A `Solver` that also chooses a value-keeping move (see the module's docstring), the table kept between calls."""

    def keeping_column(self, moves: Sequence[int], rng: random.Random) -> int:
        """A column that keeps the value of the position after ``moves`` (not over), random among those (``rng``)."""
        p, mask, n = self.driver.position(moves)
        playable = [c for c in range(self.width) if self.driver.can_play(mask, c)]
        wins = self.driver.wins(p, mask)
        winning = [c for c in playable if wins & self.driver.cell(mask, c)]
        if winning:  # a win at once: the best there is
            return rng.choice(winning)
        if n + 1 == self.driver.cells:
            return playable[0]
        rng.shuffle(playable)
        # each child's least score for the opponent (fail-soft), once asked
        bounds: dict[int, int] = {}
        # a child at most -1 is a win for the mover; at most 0, at least a draw
        for target in (-1, 0):
            for c in playable:
                if bounds.get(c, target) > target:
                    continue
                cp, cm = p ^ mask, mask | self.driver.cell(mask, c)
                if self.driver.wins_at_once(cp, cm):
                    bounds[c] = (self.driver.cells - n) // 2
                    continue
                # the opponent's last disc fills the board without a line: a draw
                if n + 2 == self.driver.cells:
                    found = 0
                else:
                    found = self._null_window(cp, cm, n + 1, target)
                if found <= target:
                    return c
                bounds[c] = found
        return self._latest_loss(p, mask, n, playable, bounds, rng)

    def _null_window(self, p: int, mask: int, n: int, at: int) -> int:
        """Above ``at``: a lower bound of the score (> at); else ``at`` or less (the score is at most that)."""
        found = self.driver.search(p, mask, n, at, at + 1, _UNLIMITED)
        if found is None:  # an unlimited budget and nobody watching: the search always ends
            raise RuntimeError("a null-window search stopped without an answer")
        return found if found > at else min(at, found)

    def _latest_loss(
        self, p: int, mask: int, n: int, playable: list[int], bounds: dict[int, int], rng: random.Random
    ) -> int:
        """Every move loses: one whose child scores least for the opponent (exact scores from the known bounds)."""
        scores = {}
        for c in playable:
            cp, cm = p ^ mask, mask | self.driver.cell(mask, c)
            top = (self.driver.cells - n) // 2
            if bounds[c] >= top or self.driver.wins_at_once(cp, cm):
                scores[c] = top
                continue
            found = self.driver.solve_probing(cp, cm, n + 1, False, _UNLIMITED, bounds[c])
            scores[c] = top if found is None else found
        least = min(scores.values())
        return rng.choice([c for c in playable if scores[c] == least])
