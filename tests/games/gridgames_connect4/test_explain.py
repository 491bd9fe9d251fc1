"""``connect4 explain``: every claim an explanation makes is checked here by the tests' own means (plain minimax, a
play-out of the claimed strategy against every reply, the line-completion rule of the reference)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.teach.explain import Explanation, end_ply, explain_position, lines, zugzwang, zugzwang_first
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames.cli import app
from gridgames_test_support.connect4_minimax import (
    Columns,
    completes_line,
    grid_of,
    minimax_score,
    random_open_position,
)

runner = CliRunner()


def _play(grid: Columns, col: int, who: int) -> Columns:
    return grid[:col] + (grid[col] + (who,),) + grid[col + 1 :]


def _wins_with(game: Connect4, grid: Columns, col: int, who: int) -> bool:
    """Whether ``who`` completes a line by dropping a disc in ``col`` of ``grid``."""
    after = _play(grid, col, who)
    return completes_line(game.width, game.connect, col, len(after[col]) - 1, after)


def _completes_at(game: Connect4, grid: Columns, col: int, row: int, who: int) -> bool:
    """Whether a disc of ``who`` on the empty cell (col, row) completes a line (the cells below it filled as they
    are, the cells in between by nobody: only lines through that one cell count)."""
    owners: list[list[int | None]] = [list(c) + [None] * (game.height - len(c)) for c in grid]
    owners[col][row] = who

    def at(c: int, r: int) -> int | None:
        return owners[c][r] if 0 <= c < game.width and 0 <= r < game.height else None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while at(c, r) == who:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= game.connect:
            return True
    return False


def _can_line_up(game: Connect4, grid: Columns, who: int) -> bool:
    """Whether ``who`` has a line of ``connect`` in its discs and every empty cell (all filled with its discs)."""
    filled = [list(c) + [who] * (game.height - len(c)) for c in grid]
    for c in range(game.width):
        for r in range(game.height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(game.connect)]
                if all(0 <= x < game.width and 0 <= y < game.height and filled[x][y] == who for x, y in cells):
                    return True
    return False


def _strategy_holds(game: Connect4, grid: Columns, mover: int, defender: int, first: int | None, win: bool) -> bool:
    """Play claimeven for ``defender`` against every reply of the other player (a move in a column with an even
    number of empty cells answered right above it, a move on the lowest cell of a column with an odd number answered
    on the lowest cell of every other such column in turn): it never loses; with ``win`` it always lines up."""
    if first is not None:
        assert mover == defender
        if _wins_with(game, grid, first, defender):
            return True
        grid = _play(grid, first, defender)
    attacker = 1 - defender

    def walk(g: Columns) -> bool:
        legal = [c for c in range(game.width) if len(g[c]) < game.height]
        if not legal:
            return not win  # a full board: a draw
        odd = [c for c in legal if (game.height - len(g[c])) % 2]
        if len(odd) % 2:
            return False  # the strategy's precondition broke: the claim was wrong
        for c in legal:
            if _wins_with(game, g, c, attacker):
                return False
            after = _play(g, c, attacker)
            answers = [a for a in odd if a != c] if c in odd else [c]
            for a in answers:
                if _wins_with(game, after, a, defender):
                    continue
                if not walk(_play(after, a, defender)):
                    return False
        return True

    return walk(grid)


def _zugzwang_holds(game: Connect4, grid: Columns, defender: int, kept: int) -> bool:
    """Play Allis' zugzwang for ``defender`` against every reply: a move in the kept column answered right above
    it, a move on the lowest cell of another column with an odd number of empty cells on the lowest cell of every
    other such column in turn (not the kept one), any other move right above it; the defender always lines up."""
    attacker = 1 - defender

    def walk(g: Columns) -> bool:
        legal = [c for c in range(game.width) if len(g[c]) < game.height]
        if not legal:
            return False  # a draw: the claimed win did not come
        odd = [c for c in legal if (game.height - len(g[c])) % 2 and c != kept]
        if len(odd) % 2:
            return False
        for c in legal:
            if _wins_with(game, g, c, attacker):
                return False
            after = _play(g, c, attacker)
            answers = [a for a in odd if a != c] if c in odd else [c]
            if any(len(after[a]) == game.height for a in answers):
                return False  # no cell to answer on
            for a in answers:
                if _wins_with(game, after, a, defender):
                    continue
                if not walk(_play(after, a, defender)):
                    return False
        return True

    return walk(grid)


def check_claims(game: Connect4, moves: list[int], ex: Explanation, best_of: object) -> None:
    """Check every claim of ``ex`` by the tests' means; ``best_of(moves)`` gives each column's exact score."""
    grid = grid_of(moves, game.width)
    mover = len(moves) % 2
    legal = [c for c in range(game.width) if len(grid[c]) < game.height]
    assert ex.wins_now == tuple(c for c in legal if _wins_with(game, grid, c, mover))
    assert ex.forced == tuple(c for c in legal if _wins_with(game, grid, c, 1 - mover))
    gifts = tuple(
        c
        for c in legal
        if c not in ex.wins_now
        and len(grid[c]) + 1 < game.height
        and _wins_with(game, _play(grid, c, mover), c, 1 - mover)
    )
    assert ex.gifts == gifts
    expected = set()
    for c in range(game.width):
        for r in range(len(grid[c]), game.height):
            for who in (0, 1):
                if _completes_at(game, grid, c, r, who):
                    expected.add((who, c, r + 1))
    assert {(t.player, t.column, t.row) for t in ex.threats} == expected
    for t in ex.threats:
        assert t.playable == (t.row == len(grid[t.column]) + 1)
        assert t.parity == ("odd" if t.row % 2 else "even")
    cells = game.width * game.height
    assert ex.end == end_ply(cells, len(moves), ex.score)
    assert ex.no_line == tuple(who for who in (0, 1) if not _can_line_up(game, grid, who))
    for who in ex.no_line:
        # a side that cannot line up does not win
        assert ex.score * (1 if who == mover else -1) <= 0
    st = ex.strategy
    if st is not None and st.rule == "zugzwang":
        assert st.kept is not None
        if st.first is None:
            assert st.player != mover and _zugzwang_holds(game, grid, st.player, st.kept) and ex.score < 0
        else:
            assert st.player == mover and ex.score > 0
            assert _zugzwang_holds(game, _play(grid, st.first, mover), st.player, st.kept)
    elif st is not None:
        assert _strategy_holds(game, grid, mover, st.player, st.first, st.result == "win")
        sign = 1 if st.player == mover else -1
        assert (ex.score * sign > 0) if st.result == "win" else (ex.score * sign >= 0)
        for t in st.never:
            assert t.player != st.player
    if ex.line:  # a line of best moves that ends in the claimed win on the claimed disc
        played = list(moves)
        g = grid
        for i, c in enumerate(ex.line):
            scores = best_of(played)  # type: ignore[operator]
            assert scores[c] == max(s for s in scores if s is not None)
            who = len(played) % 2
            done = _wins_with(game, g, c, who)
            g = _play(g, c, who)
            played.append(c)
            assert done == (i == len(ex.line) - 1)
        assert len(played) == ex.end
        assert (len(played) - 1) % 2 == (mover if ex.score > 0 else 1 - mover)
    else:
        assert ex.score == 0 or ex.end - len(moves) > 12


def _minimax_columns(game: Connect4, moves: list[int]) -> list[int | None]:
    grid = grid_of(moves, game.width)
    cells = game.width * game.height
    out: list[int | None] = []
    for c in range(game.width):
        if len(grid[c]) == game.height:
            out.append(None)
        elif _wins_with(game, grid, c, len(moves) % 2):
            out.append((cells + 1 - len(moves)) // 2)
        elif len(moves) + 1 == cells:
            out.append(0)
        else:
            out.append(-minimax_score(game.width, game.height, game.connect, _play(grid, c, len(moves) % 2)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "count"), [(4, 4, 60), (5, 4, 60)])
def test_every_claim_holds_on_small_boards(width: int, height: int, count: int) -> None:
    game = Connect4(width, height, 4)
    solver = Solver(width, height, 4, table_bits=18)
    rng = random.Random(41 + width)
    strategies = lines_given = 0
    for _ in range(count):
        moves = random_open_position(rng, width, height, 4, rng.randrange(5, width * height - 2))
        ex = explain_position(game, moves, solver=solver)
        assert list(ex.columns) == _minimax_columns(game, moves)
        check_claims(game, moves, ex, lambda ms: _minimax_columns(game, ms))
        strategies += ex.strategy is not None
        lines_given += bool(ex.line)
        assert lines(ex)  # renders
    assert strategies >= 5 and lines_given >= 5  # the sample exercises both claims


@pytest.mark.slow
def test_claimeven_claims_are_played_out_on_5x4_including_the_first_move() -> None:
    game = Connect4(5, 4, 4)
    solver = Solver(5, 4, 4, table_bits=18)
    rng = random.Random(7)
    kinds = set()
    for _ in range(300):
        moves = random_open_position(rng, 5, 4, 4, rng.randrange(4, 16))
        ex = explain_position(game, moves, solver=solver, line_plies=0)
        st = ex.strategy
        if st is None or st.rule != "claimeven":
            continue
        kinds.add((st.first is None, st.result))
        kinds.add(("paired", bool(st.paired)))
        grid = grid_of(moves, 5)
        assert _strategy_holds(game, grid, len(moves) % 2, st.player, st.first, st.result == "win")
        # the play-out is a real check: a win claimed where the result is a draw fails
        if ex.score == 0:
            assert not _strategy_holds(game, grid, len(moves) % 2, st.player, st.first, True)
    assert {(True, "draw"), (False, "draw"), ("paired", True), ("paired", False)} <= kinds


def test_zugzwang_claims_are_played_out_against_every_reply() -> None:
    found = 0
    for width, height in ((5, 4), (4, 5), (6, 4)):
        game = Connect4(width, height, 4)
        rng = random.Random(41)
        for _ in range(1500):
            moves = random_open_position(rng, width, height, 4, rng.randrange(5, width * height - 3))
            st = zugzwang(game, moves)
            if st is None:
                continue
            found += 1
            assert st.player != len(moves) % 2 and st.kept is not None and st.result == "win"
            assert _zugzwang_holds(game, grid_of(moves, width), st.player, st.kept)
            ex = explain_position(game, moves, solver=Solver(width, height, 4, table_bits=16), line_plies=0)
            assert ex.score < 0  # the side to move loses, as claimed
    assert found >= 5


@pytest.mark.slow
def test_the_side_to_moves_zugzwang_after_one_move_is_played_out() -> None:
    found = 0
    for width, height in ((5, 4), (4, 5), (6, 4)):
        game = Connect4(width, height, 4)
        rng = random.Random(43)
        for _ in range(1500):
            moves = random_open_position(rng, width, height, 4, rng.randrange(5, width * height - 3))
            st = zugzwang_first(game, moves)
            if st is None:
                continue
            found += 1
            assert st.player == len(moves) % 2 and st.first is not None and st.kept is not None
            grid = _play(grid_of(moves, width), st.first, st.player)
            assert _zugzwang_holds(game, grid, st.player, st.kept)
    assert found >= 5


def test_end_follows_pons_scores() -> None:
    # 7x6: the empty board scores +1: red wins with its 21st disc, disc 41 of the game
    assert end_ply(42, 0, 1) == 41
    assert end_ply(42, 0, 0) == 42
    assert end_ply(42, 1, -1) == 41  # yellow to move after one disc, losing as late as possible
    assert end_ply(42, 5, 19) == 6  # yellow wins now with its 3rd disc (22 - 3), disc 6
    assert end_ply(42, 5, 18) == 8  # with its 4th: disc 8


def test_7x6_positions_claims_checked_by_the_solver() -> None:
    game = Connect4(7, 6, 4)
    solver = Solver(7, 6, 4)
    rng = random.Random(2026)
    seen_line = 0
    for _ in range(12):
        moves = random_open_position(rng, 7, 6, 4, rng.randrange(24, 37))
        ex = explain_position(game, moves, solver=solver)
        check_claims(game, moves, ex, lambda ms: solver.analyze(list(ms)))
        seen_line += bool(ex.line)
    assert seen_line >= 1


def test_a_column_note_grades_the_move() -> None:
    game = Connect4(5, 4, 4)
    moves = list(game.from_notation("11222244").history)  # red wins with 3 only (see test_review)
    ex = explain_position(game, moves, 0, solver=Solver(5, 4, 4, table_bits=18))
    assert ex.note is not None and ex.note.verdict == "turns the win into a draw"
    assert ex.best == (2,)
    best = explain_position(game, moves, 2, solver=Solver(5, 4, 4, table_bits=18))
    assert best.note is not None and best.note.verdict == "best"


def test_cli_explain_json_and_text() -> None:
    result = runner.invoke(app, ["connect4", "explain", "11222244", "1", "--width", "5", "--height", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["best"] == [3] and data["column"]["verdict"] == "turns the win into a draw"
    text = runner.invoke(app, ["connect4", "explain", "4444"])  # the shipped book answers
    assert text.exit_code == 0, text.output
    assert "Result with best play" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["connect4", "explain", "4444", "8"], "column"),
        (["connect4", "explain", "4444444"], "full"),
        (["connect4", "explain", "1212121"], "over"),
    ],
)
def test_cli_explain_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output.lower()
    assert "Traceback" not in result.output


def test_a_position_the_solver_cannot_finish_in_time_is_one_line() -> None:
    from gridgames_connect4.teach.explain import OutOfTime

    with pytest.raises(OutOfTime, match="did not finish 4444 in time"):
        explain_position(Connect4(7, 6, 4), [3, 3, 3, 3], solver=Solver(7, 6, 4), think=0.05)
    result = runner.invoke(app, ["connect4", "explain", "4444", "--no-book", "--think", "0.05"])
    assert result.exit_code == 2 and "give more with --think" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _bar_positions(width: int, height: int, plies: range, seed: int, count: int = 200) -> list[list[int]]:
    rng = random.Random(seed)
    return [random_open_position(rng, width, height, 4, rng.randrange(plies.start, plies.stop)) for _ in range(count)]


def _settled_by_the_solvers_rules(solver: Solver, game: Connect4, moves: list[int]) -> bool:
    """Whether the solver's static rules (`engine.rules.settle`, as the search applies them at a node) settle the
    root in one of the windows that decide a win (alpha 0, beta 1) or a loss (alpha -1, beta 0)."""
    import numpy as np

    from gridgames_connect4.solve.engine import static_rules
    from gridgames_connect4.solve.engine.board import winning_cells

    w, h, k, u = game.width, game.height, game.connect, np.uint64

    def bit(c: int, r: int) -> int:
        return 1 << (c * (h + 1) + r)

    full = sum(bit(c, r) for c in range(w) for r in range(h))
    bottom = sum(bit(c, 0) for c in range(w))
    lower_rows = sum(bit(c, r) for c in range(w) for r in range(h) if (h - r) % 2 == 0)
    columns = np.array([sum(bit(c, r) for r in range(h)) for c in range(w)], dtype=np.uint64)
    p, mask, _ = solver.driver.position(moves)
    opp = p ^ mask
    possible = (mask + bottom) & full
    opp_win = int(winning_cells(u(opp), u(mask), u(full), h, k))
    return any(
        static_rules.settle(
            u(p),
            u(opp),
            u(mask),
            u(possible),
            u(opp_win),
            alpha,
            beta,
            u(bottom),
            u(full),
            u(lower_rows),
            columns,
            h,
            k,
        )[0]
        != static_rules.NO_VALUE
        for alpha, beta in ((0, 1), (-1, 0))
    )


@pytest.mark.parametrize(
    ("width", "height", "plies"), [(7, 6, range(6, 37)), (5, 4, range(4, 18)), (6, 5, range(4, 28))]
)
@pytest.mark.slow
def test_the_bar_200_seeded_positions_every_claim_checked(width: int, height: int, plies: range) -> None:
    """Issue 41's bar: 200 seeded positions a board (7x6: plies 6-36, the shipped book and the solver; 5x4 and 6x5),
    every claim checked by the tests' own means (the solver's scores for each step of a forced line, claimeven and
    zugzwang played out against every reply); and wherever the solver's static rules settle the root, the
    explanation names the static strategy (or that the side cannot line up any more: the first rule)."""
    from gridgames_connect4.solve.book import default_book

    game = Connect4(width, height, 4)
    book = default_book(width, height, 4)
    solver = Solver(width, height, 4, book=book) if book is not None else Solver(width, height, 4, table_bits=20)
    settled = named = strategies = 0
    for moves in _bar_positions(width, height, plies, 41 * width + height):
        ex = explain_position(game, moves, book=book, solver=solver)
        check_claims(game, moves, ex, lambda ms: solver.analyze(list(ms)))
        strategies += ex.strategy is not None
        if not ex.wins_now and _settled_by_the_solvers_rules(solver, game, moves):
            settled += 1
            named += ex.strategy is not None or bool(ex.no_line)
            assert ex.strategy is not None or ex.no_line, game.join_notation(moves)
    assert settled >= 3 and named == settled and strategies >= 3  # the sample exercises the rules
