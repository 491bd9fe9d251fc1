"""Fixtures of the web tests: the app on Starlette's test client (each test module skips without the web extras)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.web import Api

SKIP_WEB = "the web extra is not installed: pip install '.[web,web-test]'"
SKIP_HTTPX = "Starlette's test client needs httpx: pip install '.[web-test]'"


@pytest.fixture
def client() -> Iterator[Any]:
    """A test client of a fresh app."""
    pytest.importorskip("starlette", reason=SKIP_WEB)
    pytest.importorskip("httpx", reason=SKIP_HTTPX)
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2, which is not published; httpx works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from gridgames.web.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)))) as test_client:
        yield test_client


@pytest.fixture
def api(client: Any) -> Api:
    """A session of the API."""
    return Api(client)
