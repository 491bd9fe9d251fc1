"""Module-level functions for the parallel executor's tests (workers must be able to import them)."""

from __future__ import annotations

import os
from pathlib import Path


def square(x: int) -> int:
    """x squared."""
    return x * x


def fail_on_three(x: int) -> int:
    """Raise for the part 3, square the rest."""
    if x == 3:
        raise ValueError("three is not allowed")
    return x * x


def die_once(arg: tuple[int, str]) -> int:
    """Kill the worker process the first time part 2 runs (a marker file remembers), else square."""
    x, marker = arg
    if x == 2 and not Path(marker).exists():
        Path(marker).write_text("died")
        os._exit(1)
    return x * x
