"""The short why of a hint: one sentence from the exact column scores and `gridgames_connect4.teach.explain`'s claims.

`brief` picks the first that applies: a win now; a block the side to move cannot avoid (or two it cannot make); the
static strategy that proves the result (claimeven, zugzwang: as ``connect4 explain`` names it); else the result with
best play and when the game ends. Each is one of ``connect4 explain``'s claims, so its tests check them; nothing is
solved here (the scores are given).
"""

from __future__ import annotations

from collections.abc import Sequence

from gridgames_connect4.teach.explain import claimeven, end_ply, threats, zugzwang, zugzwang_first
from gridgames_connect4.position.rules import PLAYER_NAMES, Connect4

__all__ = ["brief"]


def _cols(columns: Sequence[int]) -> str:
    texts = [str(c + 1) for c in columns]
    return " and ".join([", ".join(texts[:-1]), texts[-1]]) if len(texts) > 1 else texts[0]


def _column_words(columns: Sequence[int]) -> str:
    """'column 2', or 'columns 2 and 6'."""
    return f"column{'s' if len(columns) > 1 else ''} {_cols(columns)}"


def brief(
    game: Connect4, moves: Sequence[int], scores: Sequence[int | None], colours: Sequence[str] = PLAYER_NAMES
) -> str:
    """One sentence saying why the best columns of the position after ``moves`` are best (``scores``: every column's
    exact score for the side to move, None for a full column)."""
    mover = len(moves) % 2
    me, other = colours[mover], colours[1 - mover]
    heights = [0] * game.width
    for column in moves:
        heights[column] += 1
    found = threats(game, moves)
    wins = [t.column for t in found if t.playable and t.player == mover]
    if wins:
        return f"{me.capitalize()} wins at once in {_column_words(sorted(set(wins)))}."
    blocks = sorted({t.column for t in found if t.playable and t.player != mover})
    if len(blocks) > 1:
        return f"{other.capitalize()} threatens to win in columns {_cols(blocks)}: {me} cannot block both."
    score = max(s for s in scores if s is not None)
    best = [c for c, s in enumerate(scores) if s == score]
    end = end_ply(game.width * game.height, len(moves), score)
    if score == 0:
        result = "a draw with best play"
    else:
        winner = me if score > 0 else other
        result = f"{winner} wins with best play, with disc {end} ({end - len(moves)} more)"
    if blocks:
        return f"{me.capitalize()} must block {_column_words(blocks)} ({other} wins there next); {result}."
    strategy = claimeven(game, moves, best) or zugzwang(game, moves) or zugzwang_first(game, moves, best)
    if strategy is not None and (strategy.first is None or strategy.first in best):
        who = colours[strategy.player]
        verb = "wins" if strategy.result == "win" else "at least draws"
        first = "" if strategy.first is None else f" after column {strategy.first + 1}"
        how = (
            "claimeven: it answers every move right above it"
            if strategy.rule == "claimeven"
            else f"zugzwang: it keeps column {(strategy.kept or 0) + 1} for its threat"
        )
        return f"{who.capitalize()} {verb}{first} by {how}; {result}."
    gifts = sorted({t.column for t in found if t.player != mover and t.row >= 2 and heights[t.column] == t.row - 2})
    tail = f"; {_column_words(gifts)} would let {other} win on the cell above" if gifts else ""
    return f"{result[:1].upper()}{result[1:]}{tail}."
