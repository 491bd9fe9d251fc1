"""Draughts through the web API: each legal move's path for the page's piece-then-target clicks, short forms typed
and their ambiguity explained."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

URL = "/api/play/draughts"
DOUBLE = "11-15 21-17 12-16 23-19 16x23"  # White then takes 26x19 or 27x18x11
# White then has 22x13x6 and 22x15x6
AMBIGUOUS = "10-15 23-19 9-13 19x10 6x15 24-20 15-18 22x15 11x18 27-24 5-9 20-16 12x19 24x15 7-10 15x6 1x10 26-22 13-17"


@pytest.fixture
def api() -> Iterator[Any]:
    from gridgames_test_support.web import app_api

    with app_api() as session:
        yield session


def _new(api: Any, moves: str = "") -> dict[str, Any]:
    view = api.ok("POST", f"{URL}/new", {"seats": ["human", "human"]})
    for move in moves.split():
        view = api.ok("POST", f"{URL}/move", {"move": move})
    return dict(view)


def test_the_view_gives_each_moves_path_and_no_cell_targets(api: Any) -> None:
    view = _new(api)
    assert view["targets"] == {} and view["pass"] is None and view["colours"] == ["#222222", "#f2efe6"]
    assert view["paths"]["9-13"] == [[2, 1], [3, 0]] and len(view["paths"]) == 7
    view = _new(api, DOUBLE)
    assert view["paths"] == {"26x19": [[6, 3], [4, 5]], "27x18x11": [[6, 5], [4, 3], [2, 5]]}


def test_a_short_form_is_read_in_the_position(api: Any) -> None:
    _new(api, DOUBLE)
    view = api.ok("POST", f"{URL}/move", {"move": "27x11"})
    assert view["history"][-1] == "27x18x11"


def test_an_ambiguous_short_form_names_the_candidates(api: Any) -> None:
    _new(api, AMBIGUOUS)
    response = api.post(f"{URL}/move", {"move": "22x6"})
    assert response.status_code == 400
    assert "'22x6' is ambiguous here: 22x13x6 or 22x15x6" in response.text


def test_the_play_page_loads_the_piece_then_target_script(api: Any) -> None:
    assert api.client.get("/static/paths.js").status_code == 200
    assert '<script src="/static/paths.js"></script>' in api.client.get("/play/draughts").text
