"""Whole numbers in user text, read in one place with a bound on their length before conversion.

Python refuses to convert a string of more than 4,300 digits with a bare ``ValueError``
(and a long one costs time before that). Every number in a move, a board or piece spec,
a save or an option is read here instead, so such input gets the caller's own error class
and a one-line message naming what was wrong.

>>> parse_whole("12", what="a column")
12
>>> parse_whole("9" * 40, what="a column")
Traceback (most recent call last):
    ...
gridgames.errors.NotationError: a column has 40 digits: at most 18 are read
"""

from __future__ import annotations

import math
import os
import resource

from gridgames.errors import GridGamesError, NotationError, OptionError

__all__ = ["MAX_DIGITS", "MAX_SECONDS", "check_memory", "check_seconds", "clip", "memory_available", "parse_whole"]

MAX_DIGITS = 18
"""The most digits a whole number in user text may have (every such number the games read fits in 64 bits)."""


def parse_whole(
    text: str, *, what: str = "a number", error: type[GridGamesError] = NotationError, max_digits: int = MAX_DIGITS
) -> int:
    """The whole number ``text`` stands for (ASCII digits, an optional sign), else ``error`` naming ``what``."""
    digits = text.strip()
    body = digits[1:] if digits[:1] in "+-" else digits
    if not (body.isascii() and body.isdigit()):
        raise error(f"{what} must be a whole number, not {clip(text)!r}")
    if len(body) > max_digits:
        raise error(f"{what} has {len(body):,} digits: at most {max_digits} are read")
    return int(digits)


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message (a 5,000-digit move is not printed whole)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


MAX_SECONDS = 86_400.0
"""The longest time budget accepted anywhere (a day): beyond it a deadline overflows the clocks' arithmetic."""


def check_seconds(value: object, *, what: str = "--think", error: type[GridGamesError] = OptionError) -> float:
    """``value`` as a time budget in seconds: a finite number above 0 and at most `MAX_SECONDS`, else ``error``.

    >>> check_seconds(2)
    2.0
    >>> check_seconds(1e308)
    Traceback (most recent call last):
        ...
    gridgames.errors.OptionError: --think must be a number of seconds above 0 and at most 86400, not 1e+308
    """
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    # an int is compared as it is (math.isfinite of a 400-digit int raises OverflowError)
    if number is None or (isinstance(number, float) and not math.isfinite(number)) or not 0 < number <= MAX_SECONDS:
        shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:20]}... ({len(repr(value))} characters)"
        raise error(f"{what} must be a number of seconds above 0 and at most {MAX_SECONDS:.0f}, not {shown}")
    return float(number)


def _meminfo_bytes(field: str) -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_left() -> int | None:
    """What this process's cgroup (v2) may still allocate, or None when unlimited or unknown."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as most:
            limit = most.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as now:
            return int(limit) - int(now.read().strip())
    except (OSError, ValueError):
        return None


def memory_available() -> int | None:
    """About how many bytes this process can still allocate: the least of its address-space limit (ulimit -v) left,
    its cgroup's limit left, and the machine's available memory (Linux's MemAvailable); None where none is known."""
    bounds: list[int] = []
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm", encoding="ascii") as statm:
                used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            bounds.append(soft - used)
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    for bound in (_cgroup_left(), _meminfo_bytes("MemAvailable")):
        if bound is not None:
            bounds.append(bound)
    return max(0, min(bounds)) if bounds else None


def check_memory(needed: int, *, what: str, error: type[GridGamesError] = OptionError) -> int:
    """``needed`` bytes if they can be allocated now (`memory_available`), else ``error`` in one line naming ``what``.

    >>> check_memory(1 << 10, what="a table")
    1024
    """
    left = memory_available()
    if left is not None and needed > left:
        raise error(
            f"{what} needs {needed / 2**20:,.0f} MiB of memory; about {left / 2**20:,.0f} MiB can be allocated "
            "now (the machine's free memory and this process's limits)"
        )
    return needed
