"""The plugin author's guide (docs/plugins.md) runs: its Python blocks, in order, build games that pass check_spec."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

from gridgames.game import GameKind, GameSpec
from gridgames.testing import check_spec

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks(text: str) -> list[str]:
    """The guide's ```python code blocks, in order."""
    return BLOCK.findall(text)


@pytest.fixture(scope="module")
def guide_namespace() -> dict[str, object]:
    """Run every Python block of the guide in one module namespace, as a reader pasting them would."""
    blocks = python_blocks(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) >= 5, "the guide lost its code"
    module = types.ModuleType("plugins_guide")
    sys.modules[module.__name__] = module  # so that attrs and typing can find the classes' module
    try:
        for number, block in enumerate(blocks, start=1):
            code = compile(block, f"{GUIDE.name} (python block {number})", "exec")
            exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def test_the_guide_shows_a_pyproject_entry_point() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert '[project.entry-points."gridgames.games"]' in text
    assert 'domineering = "gridgames_domineering:SPEC"' in text


@pytest.mark.slow
def test_the_guides_specs_pass_the_conformance_checks(guide_namespace: dict[str, object]) -> None:
    specs = [value for value in guide_namespace.values() if isinstance(value, GameSpec)]
    assert {spec.kind for spec in specs} == {GameKind.TURN_BASED, GameKind.PUZZLE}
    for spec in specs:
        check_spec(spec)


def test_the_guides_game_is_the_one_it_describes(guide_namespace: dict[str, object]) -> None:
    spec = guide_namespace["SPEC"]
    assert isinstance(spec, GameSpec) and spec.name == "domineering"
    game = spec.make(width=2, height=3)
    state = game.from_notation("a1")  # type: ignore[union-attr]
    assert state.to_text() == "V.\nV.\n.."
    assert [game.format_move(m) for m in state.legal_moves()] == ["a3"]  # type: ignore[union-attr]  # flat: only the bottom row


def test_the_guides_own_puzzle_stops_with_a_partial_count_when_the_web_cancels_it(
    guide_namespace: dict[str, object],
) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from gridgames.game import Cancelled
    from gridgames.web.jobs import Budget, JobCancelled

    assert issubclass(JobCancelled, Cancelled) and issubclass(Cancelled, KeyboardInterrupt)
    puzzle = guide_namespace["LatinSquares"](4)  # type: ignore[operator]
    budget = Budget(seconds=60.0)
    seen: list[int] = []

    # what the web's count job passes (gridgames.web.puzzles)
    def progress(fraction: float, found: int) -> None:
        seen.append(found)
        if found >= 100:
            budget.cancelled.set()  # the page's Cancel button
        budget.check()

    result = puzzle.count(on_progress=progress)
    assert result.partial and 100 <= result.count < 576 and result.count == seen[-1]
    assert budget.stopped == "cancelled"
    assert puzzle.count().count == 576 and not puzzle.count().partial
