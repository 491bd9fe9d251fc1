"""Fixtures of the web tests: the app on Starlette's test client (skipped without the web extra)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2, which is not published; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from gridgames_test_support.web import Api

from gridgames.web.app import ServerConfig, create_app


@pytest.fixture
def client() -> Iterator[Any]:
    """A test client of a fresh app."""
    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)))) as test_client:
        yield test_client


@pytest.fixture
def api(client: Any) -> Api:
    """A session of the API."""
    return Api(client)
