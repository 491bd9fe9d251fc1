"""Why a Connect Four position stands as it does: checkable claims as data, and their words (``connect4 explain``).

VOCABULARY
  threat      an empty cell that would complete a line of ``connect`` for a player (every other cell of the line is
              theirs). Its row is counted from the bottom, 1 first: an *odd* or an *even* threat (Allis, 1988). The
              first player profits from odd threats, the second from even ones: when the board fills up column by
              column the first player gets the odd rows and the second the even rows.
  playable    a cell a disc played now would fill (the lowest empty cell of its column).
  win now     a column whose playable cell is a threat of the side to move.
  forced      a column whose playable cell is the opponent's threat: the side to move must block it (unless it wins
              now).
  gift        a column whose play lets the opponent win at once on the cell just above it.
  claimeven   Allis' rule: when every column has an even number of empty cells, the player *not* to move can answer
              every move in the same column, and so gets the upper cell of every pair of empty cells (the lower one
              goes to the other player). If the side to move cannot line up with its discs and the lower cells it
              never wins (the other player at least draws); if the other player lines up with its discs and the
              upper cells, it wins. With an even number of columns holding an odd number of empty cells, a move on
              the lowest cell of one of them is answered on the lowest cell of another (the solver's form of the
              rule); with an odd number of them the side to move plays one move first and then follows claimeven
              itself.
  zugzwang    Allis' rule as the solver uses it: with an odd number of columns holding an odd number of empty
              cells, the player not to move keeps one of them for a threat of its own on a cell at odd height over
              its lowest empty cell, pairs the others' lowest cells, answers everything else right above: the side
              to move runs out of other moves and must play under the threat (see `zugzwang`); the side to move
              can do the same after one move (`zugzwang_first`).
  score       Pons' convention, from the side to move's view: a win with the disc played after P discs scores
              (cells + 1 - P) // 2, a loss the negative of the winner's score, a draw 0.
  end         the number of discs on the board when the game ends with best play (all cells for a draw).

Every field of an `Explanation` is a claim a test can check: a win now completes a line, a threat is a cell that
completes one, a claimed claimeven strategy holds against every reply, a forced line is a line of best moves that
ends in the claimed win on the claimed move. `explain_position` builds the claims; `lines` renders them as text and
`Explanation.as_dict` as JSON. Nothing here prints.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.position.notation import COLUMN_LETTERS, line_words
from gridgames_connect4.position.rules import PLAYER_NAMES, Connect4
from gridgames_connect4.solve.scores import sign
from gridgames_connect4.teach.report import ordinal
from gridgames.errors import GameOverError, SolverError

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.solver import Solver

__all__ = [
    "LINE_PLIES",
    "ColumnNote",
    "OutOfTime",
    "Explanation",
    "Strategy",
    "Threat",
    "claimeven",
    "end_ply",
    "explain_position",
    "lines",
    "threats",
    "zugzwang",
    "zugzwang_first",
]

LINE_PLIES = 12
"""A forced line is given when the game ends within this many discs from now with best play: near enough to read,
and cheap for the solver (each step is a search of a position with fewer empty cells)."""

Owners = tuple[tuple[int, ...], ...]
"""A position: for each column, the owners of its discs from the bottom up (0: the first player, 1: the second)."""


@cache
def _lines(width: int, height: int, connect: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of ``connect`` cells on the board, each as (column, row) cells (row 0 at the bottom)."""
    out = []
    for col in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_col, end_row = col + (connect - 1) * dc, row + (connect - 1) * dr
                if 0 <= end_col < width and 0 <= end_row < height:
                    out.append(tuple((col + i * dc, row + i * dr) for i in range(connect)))
    return tuple(out)


def _owners(width: int, moves: Sequence[int]) -> Owners:
    cols: list[list[int]] = [[] for _ in range(width)]
    for i, col in enumerate(moves):
        cols[col].append(i % 2)
    return tuple(tuple(c) for c in cols)


def _cells_of(owners: Owners, player: int) -> set[tuple[int, int]]:
    return {(c, r) for c, col in enumerate(owners) for r, who in enumerate(col) if who == player}


def _lines_up(game: Connect4, cells: set[tuple[int, int]]) -> tuple[tuple[int, int], ...] | None:
    """A line of ``connect`` within ``cells``, or None."""
    for line in _lines(game.width, game.height, game.connect):
        if all(cell in cells for cell in line):
            return line
    return None


def cell_text(column: int, row: int) -> str:
    """A cell's name: column letter and 1-based row from the bottom ('e3')."""
    return f"{COLUMN_LETTERS[column]}{row + 1}"


@attrs.frozen
class Threat:
    """An empty cell (0-based column, 1-based row from the bottom) that completes a line for ``player``."""

    player: int
    column: int
    row: int
    playable: bool

    @property
    def parity(self) -> str:
        """'odd' or 'even': the row's parity (Allis' odd and even threats)."""
        return "odd" if self.row % 2 else "even"

    @property
    def cell(self) -> str:
        """The cell's name, e.g. 'e3'."""
        return f"{COLUMN_LETTERS[self.column]}{self.row}"

    def as_dict(self, colours: Sequence[str] = PLAYER_NAMES) -> dict[str, Any]:
        """JSON form: player colour, cell, 1-based column and row, parity, playable."""
        return {
            "player": colours[self.player],
            "cell": self.cell,
            "column": self.column + 1,
            "row": self.row,
            "parity": self.parity,
            "playable": self.playable,
        }


def threats(game: Connect4, moves: Sequence[int]) -> tuple[Threat, ...]:
    """Every threat on the board after ``moves`` (0-based columns), by column then row, the first player's first."""
    owners = _owners(game.width, moves)
    found: set[tuple[int, int, int]] = set()
    for line in _lines(game.width, game.height, game.connect):
        whose = [owners[c][r] if r < len(owners[c]) else None for c, r in line]
        empty = [cell for cell, who in zip(line, whose) if who is None]
        if len(empty) != 1:
            continue
        taken = {who for who in whose if who is not None}
        if len(taken) == 1:
            (player,) = taken
            found.add((player, *empty[0]))
    return tuple(Threat(p, c, r + 1, r == len(owners[c])) for p, c, r in sorted(found))


@attrs.frozen
class Strategy:
    """A static strategy that proves a bound on the result: Allis' claimeven, followed by ``player``.

    ``first``: the column ``player`` plays before it starts answering (None: it answers from the opponent's next move
    on). ``paired``: the columns whose lowest cells answer each other. ``result``: 'win' (player wins) or 'draw'
    (player at least draws). ``line``: for a win, the line player completes with its discs and the cells the
    strategy gives it. ``never``: the opponent's threats on cells the
    strategy gives ``player`` (they never come).
    """

    rule: str
    player: int
    result: str
    first: int | None
    line: tuple[tuple[int, int], ...]
    never: tuple[Threat, ...]
    paired: tuple[int, ...] = ()
    """The columns with an odd number of empty cells (once ``first`` is played) whose lowest cells are paired."""
    kept: int | None = None
    """Zugzwang: the column ``player`` keeps for its threat (``line``'s empty cell), answering a move there above it."""

    def as_dict(self, colours: Sequence[str] = PLAYER_NAMES) -> dict[str, Any]:
        """JSON form (1-based columns, cells by name)."""
        return {
            "rule": self.rule,
            "player": colours[self.player],
            "result": self.result,
            "first": None if self.first is None else self.first + 1,
            "line": [cell_text(c, r) for c, r in self.line],
            "never": [t.cell for t in self.never],
            "paired": [c + 1 for c in self.paired],
            "kept": None if self.kept is None else self.kept + 1,
        }


def _ordered(width: int, prefer: Sequence[int]) -> list[int]:
    """Every column, those of ``prefer`` first (in its order)."""
    return [*prefer, *(c for c in range(width) if c not in prefer)]


def claimeven(game: Connect4, moves: Sequence[int], prefer: Sequence[int] = ()) -> Strategy | None:
    """The claimeven strategy that proves a bound on the result after ``moves``, if there is one (see the module).

    With an even number of columns holding an odd number of empty cells, the player not to move answers a move in
    a column with an even number right above it, and a move on the lowest cell of a column with an odd number on
    the lowest cell of another such column: the side to move gets at most its discs, the lower cells of the pairs
    and those lowest cells; the other player at least its discs and the other upper cells. With an odd number of
    such columns the side to move plays one move first and then answers the same way. A win is preferred to a
    draw, then the columns of ``prefer`` (e.g. the best ones), then the first from the left.
    """
    owners = _owners(game.width, moves)
    mover = len(moves) % 2
    odd = [c for c in range(game.width) if (game.height - len(owners[c])) % 2]
    if len(odd) % 2 == 0:
        return _claim(game, moves, owners, 1 - mover, None)
    found = None
    for first in _ordered(game.width, prefer):
        if len(owners[first]) == game.height:
            continue
        after = owners[:first] + (owners[first] + (mover,),) + owners[first + 1 :]
        if _lines_up(game, _cells_of(after, mover)):
            continue  # a win at once: no strategy needed
        claim = _claim(game, moves, after, mover, first)
        if claim is not None and (found is None or (claim.result == "win" and found.result != "win")):
            found = claim
    return found


def _claim(game: Connect4, moves: Sequence[int], owners: Owners, defender: int, first: int | None) -> Strategy | None:
    """Claimeven for ``defender`` in ``owners`` (the attacker to move, an even number of odd columns), if it proves
    a draw or a win."""
    # the lower cells of the pairs (above each odd column's lowest cell)
    lower: set[tuple[int, int]] = set()
    upper: set[tuple[int, int]] = set()
    # the lowest cells of the columns with an odd number of empty cells
    lowest: set[tuple[int, int]] = set()
    for c, col in enumerate(owners):
        base = len(col)
        if (game.height - base) % 2:
            lowest.add((c, base))
            base += 1
        for r in range(base, game.height):
            (lower if (r - base) % 2 == 0 else upper).add((c, r))
    attacker = 1 - defender
    if _lines_up(game, _cells_of(owners, attacker) | lower | lowest):
        return None
    line = _lines_up(game, _cells_of(owners, defender) | upper)
    never = tuple(t for t in threats(game, moves) if t.player == attacker and (t.column, t.row - 1) in upper)
    return Strategy(
        "claimeven", defender, "win" if line else "draw", first, line or (), never, tuple(sorted(c for c, _ in lowest))
    )


def zugzwang(game: Connect4, moves: Sequence[int]) -> Strategy | None:
    """Allis' zugzwang for the player not to move, when it proves a win (the solver's rule).

    With an odd number of columns holding an odd number of empty cells, that player keeps one of them, x, answering
    a move there right above it (so it gets x's cells at odd heights over x's lowest empty cell), pairs the lowest
    cells of the other such columns and answers every other move right above it. If it has a threat on one of its
    cells of x and the side to move cannot line up in what the pairing leaves it, the side to move runs out of other
    moves and must play under the threat.
    """
    owners = _owners(game.width, moves)
    attacker = len(moves) % 2
    defender = 1 - attacker
    odd = [c for c in range(game.width) if (game.height - len(owners[c])) % 2]
    if len(odd) % 2 == 0:
        return None
    mine = _cells_of(owners, defender)
    theirs = _cells_of(owners, attacker)
    for x in odd:
        lowest = {(c, len(owners[c])) for c in odd}
        attacker_cells = set(theirs) | lowest
        defender_x: set[tuple[int, int]] = set()
        for c, col in enumerate(owners):
            base = len(col) + (1 if c in odd else 0)
            for r in range(base, game.height):
                lower = (r - base) % 2 == 0
                if c == x:
                    (defender_x if lower else attacker_cells).add((c, r))
                elif lower:
                    attacker_cells.add((c, r))
        if _lines_up(game, attacker_cells):
            continue
        for cell in sorted(defender_x):
            line = _line_with(game, mine, cell)
            if line is not None:
                return Strategy("zugzwang", defender, "win", None, line, (), tuple(c for c in odd if c != x), x)
    return None


def zugzwang_first(game: Connect4, moves: Sequence[int], prefer: Sequence[int] = ()) -> Strategy | None:
    """The side to move's zugzwang, one move first: a column after which `zugzwang` holds for it (the first of
    ``prefer`` that does, else the first from the left), as the solver's rule; None if there is none."""
    state = game.from_moves(moves)
    mover = len(moves) % 2
    for first in _ordered(game.width, prefer):
        if not state.is_legal(first):
            continue
        after = state.copy()
        after.play(first)
        if after.is_over:
            continue  # a win at once (or a full board): no strategy needed
        found = zugzwang(game, [*moves, first])
        if found is not None and found.player == mover:
            return attrs.evolve(found, first=first)
    return None


def _line_with(
    game: Connect4, discs: set[tuple[int, int]], cell: tuple[int, int]
) -> tuple[tuple[int, int], ...] | None:
    """A line through ``cell`` whose other cells are all in ``discs``, or None."""
    for line in _lines(game.width, game.height, game.connect):
        if cell in line and all(c in discs for c in line if c != cell):
            return line
    return None


def end_ply(cells: int, plies: int, score: int) -> int:
    """The number of discs on the board when the game ends with best play, from the exact ``score`` of the side to
    move after ``plies`` discs (Pons' convention: a win with the disc played after P discs scores (cells + 1 - P) // 2).
    """
    if score == 0:
        return cells
    parity = plies % 2 if score > 0 else 1 - plies % 2
    before = cells + 1 - 2 * abs(score)
    if before % 2 != parity:
        before -= 1
    return before + 1


@attrs.frozen
class ColumnNote:
    """The facts about one move: its column (0-based), its exact score and the best, and what it does at once."""

    column: int
    score: int
    best: int
    wins: bool
    blocks: bool
    gift: bool

    @property
    def verdict(self) -> str:
        """'best', 'a slower win', 'a quicker loss', or how the result changes ('turns the win into a draw')."""
        if self.score == self.best:
            return "best"
        results = {1: "win", 0: "draw", -1: "loss"}
        was, now = results[sign(self.best)], results[sign(self.score)]
        if was == now:
            return "a slower win" if self.best > 0 else "a quicker loss"
        return f"turns the {was} into a {now}"

    def as_dict(self) -> dict[str, Any]:
        """JSON form (1-based column)."""
        return {
            "column": self.column + 1,
            "score": self.score,
            "best": self.best,
            "verdict": self.verdict,
            "wins": self.wins,
            "blocks": self.blocks,
            "gift": self.gift,
        }


@attrs.frozen
class Explanation:
    """The claims about a position: see the module's vocabulary. Columns are 0-based; scores are exact."""

    game: Connect4
    moves: tuple[int, ...]
    score: int
    columns: tuple[int | None, ...]
    wins_now: tuple[int, ...]
    forced: tuple[int, ...]
    gifts: tuple[int, ...]
    threats: tuple[Threat, ...]
    strategy: Strategy | None
    line: tuple[int, ...]
    end: int
    note: ColumnNote | None = None
    from_book: bool = False
    no_line: tuple[int, ...] = ()
    """The players who can no longer make a line, even given every empty cell (the solver's first static rule)."""

    @property
    def mover(self) -> int:
        """The side to move (0: the first player)."""
        return len(self.moves) % 2

    @property
    def best(self) -> tuple[int, ...]:
        """The best columns (0-based)."""
        return tuple(c for c, s in enumerate(self.columns) if s == self.score)

    def as_dict(self, colours: Sequence[str] = PLAYER_NAMES) -> dict[str, Any]:
        """The JSON form: 1-based columns, cells by name, players by colour."""
        game = self.game
        return {
            "width": game.width,
            "height": game.height,
            "connect": game.connect,
            "moves": game.join_notation(self.moves),
            "to_move": colours[self.mover],
            "score": self.score,
            "columns": list(self.columns),
            "best": [c + 1 for c in self.best],
            "wins_now": [c + 1 for c in self.wins_now],
            "forced": [c + 1 for c in self.forced],
            "gifts": [c + 1 for c in self.gifts],
            "threats": [t.as_dict(colours) for t in self.threats],
            "strategy": None if self.strategy is None else self.strategy.as_dict(colours),
            "line": [c + 1 for c in self.line],
            "end": self.end,
            "moves_left": self.end - len(self.moves),
            "column": None if self.note is None else self.note.as_dict(),
            "from_book": self.from_book,
            "no_line": [colours[p] for p in self.no_line],
        }


def _scores(
    game: Connect4, moves: Sequence[int], book: Book | None, solver: Solver | None, deadline: float | None = None
) -> tuple[list[int | None], bool, Solver | None]:
    """Every column's exact score after ``moves``, whether the book gave them, and the solver (made when needed);
    `OutOfTime` when the solver has not finished by ``deadline`` (a ``time.monotonic()`` value)."""
    if book is not None:
        from gridgames_connect4.solve.oracle import book_columns

        known = book_columns(book, moves)
        if known is not None:
            return known, True, solver
    if solver is None:
        from gridgames_connect4.solve.oracle import solver_for

        solver = solver_for(game.width, game.height, game.connect, book)
    if deadline is None:
        return solver.analyze(list(moves)), False, solver
    scores = solver.analyze(list(moves), on_progress=lambda _progress: time.monotonic() < deadline)
    state = game.from_moves(moves)
    if any(scores[c] is None for c in range(game.width) if state.is_legal(c)):
        raise OutOfTime(f"the solver did not finish {game.join_notation(moves) or 'the empty board'} in time")
    return scores, False, solver


class OutOfTime(SolverError):
    """The solver did not finish within the time given to the explanation."""


def explain_position(
    game: Connect4,
    moves: Sequence[int],
    column: int | None = None,
    *,
    book: Book | None = None,
    solver: Solver | None = None,
    line_plies: int = LINE_PLIES,
    think: float | None = None,
) -> Explanation:
    """The claims about the position after ``moves`` (0-based columns), and about ``column`` when given.

    The scores come from ``book`` where it covers the position, else from ``solver`` (one is made when needed).
    A forced line is computed when the game ends within ``line_plies`` discs with best play. ``think``: seconds
    the solver may take in all (`OutOfTime` after them; None: no limit).
    """
    deadline = None if think is None else time.monotonic() + think
    state = game.from_moves(moves)  # refuses illegal games in one line
    if state.is_over:
        raise GameOverError(f"the game is over after {game.join_notation(state.history)}: nothing to explain")
    moves = tuple(int(m) for m in state.history)
    if column is not None and not state.is_legal(column):
        state.check_playable(column)  # raises the one-line error (full or out of range)
    if book is not None:
        from gridgames_connect4.solve.oracle import check_book

        check_book(book, game.width, game.height, game.connect)
    found = threats(game, moves)
    mover = len(moves) % 2
    playable = {t.column for t in found if t.playable and t.player == mover}
    theirs = {t.column for t in found if t.playable and t.player != mover}
    above = {
        t.column
        for t in found
        if t.player != mover and t.row >= 2 and len(_owners(game.width, moves)[t.column]) == t.row - 2
    }
    legal = [c for c in range(game.width) if state.is_legal(c)]
    wins_now = tuple(c for c in legal if c in playable)
    forced = tuple(c for c in legal if c in theirs)
    gifts = tuple(c for c in legal if c in above and c not in wins_now)
    scores, from_book, solver = _scores(game, moves, book, solver, deadline)
    score = max(s for s in scores if s is not None)
    cells = game.width * game.height
    end = end_ply(cells, len(moves), score)
    line: tuple[int, ...] = ()
    if score != 0 and end - len(moves) <= line_plies:
        line = _forced_line(game, list(moves), scores, end, book, solver, deadline)
    note = None
    if column is not None:
        played = scores[column]
        assert played is not None  # a legal column is scored
        note = ColumnNote(column, played, score, column in wins_now, column in forced, column in gifts)
    return Explanation(
        game,
        moves,
        score,
        tuple(scores),
        wins_now,
        forced,
        gifts,
        found,
        _strategy(game, moves, tuple(c for c, v in enumerate(scores) if v == score)),
        line,
        end,
        note,
        from_book,
        _no_line(game, moves),
    )


def _no_line(game: Connect4, moves: Sequence[int]) -> tuple[int, ...]:
    """The players who cannot line up in their discs and every empty cell."""
    owners = _owners(game.width, moves)
    empty = {(c, r) for c in range(game.width) for r in range(len(owners[c]), game.height)}
    return tuple(p for p in (0, 1) if _lines_up(game, _cells_of(owners, p) | empty) is None)


def _strategy(game: Connect4, moves: Sequence[int], best: Sequence[int]) -> Strategy | None:
    """The first static strategy that proves a bound: claimeven, the opponent's zugzwang, the side to move's (a first
    move among ``best`` preferred)."""
    return claimeven(game, moves, best) or zugzwang(game, moves) or zugzwang_first(game, moves, best)


def _forced_line(
    game: Connect4,
    moves: list[int],
    scores: list[int | None],
    end: int,
    book: Book | None,
    solver: Solver | None,
    deadline: float | None = None,
) -> tuple[int, ...]:
    """Best moves from ``moves`` to the end (the winner's quickest win, the loser's longest defence; ties: the
    lowest column), ``scores`` being the position's column scores."""
    line: list[int] = []
    state = game.from_moves(moves)
    while not state.is_over:
        top = max(s for s in scores if s is not None)
        choice = scores.index(top)
        line.append(choice)
        state.play(choice)
        if state.is_over:
            break
        scores, _, solver = _scores(game, [*moves, *line], book, solver, deadline)
    # the scores say when the game ends: a line of best moves ends then
    if len(moves) + len(line) != end:
        raise AssertionError(f"forced line {line} ends on disc {len(moves) + len(line)}, not {end}")
    return tuple(line)


def lines(ex: Explanation, colours: Sequence[str] = PLAYER_NAMES) -> list[str]:
    """The explanation in words, one claim a line."""
    game = ex.game
    mover, other = colours[ex.mover], colours[1 - ex.mover]
    n = len(ex.moves)
    out = [
        f"Position: {game.join_notation(ex.moves) or '(empty board)'} ({game.size}, {line_words(game.connect)}); "
        f"{mover} to move."
    ]
    left = ex.end - n
    if ex.score == 0:
        out.append(f"Result with best play: a draw; the board fills up ({left} more disc(s)).")
    else:
        winner = mover if ex.score > 0 else other
        # the winner's move that wins, as the caption
        nth = ordinal((left + 1) // 2 if ex.score > 0 else left // 2)
        out.append(
            f"Result with best play: {winner} wins with its {nth} move from now (disc {ex.end} of the game, "
            f"score {ex.score:+d} for {mover})."
        )
    out.append("Best column(s): " + ", ".join(str(c + 1) for c in ex.best) + ".")
    if ex.wins_now:
        out.append(f"{mover.capitalize()} wins now in column(s) {_cols(ex.wins_now)}.")
    elif len(ex.forced) > 1:
        out.append(f"{other.capitalize()} threatens to win in columns {_cols(ex.forced)}: {mover} cannot block both.")
    elif ex.forced:
        out.append(f"{mover.capitalize()} must block in column {_cols(ex.forced)}: {other} wins there next.")
    if ex.gifts:
        out.append(f"Playing column(s) {_cols(ex.gifts)} lets {other} win at once on the cell above.")
    for player in (0, 1):
        mine = [t for t in ex.threats if t.player == player]
        if mine:
            described = ", ".join(f"{t.cell} ({t.parity}{', playable' if t.playable else ''})" for t in mine)
            out.append(f"{colours[player].capitalize()}'s threats: {described}.")
    if not ex.threats:
        out.append("No threats on the board.")
    for player in ex.no_line:
        out.append(
            f"{colours[player].capitalize()} can no longer win: every line of {game.connect} holds a disc of "
            f"{colours[1 - player]}'s."
        )
    st = ex.strategy
    if st is not None and st.rule == "zugzwang" and st.kept is not None:
        who, against = colours[st.player], colours[1 - st.player]
        after = [*ex.moves, *([] if st.first is None else [st.first])]
        cell = next(cell_text(c, r) for c, r in st.line if c == st.kept and r >= len(_owners(game.width, after)[c]))
        first = "" if st.first is None else f"plays column {st.first + 1} first, then "
        also = " also" if st.first is not None and st.first not in ex.best else ""
        text = (
            f"{who.capitalize()}{also} wins by zugzwang: it {first}keeps column {st.kept + 1}, answering a move "
            "there right above it"
        )
        if st.paired:
            text += f", answers a move on the lowest empty cell of column {_cols(st.paired, ' or ')} on another's"
        out.append(
            text + f", and every other move right above it; {against} runs out of other moves and must "
            f"play under {who}'s threat at {cell}."
        )
    elif st is not None:
        who, against = colours[st.player], colours[1 - st.player]
        how = "answer every move right above it"
        if st.paired:
            how += (
                f", but a move on the lowest empty cell of column {_cols(st.paired, ' or ')} on the lowest "
                "empty cell of another of them"
            )
        if st.first is not None:
            how = f"play column {st.first + 1} first, then {how}"
        also = "also " if st.first is not None and st.first not in ex.best else ""
        text = f"{who.capitalize()} {also}{'wins' if st.result == 'win' else 'at least draws'} by claimeven: {how}"
        if st.line:
            text += f"; it completes {' '.join(cell_text(c, r) for c, r in st.line)}"
        if st.never:
            text += (
                f"; {against}'s threat(s) at {', '.join(t.cell for t in st.never)} never come "
                "(claimeven gives those cells to " + who + ")"
            )
        out.append(text + ".")
    if ex.line:
        shown = " ".join(str(c + 1) for c in ex.line)
        out.append(f"Forced line: {shown} (each side's best, the winner's quickest win, the loser's longest defence).")
    if ex.note is not None:
        note = ex.note
        facts = [
            f
            for f, yes in (
                ("wins at once", note.wins),
                ("blocks a threat", note.blocks),
                (f"lets {other} win on the cell above", note.gift),
            )
            if yes
        ]
        extra = f" ({', '.join(facts)})" if facts else ""
        out.append(
            f"Column {note.column + 1}: score {note.score:+d} against the best {note.best:+d}: {note.verdict}{extra}."
        )
    return out


def _cols(columns: Sequence[int], last: str = ", ") -> str:
    texts = [str(c + 1) for c in columns]
    return ", ".join(texts[:-1]) + last + texts[-1] if len(texts) > 1 else "".join(texts)
