"""Connect Four's `GameSpec` (the registry's entry point ``gridgames_connect4:SPEC``); its help text is the package's
docstring."""

from __future__ import annotations

from typing import Any

import gridgames_connect4
from gridgames_connect4.position.rules import Connect4
from gridgames.game import GameKind, GameSpec, Option


def _make_app() -> Any:
    # typer and rich are loaded only for the commands
    from gridgames_connect4.surfaces.cli import make_app

    return make_app()


def _quick(args: list[str]) -> int | None:
    # analyze from the book, before typer is imported
    from gridgames_connect4.surfaces.quick import answer

    return answer(args)


def _web() -> Any:
    from gridgames_connect4.surfaces.web import Connect4Web  # only for gridgames serve

    return Connect4Web()


def _create(width: int = 7, height: int = 6, connect: int = 4, first: str = "red") -> Connect4:
    return Connect4(width, height, connect, first=first.lower())


def _upgrade(data: dict[str, Any], where: str) -> dict[str, Any]:
    from gridgames_connect4.old_saves import upgrade

    return upgrade(data, where)


SPEC = GameSpec(
    name="connect4",
    summary="Connect Four on boards up to 10x10, lines of 3 to 6, with computer players up to perfect play.",
    kind=GameKind.TURN_BASED,
    create=_create,
    options=(
        Option("width", int, 7, "columns, 4 to 10"),
        Option("height", int, 6, "rows, 4 to 10"),
        Option("connect", int, 4, "line length that wins, 3 to 6"),
        Option("first", str, "red", "colour of the first mover: red or yellow", choices=("red", "yellow")),
    ),
    doc=gridgames_connect4.__doc__ or "",
    app=_make_app,
    web=_web,
    # 0.1's own save files (gridgames_connect4.old_saves)
    save_upgrades={"gridgames-connect4": _upgrade},
    quick=_quick,
)

__all__ = ["SPEC"]
