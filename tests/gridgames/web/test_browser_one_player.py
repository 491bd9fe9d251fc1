"""A one-player game in a real headless browser (issue 37): Lights Out is solved by clicking the pressed cells.

The page makes each cell clickable for the press `State.move_cells` names (its own cell), not for the cells the
press lights, which the page would guess otherwise. Skipped as `test_browser` is without Playwright or Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint
from typing import Any

import pytest
from gridgames_test_support.browser import browser_context, browser_or_skip, running_server

CHROMIUM = browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames.registry import GROUP, Registry  # noqa: E402
from gridgames.web.app import ServerConfig, create_app  # noqa: E402


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """A tab on a server whose only game is Lights Out; the test fails on any error in the page's scripts."""
    assert CHROMIUM is not None
    registry = Registry.from_list([EntryPoint("lightsout", "gridgames_test_support.lightsout:SPEC", GROUP)])
    with running_server(create_app(ServerConfig(), registry=registry)) as url, browser_context(CHROMIUM) as browser:
        browser.set_default_timeout(60_000)
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{url}/play/lightsout")
        yield tab
        assert not errors, errors


def test_lights_out_is_solved_by_clicking_the_pressed_cells(page: Any) -> None:
    page.wait_for_function("() => document.querySelectorAll('#board .cell.target').length === 25")
    lit = page.locator("#board .cell.p0").count()
    assert lit > 0  # the diagonal's presses lit the board
    corner = page.locator('#board .cell[data-row="0"][data-col="0"]')
    assert corner.get_attribute("title") == "play a5"  # the press on its own cell, lit or not
    for i in range(5):  # press the diagonal again: every light goes off
        page.click(f'#board .cell[data-row="{i}"][data-col="{i}"]')
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {i + 1}")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('every light is off')")
    assert page.locator("#board .cell.p0").count() == 0 and page.locator("#board .cell.target").count() == 0
