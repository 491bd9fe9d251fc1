"""A whole Go game in a real browser (the system's Chromium) by clicks only: a stone on a cell, then two clicks on
the Pass button end it; Black's stone is drawn black.

Set up as tests/gridgames/web/test_browser.py: skipped, with the reason, when Playwright or a Chromium is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gridgames_test_support.browser import browser_or_skip, game_page

browser_or_skip()  # skips the module without the extras or a Chromium

TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with game_page("/play/go", timeout_ms=TIMEOUT_MS) as tab:
        yield tab


def _wait_for_moves(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {count}")


def test_a_whole_5x5_game_with_a_stone_and_two_passes(page: Any) -> None:
    page.wait_for_selector("#board .cell")
    page.fill("#opt-size", "5")
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.querySelectorAll('#board .cell').length === 25")
    page.wait_for_selector("#pass", state="visible")  # a pass beside 25 other moves
    page.click('#board .cell[data-row="2"][data-col="2"]')  # C3, the centre
    _wait_for_moves(page, 1)
    stone = page.locator('#board .cell[data-row="2"][data-col="2"]')
    # Black is black
    assert stone.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(17, 17, 17)"
    assert page.locator("#pass").is_visible()
    page.click("#pass")
    _wait_for_moves(page, 2)
    page.click("#pass")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('wins')")
    assert page.inner_text("#status") == "Black wins 25-7.5: both players passed"
    assert [t.strip() for t in page.locator("#moves > .ply").all_inner_texts()][:3] == ["C3", "pass", "pass"]
    assert page.locator("#pass").is_hidden()
