"""The Connect Four solver's null windows as they were before they stepped out from the draw: the kernel's bisection."""

from __future__ import annotations

from typing import Any


def bisecting_step_search(
    driver: Any, p: int, mask: int, n: int, lo: int, hi: int, budget: int, at_lo: bool = False
) -> int | None:
    """A stand-in for `SearchDriver.step_search`: the bound's null window first (with ``at_lo``), then the kernel's
    bisection."""
    start = driver.explored
    if at_lo:
        found = driver.search(p, mask, n, lo, lo + 1, budget)
        if found is None or found <= lo:  # the score is at most found and at least lo
            return found if found is None else lo
        lo = found
    return driver.search(p, mask, n, lo, hi, budget - (driver.explored - start))
