"""Othello through the web API: the view offers the pass when it is the only move, and the outcome carries the
scores."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

# White must pass next, then Black's a4 fills the board: 11-5
PASS_4X4 = "c4 d2 a1 a2 a3 d4 c1 b4 d3 b1 d1"
URL = "/api/play/othello"


@pytest.fixture
def api() -> Iterator[Any]:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gridgames_test_support.web import Api

    from gridgames.web.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)))) as client:
        yield Api(client)


def test_the_view_offers_the_pass_only_when_it_is_the_only_move(api: Any) -> None:
    view = api.ok("POST", f"{URL}/new", {"options": {"size": 4}, "seats": ["human", "human"]})
    assert view["pass"] is None and sorted(view["legal"]) == ["a2", "b1", "c4", "d3"]
    for move in PASS_4X4.split():
        view = api.ok("POST", f"{URL}/move", {"move": move})
    assert view["pass"] == "pass" and view["legal"] == ["pass"] and view["to_move"] == 1
    assert view["targets"] == {"pass": []}
    view = api.ok("POST", f"{URL}/move", {"move": "pass"})
    assert view["pass"] is None and view["to_move"] == 0 and view["history"][-1] == "pass"
    view = api.ok("POST", f"{URL}/undo")
    assert view["pass"] == "pass" and view["to_move"] == 1


def test_the_outcome_carries_the_scores(api: Any) -> None:
    api.ok("POST", f"{URL}/new", {"options": {"size": 4}, "seats": ["human", "human"]})
    for move in [*PASS_4X4.split(), "pass", "a4"]:
        view = api.ok("POST", f"{URL}/move", {"move": move})
    outcome = view["outcome"]
    assert outcome["winner"] == 0 and outcome["scores"] == [11.0, 5.0]
    assert outcome["text"] == "Black wins 11-5: the board is full"
    assert view["pass"] is None and view["legal"] == []


def test_the_view_carries_the_disc_counts_during_the_game(api: Any) -> None:
    view = api.ok("POST", f"{URL}/new", {"options": {"size": 4}, "seats": ["human", "human"]})
    assert view["player_scores"] == [2.0, 2.0]  # the four centre discs
    view = api.ok("POST", f"{URL}/move", {"move": "c4"})  # Black's disc and the one it turns
    assert view["player_scores"] == [4.0, 1.0]
