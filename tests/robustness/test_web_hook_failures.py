"""A plugin's web hook that raises or answers garbage (issue 55, case 1) is a clear 422 the page shows, at once, never
an HTTP 500; its jobs fail with the hook's reason as soon as it raised; other games keep working."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from gridgames_test_support.toy_games import NIM_SPEC
from gridgames_test_support.web import Api

from gridgames.registry import GROUP, Registry


class Raising:
    def move_targets(self, state: Any) -> Any:
        raise RuntimeError("targets exploded")

    def move_scores(self, state: Any, budget: Any) -> Any:
        raise RuntimeError("scores exploded")

    def computer_move(self, state: Any, level: str, rng: Any, think: float) -> Any:
        raise ZeroDivisionError("no move")


class Garbage:
    def move_targets(self, state: Any) -> Any:
        return 42

    def move_scores(self, state: Any, budget: Any) -> Any:
        return "not scores"


class _Point:
    """An entry point of a spec built here (as importlib.metadata's: name, value, group, dist, load)."""

    def __init__(self, spec: Any) -> None:
        self.name, self.value, self.group, self.dist, self.spec = spec.name, f"here:{spec.name}", GROUP, None, spec

    def load(self) -> Any:
        return self.spec


SPECS = [
    attrs.evolve(NIM_SPEC, name="raising", web=Raising),
    attrs.evolve(NIM_SPEC, name="garbage", web=Garbage),
    NIM_SPEC,
]


@pytest.fixture
def api() -> Iterator[Api]:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gridgames.web.app import ServerConfig, create_app

    app = create_app(ServerConfig(allowed_hosts=("testserver",)), registry=Registry.from_list(map(_Point, SPECS)))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Api(client)


NEW = {"options": {"stones": 5}, "seats": ["human", "human"]}


@pytest.mark.parametrize("game", ["raising", "garbage"])
def test_a_failing_move_targets_hook_is_a_422_naming_it(api: Api, game: str) -> None:
    for response in (
        api.post(f"/api/play/{game}/new", NEW),
        api.get(f"/api/play/{game}"),
        api.post(f"/api/play/{game}/move", {"move": "1"}),
    ):
        # 404: no game started, as the new game failed
        assert response.status_code in (404, 422), response.text
        if response.status_code == 422:
            assert response.json()["error"].startswith(f"{game}'s move_targets hook failed: ")
    assert api.post("/api/play/nim/new", NEW).status_code == 201  # the other games keep working


@pytest.mark.parametrize(("game", "reason"), [("raising", "RuntimeError: scores exploded"), ("garbage", "")])
def test_a_failing_scores_job_fails_at_once_with_the_reason(
    api: Api, game: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Raising, "move_targets", lambda self, state: {})
    monkeypatch.setattr(Garbage, "move_targets", lambda self, state: {})
    assert api.post(f"/api/play/{game}/new", NEW).status_code == 201
    calls: list[int] = []
    real = api.client.get

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(api.client, "get", counted)
    job = api.job(f"/api/play/{game}/scores")
    assert job["status"] == "failed"
    if reason:
        assert job["error"] == f"{game}'s move_scores hook failed: {reason}"
    assert len(calls) < 500  # polled every 20 ms: failed within seconds, not after a budget of 60 s


def test_a_failing_computer_hook_fails_its_job_with_the_reason(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Raising, "move_targets", lambda self, state: {})
    assert api.post("/api/play/raising/new", {**NEW, "seats": ["random", "human"]}).status_code == 201
    job = api.job("/api/play/raising/computer")
    assert job["status"] == "failed"
    assert job["error"] == "raising's computer_move hook failed: ZeroDivisionError: no move"
