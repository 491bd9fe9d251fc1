"""Fixtures of the web tests: the app on Starlette's test client (each test module skips without the web extras)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.web import Api

SKIP_WEB = "the web extra is not installed: pip install '.[web,web-test]'"
BROWSER_TIMEOUT_MS = 60_000
"""How long a browser test waits for the page (a loaded 2-core machine needs it)."""
SKIP_HTTPX = "Starlette's test client needs httpx: pip install '.[web-test]'"


@pytest.fixture
def client() -> Iterator[Any]:
    """A test client of a fresh app."""
    pytest.importorskip("starlette", reason=SKIP_WEB)
    pytest.importorskip("httpx", reason=SKIP_HTTPX)
    # Starlette 1.x suggests httpx2, which is not published; httpx works
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from gridgames.web.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(allowed_hosts=("testserver",)))) as test_client:
        yield test_client


@pytest.fixture
def api(client: Any) -> Api:
    """A session of the API."""
    return Api(client)


@pytest.fixture(scope="module")
def context() -> Iterator[Any]:
    """One browser (the system's Chromium, a fresh profile) for a browser test module; such a module skips itself
    without one (`gridgames_test_support.browser.browser_or_skip`)."""
    from gridgames_test_support.browser import browser_context, chromium_path

    path = chromium_path()
    assert path is not None
    with browser_context(path) as browser:
        browser.set_default_timeout(BROWSER_TIMEOUT_MS)
        yield browser


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    """A fresh tab; the test fails on any error in the page's scripts."""
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    tab.close()
    assert not errors, errors
