"""An analysis's words and JSON form, from plain values: `gridgames_connect4.teach.analysis.Analysis` and a fresh
process's quick answer (`gridgames_connect4.surfaces.quick`, which imports neither attrs nor the rules) print the same.

Scores follow Pons' convention from the side to move's view (see `gridgames_connect4.teach.analysis`).
"""

from __future__ import annotations

from gridgames_connect4.position.sizes import PLAYER_NAMES, line_words

# (typing's import is a few milliseconds of a fresh process; mypy reads the name as usual)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["analysis_dict", "analysis_lines", "ordinal", "verdict"]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def analysis_dict(
    moves: str,
    score: int | None,
    columns: Sequence[int | None],
    best: Sequence[int],
    stopped: str | None = None,
    unsolved: Sequence[int] = (),
) -> dict[str, Any]:
    """The JSON form: {"moves", "score", "columns", "best"}, plus "partial", "stopped" and "unsolved" when stopped."""
    data: dict[str, Any] = {"moves": moves, "score": score, "columns": list(columns), "best": list(best)}
    if stopped is not None:
        data.update(partial=True, stopped=stopped, unsolved=list(unsolved))
    return data


def verdict(score: int, weak: bool, cells: int, n: int) -> str:
    """What the score of the position after ``n`` discs means, e.g. 'red wins with its 4th move from now'."""
    mover, other = PLAYER_NAMES[n % 2], PLAYER_NAMES[1 - n % 2]
    if score == 0:
        return "a draw with best play"
    if weak:
        return f"{mover if score > 0 else other} wins with best play"
    if score > 0:
        return f"{mover} wins with its {ordinal((cells + 1 - n) // 2 - score + 1)} move from now"
    return f"{other} wins with its {ordinal((cells - n) // 2 + score + 1)} move from now"


def analysis_lines(
    moves: str,
    size: tuple[int, int, int],
    n: int,
    score: int | None,
    columns: Sequence[int | None],
    legal: Sequence[bool],
    best: Sequence[int],
    weak: bool = False,
    stopped: str | None = None,
    unsolved: Sequence[int] = (),
) -> list[str]:
    """The report as lines of text: the position (``moves``, ``size`` = width, height, connect, ``n`` discs), the
    score and its verdict, each column's score (``legal``: which columns are not full), the best columns."""
    width, height, connect = size
    cells = [("full" if not ok else "?" if s is None else f"{s:+d}") for s, ok in zip(columns, legal)]
    pad = max(4, *(len(c) for c in cells))
    board = f"{width}x{height}, {line_words(connect)}"
    lines = [f"Position: {moves or '(empty board)'} ({board}); {PLAYER_NAMES[n % 2]} to move."]
    if stopped is not None:
        why = "interrupted" if stopped == "interrupted" else "out of time (--think)"
        which = ", ".join(str(c) for c in unsolved)
        lines.append(f"Not exact: {why} before solving column{'s' if len(unsolved) > 1 else ''} {which} (marked ?).")
        if score is not None:
            lines.append(f"Score: at least {score:+d} (the best solved column).")
    else:
        if score is None:
            raise ValueError("no column was solved: the analysis has no score to put in words")
        lines.append(f"Score: {score:+d}: {verdict(score, weak, width * height, n)}.")
    lines += [
        "Column: " + " ".join(f"{c + 1:>{pad}}" for c in range(width)),
        "Score:  " + " ".join(f"{c:>{pad}}" for c in cells),
    ]
    if stopped is None:
        lines.append(f"Best: {', '.join(str(b) for b in best)}")
    lines.append(
        "Scores are for the side to move: + wins (bigger is sooner), 0 draws, - loses (nearer 0 is later)."
        if not weak
        else "Scores are for the side to move: +1 win, 0 draw, -1 loss."
    )
    return lines
