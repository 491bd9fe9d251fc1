"""Helpers of the web tests: an API client on Starlette's test client, and waiting for jobs."""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator
from typing import Any

JOB_WAIT_SECONDS = 120.0


class Api:
    """A session of the web API through a test client (or any httpx-like client)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        response = client.post("/api/session", json={})
        assert response.status_code == 201, response.text
        self.headers = {"X-Session": response.json()["session"]}

    def get(self, path: str) -> Any:
        """GET with the session."""
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        """POST JSON with the session."""
        return self.client.post(path, json=body if body is not None else {}, headers=self.headers)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON of a call that must succeed."""
        response = self.get(path) if method == "GET" else self.post(path, body)
        assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
        return response.json()

    def job(self, path: str, body: Any = None) -> dict[str, Any]:
        """Start a job and poll it to its end; its final view."""
        job = self.ok("POST", path, body)["job"]
        deadline = time.monotonic() + JOB_WAIT_SECONDS
        while job["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, f"job {job} did not end within {JOB_WAIT_SECONDS} s"
            time.sleep(0.02)
            job = self.ok("GET", f"/api/jobs/{job['id']}")
        return job


@contextlib.contextmanager
def web_api(registry: Any = None) -> Iterator[Api]:
    """An `Api` session on the web app (of ``registry``'s games, else the installed ones) through Starlette's test
    client; skips the test without the web extras."""
    import pytest

    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gridgames.web.app import ServerConfig, create_app

    app = create_app(ServerConfig(allowed_hosts=("testserver",)), registry=registry)
    with TestClient(app) as client:
        yield Api(client)


def app_api() -> contextlib.AbstractContextManager[Api]:
    """An `Api` session of a fresh app of the installed games (`web_api` without a registry)."""
    return web_api()
