"""What every handler shares: the server's limits and state, JSON answers, request bodies, sessions."""

from __future__ import annotations

import json
from typing import Any

import attrs
from starlette.requests import Request
from starlette.responses import JSONResponse

from gridgames.errors import PluginError, UnknownGameError
from gridgames.game import GameKind, GameSpec
from gridgames.registry import Registry
from gridgames.web.hooks import hooks_of
from gridgames.web.jobs import Budget, JobPool
from gridgames.web.sessions import EVICT_SECONDS, Session, SessionStore
from gridgames.web.validate import WebError, obj

__all__ = [
    "MAX_BODY",
    "MAX_TOKEN",
    "ServerConfig",
    "ServerState",
    "json_response",
    "read_body",
    "server_state",
    "session_of",
]

MAX_BODY = 300_000


@attrs.frozen
class ServerConfig:
    """The server's limits: sessions, worker threads, jobs, each job's time and node budgets; its host names and
    token."""

    max_sessions: int = 256
    idle_seconds: float = 3600.0
    sessions_per_client: int = 64
    evict_seconds: float = EVICT_SECONDS
    workers: int = 2
    max_jobs: int = 16
    job_seconds: float = 60.0
    job_nodes: int | None = 2_000_000_000
    abandon_seconds: float = 15.0
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]", "::1")
    token: str | None = attrs.field(default=None, repr=False)
    """When set, every API call must carry it in the ``X-GridGames-Token`` header (``gridgames serve --host`` off
    loopback)."""


class ServerState:
    """What the handlers share: the config, the registry, sessions, jobs and each game's hooks."""

    def __init__(self, config: ServerConfig, registry: Registry) -> None:
        self.config = config
        self.registry = registry
        self.jobs = JobPool(config.workers, config.max_jobs, config.abandon_seconds)
        self.sessions = SessionStore(
            config.max_sessions,
            config.idle_seconds,
            on_expire=self.jobs.cancel_session,
            per_client=config.sessions_per_client,
            evict_seconds=config.evict_seconds,
        )
        self._hooks: dict[str, Any] = {}

    def spec(self, name: str, kind: GameKind | None = None) -> GameSpec:
        try:
            spec = self.registry.load(name)
        except (UnknownGameError, PluginError) as error:
            raise WebError(str(error), 404) from None
        if kind is not None and spec.kind is not kind:
            raise WebError(f"{name} is a {spec.kind.value} game, not a {kind.value} one", 400)
        return spec

    def hooks(self, spec: GameSpec) -> Any:
        if spec.name not in self._hooks:
            self._hooks[spec.name] = hooks_of(spec)
        return self._hooks[spec.name]

    def budget(self) -> Budget:
        return Budget(self.config.job_seconds, self.config.job_nodes)


def json_response(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


async def read_body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(f"the request body is too large (at most {MAX_BODY} bytes)", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise WebError(f"the request body is too large (at most {MAX_BODY} bytes)", 413)
    if not raw.strip():
        return {}
    try:
        return obj(json.loads(raw))
    except (ValueError, RecursionError):
        raise WebError("the request body is not valid JSON") from None


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.gridgames
    return state


MAX_TOKEN = 64
"""The longest ``X-Session`` or client cookie read (the server's own are 24 characters)."""


def session_of(request: Request) -> Session:
    token = request.headers.get("x-session", "")
    if len(token) > MAX_TOKEN:
        raise WebError(
            f"the X-Session header is too long ({len(token)} characters; a session token has at most {MAX_TOKEN})", 400
        )
    sessions = server_state(request).sessions
    session = sessions.get(token) if token else None
    if session is None:
        gone = sessions.gone(token) if token else None
        if gone:
            raise WebError(f"this page's session was {gone}: reload the page to start again", 401)
        what = "no X-Session header" if not token else "unknown or expired session"
        raise WebError(f"{what}: start one with POST /api/session (reload the page)", 401)
    return session
