"""A whole g2048 game in a real browser (the system's Chromium), by clicks on the slide buttons only: the tiles drawn
by the server, the score at the end.

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
MOST_SLIDES = 400  # a 2x2 game ends long before: each slide adds a tile, and merges are few


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    assert CHROMIUM is not None
    with running_server(create_app(ServerConfig())) as url, browser_context(CHROMIUM) as browser:
        browser.set_default_timeout(TIMEOUT_MS)
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{url}/play/g2048")
        yield tab
        tab.close()
        assert not errors, errors


def test_a_whole_2x2_game_by_clicks_on_the_slides(page: Any) -> None:
    # the first page lists every game: slow under load
    page.wait_for_selector("#legal button", timeout=4 * TIMEOUT_MS)
    page.fill("#opt-size", "2")
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('chance: ')")
    # the two first tiles, drawn by the server and shown
    assert page.inner_text("#status").count("@") == 2
    for _ in range(MOST_SLIDES):
        if "Game over" in page.inner_text("#status"):
            break
        before = page.inner_text("#moves")
        button = page.locator("#legal button").first
        # slides only: tiles are never offered
        assert button.get_attribute("data-move") in ("u", "d", "l", "r")
        button.click()
        page.wait_for_function(
            "(before) => document.getElementById('moves').textContent !== before"
            " || document.getElementById('status').textContent.includes('Game over')",
            arg=before,
        )
    status = page.inner_text("#status")
    assert status.startswith("Game over: ") and "Draw" not in status
