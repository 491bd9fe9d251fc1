"""Every example's page in a real headless browser, on a desktop (1280 px) and a phone (390 px, mobile emulation).

Each page is opened on a position a few moves in (a shared link) and checked: the board fills its share of the
window, nothing scrolls sideways. Hex draws its coordinates and its players' edges; the computer's engine details
stay behind the "Engine" toggle, out of the status line; a game drawn only by its own SVG (no board) is played to
its end by clicking the picture's targets. With GRIDGAMES_SCREENSHOTS=1 the screenshots are kept as
docs/web/page-NAME-desktop.png and -phone.png. Skipped, saying why, without Playwright or a Chromium.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from gridgames_test_support.browser import browser_context, browser_or_skip, png_colours, running_server, small_png

CHROMIUM = browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames.game import Game  # noqa: E402
from gridgames.registry import GROUP, Registry, load_game  # noqa: E402
from gridgames.web.app import ServerConfig, create_app  # noqa: E402

PICTURES = Path(__file__).resolve().parents[3] / "docs" / "web"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
EXAMPLES = {  # the page of each, and how many moves into a game it is shown (the first legal ones)
    "mnk": ("play", 3),
    "othello": ("play", 4),
    "hex": ("play", 5),
    "golomb": ("play", 3),
    "connect4": ("play", 4),
    "go": ("play", 3),
    "draughts": ("play", 2),
    "g2048": ("play", 0),
    "nqueens": ("puzzle", 0),
    "pentomino": ("puzzle", 0),
}
ENGINE_WORDS = re.compile(r"\bnodes?\b|\bplayouts?\b|\bdepth\b|\bvisits?\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(create_app(ServerConfig())) as url:
        yield url


@pytest.fixture(scope="module", params=["desktop", "phone"])
def tab(request: Any) -> Iterator[tuple[str, Any]]:
    """A tab of a desktop or a phone browser; the test fails on any error in the page's scripts."""
    assert CHROMIUM is not None
    with browser_context(CHROMIUM, **(DESKTOP if request.param == "desktop" else PHONE)) as browser:
        browser.set_default_timeout(60_000)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield request.param, page
        assert not errors, errors


def _opening(name: str, plies: int) -> list[str]:
    """The first legal move ``plies`` times from the start: a position a few moves in."""
    game = load_game(name).make()
    assert isinstance(game, Game)
    state, moves = game.new_state(), []
    for _ in range(plies):
        move = state.search_order()[len(moves) % 3] if len(state.search_order()) > 3 else state.search_order()[0]
        moves.append(game.format_move(move))
        state.play(move)
    return moves


def _keep(page: Any, name: str) -> None:
    page.mouse.move(0, 0)
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    png = page.screenshot(full_page=True, scale="css")
    width, height, colours = png_colours(page, png)
    assert width >= 300 and height >= 300 and colours >= 8, (width, height, colours)
    if os.environ.get("GRIDGAMES_SCREENSHOTS"):
        PICTURES.mkdir(parents=True, exist_ok=True)
        (PICTURES / f"{name}.png").write_bytes(small_png(page, png))


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_examples_page_fits_the_window_and_fills_it(tab: tuple[str, Any], base_url: str, name: str) -> None:
    pytest.importorskip(f"gridgames_{name}", reason=f"the {name} example is not installed")
    where, page = tab
    kind, plies = EXAMPLES[name]
    moves = ",".join(_opening(name, plies)) if kind == "play" else ""
    page.goto(f"{base_url}/{kind}/{name}" + (f"?pos={moves}" if moves else ""))
    if kind == "play":
        page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {plies}")
        board = page.locator("#board").bounding_box()
        window = page.evaluate("document.documentElement.clientWidth")
        # beside the side panel on a desktop, the whole width on a phone
        share = 0.8 if where == "phone" else 0.3
        assert board is not None and board["width"] >= share * window, (board, window)
        assert "This game offers no scores" not in page.inner_text("body")
        if name == "golomb":  # three pieces placed: 15 cells, each piece its own colour and name
            cells = page.eval_on_selector_all(
                "#board .cell.marked", "(els) => els.map((e) => [e.textContent, e.style.background])"
            )
            assert len(cells) == 15 and len(set(map(tuple, cells))) == 3, cells
    else:  # a puzzle: its first solution drawn
        page.wait_for_selector("#first:not([disabled])")
        page.click("#first")
        page.wait_for_function("() => !document.getElementById('page-label').textContent.includes('no solution')")
        page.wait_for_selector("#solution svg")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "document.documentElement.clientWidth"
    ), "the page scrolls sideways"
    _keep(page, f"page-{name}-{where}")


def test_hex_draws_its_coordinates_and_its_players_edges(tab: tuple[str, Any], base_url: str) -> None:
    pytest.importorskip("gridgames_hex", reason="the Hex example is not installed")
    _, page = tab
    page.goto(f"{base_url}/play/hex?pos=d4,")
    page.wait_for_function("() => (document.querySelector('#moves > .ply') || {}).textContent === 'd4'")
    page.wait_for_selector("#board svg text.coord")
    labels = page.locator("#board svg text.coord").all_text_contents()
    # the columns over the top row, the rows down the left side
    assert labels == [*"abcdefg", *"1234567"]
    a1 = page.locator('#board [data-row="0"][data-col="0"]').bounding_box()
    a_label = page.locator("#board svg text.coord").first.bounding_box()
    # above a1
    assert a1 is not None and a_label is not None and a_label["y"] + a_label["height"] <= a1["y"] + 2
    edges = page.eval_on_selector_all(
        "#board svg [data-edge]", "(els) => els.map((e) => [e.dataset.edge, e.getAttribute('stroke')])"
    )
    assert sorted(edges) == sorted(
        [["top", "#d62728"], ["bottom", "#d62728"], ["left", "#1f77b4"], ["right", "#1f77b4"]]
    )  # Red's top and bottom, Blue's left and right
    # every empty cell marked as a legal move
    assert page.locator("#board svg circle.legal-dot").count() == 48
    # no button for what a click on the board plays
    assert page.locator("#legal button").count() == 0


@pytest.mark.parametrize(("name", "engine"), [("hex", "negamax"), ("golomb", "mcts")])
def test_no_status_line_shows_the_engines_counts(tab: tuple[str, Any], base_url: str, name: str, engine: str) -> None:
    pytest.importorskip(f"gridgames_{name}", reason=f"the {name} example is not installed")
    _, page = tab
    page.goto(f"{base_url}/play/{name}")
    page.wait_for_selector("#board svg, #board .cell")
    page.fill("#think", "0.3")
    page.select_option("#seat-0", engine)  # the computer moves first
    page.select_option("#seat-1", "human")
    page.click("#new-game")
    page.wait_for_function("() => document.querySelectorAll('#moves > .ply').length")
    page.wait_for_function("() => !document.getElementById('engine').hidden")
    status = page.inner_text("#status")
    assert not ENGINE_WORDS.search(status), status
    engine = page.locator("#engine")
    assert engine.get_attribute("open") is None  # behind the toggle, closed by default
    assert ENGINE_WORDS.search(page.eval_on_selector("#engine-text", "(e) => e.textContent"))
    page.click("#engine summary")
    assert page.locator("#engine-text").is_visible()


def test_a_game_drawn_by_its_own_svg_is_played_by_clicking_its_targets(tab: tuple[str, Any]) -> None:
    _, page = tab
    registry = Registry.from_list([EntryPoint("pictured", "gridgames_test_support.pictured:SPEC", GROUP)])
    with running_server(create_app(ServerConfig(), registry=registry)) as url:
        page.goto(f"{url}/play/pictured")
        page.wait_for_selector("#board svg [data-move].target")
        page.select_option("#seat-1", "human")
        page.click("#new-game")
        page.wait_for_function("() => document.querySelectorAll('#board svg .target').length === 6")
        assert page.locator("#legal button").count() == 0  # every move is on the picture
        clicks = [
            '[data-move="l1"]',
            '[data-row="0"][data-col="1"]',
            '[data-move="l3"]',
            '[data-move="l2"]',
            '[data-row="0"][data-col="0"]',
            '[data-row="0"][data-col="2"]',
        ]
        for number, target in enumerate(clicks, start=1):
            page.click(f"#board svg {target}")
            page.wait_for_function(f"() => document.querySelectorAll('#moves > .ply').length === {number}")
        played = [t.strip() for t in page.locator("#moves > .ply").all_inner_texts()]
        assert played == ["l1", "p2", "l3", "l2", "p1", "p3"]
        assert page.inner_text("#status").startswith("First wins")
        assert page.locator("#board svg .target").count() == 0
