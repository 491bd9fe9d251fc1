"""What keeps the server safe to leave running: bounded sessions and jobs, abandoned work cancelled, hostile requests
refused."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
from gridgames_test_support.web import Api
from typer.testing import CliRunner

from gridgames.cli import app as cli_app
from gridgames.web.app import ServerConfig, create_app
from gridgames.web.context import MAX_BODY
from gridgames.web.jobs import Budget, JobPool, ServerBusyError
from gridgames.web.server import is_loopback
from gridgames.web.sessions import SessionStore


def _spin(budget: Budget) -> int:
    """Work that goes on until its budget says stop."""
    turns = 0
    while budget.keep_going():
        turns += 1
        time.sleep(0.005)
    return turns


def _wait(pool: JobPool, job: Any, session: str = "s") -> None:
    # a bound on the wait, not a timing: the job ends at once when idle
    deadline = time.monotonic() + 120
    while job.active:
        assert time.monotonic() < deadline, "the job never ended"
        time.sleep(0.01)


def test_the_oldest_session_expires_when_the_store_is_full() -> None:
    expired: list[str] = []
    store = SessionStore(max_sessions=3, on_expire=expired.append)
    first, *rest = [store.create() for _ in range(3)]
    store.get(first.id)  # used: now the newest
    store.create()
    assert store.get(first.id) is first and store.get(rest[0].id) is None
    assert expired == [rest[0].id] and len(store) == 3


def test_a_job_nobody_polls_is_cancelled_and_frees_its_worker() -> None:
    pool = JobPool(workers=1, abandon_seconds=0.2)
    job = pool.submit("s", "spin", _spin, Budget(60))
    time.sleep(0.4)
    pool.sweep()
    _wait(pool, job)
    assert job.status == "cancelled" and pool.stats()["running"] == 0
    second = pool.submit("s", "spin", _spin, Budget(0.1))  # the worker runs the next job
    _wait(pool, second)
    assert second.status == "done" and second.budget.stopped == "time"
    pool.shutdown()


def test_no_more_than_max_jobs_wait_or_run() -> None:
    pool = JobPool(workers=1, max_jobs=2)
    jobs = [pool.submit("s", "spin", _spin, Budget(60)) for _ in range(2)]
    with pytest.raises(ServerBusyError, match="busy"):
        pool.submit("s", "spin", _spin, Budget(60))
    pool.cancel_session("s")
    for job in jobs:
        _wait(pool, job)
    assert [job.status for job in jobs] == ["cancelled", "cancelled"]
    pool.shutdown()


def test_a_node_budget_stops_work() -> None:
    budget = Budget(60, nodes=1000)
    assert budget.keep_going(999) and not budget.keep_going(1001) and budget.stopped == "nodes"


def test_a_session_beyond_the_bound_is_refused_as_expired() -> None:
    from starlette.testclient import TestClient

    with TestClient(create_app(ServerConfig(max_sessions=2, allowed_hosts=("testserver",)))) as client:
        first, _, _ = Api(client), Api(client), Api(client)
        response = first.post("/api/play/connect4/new")
        assert response.status_code == 401 and "expired" in response.json()["error"]


def test_hostile_requests_get_one_json_error(client: Any, api: Api) -> None:
    assert client.post("/api/play/connect4/new", json={}).status_code == 401  # no session
    big = api.client.post("/api/play/connect4/new", content=b"{" + b" " * MAX_BODY + b"}", headers=api.headers)
    assert big.status_code == 413 and "too large" in big.json()["error"]
    assert client.get("/api/session").status_code == 405 and "error" in client.get("/api/session").json()
    assert client.get("/api/../../etc/passwd").status_code == 404
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/play/nope").json()["error"].startswith("no game named")
    assert api.post("/api/play/connect4/new", {"options": {"width": 10**30}}).status_code == 400
    deep = b"[" * 100_000 + b"]" * 100_000
    response = api.client.post("/api/play/connect4/new", content=deep[: MAX_BODY - 10], headers=api.headers)
    assert response.status_code == 400 and "error" in response.json()


def test_another_host_name_is_refused(client: Any) -> None:
    response = client.get("/api/games", headers={"Host": "evil.example"})  # DNS rebinding
    assert response.status_code == 400 and "host names" in response.json()["error"]
    assert client.get("/api/games", headers={"Host": "testserver:8000"}).status_code == 200


def test_pages_and_assets_ship_with_the_package(client: Any) -> None:
    for path in (
        "/",
        "/play/connect4",
        "/puzzle/pentomino",
        "/static/common.js",
        "/static/play.js",
        "/static/style.css",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "http://" not in response.text and "https://" not in response.text  # no CDN
    assert client.get("/").headers["content-security-policy"].startswith("default-src 'self'")


def test_serve_says_it_listens_on_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(kw))
    result = CliRunner().invoke(cli_app, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "loopback only" in result.output and started["host"] == "127.0.0.1" and started["port"] == 8123
    result = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0"])
    assert "WARNING" in result.output and "other machines" in result.output
    assert is_loopback("::1") and is_loopback("localhost") and not is_loopback("192.168.1.2")


def test_serve_runs_each_games_prepare_hook_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from gridgames.web import app as web_app

    order: list[str] = []

    class Hooks:
        def prepare(self, say: Any) -> None:
            order.append("prepare")
            say("warming up the demo game")

    class Broken:
        def prepare(self, say: Any) -> None:
            raise RuntimeError("no compiler")

    def hooks(self: Any, spec: Any) -> Any:
        return Hooks() if spec.name == "connect4" else Broken() if spec.name == "pentomino" else object()

    monkeypatch.setattr(web_app.ServerState, "hooks", hooks)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: order.append("run"))
    result = CliRunner().invoke(cli_app, ["serve", "--port", "8124"])
    assert result.exit_code == 0, result.output
    assert order == ["prepare", "run"] and "warming up the demo game" in result.output
    # told, and the server still runs
    assert "pentomino: setup failed (RuntimeError: no compiler)" in result.output


def test_the_server_answers_while_a_count_runs(api: Api) -> None:
    # Dana Scott's board: seconds of work (6x10, counted by orbits, can finish between two polls on a fast machine)
    api.ok("POST", "/api/puzzle/pentomino/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
    job = api.ok("POST", "/api/puzzle/pentomino/count")["job"]
    # seconds of work: not done at the first look; then the server keeps answering (with the compiled kernels an idle
    # machine may finish the count between two polls, so later looks may see it done)
    assert api.ok("GET", f"/api/jobs/{job['id']}")["status"] in ("queued", "running")
    for _ in range(5):
        status = api.ok("GET", f"/api/jobs/{job['id']}")["status"]
        assert status in ("queued", "running", "done")
        assert api.ok("GET", "/api/status")["jobs"]["active"] in (0, 1)  # it may end between the two looks
    api.ok("POST", f"/api/jobs/{job['id']}/cancel")
