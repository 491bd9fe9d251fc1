"""The JSON API of turn-based games, puzzles and jobs (the handlers; `gridgames.web.app` routes them)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from gridgames.game import GameKind, GameSpec
from gridgames.web import plays, puzzles
from gridgames.web.context import (
    ServerState,
    json_response,
    read_body,
    server_state,
    session_of,
)
from gridgames.web.sessions import Play, PuzzleRun, Session
from gridgames.errors import GridGamesError
from gridgames.web.validate import WebError, one_line

LOG = logging.getLogger("gridgames.web")
T = TypeVar("T")


def _from_input(what: str, build: Callable[[], T]) -> T:
    """``build()``, which reads the user's input through a plugin: a plugin's plain `ValueError` there is a 400 naming
    it.

    Only where the input is the user's (new games and puzzles, loads, moves); anything else a plugin raises stays a
    500, logged with its traceback.
    """
    try:
        return build()
    except GridGamesError:
        raise
    except ValueError as error:
        LOG.info("a plugin refused %s with a plain %s: %s", what, type(error).__name__, error)
        raise WebError(
            one_line(f"{what} refused: {error}" if str(error) else f"{what} refused ({type(error).__name__})")
        ) from None


def _resolve(request: Request, kind: GameKind) -> tuple[ServerState, GameSpec, Any, Session]:
    """The server, the game named in the path (of this kind), its web hooks and the caller's session."""
    state = server_state(request)
    spec = state.spec(request.path_params["game"], kind)
    return state, spec, state.hooks(spec), session_of(request)


def _stored(store: dict[str, Any], spec: GameSpec, what: str, route: str) -> Any:
    """The session's game or puzzle of this spec, or a 404 saying how to start one."""
    found = store.get(spec.name)
    if found is None:
        raise WebError(f"no {spec.name} {what} in this session: start one with POST /api/{route}/{spec.name}/new", 404)
    return found


# --- turn-based games ----------------------------------------------------------------------------------------
def _play(request: Request) -> tuple[ServerState, GameSpec, Any, Session]:
    return _resolve(request, GameKind.TURN_BASED)


def _current(session: Session, spec: GameSpec) -> Play:
    play: Play = _stored(session.plays, spec, "game", "play")
    return play


def _busy(state: ServerState, session: Session) -> None:
    running = state.jobs.active_for(session.id)
    if running is not None:
        raise WebError(
            f"this page already has a {running.kind} job running ({running.id}): wait for it or cancel it", 409
        )


def _submit(state: ServerState, session: Session, kind: str, start: Callable[[], tuple[Any, Any]]) -> Response:
    """Start a job of the session (one at a time): ``start()`` gives its work and what to do when it is done."""
    with session.lock:
        _busy(state, session)
        work, done = start()
        job = state.jobs.submit(session.id, kind, work, state.budget(), done)
    return json_response({"job": job.view()}, 202)


def _replace(
    state: ServerState,
    session: Session,
    store: dict[str, Any],
    spec: GameSpec,
    item: Any,
    view: Callable[[], dict[str, Any]],
    status: int = 200,
) -> Response:
    """Put a new game or puzzle in the session in place of its old one (whose jobs are cancelled) and show it."""
    with session.lock:
        state.jobs.cancel_session(session.id)
        store[spec.name] = item
        return json_response(view(), status)


async def play_new(request: Request) -> Response:
    state, spec, hooks, session = _play(request)
    data = await read_body(request)
    play = _from_input("the new game", lambda: plays.new_play(spec, data))
    puzzles.check_size(play.state, spec.name)
    return _replace(state, session, session.plays, spec, play, lambda: plays.view(play, hooks), 201)


async def play_get(request: Request) -> Response:
    _, spec, hooks, session = _play(request)
    with session.lock:
        return json_response(plays.view(_current(session, spec), hooks))


def play_action(action: Any) -> Any:
    async def handler(request: Request) -> Response:
        state, spec, hooks, session = _play(request)
        data = await read_body(request)
        with session.lock:
            play = _current(session, spec)
            if action is not plays.play_move:
                # undo/redo while the computer thinks: its move is dropped
                state.jobs.cancel_session(session.id)
            takes_data = action in (plays.play_move, plays.go_to)
            _from_input("the move", lambda: action(play, data)) if takes_data else action(play)
            return json_response(plays.view(play, hooks))

    return handler


def play_job(make: Any, kind: str) -> Any:
    async def handler(request: Request) -> Response:
        state, spec, hooks, session = _play(request)
        await read_body(request)
        return _submit(state, session, kind, lambda: make(_current(session, spec), hooks, session.lock))

    return handler


async def play_save(request: Request) -> Response:
    _, spec, _, session = _play(request)
    with session.lock:
        text = plays.save_text(_current(session, spec))
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{spec.name}-game.json"'},
    )


async def play_load(request: Request) -> Response:
    state, spec, hooks, session = _play(request)
    data = await read_body(request)
    play = _from_input("the saved game", lambda: plays.load_play(spec, data))
    puzzles.check_size(play.state, spec.name)
    return _replace(state, session, session.plays, spec, play, lambda: plays.view(play, hooks))


# --- puzzles -------------------------------------------------------------------------------------------------
def _puzzle(request: Request) -> tuple[ServerState, GameSpec, Any, Session]:
    return _resolve(request, GameKind.PUZZLE)


def _run(session: Session, spec: GameSpec) -> PuzzleRun:
    run: PuzzleRun = _stored(session.puzzles, spec, "puzzle", "puzzle")
    return run


async def puzzle_new(request: Request) -> Response:
    state, spec, hooks, session = _puzzle(request)
    data = await read_body(request)
    run = _from_input("the puzzle", lambda: puzzles.new_run(spec, hooks, data))
    return _replace(state, session, session.puzzles, spec, run, lambda: puzzles.view(run), 201)


async def puzzle_get(request: Request) -> Response:
    _, spec, _, session = _puzzle(request)
    with session.lock:
        return json_response(puzzles.view(_run(session, spec)))


def puzzle_job(make: Any, kind: str) -> Any:
    async def handler(request: Request) -> Response:
        state, spec, _, session = _puzzle(request)
        data = await read_body(request)
        extra = {"trim": state.sessions.trim_solutions} if kind == "list" else {}
        return _submit(state, session, kind, lambda: make(_run(session, spec), data, session.lock, **extra))

    return handler


def _number(request: Request) -> int:
    raw = request.path_params["number"]
    if not raw.isdigit() or not 1 <= int(raw) <= 10**9:
        raise WebError(f"a solution number is a whole number from 1, not {raw!r}")
    return int(raw)


async def puzzle_solution(request: Request) -> Response:
    _, spec, _, session = _puzzle(request)
    number = _number(request)
    with session.lock:
        return json_response(puzzles.solution_view(_run(session, spec), number))


async def puzzle_svg(request: Request) -> Response:
    _, spec, _, session = _puzzle(request)
    number = _number(request)
    with session.lock:
        svg = puzzles.solution_svg(_run(session, spec), number)
    return Response(
        svg,
        media_type="image/svg+xml",
        headers={"Content-Disposition": f'attachment; filename="{spec.name}-{number}.svg"'},
    )


async def puzzle_json(request: Request) -> Response:
    _, spec, _, session = _puzzle(request)
    with session.lock:
        text = puzzles.export_json(_run(session, spec))
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{spec.name}-solutions.json"'},
    )


# --- jobs ------------------------------------------------------------------------------------------------------
async def job_get(request: Request) -> Response:
    state, session = server_state(request), session_of(request)
    job = state.jobs.get(request.path_params["job"], session.id)
    if job is None:
        raise WebError("no such job for this session (finished jobs are forgotten after a while)", 404)
    with session.lock:
        return json_response(job.view())


async def job_cancel(request: Request) -> Response:
    state, session = server_state(request), session_of(request)
    job = state.jobs.cancel(request.path_params["job"], session.id)
    if job is None:
        raise WebError("no such job for this session", 404)
    return json_response(job.view())
