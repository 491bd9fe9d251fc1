"""Any plugin gets a page: games without a board (text picture), moves that cover several cells, broken plugins
listed."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from typing import Any

import pytest
from gridgames_test_support.web import Api

from gridgames.registry import GROUP, Registry

PLUGINS = [
    EntryPoint("nim", "gridgames_test_support.toy_games:NIM_SPEC", GROUP),
    EntryPoint("cram", "gridgames_test_support.cram:SPEC", GROUP),
    EntryPoint("broken", "gridgames_test_support.toy_games:WRONG_OBJECT", GROUP),
]


@pytest.fixture
def plugin_api() -> Iterator[Api]:
    """The API over a registry of test plugins only."""
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gridgames.web.app import ServerConfig, create_app

    app = create_app(ServerConfig(allowed_hosts=("testserver",)), registry=Registry.from_list(PLUGINS))
    with TestClient(app) as client:
        yield Api(client)


def test_a_broken_plugin_is_listed_with_its_reason_and_the_others_work(plugin_api: Api) -> None:
    listing = plugin_api.ok("GET", "/api/games")
    assert sorted(g["name"] for g in listing["games"]) == ["cram", "nim"]
    assert listing["broken"][0]["name"] == "broken" and "GameSpec" in listing["broken"][0]["reason"]
    response = plugin_api.post("/api/play/broken/new")
    assert response.status_code == 404 and "broken" in response.json()["error"]


def test_a_game_without_a_board_shows_its_text_and_plays_by_notation(plugin_api: Api) -> None:
    view = plugin_api.ok(
        "POST", "/api/play/nim/new", {"options": {"stones": 5}, "seats": ["human", "random"], "seed": 2}
    )
    assert view["board"] is None and view["svg"] is None and view["text"] == "ooooo" and view["targets"] == {}
    assert view["kinds"] == ["human", "ai", "negamax", "mcts", "random"]
    plugin_api.ok("POST", "/api/play/nim/move", {"move": "3"})
    assert plugin_api.job("/api/play/nim/computer")["status"] == "done"
    view = plugin_api.ok("GET", "/api/play/nim")
    assert len(view["history"]) == 2 and len(view["text"]) == 5 - 3 - int(view["history"][1])


def test_a_move_covering_two_cells_targets_both(plugin_api: Api) -> None:
    view: dict[str, Any] = plugin_api.ok("POST", "/api/play/cram/new", {"seats": ["human", "human"]})
    assert view["board"]["rows"] == 3 and view["targets"]
    # a domino: both its cells play it
    assert all(len(cells) == 2 for cells in view["targets"].values())
    move, cells = next(iter(view["targets"].items()))
    after = plugin_api.ok("POST", "/api/play/cram/move", {"move": move})
    assert all(after["board"]["cells"][r][c] == 1 for r, c in cells)
