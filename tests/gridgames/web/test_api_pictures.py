"""What the play view tells the page to draw (issue 53): coordinates where the notation names cells, the game's
edges, its own picture, marks and counts; a game with no board played from its picture's targets."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import Any

import pytest
from gridgames_test_support.web import Api

from gridgames.registry import GROUP, Registry

HUMANS = {"seats": ["human", "human"]}


def _new(api: Api, name: str, **body: Any) -> dict[str, Any]:
    pytest.importorskip(f"gridgames_{name}", reason=f"the {name} example is not installed")
    return api.ok("POST", f"/api/play/{name}/new", {**HUMANS, **body})


def test_hex_names_its_rows_from_the_top_and_declares_its_edges(api: Api) -> None:
    view = _new(api, "hex", options={"size": 5})
    assert view["coordinates"] == {"cols": list("abcde"), "rows": list("12345")}
    assert view["edges"] == {"top": 0, "bottom": 0, "left": 1, "right": 1}
    assert view["own_picture"] is True and view["svg"].count("data-edge=") == 4
    # Red walks down column a and wins
    for move in ("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"):
        view = api.ok("POST", "/api/play/hex/move", {"move": move})
    assert view["outcome"]["winner"] == 0 and view["legal"] == []
    # still named at the end, with no move left to read
    assert view["coordinates"]["rows"] == list("12345")


def test_square_games_name_their_rows_as_their_notation_does(api: Api) -> None:
    # counted from the bottom
    assert _new(api, "mnk")["coordinates"] == {"cols": list("abc"), "rows": list("321")}
    othello = _new(api, "othello", options={"size": 6})
    assert othello["coordinates"] == {"cols": list("abcdef"), "rows": list("123456")}
    assert othello["own_picture"] is False and othello["edges"] == {}
    # columns are numbers
    assert api.ok("POST", "/api/play/connect4/new", HUMANS)["coordinates"] is None


def test_othello_keeps_its_disc_count_as_the_game_goes(api: Api) -> None:
    view = _new(api, "othello")
    assert view["tally"] == [{"name": "discs", "values": [2.0, 2.0], "text": "discs: Black 2, White 2"}]
    view = api.ok("POST", "/api/play/othello/move", {"move": "d3"})
    assert view["tally"][0]["values"] == [4.0, 1.0]  # d3 turns d4 over


def test_golombs_placed_pieces_are_told_apart(api: Api) -> None:
    view = _new(api, "golomb")
    assert view["coordinates"]["rows"][0] == "8" and view["marks"] is None
    api.ok("POST", "/api/play/golomb/move", {"move": "I1@a8"})
    view = api.ok("POST", "/api/play/golomb/move", {"move": "L1@a7"})
    marks = view["marks"]
    assert {marks[f"0,{c}"]["label"] for c in range(5)} == {"I"} and marks["0,0"]["player"] == 0
    ell = [m for m in marks.values() if m["label"] == "L"]
    assert len(ell) == 5 and {m["player"] for m in ell} == {1}
    assert ell[0]["colour"] != marks["0,0"]["colour"]  # each piece its own colour


@pytest.fixture
def pictured(client: Any) -> Api:
    """A session of an app whose only game draws itself and has no board."""
    from starlette.testclient import TestClient

    from gridgames.web.app import ServerConfig, create_app

    registry = Registry.from_list([EntryPoint("pictured", "gridgames_test_support.pictured:SPEC", GROUP)])
    return Api(TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)), registry=registry)))


def test_a_game_with_no_board_gives_its_picture_and_the_cells_it_marks(pictured: Api) -> None:
    view = pictured.ok("POST", "/api/play/pictured/new", HUMANS)
    assert view["board"] is None and view["own_picture"] is True and view["coordinates"] is None
    # State.move_cells; lines: data-move
    assert view["targets"] == {"p1": [[0, 0]], "p2": [[0, 1]], "p3": [[0, 2]]}
    assert all(f'data-move="{line}"' in view["svg"] for line in ("l1", "l2", "l3"))


def test_a_gravity_game_keeps_its_columns_though_it_draws_itself(api: Api) -> None:
    view = api.ok("POST", "/api/play/connect4/new", HUMANS)
    # Connect Four's own SVG is for Jupyter; the page keeps its column buttons
    assert view["own_picture"] is False
    # red wins down column 1: over, no column left to read, still the columns
    for move in "1212121":
        view = api.ok("POST", "/api/play/connect4/move", {"move": move})
    assert view["outcome"] is not None and view["own_picture"] is False


def test_a_tiles_colour_comes_with_it_and_deepens_with_its_number() -> None:
    from gridgames.drawing import Mark

    small, large = Mark(kind="tile", number=2).view(), Mark(kind="tile", number=1024).view()
    assert small["colour"] != large["colour"] and small["number"] == 2
    # its own wins
    assert Mark(0, "tile", label="L", colour="#123456").view()["colour"] == "#123456"
    # a plain piece: the player's colour, on the page's side
    assert Mark(0).view()["colour"] is None
