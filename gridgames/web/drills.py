"""Drills in the browser: the positions before a game's mistakes, each answer judged and explained (the drill page).

Generic: any turn-based game whose web hooks offer `gridgames.web.hooks.Drill` (``drill_positions`` and
``drill_answer``) gets the page ``/drill/GAME``. The page sends the game (its options and moves, as text); nothing
is kept in the session but the job. The API (``X-Session`` header, as every call):

* ``POST /api/drill/GAME`` ``{options, moves}``: a job whose result is ``{"moves", "positions": [...]}``, each
  position the hook's entry plus ``view``: the board after its first ``ply`` moves (``board``, ``legal``,
  ``targets``, ``to_move``, ``players``, ``styles``, ``moves``);
* ``POST /api/drill/GAME/answer`` ``{options, moves, answer}``: a job whose result is the hook's verdict on the move
  ``answer`` in the position after ``moves`` (``{"right", "best", "lines", ...}``).
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from gridgames.errors import GridGamesError
from gridgames.game import Game, GameKind, GameSpec, State
from gridgames.web.context import ServerState, json_response, read_body, server_state, session_of
from gridgames.web.hooks import HookError, game_of, has
from gridgames.web.jobs import Budget
from gridgames.web.validate import WebError, option_values, text

__all__ = ["answer", "page", "positions", "position_view"]

PAGE = files("gridgames.web") / "static" / "drill.html"
MAX_MOVES_TEXT = 5000


async def page(request: Request) -> Response:
    """The drill page of a turn-based game."""
    server_state(request).spec(request.path_params["game"], GameKind.TURN_BASED)
    return FileResponse(str(PAGE), media_type="text/html")


def _game_state(spec: GameSpec, data: dict[str, Any]) -> tuple[Game, State]:
    """The game of the request's options and the state after its moves (one 400 line naming what is wrong)."""
    options = option_values(spec, data.get("options"))
    moves = text(data, "moves", "", limit=MAX_MOVES_TEXT)
    try:
        game = spec.make(**options)
        if not isinstance(game, Game):
            raise WebError(f"{spec.name} is a puzzle, not a turn-based game")
        return game, game.from_notation(moves)
    except GridGamesError:
        raise
    except ValueError as error:  # a plugin's own refusal of the options or the moves
        raise WebError(f"the game refused: {error}") from None


def _targets(hooks: Any, state: State) -> dict[str, list[list[int]]]:
    """Each legal move's click targets (the hook's, else the cells `State.move_cells` declares), by move text."""
    fmt = state.game.format_move
    if has(hooks, "move_targets"):
        given = hooks.move_targets(state)
        try:
            return {fmt(m): [[int(r), int(c)] for r, c in cells] for m, cells in given.items()}
        except (AttributeError, TypeError, ValueError, OverflowError) as error:
            raise HookError(game_of(hooks), "move_targets", f"not a {{move: [(row, col), ...]}}: {error}") from None
    found: dict[str, list[list[int]]] = {}
    for move in list(state.legal_moves())[:1000]:
        cells = state.move_cells(move)
        if cells is not None:
            found[fmt(move)] = [[int(r), int(c)] for r, c in cells]
    return found


def position_view(hooks: Any, state: State) -> dict[str, Any]:
    """What the page draws of a position: board cells, legal moves and their targets, who is to move."""
    grid = state.board()
    game = state.game
    return {
        "moves": state.notation(),
        "board": None
        if grid is None
        else {"rows": grid.height, "cols": grid.width, "cells": grid.cells.tolist(), "lattice": grid.lattice},
        "text": state.to_text(),
        "legal": [game.format_move(m) for m in state.legal_moves()],
        "targets": _targets(hooks, state),
        "to_move": None if state.is_over else state.current_player,
        "players": list(game.info.player_names),
        "styles": list(game.player_styles()),
    }


def _resolve(request: Request) -> tuple[ServerState, GameSpec, Any]:
    state = server_state(request)
    spec = state.spec(request.path_params["game"], GameKind.TURN_BASED)
    hooks = state.hooks(spec)
    if not (has(hooks, "drill_positions") and has(hooks, "drill_answer")):
        raise WebError(f"{spec.name} offers no drills", 404)
    return state, spec, hooks


def _submit(request: Request, state: ServerState, kind: str, work: Any) -> Response:
    session = session_of(request)
    with session.lock:
        running = state.jobs.active_for(session.id)
        if running is not None:
            raise WebError(
                f"this page already has a {running.kind} job running ({running.id}): wait for it or cancel it", 409
            )
        job = state.jobs.submit(session.id, kind, work, state.budget())
    return json_response({"job": job.view()}, 202)


async def positions(request: Request) -> Response:
    """Start the job that finds the positions to drill in the game sent."""
    state, spec, hooks = _resolve(request)
    data = await read_body(request)
    game, final = _game_state(spec, data)
    if not final.history:
        raise WebError("the game has no move: there is nothing to drill")

    def work(budget: Budget) -> dict[str, Any]:
        found = []
        for entry in hooks.drill_positions(final.copy(), budget):
            ply = int(entry["ply"])
            before = game.from_moves(final.history[:ply])
            found.append({**entry, "view": position_view(hooks, before)})
        return {"moves": final.notation(), "positions": found}

    return _submit(request, state, "drill", work)


async def answer(request: Request) -> Response:
    """Start the job that judges and explains one answer."""
    state, spec, hooks = _resolve(request)
    data = await read_body(request)
    game, position = _game_state(spec, data)
    if position.is_over:
        raise WebError("the game is over in that position: there is no move to find", 409)
    move = game.parse_move(text(data, "answer", limit=100))
    position.check_playable(move)

    def work(budget: Budget) -> dict[str, Any]:
        return {**hooks.drill_answer(position.copy(), move, budget), "answer": game.format_move(move)}

    return _submit(request, state, "drill answer", work)
