"""The static rules of the exact search: what a node can settle, or learn, without searching its children.

Each rule is a small compiled function of bitboards (see the package's vocabulary) that `search.run_search` calls at
a node before it orders and searches the moves. numba inlines each into the search (``inline="always"``): left to
LLVM, some stay calls, and the search must run as fast as when they were written inline in it. A rule
that settles the node returns the score (or the bound) it proves; NO_VALUE means it proves nothing here.

Allis' pairing strategies (claimeven, zugzwang) work on the parity of the empty cells: pair each column's empty cells
from the bottom; when every column has an even number of them, the defender answers every move right above it and
so gets every upper cell of a pair (``lower_rows`` marks the lower ones). A column with an odd number of empty cells
(an "odd column", its lowest empty cell in ``odd``) spoils the pairing, so the rules pair the odd columns' lowest
cells with each other too, one of them left over when their number is odd.
"""

from __future__ import annotations

from numba import njit

from gridgames_connect4.solve.engine.bits import (
    badd,
    band,
    bandnot,
    bdec,
    bor,
    bxor,
    is_zero,
    ld1,
    popcount,
    shl,
    shr,
)
from gridgames_connect4.solve.engine.board import column_of, has_line, winning_cells

NO_VALUE = -1000  # a rule that proves nothing here (and the frames' "no child returned yet")
# move order weights: each useful threat a move creates, and again if the opponent could play on it next (it must
# block) or one cell above such a cell (measured in bench/README.md, "Fail-soft and forcing threats")
W_THREAT, W_PLAYABLE, W_ABOVE_PLAYABLE = 32, 32, 16
W_UNDER_TWO = 16  # a move two cells under one's own threat: the opponent cannot play on top of it
# a move right under one's own threat lets the opponent block it: searched last
W_UNDER_OWN = -10000


@njit(cache=True, inline="always")
def safe_moves(possible, opp_win):
    """The moves that do not lose at once (0: every move does, the side to move loses next turn).

    Rule: with one opponent threat on a playable cell the side to move must block it there; with two it cannot
    block both; and a move right under an opponent threat lets the opponent win on top of it.
    """
    forced = band(possible, opp_win)
    if not is_zero(forced):
        if not is_zero(band(forced, bdec(forced))):
            return bxor(forced, forced)  # two threats to block
        return bandnot(forced, shr(opp_win, 1))
    return bandnot(possible, shr(opp_win, 1))


@njit(cache=True, inline="always")
def cannot_line_up(stones, empty, h, k):
    """Whether a side with these stones can no longer complete k in a row, even given every empty cell.

    Rule: such a side scores at most a draw (the search's static bound: 0 once the window allows it).
    """
    return not has_line(bor(stones, empty), h, k)


@njit(cache=True, inline="always")
def opponent_zugzwang(p, opp_win, lower, upper, odd, empty, colmask, h, k):
    """The score the opponent's zugzwang proves for the side to move (a loss, at most this), 0 if none.

    Rule (Allis' zugzwang, for the opponent; an odd number of odd columns): the opponent keeps one odd column x,
    answering a move there right above it (it gets x's cells at odd heights over x's lowest), pairs the other odd
    columns' lowest cells and answers right above elsewhere. A threat of its own on one of its cells of x wins
    when the side to move has no other move left, unless the side to move lines up in what the pairing leaves it
    (its lower cells outside x, the odd columns' lowest, x's upper cells); the loss comes at the latest when all
    but the cells above that threat are full: -((cells above + 2) // 2) or better.
    """
    zug = band(opp_win, lower)
    zworst = 0
    while not is_zero(zug):
        zt = bandnot(zug, bdec(zug))
        zug = bxor(zug, zt)
        zcol = ld1(colmask, column_of(zt, h))
        if is_zero(band(odd, zcol)):
            continue  # an even column: the pairing gives that cell to the side to move
        zcells = bor(bor(bandnot(lower, zcol), odd), band(upper, zcol))
        if has_line(bor(p, zcells), h, k):
            continue
        zabove = popcount(bandnot(band(empty, zcol), bor(zt, bdec(zt))))
        if -((zabove + 2) // 2) < zworst:
            zworst = -((zabove + 2) // 2)
    return zworst


@njit(cache=True, inline="always")
def own_zugzwang(opp, mask, own_win, possible, lower, odd, empty, bottom, board, lower_rows, colmask, beta, h, k):
    """The score the side to move's zugzwang proves (a win, at least this), 0 if none found up to beta.

    Rule (the same zugzwang for the side to move, one move first; an even number of odd columns): after its
    first move, a column x of odd height holds a threat of its own on a cell at odd height over x's lowest (x's
    lowest itself when x is even now, any other column's lowest when x is odd), and the opponent cannot line up
    in what the pairing leaves it; the win comes at the latest when all but the cells above the threat are full.
    Stops looking once a win of at least beta is found.
    """
    zug = bandnot(band(own_win, lower), possible)
    zbest = 0
    while not is_zero(zug) and zbest < beta:
        zt = bandnot(zug, bdec(zug))
        zug = bxor(zug, zt)
        zcol = ld1(colmask, column_of(zt, h))
        zabove = popcount(bandnot(band(empty, zcol), bor(zt, bdec(zt))))
        if (zabove + 2) // 2 <= zbest:
            continue
        zfirsts = bandnot(possible, zcol) if not is_zero(band(odd, zcol)) else band(possible, zcol)
        while not is_zero(zfirsts):
            zf = bandnot(zfirsts, bdec(zfirsts))
            zfirsts = bxor(zfirsts, zf)
            zmask = bor(mask, zf)
            zempty = bxor(empty, zf)
            zodd = bandnot(band(badd(zmask, bottom), board), lower_rows)
            zcells = bor(bor(bandnot(band(zempty, lower_rows), zcol), zodd), band(bandnot(zempty, lower_rows), zcol))
            if not has_line(bor(opp, zcells), h, k):
                zbest = (zabove + 2) // 2
                break
    return zbest


@njit(cache=True, inline="always")
def claimeven_paired(p, opp, lower, upper, odd, alpha, h, k):
    """What claimeven proves with an even number of odd columns: an upper bound, 0 or -1, or NO_VALUE.

    Rule (Allis' claimeven, the odd columns paired): the opponent answers a move in an even column right above it,
    and a move on an odd column's lowest cell with another odd column's lowest (each column is even then); so the
    side to move gets at most the lower cells of the pairs and the odd columns' lowest cells, the opponent at least
    the other upper cells. If the side to move cannot line up in its cells it scores at most 0 (returned when
    alpha >= 0: the node fails low); if the opponent moreover lines up in its own, the side to move loses: at most
    -1 (how late the loss comes is bounded at the parent, as `claimeven_first`'s win).
    """
    if not has_line(bor(p, bor(lower, odd)), h, k):
        if alpha >= 0:
            return 0
        if has_line(bor(opp, bandnot(upper, odd)), h, k):
            return -1
    return NO_VALUE


@njit(cache=True, inline="always")
def claimeven_first(p, opp, lower, upper, odd, possible, empty, lower_rows, beta, h, k):
    """What claimeven proves with an odd number of odd columns (the side to move plays first), or NO_VALUE.

    Rule: the side to move plays one move first (the lowest cell of any column), then answers as in
    `claimeven_paired`. If the opponent then cannot line up in its cells, the side to move scores at least 0 (this
    returns 0 when beta <= 0); if moreover the side to move lines up in its own, it wins, and no later than the
    opponent can delay it: only by leaving the column of the cell it needs last for last, so with a empty cells
    above that cell the win comes by the time all but a cells are filled, a score of (a + 2) // 2 at least
    (returned when it reaches beta).
    """
    found = NO_VALUE
    # the opponent lines up whichever odd column is first / whichever even column is first
    skip_odd = has_line(bor(opp, lower), h, k)
    skip_even = has_line(bor(opp, bor(bandnot(lower, possible), odd)), h, k)
    rest = possible
    if skip_odd:
        rest = bandnot(rest, odd)
    if skip_even:
        rest = band(rest, odd)
    for _ in range(popcount(rest)):
        first = bandnot(rest, bdec(rest))  # the first move goes to this cell
        rest = bxor(rest, first)
        if is_zero(band(first, lower_rows)):  # an odd column's lowest cell
            others = bxor(odd, first)  # the odd columns' lowest cells after it
            theirs = bor(lower, others)
            mine = bandnot(upper, others)
        else:  # an even column's lowest cell: the cell above becomes an odd column's lowest
            others = bor(odd, shl(first, 1))
            theirs = bor(bxor(lower, first), others)
            mine = bor(bandnot(upper, others), first)
        if not has_line(bor(opp, theirs), h, k):
            if beta <= 0:
                found = 0
                break
            if has_line(bor(p, mine), h, k):
                # try a = 2, 4, ... while the bound could reach beta
                win = 1
                tall = empty
                while win < beta:
                    tall = band(tall, shr(band(tall, shr(tall, 1)), 1))  # 2 more empty cells above
                    if not has_line(bor(p, bor(first, band(mine, tall))), h, k):
                        break
                    win += 1
                if win >= beta:
                    found = win
                    break
    return found


@njit(cache=True, inline="always")
def rate_move(p, mask, mv, possible, useless, own_under, board, h, k):
    """(rating, wins_next): how early to search the move mv, and whether it wins with the mover's next disc.

    Rule (threat ordering): rate a move by the useful threats it creates (a threat right above an opponent threat,
    in `useless`, is not), more for those the opponent could play on next (it must block them at once) or one cell
    above such a cell; a move two cells under one's own threat a little higher, one right under it (`own_under`)
    last, since it lets the opponent block that threat. wins_next: after mv the opponent loses at once (it must
    block two threats, or one right under another, or every move it has is under a threat); the rating is then
    not computed.
    """
    wc = winning_cells(bor(p, mv), mask, board, h, k)
    uw = bandnot(wc, useless)
    after = bor(bandnot(possible, mv), band(shl(mv, 1), board))  # playable after mv
    wp = band(wc, after)
    if is_zero(wp):  # the opponent loses at once only if every move it has is under a threat
        win2 = not is_zero(after) and is_zero(bandnot(after, shr(wc, 1)))
    else:  # two threats to block, or one under another
        win2 = not is_zero(band(wp, bdec(wp))) or not is_zero(band(shl(wp, 1), wc))
    if win2:
        return 0, True
    s = (
        popcount(uw) * W_THREAT
        + popcount(band(uw, after)) * W_PLAYABLE
        + popcount(band(uw, band(shl(after, 1), board))) * W_ABOVE_PLAYABLE
    )
    if not is_zero(band(mv, shr(own_under, 1))):
        s += W_UNDER_TWO
    if not is_zero(band(mv, own_under)):
        s += W_UNDER_OWN
    return s, False


@njit(cache=True, inline="always")
def settle(p, opp, mask, possible, opp_win, alpha, beta, bottom, board, lower_rows, colmask, h, k):
    """Apply the static rules that could end the search of a node within [alpha, beta); (score, own_win, own_known).

    score: what a rule proves beyond the window (NO_VALUE: nothing); own_win: the side to move's threats when a
    rule needed them (own_known), so the move ordering need not compute them again. Each rule runs only when its
    answer could end the search: a side that cannot line up scores at most a draw, then the zugzwangs and claimeven
    as the parity of the odd columns allows (see the functions above).
    """
    empty = bandnot(board, mask)
    if alpha >= 0 and cannot_line_up(p, empty, h, k):
        return 0, opp_win, False
    if beta <= 0 and cannot_line_up(opp, empty, h, k):
        return 0, opp_win, False
    # claimeven's win bound reaches late (the cell a winner needs last has at most h - 2 cells above)
    late = h // 2
    odd = bandnot(possible, lower_rows)  # the lowest empty cell of each column with an odd number
    m = popcount(odd)
    lower = band(empty, lower_rows)
    upper = bandnot(empty, lower_rows)  # the upper cells of the pairs, and the odd columns' lowest
    own_win = opp_win  # a placeholder of the right type until own_known
    own_known = False
    if m % 2 == 1 and alpha >= -late:
        zworst = opponent_zugzwang(p, opp_win, lower, upper, odd, empty, colmask, h, k)
        if zworst < 0 and zworst <= alpha:
            return zworst, own_win, own_known
    if m % 2 == 0 and beta <= late:
        own_win = winning_cells(p, mask, board, h, k)
        own_known = True
        zbest = own_zugzwang(
            opp, mask, own_win, possible, lower, odd, empty, bottom, board, lower_rows, colmask, beta, h, k
        )
        if zbest > 0 and zbest >= beta:
            return zbest, own_win, own_known
    if m % 2 == 0 and alpha >= -1:
        return claimeven_paired(p, opp, lower, upper, odd, alpha, h, k), own_win, own_known
    if m % 2 == 1 and beta <= late:
        return claimeven_first(p, opp, lower, upper, odd, possible, empty, lower_rows, beta, h, k), own_win, own_known
    return NO_VALUE, own_win, own_known
