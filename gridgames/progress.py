"""Rich progress bars for long searches (CLI layer: this module draws on the terminal).

    with search_progress("Counting 6x10") as on_progress:
        result = puzzle.count(on_progress=on_progress)

The callback takes (fraction done, or NaN when unknown; solutions so far). The bar
shows the share of the search tree done, solutions so far, their rate and the time
left; it is drawn on standard error so that standard output stays clean for
``--json``/``--jsonl``, and it disappears when the output is not a terminal
unless ``force`` is set.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from gridgames.game import ProgressCallback


class _SolutionsColumn(ProgressColumn):
    """Solutions found so far and their rate."""

    def render(self, task: Task) -> Text:
        found = int(task.fields.get("found", 0))
        elapsed = task.elapsed or 0.0
        rate = found / elapsed if elapsed > 0 else 0.0
        return Text(f"{found:,} solutions ({rate:,.0f}/s)")


@contextmanager
def search_progress(
    description: str, *, console: Console | None = None, force: bool = False
) -> Iterator[ProgressCallback]:
    """A context giving an ``on_progress`` callback that drives a rich progress bar."""
    console = console or Console(file=sys.stderr)
    if not (force or console.is_terminal):
        yield lambda fraction, found: None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        _SolutionsColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    last = [0.0]
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(description, total=1.0, found=0)

        def on_progress(fraction: float, found: int) -> None:
            now = time.monotonic()
            if now - last[0] < 0.05 and not fraction >= 1.0:
                return
            last[0] = now
            completed = None if math.isnan(fraction) else min(max(fraction, 0.0), 1.0)
            progress.update(task, completed=completed, found=found)

        yield on_progress


@contextmanager
def search_progress_later(description: str) -> Iterator[ProgressCallback]:
    """Like `search_progress`, but the bar (and its refresh thread) starts at the first update: after workers have
    forked."""
    with ExitStack() as stack:
        bar: list[ProgressCallback] = []

        def on_progress(fraction: float, found: int) -> None:
            if not bar:
                bar.append(stack.enter_context(search_progress(description)))
            bar[0](fraction, found)

        yield on_progress
