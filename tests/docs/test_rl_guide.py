"""The learning-environment guide (docs/rl.md) runs: its Python blocks, in order, as a reader pasting them would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'


@pytest.mark.slow
def test_the_guides_examples_run_and_print_what_they_promise(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo", reason=REASON)
    pytest.importorskip("gymnasium", reason=REASON)
    blocks = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) == 4, "the guide lost its code"
    namespace: dict[str, object] = {"__name__": "rl_guide"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"{GUIDE.name} (python block {number})", "exec"), namespace)
    out = capsys.readouterr().out
    assert re.search(r"random agent against medium: \d won, \d drawn, \d lost", out)
    assert re.search(r"^(player_[01] wins: . has 3 in a row|draw: the board is full)$", out, re.MULTILINE)
    assert "the position is worth" in out and re.search(r"column \d: score [+-]\d+ \(best\)", out)
    assert re.search(r"reward -?1\.0|reward 0\.0", out)
    games = re.search(r"random against random: (\d+) won, (\d+) drawn, (\d+) lost", out)
    # the first mover wins more often
    assert games is not None and int(games[1]) > int(games[3]) > 0


def test_the_readme_points_to_the_guide() -> None:
    readme = (GUIDE.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/rl.md" in readme and '"gridgames[rl]"' in readme
