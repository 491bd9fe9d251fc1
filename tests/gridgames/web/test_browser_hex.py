"""Hex (examples/hex) in a real headless browser: a whole game played by clicking hexagonal cells.

The set-up is test_browser.py's (the system Chromium driven by Playwright; skipped, saying why, without
one). The board is the state's SVG; the test checks that the clicked cells are hexagons (SVG polygons of
six corners, each row shifted half a cell) and keeps a screenshot of the finished board in docs/hex-board.png
(with GRIDGAMES_SCREENSHOTS=1).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gridgames_test_support.browser import browser_or_skip, running_server

browser_or_skip()  # skips the module without the extras or a Chromium
pytest.importorskip("gridgames_hex", reason="the Hex example is not installed: pip install ./examples/hex")

from gridgames.web.app import ServerConfig, create_app  # noqa: E402

SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "hex-board.png"


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(create_app(ServerConfig())) as url:
        yield url


def _corners(page: Any, row: int, col: int) -> list[tuple[float, float]]:
    points = page.get_attribute(f'#board polygon[data-row="{row}"][data-col="{col}"]', "points")
    return [tuple(float(v) for v in p.split(",")) for p in points.split()]


@pytest.mark.slow
def test_a_hex_game_clicked_to_its_end_on_hexagonal_cells(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/hex")
    page.wait_for_selector("#board svg polygon")
    page.fill("#opt-size", "5")
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.querySelectorAll('#board svg polygon[data-row]').length === 25")
    assert page.locator("#board .cell").count() == 0  # not the square div grid
    corners = _corners(page, 0, 0)
    assert len(corners) == 6  # a hexagon
    shift = min(x for x, _ in _corners(page, 1, 0)) - min(x for x, _ in corners)
    step = min(x for x, _ in _corners(page, 0, 1)) - min(x for x, _ in corners)
    assert shift == pytest.approx(step / 2, abs=0.1)  # each row half a cell right: a Hex rhombus
    # Red walks down column c (hexagons (r, 2) and (r + 1, 2) touch); Blue answers along column a
    clicks = [(r, col) for r in range(5) for col in (2, 0)][:9]
    for number, (row, col) in enumerate(clicks, start=1):
        cell = page.locator(f'#board polygon[data-row="{row}"][data-col="{col}"]')
        assert cell.evaluate("(el) => el.tagName.toLowerCase() === 'polygon' && el.classList.contains('target')")
        cell.click()
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {number}")
    assert page.inner_text("#status").startswith("Red wins")
    assert re.match(r"1\. c1 a1 2\. c2 .* 5\. c5$", page.inner_text("#moves"))  # numbered turns
    assert page.locator("#board polygon.win").count() == 5  # the winning chain, column c
    assert page.locator("#board polygon.target").count() == 0  # the game is over: nothing to click
    png = page.locator("#board svg").screenshot()
    assert len(png) > 1000
    if os.environ.get("GRIDGAMES_SCREENSHOTS"):  # docs/hex-board.png, kept only when asked
        SCREENSHOT.write_bytes(png)


def test_the_swap_button_of_the_games_own_svg_plays_its_data_move(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/hex")
    page.wait_for_selector("#board svg polygon")
    page.fill("#opt-size", "5")
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.querySelectorAll('#board svg polygon[data-row]').length === 25")
    assert page.locator('#board [data-move="swap"]').count() == 0  # nothing to swap yet
    page.click('#board polygon[data-row="1"][data-col="2"]')  # Red: c2
    page.wait_for_selector('#board [data-move="swap"].target')
    page.click('#board [data-move="swap"]')
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('swap')")
    assert page.inner_text("#moves") == "1. c2 swap"
    assert page.inner_text("#status").startswith("Red")  # Red to move again
    assert page.locator('#board [data-move="swap"]').count() == 0
