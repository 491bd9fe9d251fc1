"""Issue 41's browser bar: a shared Connect Four URL opens the position with its scores; the game is played to its
end and reviewed; its drill is played to its end, in a real headless browser (skipped, with the reason, when
Playwright or a Chromium is missing)."""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.browser import browser_or_skip, png_colours, running_server, small_png

browser_or_skip()  # skips the module without the extras or a Chromium
pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.teach.review import review_game  # noqa: E402 - after the skips above
from gridgames_connect4.position.rules import Connect4  # noqa: E402
from gridgames_connect4.surfaces.share import position_url  # noqa: E402
from gridgames_connect4.solve.solver import Solver  # noqa: E402
from gridgames.web.app import ServerConfig, create_app  # noqa: E402

GAME = Connect4(5, 4, 4)
# on 5x4: red wins with move 11; mistakes and blunders at moves 3, 4, 6, 7, 8 and 10
WON = "33212415232"
SHARED = 5  # the shared URL holds the first five moves


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(create_app(ServerConfig())) as url:
        yield url


def _moves_shown(page: Any) -> int:
    return int(page.locator("#moves > .ply").count())


@pytest.mark.slow
def test_a_shared_url_then_the_drill_of_the_reviewed_game_to_its_end(page: Any, base_url: str) -> None:
    moves = list(GAME.from_notation(WON).history)
    solver = Solver(5, 4, 4, table_bits=18)
    # the shared URL: the position and its scores
    page.goto(position_url(GAME, moves[:SHARED], base_url))
    page.wait_for_function("() => document.getElementById('moves').textContent.trim() === '1. 3 3 2. 2 1 3. 2'")
    assert page.locator("#board .cell.p0").count() == 3 and page.locator("#board .cell.p1").count() == 2
    page.wait_for_function(
        "() => { const t = [...document.querySelectorAll('#scores .score')].map((d) => d.textContent.trim());"
        " return t.filter((x) => /^[+-]?\\d+$/.test(x)).length === 5; }"
    )
    assert [int(page.inner_text(f"#score-{c}").strip()) for c in range(1, 6)] == solver.analyze(moves[:SHARED])
    # the rest of the game, clicked, then its review
    for i, column in enumerate(moves[SHARED:], SHARED + 1):
        page.click(f'#board .cell[data-row="0"][data-col="{column}"]')
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {i}")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('wins')")
    page.click("#review")
    page.wait_for_selector("#review-table tr.mistake")
    reviewed = "".join(page.locator("#moves > .ply").all_inner_texts())
    assert reviewed == WON
    # the drill of the reviewed game, answered right and wrong in turn, to its end
    expected = [r for r in review_game(GAME, moves, solver=solver).reviews if r.grade in ("mistake", "blunder")]
    assert [r.number for r in expected] == [3, 4, 6, 7, 8, 10]
    link = page.get_attribute("#drill-link", "href")  # the review leads to the drill of this game
    assert link == f"{base_url}/drill/connect4?pos={reviewed}&width=5&height=4", link
    page.goto(link)
    right = 0
    for i, r in enumerate(expected):
        page.wait_for_function(
            f"() => document.getElementById('status').textContent.startsWith('Drill {i + 1} of {len(expected)}: "
            f"before move {r.number},')"
        )
        assert page.locator("#board .cell.p0").count() + page.locator("#board .cell.p1").count() == r.number - 1
        # the best, or the game's own mistake again
        answer = r.best_columns[0] if i % 2 == 0 else r.column
        right += i % 2 == 0
        if i == 1:  # a digit key answers too
            page.locator("#board").click(position={"x": 1, "y": 1})
            page.keyboard.press(str(answer + 1))
        else:
            page.click(f"#move-{answer + 1}")
        page.wait_for_selector("#next:not([hidden])")
        verdict = page.inner_text("#verdict")
        if i % 2 == 0:
            assert verdict == f"Right: {answer + 1} is best (score {r.best:+d})."
        else:
            assert verdict.startswith(f"Not best: {answer + 1} scores {r.score:+d}; the best is ")
        why = page.inner_text("#why")
        assert f"Column {answer + 1}: score {r.columns[answer]:+d} against the best {r.best:+d}" in why
        if i == 2:
            page.keyboard.press("n")
        else:
            page.click("#next")
    page.wait_for_selector("#summary:not([hidden])")
    assert page.inner_text("#summary") == f"Drill done: {right} of {len(expected)} answered best."
    assert f"{right} of {len(expected)} right, {WON}" in page.inner_text("#history")


PICTURES = Path(__file__).resolve().parents[3] / "docs" / "web"
WIDTHS = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1280, "height": 860}}


def test_the_drill_page_fits_a_phone_and_a_desktop_light_and_dark(page: Any, base_url: str) -> None:
    """No sideways scroll, the board beside or above the answer panel (never over it), a dark palette; with
    GRIDGAMES_SCREENSHOTS=1 the pictures of docs/web.md (docs/web/drill-*.png)."""
    page.goto(f"{base_url}/drill/connect4?moves={WON}&width=5&height=4")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Drill 1 of ')")
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        width = page.evaluate("document.documentElement.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, label
        board, side = page.locator("#board").bounding_box(), page.locator(".drill-side").bounding_box()
        assert board and side, label
        assert max(board["x"] + board["width"], side["x"] + side["width"]) <= width + 0.5, (label, board, side)
        apart = board["x"] + board["width"] <= side["x"] + 0.5 or side["y"] >= board["y"] + board["height"] - 0.5
        assert apart, (label, board, side)
        png = page.screenshot(full_page=True, scale="css")
        width_px, height_px, colours = png_colours(page, png)
        assert width_px >= 300 and height_px >= 300 and colours >= 8, (width_px, height_px, colours)
        if os.environ.get("GRIDGAMES_SCREENSHOTS"):
            PICTURES.mkdir(parents=True, exist_ok=True)
            (PICTURES / f"drill-{label}.png").write_bytes(small_png(page, png))
    light = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != light


def test_the_drill_page_fits_a_390_px_phone_in_mobile_emulation(page: Any, base_url: str) -> None:
    """A phone lays a page out at 980 px unless it has a viewport meta tag: Chrome's mobile emulation (DevTools'
    device metrics, ``mobile``) applies it as a phone does; the drill page is then 390 px wide, without sideways
    scrolling, its board and answers within the screen."""
    page.goto(f"{base_url}/drill/connect4?moves={WON}&width=5&height=4")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Drill 1 of ')")
    cdp = page.context.new_cdp_session(page)
    phone = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
    cdp.send("Emulation.setDeviceMetricsOverride", phone)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True})
    try:
        # the layout viewport: 980 without the meta tag
        page.wait_for_function("() => window.innerWidth === 390")
        width = page.evaluate("document.documentElement.clientWidth")
        assert width == 390 and page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in ("#board", ".drill-side", "#legal"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
        cells = page.locator("#board .cell").first.bounding_box()
        assert cells is not None and cells["width"] >= 30, cells  # discs big enough to read and tap
    finally:
        cdp.send("Emulation.clearDeviceMetricsOverride")
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
