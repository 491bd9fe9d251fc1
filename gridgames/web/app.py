"""The web application: pages, the JSON API, sessions and jobs (Starlette).

Every API answer is JSON; every refused request is one ``{"error": "..."}`` with a 4xx
status (a bug inside the server is a 500 with a one-line error, never a stack trace).
The API (``X-Session`` header on every call but ``/api/games`` and ``POST /api/session``):

* ``GET /api/games`` · ``POST /api/session`` · ``GET /api/status``
* ``POST /api/play/GAME/new`` ``{options, seats, think, seed}`` · ``GET /api/play/GAME`` ·
  ``POST /api/play/GAME/{move,undo,redo}`` · ``POST /api/play/GAME/goto`` ``{moves}`` (new) ·
  ``POST /api/play/GAME/{computer,scores,review}`` (a job) ·
  ``GET /api/play/GAME/save`` (the save file's text) · ``POST /api/play/GAME/load`` ``{text}``
* ``POST /api/puzzle/GAME/new`` ``{options}`` or ``{board, pieces, one_sided}`` · ``GET /api/puzzle/GAME`` ·
  ``POST /api/puzzle/GAME/{list,count}`` (a job) · ``GET /api/puzzle/GAME/solution/N`` ·
  ``GET /api/puzzle/GAME/solution/N.svg`` · ``GET /api/puzzle/GAME/solutions.json``
* ``POST /api/drill/GAME`` ``{options, moves}`` · ``POST /api/drill/GAME/answer`` ``{options, moves, answer}``
  (jobs: `gridgames.web.drills`)
* ``GET /api/jobs/ID`` (poll; a job nobody polls is cancelled) · ``POST /api/jobs/ID/cancel``
"""

from __future__ import annotations

import hmac
import importlib
import json
import logging
import os
import secrets
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gridgames.errors import GridGamesError, PluginError
from gridgames.game import Game, GameKind, GameSpec
from gridgames.registry import BrokenPlugin, Registry, default_registry
from gridgames.web import api, drills, hand, plays, puzzles
from gridgames.web.context import MAX_TOKEN, ServerConfig, ServerState, json_response, server_state
from gridgames.web.hooks import has
from gridgames.web.jobs import ServerBusyError
from gridgames.web.validate import WebError, one_line

__all__ = ["ServerConfig", "create_app"]

LOG = logging.getLogger("gridgames.web")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_HEADER = "x-gridgames-token"

STATIC = files("gridgames.web") / "static"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'",
}


# --- pages -------------------------------------------------------------------------------------------------
def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        if "game" in request.path_params:
            server_state(request).spec(
                request.path_params["game"], GameKind.TURN_BASED if name == "play.html" else GameKind.PUZZLE
            )
        return FileResponse(str(STATIC / name), media_type="text/html")

    return page


async def _no_icon(request: Request) -> Response:
    return Response(status_code=204)


# --- games and sessions ------------------------------------------------------------------------------------
def _game_entry(state: ServerState, spec: GameSpec) -> dict[str, Any]:
    """One game's line of /api/games (runs the plugin's own code: its hooks, presets and default game)."""
    entry: dict[str, Any] = {
        "name": spec.name,
        "kind": spec.kind.value,
        "summary": spec.summary,
        "options": [
            {"name": o.name, "type": o.type.__name__, "default": o.default, "help": o.help, "choices": list(o.choices)}
            for o in spec.options
        ],
    }
    hooks = state.hooks(spec)
    entry["hooks"] = [name for name in ("move_scores", "review", "presets", "puzzle_from_text") if has(hooks, name)]
    entry["hooks"] += ["drill"] if has(hooks, "drill_positions") and has(hooks, "drill_answer") else []
    if spec.kind is GameKind.PUZZLE and has(hooks, "presets"):
        entry["presets"] = hooks.presets()
    if spec.kind is GameKind.TURN_BASED:
        try:
            default = spec.make()
            entry["kinds"] = plays.seat_kinds(default) if isinstance(default, Game) else []
        except PluginError:
            raise  # its make() failed (GameSpec.make says so): listed broken
        except GridGamesError:
            entry["kinds"] = ["human"]
    return entry


def _rescan(registry: Registry) -> None:
    """Add the games installed since the server started (new entry points; those already known stay as loaded)."""
    importlib.invalidate_caches()  # a package installed meanwhile is then importable
    for name, entry in Registry.from_entry_points().entries.items():
        registry.entries.setdefault(name, entry)


async def games(request: Request) -> Response:
    state = server_state(request)
    if request.app.state.rescan:
        _rescan(state.registry)
    listed, broken = state.registry.load_all()
    out = []
    broken = list(broken)
    for spec in listed:
        try:
            out.append(_game_entry(state, spec))
        except Exception as error:
            broken.append(BrokenPlugin(spec.name, spec.name, f"{type(error).__name__}: {error}"[:300]))
    return json_response({"games": out, "broken": [{"name": b.name, "reason": b.reason} for b in broken]})


CLIENT_COOKIE = "gridgames_client"


def _client_key(request: Request) -> tuple[str, bool]:
    """The caller's client key (its cookie) and whether it is new (a missing or malformed cookie gets a new key)."""
    key = request.cookies.get(CLIENT_COOKIE, "")
    if 16 <= len(key) <= MAX_TOKEN and all(c.isalnum() or c in "-_" for c in key):
        return key, False
    return secrets.token_urlsafe(18), True


async def new_session(request: Request) -> Response:
    key, new = _client_key(request)
    response = json_response({"session": server_state(request).sessions.create(key).id}, 201)
    if new:
        response.set_cookie(CLIENT_COOKIE, key, max_age=30 * 86400, httponly=True, samesite="strict")
    return response


async def status(request: Request) -> Response:
    state = server_state(request)
    return json_response(
        {
            "sessions": len(state.sessions),
            "expired": state.sessions.expired,
            "jobs": state.jobs.stats(),
            "limits": attrs.asdict(state.config, filter=lambda field, _: field.name != "token"),
        }
    )


# --- errors ----------------------------------------------------------------------------------------------------
async def _web_error(request: Request, error: Exception) -> Response:
    status = error.status if isinstance(error, WebError) else 503 if isinstance(error, ServerBusyError) else 400
    return json_response({"error": one_line(error)}, status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = {404: "no such page or API call", 405: "this API call does not take that HTTP method"}.get(
        error.status_code, error.detail
    )
    return json_response({"error": message}, error.status_code)


async def _server_error(request: Request, error: Exception) -> Response:
    # a bug: visible in the log
    LOG.error("internal error in %s %s", request.method, request.url.path, exc_info=error)
    return json_response({"error": f"internal error ({type(error).__name__}); the server is still running"}, 500)


def _routes() -> list[Any]:
    play, puzzle = "/api/play/{game}", "/api/puzzle/{game}"
    return [
        Route("/", _page("index.html")),
        Route("/play/{game}", _page("play.html")),
        Route("/puzzle/{game}", _page("puzzle.html")),
        Route("/drill/{game}", drills.page),
        Route("/favicon.ico", _no_icon),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        Route("/api/games", games),
        Route("/api/session", new_session, methods=["POST"]),
        Route("/api/status", status),
        Route(f"{play}/new", api.play_new, methods=["POST"]),
        Route(play, api.play_get),
        Route(f"{play}/move", api.play_action(plays.play_move), methods=["POST"]),
        Route(f"{play}/undo", api.play_action(plays.undo), methods=["POST"]),
        Route(f"{play}/redo", api.play_action(plays.redo), methods=["POST"]),
        Route(f"{play}/goto", api.play_action(plays.go_to), methods=["POST"]),
        Route(f"{play}/computer", api.play_job(plays.computer_work, "computer"), methods=["POST"]),
        Route(f"{play}/scores", api.play_job(plays.scores_work, "scores"), methods=["POST"]),
        Route(f"{play}/review", api.play_job(plays.review_work, "review"), methods=["POST"]),
        Route(f"{play}/save", api.play_save),
        Route(f"{play}/load", api.play_load, methods=["POST"]),
        Route(f"{puzzle}/new", api.puzzle_new, methods=["POST"]),
        Route(puzzle, api.puzzle_get),
        Route(f"{puzzle}/list", api.puzzle_job(puzzles.list_work, "list"), methods=["POST"]),
        Route(f"{puzzle}/count", api.puzzle_job(puzzles.count_work, "count"), methods=["POST"]),
        Route(f"{puzzle}/solution/{{number}}.svg", api.puzzle_svg),
        Route(f"{puzzle}/solution/{{number}}", api.puzzle_solution),
        Route(f"{puzzle}/solutions.json", api.puzzle_json),
        Route("/api/drill/{game}", drills.positions, methods=["POST"]),
        Route("/api/drill/{game}/answer", drills.answer, methods=["POST"]),
        # tiling by hand (gridgames.web.hand)
        Route(f"{puzzle}/hand", hand.hand_get),
        Route(f"{puzzle}/hand/check", hand.hand_check, methods=["POST"]),
        Route(f"{puzzle}/hand/hint", hand.hand_hint, methods=["POST"]),
        Route("/api/jobs/{job}", api.job_get),
        Route("/api/jobs/{job}/cancel", api.job_cancel, methods=["POST"]),
    ]


def create_app(config: ServerConfig | None = None, registry: Registry | None = None) -> Starlette:
    """The web application (serve it with any ASGI server; ``gridgames serve`` uses uvicorn)."""
    config = config or ServerConfig()
    shared = ServerState(config, registry or default_registry())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        shared.jobs.shutdown()

    app = Starlette(
        routes=_routes(),
        middleware=[Middleware(_Guard, allowed_hosts=config.allowed_hosts, token=config.token)],
        exception_handlers={GridGamesError: _web_error, HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    app.state.gridgames = shared
    # the installed games: the list finds plugins installed while it runs
    app.state.rescan = registry is None
    return app


PREPARE_SECONDS = 120.0
"""How long an outside plugin's ``prepare`` hook may take in its child process (env GRIDGAMES_PREPARE_SECONDS) before
``gridgames serve`` marks the game unavailable."""


def prepare_games(app: Starlette, say: Callable[[str], None]) -> threading.Thread | None:
    """Run every listed game's ``prepare`` hook (slow one-time setup, see `gridgames.web.hooks`).

    gridgames' own games prepare here, before serving. An outside plugin's hook runs first in a child process, bounded
    by `PREPARE_SECONDS` (in a background thread: the server opens its port meanwhile): one that fails, sleeps or ends
    its process marks the game unavailable with the reason (listed broken, its API calls a 404 saying why), the others
    keep working; one that passes then prepares in this process too. Returns the background thread, if any.
    """
    state: ServerState = app.state.gridgames
    listed, _broken = state.registry.load_all()
    outside: list[GameSpec] = []
    for spec in listed:
        if not state.registry.trusted(spec.name) and spec.name in state.registry.entries:
            outside.append(spec)
            continue
        hooks = state.hooks(spec)
        if has(hooks, "prepare"):
            try:
                hooks.prepare(say)
            except Exception as exc:  # a game's setup may fail in any way: its page still loads
                problem = one_line(exc) if isinstance(exc, GridGamesError) else f"{type(exc).__name__}: {one_line(exc)}"
                say(f"{spec.name}: setup failed ({problem}); its pages may be slow at first")
    # its hooks made in the thread: after the vetting
    outside = [spec for spec in outside if spec.web is not None]
    if not outside:
        return None
    thread = threading.Thread(
        target=_prepare_outside, args=(state, outside, say), name="gridgames-prepare", daemon=True
    )
    thread.start()
    return thread


def _prepare_seconds() -> float:
    try:
        seconds = float(os.environ.get("GRIDGAMES_PREPARE_SECONDS", PREPARE_SECONDS))
    except ValueError:
        return PREPARE_SECONDS
    return seconds if 0 < seconds < 86400 else PREPARE_SECONDS


def _prepare_outside(state: ServerState, specs: list[GameSpec], say: Callable[[str], None]) -> None:
    """Each outside plugin's prepare hook, vetted in a child process first (see `prepare_games`)."""
    for spec in specs:
        reason = _prepare_in_child(spec.name, state.registry.entries[spec.name].value, _prepare_seconds())
        if reason is None:
            try:
                hooks = state.hooks(spec)
                if has(hooks, "prepare"):
                    hooks.prepare(say)
                continue
            except Exception as exc:  # a plugin's setup may fail in any way
                reason = f"its prepare hook failed: {one_line(exc)}"
        state.registry.mark_broken(spec.name, reason)
        say(f"{spec.name}: unavailable: {reason}")


def _prepare_in_child(name: str, value: str, seconds: float) -> str | None:
    """Why the plugin's prepare hook failed in a child process, or None when it passed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gridgames.web._prepare_probe", name, value],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        return f"its prepare hook did not finish within {seconds:g} s"
    except OSError as error:
        return f"its prepare hook could not be run: {error}"
    try:
        message = json.loads(done.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"its prepare hook ended the process (exit code {done.returncode})"
    return None if isinstance(message, dict) and message.get("ok") else str(message.get("reason"))[:300]


class _Guard:
    """ASGI middleware: the server's own host names, origin and token only (see `refusal`); adds `SECURITY_HEADERS`."""

    def __init__(self, app: Any, allowed_hosts: tuple[str, ...], token: str | None = None) -> None:
        self.app = app
        self.allowed = {host.lower() for host in allowed_hosts}
        self.token = token

    def _host_allowed(self, host: str) -> bool:
        # [::1]:8000 -> [::1]
        name, colon, port = host.rpartition(":") if not host.endswith("]") else ("", "", "")
        if not colon:
            name = host
        # 'localhost:80@evil': no port at all
        elif not (port.isascii() and port.isdigit() and len(port) <= 5):
            return False
        return "*" in self.allowed or name in self.allowed

    def refusal(self, scope: Any) -> tuple[int, str] | None:
        """Why a request is refused (status, one line), or None: a foreign host (DNS rebinding), a foreign origin or
        cross-site fetch, a state change a foreign page could send without a preflight, a missing or wrong token."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "").lower()
        if not self._host_allowed(host):
            return 400, "this server answers requests for its own host names only (see --host)"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in (f"http://{host}", f"https://{host}"):
            return (
                403,
                f"cross-origin request refused: Origin {one_line(origin)[:80]!r} is not this server's own (http://{host})",
            )
        method = scope.get("method", "GET")
        if method in UNSAFE_METHODS:
            if origin is None and headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                return 403, f"cross-site request refused (Sec-Fetch-Site: {one_line(headers['sec-fetch-site'])[:40]})"
            json_body = headers.get("content-type", "").split(";", 1)[0].strip().lower() == "application/json"
            if not (json_body or "x-session" in headers or TOKEN_HEADER in headers):
                return (
                    403,
                    f"a {method} must send Content-Type: application/json or an X-Session header (no simple cross-site "
                    "requests)",
                )
        if self.token is not None and scope.get("path", "").startswith("/api/"):
            if not hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode(), self.token.encode()):
                return (
                    403,
                    "this server needs its launch token: open the URL it printed (.../?token=...) or send "
                    "X-GridGames-Token",
                )
        return None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [
                    (k.lower().encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.lower().encode() not in names
                ]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            await JSONResponse({"error": refused[1]}, status_code=refused[0])(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)
