"""A plugin whose make() fails, exits or returns the wrong type, under every command (issue 38): one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys

import attrs
import pytest

from gridgames.errors import OptionError, PluginError

PLUGIN = """\
import sys, attrs
from gridgames_connect4 import SPEC as _C4
def _raise(**o): raise RuntimeError("boom in make")
def _exit(**o): sys.exit(5)
def _wrong(**o): return 42
def _memory(**o): raise MemoryError
RAISES = attrs.evolve(_C4, name="p38raise", create=_raise, app=None, web=None)
EXITS = attrs.evolve(_C4, name="p38exit", create=_exit, app=None, web=None)
WRONG = attrs.evolve(_C4, name="p38wrong", create=_wrong, app=None, web=None)
MEMORY = attrs.evolve(_C4, name="p38memory", create=_memory, app=None, web=None)
"""
NAMES = {"p38raise": "RAISES", "p38exit": "EXITS", "p38wrong": "WRONG", "p38memory": "MEMORY"}


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("plugins")
    (folder / "pl38.py").write_text(PLUGIN)
    info = folder / "p38-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: p38\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[gridgames.games]\n" + "".join(f"{n} = pl38:{v}\n" for n, v in NAMES.items())
    )
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
        "XDG_DATA_HOME": str(folder / "data"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("command", [["play", "{}"], ["{}", "show", "4"], ["{}", "play"]])
def test_a_failing_make_is_one_line_and_exit_2(name: str, command: list[str], plugin_env: dict[str, str]) -> None:
    args = [part.format(name) for part in command]
    run = subprocess.run(
        [sys.executable, "-m", "gridgames", *args],
        input="q\n",
        capture_output=True,
        text=True,
        env=plugin_env,
        timeout=120,
    )
    assert "Traceback" not in run.stdout + run.stderr, run.stderr[-500:]
    assert run.returncode == 2, (run.returncode, run.stdout[-200:], run.stderr[-300:])
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and name in lines[0], run.stderr


def test_make_turns_a_plugins_failure_into_a_plugin_error() -> None:
    from gridgames_connect4 import SPEC

    def boom(**_options: object) -> None:
        raise KeyError("x")

    with pytest.raises(PluginError, match="could not create its game: KeyError"):
        attrs.evolve(SPEC, create=boom).make()

    def refuse(**_options: object) -> None:
        raise OptionError("--width must be 4 to 10")

    with pytest.raises(OptionError):  # the game's own one-line errors pass as they are
        attrs.evolve(SPEC, create=refuse).make()
