"""A web game is never lost to other clients (issue 55, case 3): with ``--max-sessions 4``, a user's game idle for
62 s survives four cookieless clients each starting a game (they are refused with a 503 instead); once it has been
idle for the documented half hour it may go, and the page is told why."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

from gridgames.web.app import ServerConfig, create_app
from gridgames.web.sessions import EVICT_SECONDS


@pytest.fixture
def app() -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    application = create_app(ServerConfig(max_sessions=4, allowed_hosts=("testserver",)))
    with TestClient(application) as client:
        yield application, client, TestClient


def _idle(application: Any, seconds: float) -> None:
    for session in application.state.gridgames.sessions._sessions.values():
        session.last_seen -= seconds  # the clock moved on (no waiting in a test)


def _start(client: Any) -> tuple[dict[str, str], int]:
    session = client.post("/api/session", json={})
    if session.status_code != 201:
        return {}, session.status_code
    headers = {"X-Session": session.json()["session"]}
    game = client.post("/api/play/connect4/new", json={"seats": ["human", "human"]}, headers=headers)
    return headers, game.status_code


def test_an_idle_game_survives_other_clients_and_goes_only_after_half_an_hour(app: Any) -> None:
    application, client, test_client = app
    mine, status = _start(client)
    assert status == 201
    assert client.post("/api/play/connect4/goto", json={"moves": "4453"}, headers=mine).status_code < 500
    for move in "4453":
        client.post("/api/play/connect4/move", json={"move": move}, headers=mine)
    _idle(application, 62)
    statuses = []
    for _ in range(4):
        with test_client(application) as stranger:  # cookieless: a new client each time
            statuses.append(_start(stranger)[1])
    assert 503 in statuses  # refused in one line rather than take the user's game
    view = client.get("/api/play/connect4", headers=mine)
    assert view.status_code == 200 and view.json()["history"] == ["4", "4", "5", "3"]
    _idle(application, EVICT_SECONDS)
    with test_client(application) as stranger:
        for _ in range(4):
            _start(stranger)
    gone = client.get("/api/play/connect4", headers=mine)
    assert gone.status_code == 401 and "was closed after 30 idle minutes" in gone.json()["error"]
