"""A small load on a real server over loopback (bounded: 20 games, 3 counts, a minute at most): every answer correct.

The full load (50 games, 5 counts, memory sampled) is bench/web_load.py, with its figures in bench/README.md.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web,web-test]'")
httpx = pytest.importorskip("httpx", reason="the web tests need httpx: pip install '.[web-test]'")

from gridgames_connect4 import Connect4  # noqa: E402 - after the skips above
from gridgames_test_support.browser import running_server  # noqa: E402 - after the skips above

from gridgames.web.app import ServerConfig, create_app  # noqa: E402 - after the skips above

DEADLINE_SECONDS = 60


def _call(client: Any, method: str, path: str, body: Any = None) -> Any:
    while True:
        response = client.request(method, path, json=body)
        if response.status_code == 503 or (response.status_code == 409 and "already has" in response.text):
            time.sleep(0.02)  # busy: retry
            continue
        assert response.status_code < 400, response.text
        return response.json()


def _job(client: Any, path: str, body: Any = None) -> dict[str, Any]:
    job = _call(client, "POST", path, body)["job"]
    while job["status"] in ("queued", "running"):
        time.sleep(0.02)
        job = _call(client, "GET", f"/api/jobs/{job['id']}")
    return job


def _game(base: str, seed: int, failures: list[str]) -> None:
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            client.headers["X-Session"] = _call(client, "POST", "/api/session", {})["session"]
            rng = random.Random(seed)
            options = {"width": 5, "height": 4, "connect": 3}
            view = _call(
                client,
                "POST",
                "/api/play/connect4/new",
                {"options": options, "seats": ["human", "random"], "seed": seed},
            )
            while view["outcome"] is None:
                if view["computer_to_move"]:
                    assert _job(client, "/api/play/connect4/computer")["result"]["applied"]
                    view = _call(client, "GET", "/api/play/connect4")
                else:
                    view = _call(client, "POST", "/api/play/connect4/move", {"move": rng.choice(view["legal"])})
                local = Connect4(5, 4, 3).from_notation(view["moves"])
                assert view["legal"] == [str(m + 1) for m in local.legal_moves()]
            assert local.outcome is not None and view["outcome"]["winner"] == local.outcome.winner
    except Exception as error:  # collected and reported by the test
        failures.append(f"game {seed}: {error!r}")


def _count(base: str, failures: list[str]) -> None:
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            client.headers["X-Session"] = _call(client, "POST", "/api/session", {})["session"]
            _call(client, "POST", "/api/puzzle/pentomino/new", {"options": {"board": "4x15"}})
            result = _job(client, "/api/puzzle/pentomino/count")["result"]
            assert result["count"] == 1472 and not result["partial"], result
    except Exception as error:  # collected and reported by the test
        failures.append(f"count: {error!r}")


def test_concurrent_games_and_counts_all_answer_correctly() -> None:
    failures: list[str] = []
    with running_server(create_app(ServerConfig(job_seconds=DEADLINE_SECONDS))) as base:
        threads = [threading.Thread(target=_game, args=(base, seed, failures), daemon=True) for seed in range(20)]
        threads += [threading.Thread(target=_count, args=(base, failures), daemon=True) for _ in range(3)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + DEADLINE_SECONDS
        for thread in threads:
            thread.join(timeout=max(0.1, deadline - time.monotonic()))
        assert not any(thread.is_alive() for thread in threads), "the load did not finish within a minute"
        status = httpx.get(f"{base}/api/status").json()
    assert failures == []
    assert status["sessions"] == 23 and status["jobs"]["active"] == 0 and status["jobs"]["running"] == 0
