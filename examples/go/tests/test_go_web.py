"""Go through the web API: the pass offered beside the other moves, the players' colours, the end by two passes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

URL = "/api/play/go"


@pytest.fixture
def api() -> Iterator[Any]:
    from gridgames_test_support.web import app_api

    with app_api() as session:
        yield session


def test_the_pass_is_offered_beside_every_move_and_two_passes_end_the_game(api: Any) -> None:
    view = api.ok("POST", f"{URL}/new", {"options": {"size": 5}, "seats": ["human", "human"]})
    assert view["pass"] == "pass" and len(view["legal"]) == 26 and view["paths"] is None
    assert view["colours"] == ["#111111", "#f5f5f5"]
    assert view["targets"]["C3"] == [[2, 2]]
    view = api.ok("POST", f"{URL}/move", {"move": "C3"})
    assert view["pass"] == "pass" and view["board"]["cells"][2][2] == 1 and "#111111" in view["svg"]
    view = api.ok("POST", f"{URL}/move", {"move": "pass"})
    assert view["pass"] == "pass" and view["outcome"] is None
    view = api.ok("POST", f"{URL}/move", {"move": "pass"})
    assert view["outcome"]["text"] == "Black wins 25-7.5: both players passed" and view["pass"] is None
