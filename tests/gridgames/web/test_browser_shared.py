"""A shared Connect Four URL (``connect4 show --url``) opens the play page at that position with its exact scores,
in a real headless browser (skipped, with the reason, when Playwright or a Chromium is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.browser import browser_or_skip, running_server

browser_or_skip()  # skips the module without the extras or a Chromium

from gridgames_connect4.position.rules import Connect4  # noqa: E402 - after the skips above
from gridgames_connect4.surfaces.share import position_url  # noqa: E402
from gridgames_connect4.solve.solver import Solver  # noqa: E402
from gridgames.web.app import ServerConfig, create_app  # noqa: E402


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(create_app(ServerConfig())) as url:
        yield url


@pytest.mark.slow
def test_a_shared_url_opens_the_position_with_its_scores(page: Any, base_url: str) -> None:
    game = Connect4(5, 4, 4)
    moves = list(game.from_notation("3321").history)
    page.goto(position_url(game, moves, base_url))
    page.wait_for_function("() => document.getElementById('moves').textContent.trim() === '1. 3 3 2. 2 1'")
    assert page.locator("#board .cell.p0").count() == 2 and page.locator("#board .cell.p1").count() == 2
    assert page.input_value("#opt-width") == "5" and page.input_value("#opt-height") == "4"
    assert [page.input_value(f"#seat-{i}") for i in (0, 1)] == ["human", "human"]
    page.wait_for_function(  # every column solved (\u2026 marks one still being solved)
        "() => { const t = [...document.querySelectorAll('#scores .score')].map((d) => d.textContent.trim());"
        " return t.filter((x) => /^[+-]?\\d+$/.test(x)).length === 5; }"
    )
    shown = [int(page.inner_text(f"#score-{c}").strip()) for c in range(1, 6)]
    assert shown == Solver(5, 4, 4, table_bits=16).analyze(moves)


def test_a_shared_url_with_an_illegal_move_shows_where_it_stopped(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/play/connect4?pos=44444449&width=7")
    page.wait_for_selector("#error:not([hidden])")
    assert "move 7 (4)" in page.inner_text("#error")
    assert page.locator("#board .cell.p0").count() + page.locator("#board .cell.p1").count() == 6
