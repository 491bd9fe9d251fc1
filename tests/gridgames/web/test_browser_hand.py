"""Tiling by hand in a real headless browser (the system's Chromium through Playwright), at phone and desktop widths.

The 3x20 pentomino rectangle is solved from a given partial tiling: a piece placed by the keyboard (the count of
completions changes to the one the solver gives in Python), a piece dragged from the picker that cuts a cell off
(the dead cell is reported and drawn), undone, then the hint button until the page says solved. Triangle and cube
boards open and take a hinted piece. Each page is photographed at 375 px and 1280 px, light and dark, into
docs/web/ (docs/web.md shows them); no width scrolls sideways or lets the board and the side panel overlap.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from gridgames_test_support.browser import browser_or_skip, running_server

browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames_pentomino.puzzle import TilingPuzzle  # noqa: E402 - after the skips above
from gridgames_pentomino.web import PentominoWeb  # noqa: E402

from gridgames.game import Placement  # noqa: E402
from gridgames.web.app import ServerConfig, create_app, prepare_games  # noqa: E402
from gridgames.web.hand import Layout, build_layout, dead_cells  # noqa: E402

SHOTS = Path(__file__).resolve().parents[3] / "docs" / "web"
WIDTHS = {"phone": (375, 740), "desktop": (1280, 860)}


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app(ServerConfig())
    # as `gridgames serve` does: the kernels loaded before the first check
    prepare_games(app, lambda _line: None)
    with running_server(app) as url:
        yield url


def _layout_3x20() -> tuple[Any, Layout]:
    puzzle = TilingPuzzle.create("3x20")
    return puzzle, build_layout(PentominoWeb().hand_pieces(puzzle))


def _numbers(layout: Layout, solution: Any) -> list[int]:
    index = {c: i for i, c in enumerate(layout.cells)}
    lookup = {(layout.pieces[p]["name"], cells): n for n, (p, _, cells) in enumerate(layout.placements)}
    return [lookup[(p.piece, tuple(sorted(index[tuple(c)] for c in p.cells)))] for p in solution]


def _completions(puzzle: Any, layout: Layout, placed: list[int]) -> int:
    """The completions of ``placed``, counted by the solver here (what the page must show)."""
    pieces = [layout.placements[n] for n in placed]
    rest = PentominoWeb().hand_rest(
        puzzle, [Placement(layout.pieces[p]["name"], tuple(layout.cells[i] for i in cells)) for p, _, cells in pieces]
    )
    return int(rest.count().count)


def _keys_to(layout: Layout, piece: int, target: int) -> list[str]:
    """The shortest run of transform keys from a piece's first orientation to ``target``."""
    seen, queue = {0: []}, deque([0])
    while queue:
        at = queue.popleft()
        for transform in layout.transforms:
            nxt = transform["maps"][piece][at]
            if nxt >= 0 and nxt not in seen:
                seen[nxt] = [*seen[at], transform["key"]]
                queue.append(nxt)
    return seen[target]


def _status(page: Any) -> dict[str, str]:
    page.wait_for_function(
        "() => { const s = document.getElementById('hand-status');"
        " return s.dataset.count !== undefined || s.dataset.solved !== undefined; }"
    )
    return dict(page.eval_on_selector("#hand-status", "(s) => ({...s.dataset, text: s.textContent})"))


def _cell(page: Any, index: int) -> Any:
    return page.locator(f'#hand-board polygon[data-i="{index}"]')


def _choose(page: Any, layout: Layout, number: int) -> None:
    """Pick a placement's piece in the picker and turn it to the placement's orientation with the keys."""
    piece, orientation, _ = layout.placements[number]
    page.click(f'#hand-pieces button[data-piece="{layout.pieces[piece]["name"]}"]')
    for key in _keys_to(layout, piece, orientation):
        page.keyboard.press(key)
    page.wait_for_function(
        f"() => document.getElementById('hand-orientation').textContent.includes('orientation {orientation + 1} of')"
    )


def _no_sideways_scroll_nor_overlap(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    board = page.locator("#hand-board").bounding_box()
    side = page.locator(".pz-side").bounding_box()
    if board and side:
        apart = board["x"] + board["width"] <= side["x"] + 1 or side["y"] >= board["y"] + board["height"] - 1
        assert apart, (board, side)


def _keep(page: Any, file: str) -> None:
    """Take the screenshot; with GRIDGAMES_SCREENSHOTS=1 keep it as docs/web/FILE (a run leaves docs/ as it was)."""
    png = page.screenshot()
    assert len(png) > 1000
    if os.environ.get("GRIDGAMES_SCREENSHOTS"):
        (SHOTS / file).write_bytes(png)


def _shoot(page: Any, name: str) -> None:
    """Screenshots of the page at both widths (light) into docs/web/, and of the 3x20 in dark mode (every page is
    checked dark)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        _no_sideways_scroll_nor_overlap(page)
        if name == "3x20" and label == "phone":  # turned a quarter: cells big enough to touch
            cell = _cell(page, 0).bounding_box()
            board = page.locator("#hand-board svg").bounding_box()
            assert cell["width"] >= 20 and board["height"] > board["width"], (cell, board)
        _keep(page, f"puzzle-{name}-{label}.png")
    page.emulate_media(color_scheme="dark")
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 20, 23)", background  # the dark palette is in use
    if name == "3x20":  # one dark picture is enough for the guide
        _keep(page, f"puzzle-{name}-desktop-dark.png")
    page.emulate_media(color_scheme="light")


@pytest.mark.slow
def test_solve_the_3x20_by_hand_from_a_partial_tiling_with_hints(page: Any, base_url: str) -> None:
    puzzle, layout = _layout_3x20()
    solution = _numbers(layout, next(puzzle.solutions()))
    counts = [_completions(puzzle, layout, solution[:k]) for k in range(len(solution))]
    # a placement that changes it
    k = next(k for k in range(1, len(solution) - 3) if counts[k] != counts[k + 1])
    given = solution[:k]
    page.set_viewport_size({"width": 1280, "height": 860})
    page.goto(f"{base_url}/puzzle/pentomino?preset=3x20&placed={','.join(map(str, given))}")
    assert _status(page)["count"] == str(counts[k])
    assert page.locator("#hand-board polygon.covered").count() == 5 * k

    # the next piece of the solution, placed with the keyboard: arrows to its first cell, Enter
    _choose(page, layout, solution[k])
    page.focus("#hand-board")
    page.keyboard.press("Enter")  # the cursor appears on the first cell
    target = layout.placements[solution[k]][2][0]
    row, col = layout.cells[target]
    for _ in range(col):
        page.keyboard.press("ArrowRight")
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#hand-board polygon.covered').length === {5 * k + 5}")
    status = _status(page)
    # the address keeps them
    assert unquote(page.url).endswith("placed=" + ",".join(map(str, solution[: k + 1])))
    assert status["count"] == str(counts[k + 1]) != str(counts[k]) and status["partial"] == "false"

    # a piece dragged from the picker that cuts a cell off: the dead cell is reported, then undone
    placed = solution[: k + 1]
    covered = {c for n in placed for c in layout.placements[n][2]}
    used = {layout.placements[n][0] for n in placed}
    bad = next(
        n
        for n, (p, _, cells) in enumerate(layout.placements)
        if p not in used and not covered.intersection(cells) and dead_cells(layout, [*placed, n])
    )
    dead = dead_cells(layout, [*placed, bad])
    _choose(page, layout, bad)
    button = page.locator(f'#hand-pieces button[data-piece="{layout.pieces[layout.placements[bad][0]]["name"]}"]')
    source = button.bounding_box()
    spot = _cell(page, layout.placements[bad][2][0]).bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "() => document.getElementById('hand-status').dataset.dead !== undefined"
        " && document.getElementById('hand-status').dataset.dead !== '0'"
    )
    status = _status(page)
    assert status["dead"] == str(len(dead)) and status["count"] == "0" and "Cannot be completed" in status["text"]
    assert (
        sorted(
            int(x) for x in page.eval_on_selector_all("#hand-board polygon.dead", "(ps) => ps.map((p) => p.dataset.i)")
        )
        == dead
    )
    page.focus("#hand-board")
    page.keyboard.press("z")
    page.wait_for_function(f"() => document.querySelectorAll('#hand-board polygon.covered').length === {5 * k + 5}")
    assert _status(page)["count"] == str(counts[k + 1]) and page.locator("#hand-board polygon.dead").count() == 0

    # a click on a placed piece takes it back (chosen as it lay); a click on its first cell puts it back
    first = solution[0]
    _cell(page, layout.placements[first][2][2]).click()
    page.wait_for_function(f"() => document.querySelectorAll('#hand-board polygon.covered').length === {5 * k}")
    assert (
        page.get_attribute(
            f'#hand-pieces button[data-piece="{layout.pieces[layout.placements[first][0]]["name"]}"]', "aria-pressed"
        )
        == "true"
    )
    _cell(page, layout.placements[first][2][0]).click()
    page.wait_for_function(f"() => document.querySelectorAll('#hand-board polygon.covered').length === {5 * k + 5}")
    assert _status(page)["count"] == str(counts[k + 1])

    # Shift + a piece's letter picks it from the keyboard
    page.focus("#hand-board")
    page.keyboard.press("Shift+X")
    page.wait_for_function("() => document.getElementById('hand-orientation').textContent.startsWith('X:')")

    # hints to the end: each one outlined, placed with Enter
    for step in range(k + 1, 12):
        page.click("#hand-hint")
        page.wait_for_function("() => document.getElementById('hand-status').textContent.startsWith('Hint:')")
        assert page.locator("#hand-board polygon.hinted").count() == 5
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelectorAll('#hand-board polygon.covered').length === {5 * (step + 1)}"
        )
    status = _status(page)
    assert status.get("solved") == "true" and status["text"].startswith("Solved!")
    assert page.locator("#hand.solved").count() == 1
    assert len(unquote(page.url).split("placed=")[1].split(",")) == 12
    page.click("#hand-text summary")  # the board in words: twelve pieces, each with its five cells
    items = page.locator("#hand-list li").all_inner_texts()
    assert len(items) == 12 and all(item.count("row") == 5 for item in items)
    assert page.inner_text("#hand-free") == "12 pieces placed, 0 of 60 cells free."
    _shoot(page, "3x20")


@pytest.mark.parametrize(
    ("preset", "cells", "name"), [("triangle:6x6", 72, "triangle"), ("cube:2x3x10", 60, "cube"), ("hex:4x7", 28, "hex")]
)
@pytest.mark.slow
def test_lattice_boards_open_and_take_a_hinted_piece(
    page: Any, base_url: str, preset: str, cells: int, name: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 860})
    page.goto(f"{base_url}/puzzle/pentomino")
    page.wait_for_selector(f"#preset option[value='{preset}']", state="attached")
    page.select_option("#preset", preset)
    page.click("#hand-start")
    page.wait_for_function(f"() => document.querySelectorAll('#hand-board polygon').length === {cells}")
    start = _status(page)
    assert int(start["count"]) > 0
    page.click("#hand-hint")
    page.wait_for_function("() => document.getElementById('hand-status').textContent.startsWith('Hint:')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#hand-board polygon.covered').length > 0")
    status = _status(page)
    assert 0 < int(status["count"]) <= int(start["count"])
    labels = page.eval_on_selector_all("#hand-board text.llabel", "(ts) => ts.map((t) => t.textContent)")
    covered = page.locator("#hand-board polygon.covered").count()
    if name == "cube":  # every cube of a piece is labelled, and the layers are captioned
        assert len(labels) == covered == 5
        captions = page.eval_on_selector_all("#hand-board text.caption", "(ts) => ts.map((t) => t.textContent)")
        assert captions == ["layer 1", "layer 2"]
    else:
        assert len(labels) == 1
    assert page.get_attribute("#hand-board", "aria-label").startswith(f"the {'cubic' if name == 'cube' else ''}")
    _shoot(page, name)


@pytest.mark.slow
def test_after_a_count_the_pager_says_of_how_many_and_no_panel_jumps(page: Any, base_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 860})
    page.goto(f"{base_url}/puzzle/pentomino?preset=3x20&placed=")
    _status(page)
    top = (  # the board and the pager under the job bar: neither moves when the bar shows and goes
        "() => ['hand-board', 'prev'].map((id) => document.getElementById(id).getBoundingClientRect().top"
        " + window.scrollY).join(' ')"
    )
    board_at = page.evaluate(top)
    page.evaluate(  # every frame's place of the board, while the count's job bar shows and goes
        f"() => {{ window.tops = new Set();"
        f" const tick = () => {{ window.tops.add(({top})()); requestAnimationFrame(tick); }}; tick(); }}"
    )
    page.click("#count")
    page.wait_for_function("() => document.getElementById('count-result').dataset.count !== undefined")
    assert page.evaluate("() => [...window.tops]") == [board_at]  # the job bar's room is kept
    assert page.inner_text("#count-result").startswith("8 solutions")
    page.click("#first")
    page.wait_for_function("() => document.getElementById('page-label').textContent === 'solution 1 of 8'")
    for number in range(2, 9):
        page.click("#next")
        page.wait_for_function(f"() => document.getElementById('page-label').textContent === 'solution {number} of 8'")
    assert page.is_disabled("#next") and not page.is_disabled("#prev")
    assert page.evaluate(top) == board_at


def test_a_puzzle_without_pieces_says_it_cannot_be_tiled_by_hand(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/puzzle/nqueens")
    page.wait_for_selector("#options input", state="attached")
    page.click("#hand-start")
    page.wait_for_selector("#error:not([hidden])")
    assert "does not offer tiling by hand" in page.inner_text("#error") and page.is_hidden("#hand-start")
    assert page.is_hidden("#hand")
