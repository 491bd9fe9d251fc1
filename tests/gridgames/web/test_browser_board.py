"""The Connect Four analysis board in a real headless browser (the system's Chromium through Playwright): a game
played by clicking columns, the move list walked with the keys and branched, a shared link opened, phone and desktop
widths without horizontal scrolling or overlapping panels, dark mode, reduced motion.

With GRIDGAMES_SCREENSHOTS=1 the tests write the pictures of docs/web.md (docs/web/*.png); otherwise each
screenshot is only checked. Skipped, with the reason, when Playwright or a Chromium is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gridgames_test_support.browser import browser_or_skip, png_colours, running_server, small_png

browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames.web.app import ServerConfig, create_app  # noqa: E402 - after the skips above

PICTURES = Path(__file__).resolve().parents[3] / "docs" / "web"
PHONE, DESKTOP = {"width": 375, "height": 812}, {"width": 1280, "height": 860}
# where "show scores" used to push the panels under the board
NARROW = {"width": 1100, "height": 850}
DISCS = "document.querySelectorAll('#board .cell.p0, #board .cell.p1').length"
SCORE_4 = "(document.getElementById('score-4') || {}).textContent"


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(create_app(ServerConfig())) as url:
        yield url


@pytest.fixture
def page(page: Any) -> Any:
    """The conftest's fresh tab (failing on script errors), at desktop width."""
    page.set_viewport_size(DESKTOP)
    return page


def picture(page: Any, name: str) -> None:
    """Check the page's screenshot is not blank; with GRIDGAMES_SCREENSHOTS=1 keep it as docs/web/NAME.png."""
    page.mouse.move(0, 0)  # no hover, no disc in flight
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    png = page.screenshot(full_page=True, scale="css")
    width, height, colours = png_colours(page, png)
    assert width >= 300 and height >= 300 and colours >= 8, (width, height, colours)
    if os.environ.get("GRIDGAMES_SCREENSHOTS"):
        PICTURES.mkdir(parents=True, exist_ok=True)
        (PICTURES / f"{name}.png").write_bytes(small_png(page, png))


def fits(page: Any) -> None:
    """No horizontal scrolling, and no two of the page's panels overlap."""
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rects = page.evaluate(
        """() => { const els = [...document.querySelectorAll('#board, #scores, #evalbar, .side > *')]
        .filter((e) => e.offsetParent !== null);
        return els.map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.className, r.left, r.top,
        r.right, r.bottom]; }); }"""
    )
    for i, a in enumerate(rects):
        assert a[3] <= width + 0.5, f"{a[0]} reaches {a[3]} px, past the {width} px window"
        for b in rects[i + 1 :]:
            overlap = min(a[3], b[3]) - max(a[1], b[1]), min(a[4], b[4]) - max(a[2], b[2])
            assert overlap[0] <= 0.5 or overlap[1] <= 0.5, f"{a[0]} and {b[0]} overlap"


def new_game(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/connect4")
    page.wait_for_selector("#board .cell")
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('no move')")


def click_column(page: Any, column: int, row: int = 0) -> None:
    """Click a cell of the column (the top one by default: anywhere in the column plays it)."""
    before = page.evaluate(DISCS)
    page.click(f'#board .cell[data-row="{row}"][data-col="{column - 1}"]')
    page.wait_for_function(f"() => {DISCS} === {before + 1}")


CURRENT = (
    "(() => { const b = document.querySelector('#moves .current'); return b ? `${b.dataset.ply}.${b.textContent}` : '';"
    " })()"
)
"""The current move as ``PLY.MOVE`` (the move list shows it as numbered turns, "1. 4 4  2. 3")."""


def current_ply(page: Any) -> str:
    return str(page.evaluate(f"() => {CURRENT}"))


@pytest.mark.slow
def test_a_game_played_by_clicking_columns_with_scores_explanation_and_review(page: Any, base_url: str) -> None:
    new_game(page, base_url)
    page.wait_for_function(f"() => {SCORE_4} === '+1'")  # from the book: red wins
    # once every column is solved (not the partial scores)
    page.wait_for_selector("#scores .col.best")
    assert page.locator("#scores .col.best").count() == 1 and page.inner_text("#scores .col.best .end") == "41"
    assert "Best column(s): 4." in page.inner_text("#explain")
    assert "red wins" in (page.get_attribute("#evalbar", "aria-label") or "")
    # hover shows where the disc lands: the bottom cell
    page.hover('#board .cell[data-row="1"][data-col="2"]')
    assert page.locator('#board .cell.ghost[data-row="5"][data-col="2"]').count() == 1
    # any cell of the column plays it
    for column, row in [(1, 0), (2, 3), (1, 5), (2, 0), (1, 2), (2, 1)]:
        click_column(page, column, row)
    # the board in words, for screen readers
    label = page.get_attribute("#board .board", "aria-label") or ""
    assert label.endswith("red: a1 a2 a3; yellow: b1 b2 b3.") and "7 columns by 6 rows" in label, label
    assert "digits play a column" in page.inner_text("#keys")
    # red wins now
    page.wait_for_function("() => (document.getElementById('score-1') || {}).textContent === '+18'")
    picture(page, "analysis-desktop")
    fits(page)
    click_column(page, 1)
    assert page.inner_text("#status").startswith("red wins") and page.locator("#board .cell.win").count() == 4
    assert page.locator("#board .cell.p0").count() == 4 and page.locator("#board .cell.p1").count() == 3
    page.click("#review")
    page.wait_for_selector("#review-graph svg circle")
    assert page.locator("#review-graph svg circle").count() == 7
    assert page.locator("#review").is_hidden()  # reviewed: the button goes
    assert page.locator("#review-table tr").count() == 8  # a header and a row per move
    grades = page.locator("#review-table td:nth-child(6)").all_inner_texts()
    assert grades[-1] == "best" and ("mistake" in grades or "blunder" in grades), grades
    picture(page, "review-desktop")
    page.locator("#review-graph svg circle").nth(2).click()  # a dot of the graph goes to that move
    page.wait_for_function(f"() => {DISCS} === 3")
    assert current_ply(page) == "3.1" and page.locator("#review-table tr[aria-current] td").first.inner_text() == "3"
    # the review stays while the moves are walked
    assert page.locator("#review-graph svg circle").count() == 7


@pytest.mark.slow
def test_the_move_list_is_walked_with_the_keys_and_branches(page: Any, base_url: str) -> None:
    new_game(page, base_url)
    for column in (4, 4, 3, 5):
        click_column(page, column)
    # the columns named as the moves name them
    numbers = page.locator("#board .col-numbers div").all_inner_texts()
    assert numbers == [str(c) for c in range(1, 8)]
    # the last disc, 5, marked: the bottom of column 5
    assert page.locator("#board .cell.last").count() == 1
    assert page.locator('#board .cell.last.p1[data-row="5"][data-col="4"]').count() == 1
    page.locator("h1").click()  # the keys work from anywhere but a text box
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => {DISCS} === 3")
    assert current_ply(page) == "3.3" and page.inner_text("#moves") == "1. 4 4 2. 3 5"
    # the mark follows
    assert page.locator('#board .cell.last.p0[data-row="5"][data-col="2"]').count() == 1
    page.keyboard.press("Home")
    page.wait_for_function(f"() => {DISCS} === 0")
    page.keyboard.press("End")
    page.wait_for_function(f"() => {DISCS} === 4")
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => {DISCS} === 2")
    assert current_ply(page) == "2.4"
    click_column(page, 6)  # another move than 3: a branch
    assert current_ply(page) == "3.6" and "(2. 3)" in page.inner_text("#moves")
    page.keyboard.press("ArrowUp")  # the other branch at this move
    page.wait_for_function(f"() => {CURRENT} === '3.3'")
    page.keyboard.press("ArrowRight")  # forward along the branch it was on
    page.wait_for_function(f"() => {CURRENT} === '4.5'")
    page.locator('#moves .ply[data-ply="1"]').first.click()  # a click on a move goes there
    page.wait_for_function(f"() => {DISCS} === 1")
    assert page.locator('#board .cell.p0[data-row="5"][data-col="3"]').count() == 1
    assert page.inner_text("#announce") == "Move 1: red 4."  # the move reached, for screen readers
    # a column button in focus shows where its disc lands
    page.locator("#scores .col").nth(2).focus()
    assert page.locator('#board .cell.ghost[data-row="5"][data-col="2"]').count() == 1
    # the keyboard reaches the buttons, with a visible focus ring
    page.locator("#nav-forward").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {DISCS} === 2")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"


def test_a_shared_link_reopens_the_position_and_its_size(page: Any, base_url: str, context: Any) -> None:
    page.goto(f"{base_url}/play/connect4?pos=3321&width=5&height=4")
    page.wait_for_function(f"() => {CURRENT} === '4.1'")
    link = page.get_attribute("#share-link", "href")
    assert link == f"{base_url}/play/connect4?pos=3321&width=5&height=4"
    page.keyboard.press("ArrowLeft")  # the link follows the position shown
    page.wait_for_function(f"() => {DISCS} === 3")
    assert page.get_attribute("#share-link", "href") == f"{base_url}/play/connect4?pos=332&width=5&height=4"
    other = context.new_page()
    other.goto(page.get_attribute("#share-link", "href"))
    other.wait_for_function("() => document.querySelectorAll('#board .cell.p0, #board .cell.p1').length === 3")
    assert other.locator("#board .cell").count() == 20 and other.input_value("#opt-width") == "5"
    other.close()


@pytest.mark.slow
@pytest.mark.parametrize("width", [PHONE, NARROW, DESKTOP], ids=["phone", "1100px", "desktop"])
def test_pages_fit_phone_and_desktop_widths(page: Any, base_url: str, width: dict[str, int]) -> None:
    size = {PHONE["width"]: "phone", NARROW["width"]: "1100px"}.get(width["width"], "desktop")
    page.set_viewport_size(width)
    page.goto(base_url)
    page.wait_for_selector("a.game-link")
    assert page.evaluate("document.documentElement.scrollWidth") <= width["width"]
    if size != "1100px":
        picture(page, f"index-{size}")
    page.goto(f"{base_url}/play/connect4?pos=44355")
    page.wait_for_function(f"() => /^[+-]?\\d+$/.test({SCORE_4})")
    fits(page)
    page.uncheck("#show-scores")  # no layout jump: the board stays where it was when the scores go
    top = page.evaluate("document.getElementById('board').getBoundingClientRect().top")
    side = page.evaluate("document.querySelector('.side').getBoundingClientRect().left")
    page.check("#show-scores")
    page.wait_for_function(f"() => /^[+-]?\\d+$/.test({SCORE_4})")
    assert page.evaluate("document.getElementById('board').getBoundingClientRect().top") == top
    assert page.evaluate("document.querySelector('.side').getBoundingClientRect().left") == side
    if size != "phone":  # the panels stay beside the board
        assert side >= page.evaluate("document.getElementById('board').getBoundingClientRect().right")
    fits(page)
    if size == "phone":
        picture(page, "analysis-phone")
    page.goto(f"{base_url}/play/othello")
    page.wait_for_selector("#board .cell")
    fits(page)
    # its moves are letters and digits (d3): no digit keys
    assert "digits" not in page.inner_text("#keys")
    if size != "1100px":
        picture(page, f"othello-{size}")


def test_dark_mode_and_reduced_motion(page: Any, base_url: str) -> None:
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    page.set_viewport_size(PHONE)
    new_game(page, base_url)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(x) for x in background[background.index("(") + 1 : -1].split(",")[:3]]
    assert max(channels) < 60, background  # a dark page
    click_column(page, 4)
    assert page.locator("#board .cell.last").count() == 1 and page.locator("#board .cell.drop").count() == 0
    page.wait_for_function(f"() => /^[+-]?\\d+$/.test({SCORE_4})")
    fits(page)
    picture(page, "analysis-phone-dark")
    page.emulate_media(color_scheme="light", reduced_motion="no-preference")
    click_column(page, 4)
    assert page.locator("#board .cell.drop").count() == 1  # the disc falls down its column
    assert max(int(x) for x in page.evaluate("getComputedStyle(document.body).backgroundColor")[4:-1].split(",")) > 200


def test_the_board_stays_put_when_the_game_ends(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/connect4?pos=121212&width=5&height=4")  # two humans
    page.wait_for_function(f"() => {DISCS} === 6 && {SCORE_4} !== undefined")
    top = page.evaluate("document.getElementById('board').getBoundingClientRect().top")
    click_column(page, 1)
    assert page.inner_text("#status").startswith("red wins")
    assert page.evaluate("document.getElementById('board').getBoundingClientRect().top") == top


@pytest.mark.slow
def test_a_gravity_plugin_without_hooks_is_played_anywhere_in_a_column(context: Any) -> None:
    from importlib.metadata import EntryPoint

    from gridgames.registry import GROUP, Registry

    registry = Registry.from_list([EntryPoint("drop4", "gridgames_test_support.dropgame:SPEC", GROUP)])
    with running_server(create_app(ServerConfig(), registry=registry)) as url:
        tab = context.new_page()
        tab.goto(f"{url}/play/drop4")
        tab.wait_for_selector("#board .cell")
        tab.select_option("#seat-1", "human")
        tab.click("#new-game")
        tab.wait_for_function("() => document.getElementById('moves').textContent.includes('no move')")
        assert tab.locator("#board .cell.target").count() == 42  # every cell of every column
        tab.click('#board .cell[data-row="0"][data-col="3"]')  # the top cell of column 4
        tab.wait_for_function(f"() => {DISCS} === 1")
        # the disc lands at the bottom
        assert tab.locator('#board .cell.p0[data-row="5"][data-col="3"]').count() == 1
        # nothing to say
        assert tab.locator("#scores .col").count() == 7 and tab.locator("#explain-panel").is_hidden()
        tab.close()


def test_scores_are_hidden_against_the_computer_until_asked_and_the_choice_is_kept(page: Any, base_url: str) -> None:
    """Against a computer seat the scores would give the answer away: off by default, one click shows them, and the
    choice is remembered; between humans (an analysis board) they are on. The first mover's colour is a menu."""
    page.goto(f"{base_url}/play/connect4")
    page.wait_for_selector("#board .cell")
    assert page.input_value("#seat-1") != "human" and not page.is_checked("#show-scores")
    assert page.locator("#scores .col .score", has_text="+").count() == 0  # no score shown
    assert page.locator("select#opt-first option").all_inner_texts() == ["red", "yellow"]
    page.check("#show-scores")
    page.wait_for_function(f"() => {SCORE_4} === '+1'")
    page.reload()
    page.wait_for_selector("#board .cell")
    assert page.is_checked("#show-scores")  # remembered
    page.uncheck("#show-scores")
    new_game(page, base_url)  # two humans: on
    page.wait_for_function("() => document.getElementById('show-scores').checked")
