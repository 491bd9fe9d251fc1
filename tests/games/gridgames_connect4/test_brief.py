"""The terminal hint's why (`gridgames_connect4.teach.brief`): each sentence is one of ``explain``'s claims."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.teach.brief import brief
from gridgames_connect4.teach.explain import explain_position
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.connect4_play import two_humans


def _positions(game: Connect4, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_state()
        for _ in range(rng.randint(4, game.width * game.height - 4)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over:
            out.append(list(state.history))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("size", [(5, 4), (6, 5)])
def test_every_brief_is_a_checked_claim(size: tuple[int, int]) -> None:
    game = Connect4(*size, 4)
    solver = Solver(*size, 4, table_bits=18)
    kinds = set()
    for moves in _positions(game, 60, size[0]):
        scores = solver.analyze(moves)
        text = brief(game, moves, scores)
        ex = explain_position(game, moves, solver=solver)
        mover = ("red", "yellow")[len(moves) % 2]
        if m := re.fullmatch(r"(\w+) wins at once in (columns?) ([\d, and]+)\.", text):
            kinds.add("win")
            assert m[1].lower() == mover
            # "columns 2 and 6", "column 2"
            assert (m[2] == "columns") == (len(re.findall(r"\d+", m[3])) > 1)
            for col in (int(c) - 1 for c in re.findall(r"\d+", m[3])):
                after = game.from_moves([*moves, col])
                assert after.outcome is not None and after.outcome.winner == len(moves) % 2
            continue
        if m := re.fullmatch(r"(\w+) threatens to win in columns ([\d, and]+): (\w+) cannot block both\.", text):
            kinds.add("two")
            assert [int(c) - 1 for c in re.findall(r"\d+", m[2])] == list(ex.forced) and ex.score < 0
            continue
        if ex.score == 0:
            assert "a draw with best play" in text.lower()
        else:
            winner = mover if ex.score > 0 else ("red", "yellow")[1 - len(moves) % 2]
            assert f"{winner} wins with best play, with disc {ex.end} ({ex.end - len(moves)} more)" in text.lower()
        # "columns 2 and 6", "column 2"
        if m := re.search(r"; (columns?) ([\d, and]+) would let", text):
            assert (m[1] == "columns") == (len(re.findall(r"\d+", m[2])) > 1)
        if m := re.match(r"\w+ must block column (\d+)", text):
            kinds.add("block")
            assert (int(m[1]) - 1,) == ex.forced
        elif " by claimeven" in text or " by zugzwang" in text:
            kinds.add("strategy")
            assert ex.strategy is not None and ex.strategy.rule in text
            assert text.lower().startswith(("red", "yellow")[ex.strategy.player])
        else:
            kinds.add("result")
    assert {"win", "block", "result"} <= kinds


def test_the_strategy_that_settles_the_root_is_named() -> None:
    game = Connect4(5, 4, 4)
    solver = Solver(5, 4, 4, table_bits=16)
    named = set()
    for moves in _positions(game, 200, 7):
        scores = solver.analyze(moves)
        ex = explain_position(game, moves, solver=solver)
        st = ex.strategy
        if st is None or ex.wins_now or ex.forced or (st.first is not None and st.first not in ex.best):
            continue
        text = brief(game, moves, scores)
        assert f" by {st.rule}" in text and text.lower().startswith(("red", "yellow")[st.player]), (moves, text)
        named.add(st.rule)
    assert "claimeven" in named


def test_the_terminal_hint_says_why_in_a_second_line() -> None:
    from gridgames_connect4.solve.book import default_book

    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no opening book shipped for 7x6")
    state = Connect4().from_notation("43536")  # yellow must block column 7 (red's d1 e1 f1)
    scores = book.column_scores(list(state.history))
    first, second = two_humans(state, book=book).hint().splitlines()
    assert first.startswith("Hint: play 7. Book scores for yellow")
    end = 44 - 2 * scores[6]  # yellow wins with an even disc D: score (42 + 1 - (D - 1)) // 2
    assert second == (
        f"  Why: Yellow must block column 7 (red wins there next); yellow wins with best play, with "
        f"disc {end} ({end - 5} more)."
    )
