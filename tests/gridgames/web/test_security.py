"""Issue 44: a page the user visits cannot change the server, sessions are kept per client, bad input is a 4xx, work is
bounded."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.web import Api

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

from gridgames.web.app import ServerConfig, create_app
from gridgames.web.sessions import SessionStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

EVIL = "http://evil.example"
STATE_CHANGING = [
    "/api/session",
    "/api/play/connect4/new",
    "/api/play/connect4/move",
    "/api/play/connect4/undo",
    "/api/play/connect4/redo",
    "/api/play/connect4/computer",
    "/api/play/connect4/scores",
    "/api/play/connect4/review",
    "/api/play/connect4/load",
    "/api/puzzle/pentomino/new",
    "/api/puzzle/pentomino/list",
    "/api/puzzle/pentomino/count",
    "/api/jobs/j1-00/cancel",
]


def _client(**limits: Any) -> TestClient:
    return TestClient(create_app(ServerConfig(allowed_hosts=("testserver",), **limits)))


@pytest.fixture
def fresh() -> Iterator[TestClient]:
    with _client() as client:
        yield client


@pytest.mark.parametrize("path", STATE_CHANGING)
def test_a_foreign_origin_is_refused_on_every_state_changing_call(fresh: TestClient, path: str) -> None:
    own = Api(fresh)
    own.ok("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
    simple = fresh.post(path, content=b"{}", headers={"Origin": EVIL, "Content-Type": "text/plain"})
    preflighted = fresh.post(path, json={}, headers={"Origin": EVIL, **own.headers})
    preflight = fresh.options(path, headers={"Origin": EVIL, "Access-Control-Request-Method": "POST"})
    cross_site = fresh.post(path, json={}, headers={"Sec-Fetch-Site": "cross-site", **own.headers})
    null_origin = fresh.post(path, json={}, headers={"Origin": "null", **own.headers})
    for response in (simple, preflighted, preflight, cross_site, null_origin):
        assert response.status_code == 403, (path, response.text)
        assert "refused" in response.json()["error"] and "\n" not in response.json()["error"]
        assert "access-control-allow-origin" not in response.headers
    assert own.ok("GET", "/api/play/connect4")["moves"] == ""  # nothing changed


def test_a_simple_request_without_origin_is_refused_and_the_own_origin_accepted(fresh: TestClient) -> None:
    plain = fresh.post("/api/session", content=b"x", headers={"Content-Type": "text/plain"})
    form = fresh.post("/api/session", data={"a": "b"})
    bare = fresh.post("/api/session")
    for response in (plain, form, bare):
        assert response.status_code == 403 and "Content-Type: application/json" in response.json()["error"]
    own = fresh.post("/api/session", json={}, headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 201 and own.json()["session"]
    # a foreign page cannot read either
    assert fresh.get("/api/games", headers={"Origin": EVIL}).status_code == 403


def test_a_launch_token_is_needed_on_every_api_call_when_set() -> None:
    with _client(token="s3cret-token") as client:
        refused = client.post("/api/session", json={})
        assert refused.status_code == 403 and "token" in refused.json()["error"]
        assert client.get("/api/games").status_code == 403
        assert client.post("/api/session", json={}, headers={"X-GridGames-Token": "wrong"}).status_code == 403
        assert client.get("/").status_code == 200  # the page itself (which reads ?token=) is served
        good = {"X-GridGames-Token": "s3cret-token"}
        session = client.post("/api/session", json={}, headers=good)
        assert session.status_code == 201
        status = client.get("/api/status", headers=good).json()
        assert "token" not in status["limits"] and "s3cret" not in json.dumps(status)


@pytest.mark.slow
def test_ten_thousand_sessions_from_one_client_leave_another_clients_game_intact() -> None:
    app = create_app(ServerConfig(allowed_hosts=("testserver",)))
    # one server, two clients (each its own cookie jar)
    with TestClient(app) as user, TestClient(app) as attacker:
        mine = Api(user)
        mine.ok("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
        mine.ok("POST", "/api/play/connect4/move", {"move": "4"})
        statuses: dict[int, int] = {}
        for _ in range(10_000):
            code = attacker.post("/api/session", json={}).status_code
            statuses[code] = statuses.get(code, 0) + 1
        assert statuses == {201: 10_000}  # each replaced one of the client's own empty sessions...
        # ...never the other client's game
        assert mine.ok("GET", "/api/play/connect4")["moves"] == "4"
        assert mine.ok("GET", "/api/status")["sessions"] == 64 + 1
        # the client's sessions now hold games: its cap is a clear 429
        busy = [Api(attacker) for _ in range(64)]
        for each in busy:
            each.ok("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
        refused = attacker.post("/api/session", json={})
        assert refused.status_code == 429 and "already has 64 sessions" in refused.json()["error"]
        assert mine.ok("GET", "/api/play/connect4")["moves"] == "4"


def test_cookieless_creations_evict_only_empty_or_idle_sessions() -> None:
    store = SessionStore(max_sessions=3, per_client=3)
    game = store.create("user")
    game.plays["connect4"] = object()  # type: ignore[assignment]
    for i in range(100):  # a new client key each time (a client ignoring its cookie)
        store.create(f"c{i}")
    assert store.get(game.id) is game and len(store) == 3
    for session in list(store._sessions.values()):
        session.plays["x"] = object()  # type: ignore[assignment]
    from gridgames.web.validate import WebError

    with pytest.raises(WebError, match="every one is in use") as refused:
        store.create("late")
    assert refused.value.status == 503 and store.get(game.id) is game
    game.last_seen -= 61  # idle for a minute: another client's game still stays (issue 55)
    with pytest.raises(WebError, match="every one is in use"):
        store.create("late")
    # idle for half an hour: now it may go, and its page is told why
    game.last_seen -= store.evict_seconds
    store.create("late")
    assert store.get(game.id) is None and "closed after 31 idle minutes" in (store.gone(game.id) or "")


BAD_PUZZLES = [
    {"board": ""},
    {"board": "..\n."},
    {"board": "." * 4999},
    {"board": "\x00\u2028é"},
    {"board": "....", "pieces": "domino*0"},
    {"board": "....", "pieces": "domino*99999999999999999999"},
    {"board": "....", "pieces": "A\n. .\n"},
    {"board": 5},
    {"options": {"board": "1000x1000", "pieces": "monomino*1000000"}},
    {"options": {"board": "1001x1", "pieces": "monomino*1001"}},
    {"options": {"board": "2x1100", "pieces": "domino*1100"}},
    {"options": {"board": "30x30", "pieces": "pentominoes*15"}},
    {"options": {"board": "x"}},
]


@pytest.mark.parametrize("body", BAD_PUZZLES, ids=range(len(BAD_PUZZLES)))
def test_bad_puzzles_are_a_4xx_naming_the_problem(api: Api, body: dict[str, Any]) -> None:
    response = api.post("/api/puzzle/pentomino/new", body)
    assert 400 <= response.status_code < 500, response.text
    error = response.json()["error"]
    assert error and "\n" not in error and "internal" not in error


def test_a_huge_board_is_refused_before_any_work(api: Api) -> None:
    response = api.post("/api/puzzle/pentomino/new", {"options": {"board": "1000x1000", "pieces": "monomino*1000000"}})
    assert response.status_code == 413 and "1000x1000 board is too large" in response.json()["error"]
    many = api.post("/api/puzzle/pentomino/new", {"options": {"board": "100x100", "pieces": "monomino*10000"}})
    # 52 s of set-up before the bound
    assert many.status_code == 413 and "10000 pieces" in many.json()["error"]
    ok = api.post("/api/puzzle/pentomino/new", {"options": {"board": "32x32", "pieces": "monomino*1024"}})
    assert ok.status_code == 201 and len(ok.json()["board_svg"]) < 10_000_000
    # no pieces: the board's size alone
    queens = api.post("/api/puzzle/nqueens/new", {"options": {"n": 40}})
    assert queens.status_code == 201


def test_bad_saves_numbers_and_headers_are_a_4xx(api: Api, client: TestClient) -> None:
    api.ok("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
    save = json.loads(api.get("/api/play/connect4/save").text)
    for version in ("1.x", "x", None, [], 1.5, "99"):
        response = api.post("/api/play/connect4/load", {"text": json.dumps({**save, "version": version})})
        assert response.status_code == 400 and "version" in response.json()["error"], response.text
    api.ok("POST", "/api/puzzle/pentomino/new", {"options": {"board": "3x20"}})
    for tail in ("99999999999999999999999999999", "99999999999999999999999999999.svg", "-1", "0"):
        response = api.get(f"/api/puzzle/pentomino/solution/{tail}")
        assert 400 <= response.status_code < 500 and "solution" in response.json()["error"]
    long = client.get("/api/puzzle/pentomino", headers={"X-Session": "a" * 10_000})
    assert long.status_code == 400 and "too long" in long.json()["error"]


def test_a_plugins_plain_value_error_on_user_input_is_a_400_and_a_bug_stays_a_500(monkeypatch: Any) -> None:
    from gridgames.web import plays

    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",))), raise_server_exceptions=False) as client:
        api = Api(client)

        def refuse(spec: Any, data: Any) -> Any:
            raise ValueError("width must be even")

        monkeypatch.setattr(plays, "new_play", refuse)
        response = api.post("/api/play/connect4/new", {})
        assert response.status_code == 400 and response.json()["error"] == "the new game refused: width must be even"

        def bug(spec: Any, data: Any) -> Any:
            raise TypeError("a bug")

        monkeypatch.setattr(plays, "new_play", bug)
        assert api.post("/api/play/connect4/new", {}).status_code == 500


def test_serve_off_loopback_warns_and_needs_the_token_it_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    import uvicorn

    from gridgames.web.server import serve

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(kw, app=app))
    said: list[str] = []
    serve("0.0.0.0", 8124, say=said.append)
    output = "\n".join(said)
    token = re.search(r"\?token=([\w-]+)", output)
    assert token and "WARNING" in output and started["host"] == "0.0.0.0"
    with TestClient(started["app"], base_url="http://192.168.1.2:8124") as client:
        assert client.post("/api/session", json={}).status_code == 403
        good = client.post("/api/session", json={}, headers={"X-GridGames-Token": token.group(1)})
        assert good.status_code == 201
    said.clear()
    serve("127.0.0.1", 8125, say=said.append)
    assert "token" not in "\n".join(said) and started["app"].state.gridgames.config.token is None


def test_a_puzzle_too_costly_to_set_up_is_refused_before_any_work(api: Api) -> None:
    board = "\n".join(["." * 40] * 20)
    # 400 distinct dominoes: 1,229 MB of set-up before the bound
    pieces = "\n\n".join(f"D{i}\n##" for i in range(400))
    response = api.post("/api/puzzle/pentomino/new", {"board": board, "pieces": pieces})
    assert response.status_code == 413 and "400 distinct pieces on 800 cells" in response.json()["error"]
    small = "\n\n".join(f"D{i}\n##" for i in range(10))
    assert (
        api.post("/api/puzzle/pentomino/new", {"board": "\n".join(["." * 5] * 4), "pieces": small}).status_code == 201
    )


@pytest.mark.slow
def test_a_big_boards_listing_keeps_fewer_solutions(api: Api) -> None:
    api.ok("POST", "/api/puzzle/pentomino/new", {"options": {"board": "2x500", "pieces": "domino*500"}})
    job = api.job("/api/puzzle/pentomino/list", {"n": 500})
    # 120,000 cells of solutions, not 500 x 1,000
    assert job["status"] == "done" and job["result"]["found"] == 120
    job = api.job("/api/puzzle/pentomino/list", {"n": 500})
    view = api.ok("GET", "/api/puzzle/pentomino")
    # the oldest dropped, their numbers kept
    assert view["listed"] == 240 and view["kept_from"] == 120
    assert api.get("/api/puzzle/pentomino/solution/121").status_code == 200
    assert api.get("/api/puzzle/pentomino/solution/120").status_code == 404
