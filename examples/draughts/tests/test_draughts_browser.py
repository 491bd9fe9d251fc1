"""A whole draughts game in a real browser (the system's Chromium) by clicks only: Black (a human) clicks a piece,
then its target (and the landings of a capture where two paths share the target), the computer answers, to the end.

Set up as tests/gridgames/web/test_browser.py: skipped, with the reason, when Playwright or a Chromium is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gridgames_test_support.browser import browser_or_skip, game_page

browser_or_skip()  # skips the module without the extras or a Chromium

TIMEOUT_MS = 60_000
MAX_TURNS = 200


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with game_page("/play/draughts", timeout_ms=TIMEOUT_MS) as tab:
        yield tab


def _cell(page: Any, cell: list[int]) -> Any:
    return page.locator(f'#board [data-row="{cell[0]}"][data-col="{cell[1]}"]')


def _view(page: Any) -> dict[str, Any]:
    """The page's position as the server sends it (read, not played: the moves are clicks)."""
    return dict(page.evaluate("() => GG.api('GET', '/api/play/draughts')"))


def _played_within(page: Any, played: int, timeout_ms: int) -> bool:
    """True once the move list has more than ``played`` moves (False after ``timeout_ms``)."""
    try:
        page.wait_for_function(
            f"() => document.querySelectorAll('#moves > .ply').length > {played}",
            timeout=timeout_ms,
        )
    except Exception:  # Playwright's TimeoutError: the click selected, it did not play
        return False
    return True


def _human_turn_or_end(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('#board .path-next') || /wins|draw/.test(document.getElementById('status')"
        ".textContent)"
    )


def test_a_whole_game_by_piece_then_target_clicks(page: Any) -> None:
    page.wait_for_selector("#board [data-row][data-col]")
    page.select_option("#seat-1", "ai")
    page.fill("#think", "0.1")
    page.click("#new-game")
    for _ in range(MAX_TURNS):
        _human_turn_or_end(page)
        view = _view(page)
        if view["outcome"] is not None:
            break
        moves = view["paths"]
        move = max(moves, key=lambda m: len(moves[m]))  # the longest capture when there is one
        path = moves[move]
        played = len(view["history"])
        _cell(page, path[0]).click()
        assert "path-from" in (_cell(page, path[0]).get_attribute("class") or "")
        # the target; a landing more only where the target is shared
        clicks = [path[-1], *path[1:-1]]
        for i, cell in enumerate(clicks):
            _cell(page, cell).click()
            if _played_within(page, played, TIMEOUT_MS if i == len(clicks) - 1 else 3000):
                break
        assert _view(page)["history"][played] == move
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")
    status = page.inner_text("#status")
    assert status.startswith(view["outcome"]["text"]) and ("wins" in status or "draw" in status)


# White then has 22x13x6 and 22x15x6: the same piece, the same target
AMBIGUOUS = "10-15,23-19,9-13,19x10,6x15,24-20,15-18,22x15,11x18,27-24,5-9,20-16,12x19,24x15,7-10,15x6,1x10,26-22,13-17"


def test_a_shared_target_asks_for_the_landing_on_the_board(page: Any) -> None:
    page.goto(page.url.split("/play/")[0] + f"/play/draughts?pos={AMBIGUOUS}")
    assert _played_within(page, 18, TIMEOUT_MS)  # the 19 moves of the shared position
    assert page.locator("#legal button").count() == 0  # no list of moves: the board is clicked
    _cell(page, [5, 2]).click()  # 22
    _cell(page, [1, 2]).click()  # 6: two paths end there
    # 13 and 15 marked, nothing played
    page.wait_for_selector('#board [data-row="3"][data-col="0"].path-next')
    assert "path-next" in (_cell(page, [3, 4]).get_attribute("class") or "")
    assert len(_view(page)["history"]) == 19
    _cell(page, [3, 4]).click()  # 15
    assert _played_within(page, 19, TIMEOUT_MS)
    assert _view(page)["history"][19] == "22x15x6"
