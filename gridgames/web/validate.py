"""Request validation: every problem is one `WebError` with an HTTP status and a one-line message."""

from __future__ import annotations

import math
from typing import Any

from gridgames.errors import GridGamesError
from gridgames.game import GameSpec

__all__ = ["WebError", "boolean", "integer", "number", "obj", "one_line", "option_values", "text"]

MAX_TEXT = 20_000


class WebError(GridGamesError):
    """A request the server refuses: the HTTP status and one line saying what is wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def one_line(message: object) -> str:
    """A message on one line, at most 300 characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= 300 else text[:297] + "..."


def obj(value: Any, what: str = "the request body") -> dict[str, Any]:
    """A JSON object, or `WebError`."""
    if not isinstance(value, dict):
        raise WebError(f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def text(data: dict[str, Any], key: str, default: str | None = None, *, limit: int = MAX_TEXT) -> str:
    """A string field of at most ``limit`` characters."""
    value = data.get(key, default)
    if not isinstance(value, str):
        raise WebError(f"'{key}' must be a string" + ("" if key in data else " (it is missing)"))
    if len(value) > limit:
        raise WebError(f"'{key}' is too long ({len(value)} characters; at most {limit})")
    return value


def integer(data: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number field within [low, high] (None only when the default is None and it is absent)."""
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(f"'{key}' must be a whole number from {low} to {high}, not {value!r}")
    return value


def number(data: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    """A number field within [low, high]."""
    value = data.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise WebError(f"'{key}' must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def boolean(data: dict[str, Any], key: str, default: bool = False) -> bool:
    """A true/false field."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise WebError(f"'{key}' must be true or false, not {value!r}")
    return value


def option_values(spec: GameSpec, raw: Any) -> dict[str, Any]:
    """The game's options from a JSON object, each checked against its declared type; unknown names refused."""
    values = obj(raw if raw is not None else {}, "'options'")
    declared = {o.name: o for o in spec.options}
    out: dict[str, Any] = {}
    for name, value in values.items():
        option = declared.get(name)
        if option is None:
            raise WebError(f"{spec.name} has no option {name!r} (options: {', '.join(declared) or 'none'})")
        kind = option.type
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise WebError(f"option {name!r} must be a {kind.__name__}, not {value!r}")
        if isinstance(value, str) and len(value) > 2000:
            raise WebError(f"option {name!r} is too long")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**6:
            raise WebError(f"option {name!r} is out of range: {value}")
        out[name] = value
    return out
