"""A clock the tests advance by hand: budgets measured without the wall clock (the machine's load cannot fail
them)."""

from __future__ import annotations

import attrs


@attrs.define
class FakeClock:
    """Seconds that pass only when `spend` is called; call it to read them (as `time.perf_counter`)."""

    now: float = 0.0
    reads: int = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now

    def spend(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.now += seconds
