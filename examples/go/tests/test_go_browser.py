"""A whole Go game in a real browser (the system's Chromium) by clicks only: a stone on a cell, then two clicks on
the Pass button end it; Black's stone is drawn black.

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


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    assert CHROMIUM is not None
    with running_server(create_app(ServerConfig())) as url, browser_context(CHROMIUM) as browser:
        browser.set_default_timeout(TIMEOUT_MS)
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{url}/play/go")
        yield tab
        tab.close()
        assert not errors, errors


def _moves_played(page: Any) -> int:
    return len([m for m in page.inner_text("#moves").split() if "." in m])


def _wait_for_moves(page: Any, count: int) -> None:
    page.wait_for_function(
        f"() => (document.getElementById('moves').textContent.match(/\\d+\\.\\S+/g) || []).length === {count}"
    )


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
    assert stone.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(17, 17, 17)"  # Black is black
    assert page.locator("#pass").is_visible()
    page.click("#pass")
    _wait_for_moves(page, 2)
    page.click("#pass")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('wins')")
    assert page.inner_text("#status") == "Black wins 25-7.5: both players passed"
    assert page.inner_text("#moves").split()[:3] == ["1.C3", "2.pass", "3.pass"]
    assert page.locator("#pass").is_hidden()
