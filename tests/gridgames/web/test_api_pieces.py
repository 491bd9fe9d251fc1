"""Whole-piece moves on the web API (Golomb's game): the piece list instead of click targets, refusals that say why."""

from __future__ import annotations

import pytest
from gridgames_test_support.web import Api

pytest.importorskip("gridgames_golomb", reason="the golomb example is not installed: pip install ./examples/golomb")

GOLOMB = "/api/play/golomb"


def test_the_view_sends_the_pieces_and_every_placements_text_not_click_targets(api: Api) -> None:
    view = api.ok("POST", f"{GOLOMB}/new", {"seats": ["human", "human"]})
    assert view["targets"] == {}  # no MAX_TARGETS guessing: the page places pieces with the picker
    pieces = view["pieces"]
    assert [p["name"] for p in pieces["pieces"]] == list("FILNPTUVWXYZ") and all(
        p["playable"] for p in pieces["pieces"]
    )
    i = next(p for p in pieces["pieces"] if p["name"] == "I")
    assert i["orientations"] == [[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]]
    assert len(pieces["moves"]) == 2308 == len(view["legal"]) and pieces["moves"]["1/0/0/0"] == "I1@a8"
    api.ok("POST", f"{GOLOMB}/move", {"move": "I1@a8"})
    view = api.ok("GET", GOLOMB)
    assert view["history"] == ["I1@a8"] and not view["pieces"]["pieces"][1]["playable"]
    assert "I1@a7" not in view["legal"] and view["pieces"]["moves"]["1/0/1/0"] == "I1@a7"


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("I1@a7", "piece I is already used"),
        ("L1@a8", "overlaps the filled cell a8"),
        ("L1@a2", "off the board: 3 of its cells outside the 8x8 board"),
        ("Q1@a2", "unknown piece 'Q'"),
    ],
)
def test_a_refused_piece_says_why(api: Api, move: str, words: str) -> None:
    api.ok("POST", f"{GOLOMB}/new", {"seats": ["human", "human"]})
    api.ok("POST", f"{GOLOMB}/move", {"move": "I1@a8"})
    response = api.post(f"{GOLOMB}/move", {"move": move})
    assert 400 <= response.status_code < 500 and words in response.json()["error"]
    assert api.ok("GET", GOLOMB)["history"] == ["I1@a8"]


def test_a_game_without_piece_moves_has_no_piece_list(api: Api) -> None:
    assert api.ok("POST", "/api/play/mnk/new", {})["pieces"] is None


def test_the_piece_picker_script_ships_and_the_page_loads_it(client: object) -> None:
    assert client.get("/static/pieces.js").status_code == 200  # type: ignore[attr-defined]
    assert '<script src="/static/pieces.js"></script>' in client.get("/play/golomb").text  # type: ignore[attr-defined]
