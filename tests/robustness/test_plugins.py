"""Misbehaving plugins (issue 13, case 9): ``gridgames list`` stays up, on time and clean; the others still listed."""

from __future__ import annotations

import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gridgames.registry
from gridgames.cli import app
from gridgames.registry import GROUP, Registry

runner = CliRunner()

PLUGINS = {
    "sleepy": "import time\ntime.sleep(30)\n",
    "exiter": "import sys\nsys.exit(3)\n",
    "hardexit": "import os\nos._exit(4)\n",
    "printer": "import os, sys\nprint('HELLO FROM A PLUGIN')\nos.write(1, b'RAW BYTES')\nsys.stderr.write('NOISE')\n"
    "from gridgames_test_support.toy_games import NIM_SPEC as _NIM\nimport attrs\nSPEC = attrs.evolve(_NIM, "
    "name='printer')\n",
}


@pytest.fixture
def hostile_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    for name, body in PLUGINS.items():
        (tmp_path / f"hostile_{name}.py").write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("GRIDGAMES_PLUGIN_SECONDS", "1")
    entries = [EntryPoint(name, f"hostile_{name}:SPEC", GROUP) for name in PLUGINS]
    registry = Registry.from_list([*entries, EntryPoint("nim", "gridgames_test_support.toy_games:NIM_SPEC", GROUP)])
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


def test_case_9_list_survives_plugins_that_stall_exit_or_print(hostile_registry: Registry) -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    # a plugin that prints still works
    assert "turn-based" in lines["nim"] and "turn-based" in lines["printer"]
    assert "BROKEN" in lines["sleepy"] and "did not finish within 1 s" in lines["sleepy"]
    assert "BROKEN" in lines["exiter"] and "sys.exit(3)" in lines["exiter"]
    assert "BROKEN" in lines["hardexit"] and "exit code 4" in lines["hardexit"]
    assert "HELLO" not in result.output and "RAW" not in result.output and "NOISE" not in result.output
    assert "hostile_sleepy" not in __import__("sys").modules  # listing never imported a plugin here


@pytest.mark.slow
def test_listing_imports_no_plugin_in_this_process(hostile_registry: Registry) -> None:
    listings, broken = hostile_registry.list_all(seconds=1)
    assert [g.name for g in listings] == ["nim", "printer"]
    assert sorted(b.name for b in broken) == ["exiter", "hardexit", "sleepy"]
    assert hostile_registry.names() == sorted([*PLUGINS, "nim"])
