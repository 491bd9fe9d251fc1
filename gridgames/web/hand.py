"""Tiling by hand with the solver beside you: the page places pieces, the server says what is left of the puzzle.

Vocabulary:

* the *layout* of a puzzle: its board cells (numbered 0, 1, ... in drawing order, each with its drawing
  position, `gridgames.lattices.position`), its pieces (each orientation a list of positions, normalised), the
  orientation each transform (rotate, flip, tilt) turns an orientation into, and every *placement*: a piece in
  one orientation on board cells, numbered 0, 1, ...; the page draws and places from it alone;
* *placed*: the placements the person has put down (numbers), checked here: no cell twice, no piece more often
  than it has copies;
* a *dead cell*: an uncovered cell that no placement of a piece still in hand can cover;
* a *completion*: a solution of the puzzle that keeps every placed piece where it is -- a solution of the
  *rest* (the game's ``hand_rest`` hook: the uncovered cells, the pieces in hand), counted by the solver within
  the job's budget, "at least N" when the budget runs out;
* a *hint*: one placement of some completion (the one covering the first uncovered cell).

A game offers this with the ``hand_pieces`` and ``hand_rest`` hooks (`gridgames.web.hooks.HandTiling`). The
layout is built once per puzzle run (bounded: `MAX_PLACEMENTS`); each check or hint is a job of the session,
bounded by ``seconds`` (at most the server's job budget).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from gridgames.errors import GridGamesError
from gridgames.game import GameKind, Placement
from gridgames.lattices import Lattice, lattice_named, position, translation
from gridgames.web.context import json_response, read_body
from gridgames.web.hooks import has
from gridgames.web.jobs import Budget, Job
from gridgames.web.sessions import PuzzleRun
from gridgames.web.validate import WebError, one_line

__all__ = [
    "HAND_VERSION",
    "MAX_PLACEMENTS",
    "Layout",
    "analyse",
    "build_layout",
    "check_placed",
    "dead_cells",
    "hand_check",
    "hand_get",
    "hand_hint",
    "transforms_of",
]

HAND_VERSION = 1
"""The version of the hand-tiling API (``GET /api/puzzle/GAME/hand``'s ``version``)."""
MAX_PLACEMENTS = 200_000
"""The most placements of a puzzle the page is given (every piece in every orientation at every cell)."""
DEFAULT_SECONDS = 3.0
"""The time a check or a hint may take unless the request asks for less (the server's job budget caps it)."""

Coord = tuple[int, ...]
Map = Callable[[Coord], Coord]

_TRANSFORMS: dict[str, tuple[tuple[str, str, str, Map], ...]] = {
    "square": (
        ("Rotate", "r", "turn a quarter clockwise", lambda p: (p[1], -p[0])),
        ("Flip", "f", "mirror left to right", lambda p: (p[0], -p[1])),
    ),
    "triangular": (
        ("Rotate", "r", "turn a sixth", lambda p: (1 - p[1], 1 - p[2], 1 - p[0])),
        ("Flip", "f", "mirror left to right", lambda p: (p[0], p[2], p[1])),
    ),
    "hexagonal": (
        ("Rotate", "r", "turn a sixth", lambda p: (-p[2], -p[0], -p[1])),
        ("Flip", "f", "mirror left to right", lambda p: (p[1], p[0], p[2])),
    ),
    "cubic": (
        ("Rotate", "r", "turn a quarter within the layer", lambda p: (p[0], p[2], -p[1])),
        ("Tilt", "t", "turn a quarter between layers and rows", lambda p: (-p[1], p[0], p[2])),
        ("Turn", "u", "turn a quarter between layers and columns", lambda p: (-p[2], p[1], p[0])),
    ),
}
"""Each lattice's transforms of a piece (name, key, what it does, the map of lattice coordinates): solids turn in
space (never mirrored); plane pieces turn and flip."""


def transforms_of(lattice: Lattice) -> tuple[tuple[str, str, str, Map], ...]:
    """The transforms the page offers on a lattice."""
    return _TRANSFORMS[lattice.name]


@attrs.frozen
class Layout:
    """A puzzle as the hand-tiling page sees it (see the module's vocabulary)."""

    lattice: Lattice
    cells: tuple[Coord, ...]
    pieces: tuple[dict[str, Any], ...]
    placements: tuple[tuple[int, int, tuple[int, ...]], ...]
    transforms: tuple[dict[str, Any], ...]

    def view(self) -> dict[str, Any]:
        """The JSON the page draws from."""
        return {
            "version": HAND_VERSION,
            "lattice": self.lattice.name,
            "cells": [list(position(self.lattice, c)) for c in self.cells],
            "pieces": [{"name": p["name"], "count": p["count"], "orientations": p["drawn"]} for p in self.pieces],
            "transforms": list(self.transforms),
            "placements": [[piece, orientation, list(cells)] for piece, orientation, cells in self.placements],
        }


def _coords(value: Any, what: str) -> tuple[Coord, ...]:
    try:
        return tuple(tuple(int(x) for x in c) for c in value)
    except (TypeError, ValueError):
        raise GridGamesError(f"{what} must be a list of integer coordinates") from None


def build_layout(spec: Any) -> Layout:
    """The layout of a game's ``hand_pieces`` answer (a `GridGamesError` when it is malformed or too large)."""
    lattice = lattice_named(str(spec["lattice"]))
    cells = tuple(sorted(set(_coords(spec["cells"], "the board's cells")), key=lambda c: position(lattice, c)))
    index = {c: i for i, c in enumerate(cells)}
    pieces: list[dict[str, Any]] = []
    for piece in spec["pieces"]:
        forms = list(dict.fromkeys(lattice.normalise(_coords(o, "an orientation")) for o in piece["orientations"]))
        if not forms or not all(forms):
            raise GridGamesError(f"piece {piece['name']!r} has no cells")
        drawn = [sorted(list(position(lattice, c)) for c in form) for form in forms]
        pieces.append({"name": str(piece["name"]), "count": int(piece.get("count", 1)), "forms": forms, "drawn": drawn})
    transforms = []
    for name, key, title, move in transforms_of(lattice):
        maps = []
        for piece in pieces:
            where = {form: i for i, form in enumerate(piece["forms"])}
            maps.append([where.get(lattice.normalise(move(c) for c in form), -1) for form in piece["forms"]])
        transforms.append({"name": name, "key": key, "title": title, "maps": maps})
    placements: list[tuple[int, int, tuple[int, ...]]] = []
    for p, piece in enumerate(pieces):
        for o, form in enumerate(piece["forms"]):
            for target in cells:
                shift = translation(lattice, form[0], target)
                if shift is None:
                    continue
                spots = [index.get(tuple(a + b for a, b in zip(c, shift))) for c in form]
                if all(spot is not None for spot in spots):
                    placements.append((p, o, tuple(sorted(s for s in spots if s is not None))))
                    if len(placements) > MAX_PLACEMENTS:
                        raise GridGamesError(
                            f"this puzzle has over {MAX_PLACEMENTS:,} placements: too many to tile by hand on the page"
                        )
    return Layout(lattice, cells, tuple(pieces), tuple(placements), tuple(transforms))


def check_placed(layout: Layout, value: Any) -> list[int]:
    """The placements of a request's ``placed`` list, checked (a 400 naming what is wrong)."""
    if not isinstance(value, list) or len(value) > len(layout.cells):
        raise WebError("'placed' must be a list of placement numbers (at most one per board cell)")
    used: dict[int, int] = {}
    covered: set[int] = set()
    for number in value:
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(layout.placements):
            raise WebError(f"'placed' holds {number!r}, not a placement number (0 to {len(layout.placements) - 1})")
        piece, _, cells = layout.placements[number]
        name = layout.pieces[piece]["name"]
        if covered.intersection(cells):
            raise WebError(f"placement {number} ({name}) covers a cell another piece covers")
        used[piece] = used.get(piece, 0) + 1
        if used[piece] > layout.pieces[piece]["count"]:
            raise WebError(f"piece {name} is placed more often than its {layout.pieces[piece]['count']} copies")
        covered.update(cells)
    return list(value)


def _in_hand(layout: Layout, placed: Sequence[int]) -> list[int]:
    left = [int(p["count"]) for p in layout.pieces]
    for number in placed:
        left[layout.placements[number][0]] -= 1
    return left


def _covered(layout: Layout, placed: Iterable[int]) -> set[int]:
    return {cell for number in placed for cell in layout.placements[number][2]}


def dead_cells(layout: Layout, placed: Sequence[int]) -> list[int]:
    """The uncovered cells that no placement of a piece still in hand can cover (none may be covered by it)."""
    covered, left = _covered(layout, placed), _in_hand(layout, placed)
    reachable: set[int] = set()
    for piece, _, cells in layout.placements:
        if left[piece] > 0 and not covered.intersection(cells):
            reachable.update(cells)
    return [i for i in range(len(layout.cells)) if i not in covered and i not in reachable]


def _as_placements(layout: Layout, placed: Sequence[int]) -> tuple[Placement, ...]:
    return tuple(
        Placement(layout.pieces[piece]["name"], tuple(layout.cells[i] for i in cells))
        for piece, _, cells in (layout.placements[n] for n in placed)
    )


def analyse(
    layout: Layout, puzzle: Any, hooks: Any, placed: Sequence[int], budget: Budget, hint: bool
) -> dict[str, Any]:
    """What the page shows after a placement: solved (checked by the puzzle), dead cells, the completions counted
    within the budget; with ``hint``, one placement of a completion instead of the count."""
    covered = _covered(layout, placed)
    result: dict[str, Any] = {"placed": len(placed), "left": len(layout.cells) - len(covered), "dead": []}
    if len(covered) == len(layout.cells):
        valid = bool(puzzle.is_solution(_as_placements(layout, placed)))
        return result | {"solved": valid, "valid": valid, "count": 1 if valid else 0, "partial": False}
    dead = dead_cells(layout, placed)
    if dead:
        return result | {
            "solved": False,
            "dead": dead,
            "count": 0,
            "partial": False,
            "completable": False,
            "why": f"{len(dead)} cell{'s' if len(dead) > 1 else ''} no piece in hand can cover",
        }
    # nothing placed: the puzzle's own count, which may use the board's symmetries (6x10: 0.25 s, where the search
    # from no placed piece ran out of 3 s at 8,396 of the 9,356)
    own = not placed and has(puzzle, "count") and has(puzzle, "solutions")
    rest = puzzle if own else hooks.hand_rest(puzzle, _as_placements(layout, placed))

    def progress(fraction: float, found: int) -> None:
        budget.report(fraction, found, f"{found:,} completions so far")
        budget.check()

    if hint:
        first = None
        try:
            first = next(iter(rest.solutions(limit=1, on_progress=progress)), None)
        # the budget ran out (or the page cancelled) before a completion was found
        except KeyboardInterrupt:
            pass
        if first is None:
            searched = budget.stopped is None
            return result | {
                "solved": False,
                "hint": None,
                "completable": False if searched else None,
                "partial": not searched,
            }
        lookup = {(layout.pieces[p]["name"], cells): n for n, (p, _, cells) in enumerate(layout.placements)}
        index = {c: i for i, c in enumerate(layout.cells)}
        options = []
        # a completion may hold the placed pieces too: the hint is one of the others
        for piece in first:
            cells = tuple(sorted(index[tuple(c)] for c in piece.cells))
            number = lookup.get((piece.piece, cells))
            if number not in placed:
                options.append((cells[0], number))
        chosen = min((o for o in options if o[1] is not None), default=None)
        return result | {
            "solved": False,
            "hint": None if chosen is None else chosen[1],
            "completable": True,
            "partial": False,
        }
    counted = rest.count(on_progress=progress)
    partial = bool(counted.partial)  # a count that ran to its end is exact, however long it took
    completable = True if counted.count else (None if partial else False)
    return result | {
        "solved": False,
        "count": counted.count,
        "partial": partial,
        "completable": completable,
        "seconds": round(counted.seconds, 3),
        "stopped": budget.stopped,
    }


# --- the handlers ------------------------------------------------------------------------------------------------
_LAYOUTS: dict[int, Layout] = {}
_LAYOUT_LOCK = threading.Lock()


def _layout(run: PuzzleRun, hooks: Any) -> Layout:
    """The run's layout, built once (kept while the run lives)."""
    key = id(run)
    with _LAYOUT_LOCK:
        found = _LAYOUTS.get(key)
    if found is not None:
        return found
    if not (has(hooks, "hand_pieces") and has(hooks, "hand_rest")):
        raise WebError(f"{run.name} does not offer tiling by hand (its web hooks lack hand_pieces/hand_rest)", 404)
    try:
        layout = build_layout(hooks.hand_pieces(run.puzzle))
    except GridGamesError as error:
        raise WebError(one_line(str(error)), 413 if "too many" in str(error) else 400) from None
    with _LAYOUT_LOCK:
        _LAYOUTS[key] = layout
    weakref.finalize(run, _LAYOUTS.pop, key, None)
    return layout


async def hand_get(request: Request) -> Response:
    """``GET /api/puzzle/GAME/hand``: the layout of the session's puzzle."""
    from gridgames.web import api

    _, spec, hooks, session = api._resolve(request, GameKind.PUZZLE)
    with session.lock:
        run = api._run(session, spec)
    layout = await run_in_threadpool(_layout, run, hooks)
    return json_response(layout.view())


def _seconds(data: dict[str, Any], limit: float) -> float:
    value = data.get("seconds", DEFAULT_SECONDS)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 3600:
        raise WebError(f"'seconds' must be a number of seconds above 0, not {value!r}")
    return min(float(value), limit)


def _hand_job(hint: bool) -> Any:
    async def handler(request: Request) -> Response:
        from gridgames.web import api

        state, spec, hooks, session = api._resolve(request, GameKind.PUZZLE)
        data = await read_body(request)
        with session.lock:
            run = api._run(session, spec)
        layout = await run_in_threadpool(_layout, run, hooks)
        placed = check_placed(layout, data.get("placed", []))
        seconds = _seconds(data, state.config.job_seconds)
        with session.lock:
            api._busy(state, session)

            def work(budget: Budget) -> dict[str, Any]:
                return analyse(layout, run.puzzle, hooks, placed, budget, hint)

            def done(job: Job) -> None:
                return None

            job = state.jobs.submit(
                session.id, "hint" if hint else "check", work, Budget(seconds, state.config.job_nodes), done
            )
        return json_response({"job": job.view()}, 202)

    return handler


hand_check = _hand_job(hint=False)
"""``POST /api/puzzle/GAME/hand/check`` ``{"placed": [N, ...], "seconds": S}``: a job analysing the placed pieces."""
hand_hint = _hand_job(hint=True)
"""``POST /api/puzzle/GAME/hand/hint`` ``{"placed": [N, ...], "seconds": S}``: a job finding one more piece."""
