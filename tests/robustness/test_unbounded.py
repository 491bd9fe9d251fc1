"""Long work has a budget (issue 38): a review of an opening on a board without a book stops at its time budget.

No timed assertions: each test checks that the work stopped and said so, not how fast.
"""

from __future__ import annotations

import pytest

from gridgames_test_support.cli_runs import assert_one_line_error, invoke


def test_a_review_without_a_book_stops_at_its_budget_and_lists_what_it_did_not_review() -> None:
    code, out, err = invoke(["connect4", "review", "4,10", "--width", "10", "--think", "0.5"])
    assert code == 0 and "Traceback" not in out + err, (code, out[-300:], err[-300:])
    assert "Partial review (stopped): move(s) 1-2 not reviewed." in out
    assert "time budget (0.5 s)" in out


def test_a_review_has_a_default_budget() -> None:
    from gridgames_connect4.surfaces.cli_review import DEFAULT_REVIEW_SECONDS, run_review
    from gridgames_connect4.teach.review import STOPPED
    from gridgames_connect4.position.rules import Connect4

    assert 0 < DEFAULT_REVIEW_SECONDS <= 600
    game = Connect4(10, 6, 4)
    report, _ = run_review(game, game.from_notation("4,10").history, None, think=0.3)
    assert report.stopped == STOPPED and report.missing == [1, 2]


def test_a_review_budget_is_checked() -> None:
    assert_one_line_error(["connect4", "review", "4", "--think", "1e308"], "number of seconds")
    assert_one_line_error(["connect4", "review", "4", "--think", "nan"], "number of seconds")


def _count_json(args: list[str]) -> dict[str, object]:
    import json

    code, out, err = invoke(["solve", "pentomino", *args, "--count", "--json"])
    assert code == 0 and "Traceback" not in out + err, (code, err[-300:])
    return json.loads(out)  # type: ignore[no-any-return]


def test_copies_of_one_piece_covering_the_board_are_counted_by_the_frontier_programme() -> None:
    fib = [1, 1]
    while len(fib) < 502:
        fib.append(fib[-1] + fib[-2])
    # the search listed these one by one for ever
    found = _count_json(["--board", "2x500", "--pieces", "domino*500"])
    assert found["solutions"] == fib[500] and found["method"] == "frontier" and not found["partial"]


@pytest.mark.slow
def test_the_frontier_count_agrees_with_the_search_and_with_kasteleyn() -> None:
    from gridgames.search.frontier import kasteleyn_dominoes

    assert _count_json(["--board", "10x10", "--pieces", "domino*50"])["solutions"] == kasteleyn_dominoes(10, 10)
    for board, pieces in (("4x5", "domino*10"), ("6x10", "L*12"), ("4x4", "tetromino:T*4"), ("3x4", "tromino:L*4")):
        frontier = _count_json(["--board", board, "--pieces", pieces])
        search = _count_json(["--board", board, "--pieces", pieces, "--plain"])
        assert frontier["method"] == "frontier" and search["method"] != "frontier"
        assert frontier["solutions"] == search["solutions"], (board, pieces)


def test_several_kinds_of_piece_still_count_by_the_search() -> None:
    found = _count_json(["--board", "3x4", "--pieces", "domino*4,monomino*4"])
    assert found["method"] != "frontier"
