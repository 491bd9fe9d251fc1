"""The progress bars' helpers (gridgames.progress)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import gridgames.progress


def test_a_late_bar_starts_at_its_first_update_and_receives_every_update(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[object] = []

    @contextmanager
    def recording_bar(description: str) -> Iterator[object]:
        events.append(("start", description))
        yield lambda fraction, found: events.append((fraction, found))
        events.append("end")

    monkeypatch.setattr(gridgames.progress, "search_progress", recording_bar)
    with gridgames.progress.search_progress_later("Counting 6x10") as on_progress:
        assert events == []  # nothing drawn (no refresh thread) before the workers report
        on_progress(0.25, 3)
        on_progress(0.5, 7)
    assert events == [("start", "Counting 6x10"), (0.25, 3), (0.5, 7), "end"]


def test_a_late_bar_that_never_gets_an_update_never_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []

    @contextmanager
    def recording_bar(description: str) -> Iterator[object]:
        started.append(description)
        yield lambda fraction, found: None

    monkeypatch.setattr(gridgames.progress, "search_progress", recording_bar)
    with gridgames.progress.search_progress_later("Counting"):
        pass
    assert started == []
