"""A whole Othello game in a real browser (the system's Chromium): cells clicked, a pass by the Pass button, the score
at the end.

Set up as tests/gridgames/web/test_browser.py: skipped, with the reason, when Playwright or a Chromium is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gridgames_test_support.browser import browser_context, browser_or_skip, running_server

CHROMIUM = browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames.web.app import ServerConfig, create_app  # noqa: E402

TIMEOUT_MS = 60_000
# 4x4: White then has no move and must pass; Black's a4 ends it 11-5
BEFORE_PASS = "c4 d2 a1 a2 a3 d4 c1 b4 d3 b1 d1"


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    assert CHROMIUM is not None
    with running_server(create_app(ServerConfig())) as url, browser_context(CHROMIUM) as browser:
        browser.set_default_timeout(TIMEOUT_MS)
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{url}/play/othello")
        yield tab
        tab.close()
        assert not errors, errors


def _moves_played(page: Any) -> int:
    return int(page.locator("#moves > .ply").count())


def _click_cell(page: Any, move: str) -> None:
    played = _moves_played(page)
    row, col = int(move[1:]) - 1, ord(move[0]) - ord("a")
    page.click(f'#board .cell[data-row="{row}"][data-col="{col}"]')
    page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {played + 1}")


@pytest.mark.slow
def test_a_whole_4x4_game_with_a_pass_by_the_button(page: Any) -> None:
    page.wait_for_selector("#board .cell")
    page.fill("#opt-size", "4")
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.querySelectorAll('#board .cell').length === 16")
    assert page.locator("#pass").is_hidden()
    for move in BEFORE_PASS.split():
        _click_cell(page, move)
        if move != BEFORE_PASS.split()[-1]:
            assert page.locator("#pass").is_hidden()
    page.wait_for_selector("#pass", state="visible")
    assert page.inner_text("#status").startswith("White")
    page.click("#pass")
    page.wait_for_function("() => (document.querySelectorAll('#moves > .ply')[11] || {}).textContent === 'pass'")
    assert page.locator("#pass").is_hidden()
    _click_cell(page, "a4")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('wins')")
    assert page.inner_text("#status") == "Black wins 11-5: the board is full"
    assert page.locator("#board .cell.p0").count() == 11 and page.locator("#board .cell.p1").count() == 5
