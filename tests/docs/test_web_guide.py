"""The web guide (docs/web.md) runs: its Python blocks, in order; the README's test command is CI's."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "web.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_guides_examples_run_and_print_what_they_promise(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("starlette", reason='the web extra is not installed: pip install "gridgames[web]"')
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    blocks = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) == 2, "the guide lost its code"
    namespace: dict[str, object] = {"__name__": "web_guide"}
    # Starlette 1.x suggests httpx2, which is not published; httpx works
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"{GUIDE.name} (python block {number})", "exec"), namespace)
    out = capsys.readouterr().out
    assert "after 4: 4 legal: 1 2 3 4 5 6 7" in out
    assert "400 there is no column 9" in out
    # 42 cells, 2 rings
    assert re.search(r'<svg xmlns="http://www.w3.org/2000/svg" .*\.\.\. 4[0-9] circles', out)
    tiling = out.split(" circles\n", 1)[1]
    # 3 rows of named pieces, 2 of outlines
    assert set("FILNPTUVWXYZ") <= set(tiling) and len(tiling.splitlines()) == 5


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"^pip install \"\.\[lint,test[^\n]*python -m pytest$", readme, re.MULTILINE)
    assert command is not None and command.group(0) in ci.splitlines()
    assert "web" in command.group(0) and "docs/web.md" in readme
    # the checks run before the tests
    assert "&& ruff check && ruff format --check && mypy && python -m pytest" in command.group(0)
