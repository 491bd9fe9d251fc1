"""End to end in a real headless browser (the system's Chromium driven by Playwright): every page, as a user plays it.

Skipped, with the reason, when Playwright or a Chromium is missing; nothing is downloaded. Connect Four is won
against ``perfect`` on 5x4 with lines of 3 (a first-player win the page's exact scores show how to play; on 7x6 the
scores of the opening take the solver minutes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gridgames_test_support.browser import (
    browser_or_skip,
    png_colours,
    running_server,
)

browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames.web.app import ServerConfig, create_app  # noqa: E402 - after the skips above


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The server, on loopback, for the whole module."""
    with running_server(create_app(ServerConfig())) as url:
        yield url


def check_screenshot(page: Any, selectors: list[str]) -> None:
    """A screenshot shows the page: the elements it must have are visible as it is taken, and the picture is not
    blank."""
    for selector in selectors:
        assert page.locator(selector).first.is_visible(), f"{selector} is not visible"
    width, height, colours = png_colours(page, page.screenshot(full_page=True))
    assert width >= 800 and height >= 400 and colours >= 8, (width, height, colours)


def new_connect4(page: Any, base_url: str, width: int, height: int, connect: int, yellow: str) -> None:
    page.goto(f"{base_url}/play/connect4")
    page.wait_for_selector("#board .cell")
    page.fill("#opt-width", str(width))
    page.fill("#opt-height", str(height))
    page.fill("#opt-connect", str(connect))
    page.select_option("#seat-1", yellow)
    page.click("#new-game")
    page.wait_for_function(f"() => document.querySelectorAll('#board .cell').length === {width * height}")


def moves_played(page: Any) -> int:
    return int(page.locator("#moves > .ply").count())


@pytest.mark.slow
def test_index_lists_every_game(page: Any, base_url: str) -> None:
    page.goto(base_url)
    page.wait_for_selector("a.game-link")
    names = page.locator("a.game-link").all_inner_texts()
    assert {"connect4", "pentomino", "mnk", "nqueens"} <= set(names)
    check_screenshot(page, ["h1", "#games"])


@pytest.mark.slow
def test_connect4_following_the_scores_beats_perfect(page: Any, base_url: str) -> None:
    new_connect4(page, base_url, 5, 4, 3, "perfect")
    page.check("#show-scores")
    # focus the page, not an input (digits play)
    page.locator("#board").click(position={"x": 1, "y": 1})
    while "wins" not in page.inner_text("#status") and "Draw" not in page.inner_text("#status"):
        played = moves_played(page)
        # every playable column solved (\u2026 marks one still being solved)
        page.wait_for_function(
            "() => { const t = [...document.querySelectorAll('#scores .score')].map((d) => d.textContent.trim());"
            " return t.some((x) => /\\d/.test(x)) && !t.some((x) => x === '\u2026'); }"
        )
        scores = {c: page.inner_text(f"#score-{c}").strip() for c in range(1, 6)}
        best = max((int(s), c) for c, s in scores.items() if re.fullmatch(r"[+-]?\d+", s))[1]
        page.keyboard.press(str(best))  # digit keys play
        page.wait_for_function(
            f"() => document.getElementById('status').textContent.includes('wins') || "
            f"document.querySelectorAll('#moves > .ply').length >= {played + 2}"
        )
    assert page.inner_text("#status").startswith("red wins")
    assert page.locator("#board .cell.win").count() == 3
    check_screenshot(page, ["#board", "#status", "#moves", "#undo", "#save"])


@pytest.mark.slow
def test_two_humans_undo_save_and_load(page: Any, base_url: str, tmp_path: Path) -> None:
    new_connect4(page, base_url, 7, 6, 4, "human")
    for column in (4, 4, 5):
        played = moves_played(page)
        # a click anywhere in the column
        page.click(f'#board .cell[data-row="0"][data-col="{column - 1}"]')
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {played + 1}")
    assert page.locator("#board .cell.p0").count() == 2 and page.locator("#board .cell.p1").count() == 1
    page.click("#undo")  # the move list keeps the move taken back, after the current one
    page.wait_for_function("() => document.querySelector('#moves .current').dataset.ply === '2'")
    assert page.inner_text("#moves") == "1. 4 4 2. 5" and page.locator("#moves .future").count() == 1
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    # as the terminal saves it
    assert data["format"] == "gridgames-moves" and data["game"] == "connect4" and data["moves"] == "44"
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('no move')")
    page.set_input_files("#load-file", str(saved))
    page.wait_for_function("() => document.getElementById('moves').textContent.trim() === '1. 4 4'")
    assert page.locator("#board .cell.p0").count() == 1 and page.inner_text("#status").startswith("red")


def test_a_bad_move_shows_one_error_line_not_a_stack_trace(page: Any, base_url: str) -> None:
    new_connect4(page, base_url, 7, 6, 4, "human")
    page.fill("#move-text", "9")
    page.press("#move-text", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert "no column 9" in message and "Traceback" not in message
    # no session
    response = page.request.post(f"{base_url}/api/play/connect4/move", data={"move": "4"})
    assert response.status == 401 and "X-Session" in response.json()["error"]


@pytest.mark.slow
def test_count_6x10_pentomino_tilings_and_page_through_them(page: Any, base_url: str, tmp_path: Path) -> None:
    page.goto(f"{base_url}/puzzle/pentomino")
    page.wait_for_selector("#preset option[value='6x10']", state="attached")
    page.select_option("#preset", "6x10")
    page.click("#count")
    page.wait_for_function("() => document.getElementById('count-result').dataset.count !== undefined")
    assert "9,356 solutions" in page.inner_text("#count-result")
    page.click("#first")
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('solution 1 of')")
    page.click("#next")
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('solution 2 of')")
    assert page.locator("#solution svg text").count() == 12  # the twelve pieces, by name
    with page.expect_download() as download:
        page.click("#download-svg")
    svg = tmp_path / "tiling.svg"
    download.value.save_as(svg)
    assert svg.read_text().lstrip().startswith("<svg")
    check_screenshot(page, ["#preset", "#count", "#count-result", "#solution svg", "#next", "#download-json"])


def test_count_can_be_cancelled_from_the_page(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/puzzle/pentomino")
    page.fill("#opt-board", "8x8")
    page.fill("#opt-pieces", "pentominoes+O")
    page.click("#count")
    page.wait_for_selector("#job:not([hidden])")
    page.click("#cancel")
    page.wait_for_function("() => document.getElementById('count-result').textContent.length > 0")
    assert "partial" in page.inner_text("#count-result") or "cancelled" in page.inner_text("#count-result")


def test_an_example_plugin_game_plays_on_the_generic_page(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/mnk")
    page.wait_for_selector("#board .cell")
    page.select_option("#seat-1", "ai")
    page.fill("#think", "0.3")
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('no move')")
    page.click('#board .cell[data-row="1"][data-col="1"]')  # b2, the centre
    page.wait_for_function("() => document.querySelectorAll('#moves > .ply').length === 2")
    assert page.inner_text("#moves").startswith("1. b2 ")
    assert page.locator("#board .cell.p0").count() == 1 and page.locator("#board .cell.p1").count() == 1
    # every move is a click on the board, its cell dotted
    assert page.locator("#legal button").count() == 0
    check_screenshot(page, ["#board", "#seat-0", "#seat-1", "#board .cell.legal", "#moves"])


def _place_a_piece_by_clicking(page: Any) -> bool:
    """Choose the first piece that can go down, turn it until a cell under the pointer previews green, click there."""
    for piece in range(page.locator("#pieces button.piece:not([disabled])").count()):
        page.locator("#pieces button.piece:not([disabled])").nth(piece).click()
        size = len(page.locator("#pieces .piece.chosen svg rect").all())
        for _ in range(8):
            for cell in page.locator("#board .cell:not(.p0):not(.p1)").all():
                cell.hover()
                if page.locator("#board .cell.preview-ok").count() == size:
                    cell.click()
                    return True
            if page.locator("#piece-rotate").is_disabled():
                break
            page.keyboard.press("r" if _ % 4 != 3 else "f")
    return False


@pytest.mark.slow
def test_golomb_is_played_to_its_end_by_choosing_pieces_and_clicking(page: Any, base_url: str) -> None:
    pytest.importorskip("gridgames_golomb", reason="the golomb example is not installed: pip install ./examples/golomb")
    page.goto(f"{base_url}/play/golomb")
    page.wait_for_selector("#pieces button.piece")
    page.fill("#opt-width", "5")
    page.fill("#opt-height", "5")
    page.select_option("#seat-1", "random")
    page.click("#new-game")
    # the first game's 8x8 board also reads "no move": wait for the new game's 5x5 board
    page.wait_for_function("() => document.querySelectorAll('#board .cell').length === 25")
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('no move')")
    assert page.locator("#pieces button.piece").count() == 12 and page.locator("#board .cell.target").count() == 25
    page.locator('#pieces button.piece[data-piece="X"]').click()
    # the X's top cell in the corner: off the board
    page.locator('#board .cell[data-row="0"][data-col="0"]').hover()
    assert page.locator("#board .cell.preview-bad").count() == 4 and "off the board" in page.inner_text("#piece-note")
    played = 0
    while "wins" not in page.inner_text("#status"):
        page.wait_for_function(
            "() => /wins/.test(document.getElementById('status').textContent)"
            " || (/^First \\S+ to move/.test(document.getElementById('status').textContent)"
            " && document.querySelector('#pieces button.piece:not([disabled])') !== null)"
        )
        if "wins" in page.inner_text("#status"):
            break
        before = moves_played(page)
        assert _place_a_piece_by_clicking(page), "no piece could be placed although the game goes on"
        played += 1
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length > {before}")
    assert played >= 1 and "cannot place a piece" in page.inner_text("#status")
    assert page.locator("#board .cell.p0").count() == 5 * played
    check_screenshot(page, ["#board", "#pieces", "#moves"])
