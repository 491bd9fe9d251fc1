"""A plugin cannot take a command down (issue 55, case 1): ``gridgames info|play|solve P`` and ``gridgames P show|play``
vet an outside plugin as ``gridgames list`` does (in a child process, bounded), so a plugin that ends the process,
sleeps or raises KeyboardInterrupt at import is one line and exit 2, and a healthy plugin still works, its vetting
remembered while its files are unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gridgames_test_support.plugin_dists import SUPPORT, install_plugins

from gridgames import registry as registry_module
from gridgames.entry_points import entry_points
from gridgames.registry import GROUP, Registry

HOSTILE = {
    "osexit": "import os\nos._exit(7)\n",
    "sleepy": "import time\ntime.sleep(60)\n",
    "interrupt": "raise KeyboardInterrupt\n",
    "good": (
        "import attrs\nfrom gridgames_test_support.toy_games import NIM_SPEC\n"
        "SPEC = attrs.evolve(NIM_SPEC, name='good')\n"
    ),
}


def install(folder: Path) -> dict[str, str]:
    """The plugins above as one installed distribution; the environment that finds them (and its own cache folder)."""
    env = install_plugins(folder, HOSTILE, "gg55-plugins", "gg55")
    env.update(GRIDGAMES_PLUGIN_SECONDS="1", XDG_CACHE_HOME=str(folder / "cache"), XDG_DATA_HOME=str(folder / "data"))
    return env


def run_gg(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # the timeout is a safety net; the bound asserted is the plugin's own (its vetting gives up after 1 s)
    return subprocess.run(
        [sys.executable, "-m", "gridgames", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


COMMANDS = [["info", "{}"], ["play", "{}"], ["solve", "{}"], ["{}", "show", "1"], ["{}", "play"]]


@pytest.mark.parametrize("plugin", ["osexit", "sleepy", "interrupt"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c).replace("{}", "P"))
def test_a_hostile_plugin_is_one_line_in_every_command(tmp_path: Path, plugin: str, command: list[str]) -> None:
    env = install(tmp_path)
    result = run_gg(env, *(part.format(plugin) for part in command))
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith(f"error: game {plugin!r} is broken: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_healthy_plugin_works_and_its_vetting_is_remembered(tmp_path: Path) -> None:
    env = install(tmp_path)
    first = run_gg(env, "info", "good")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("good (turn-based)")
    cache = tmp_path / "cache" / "gridgames" / "vetted-plugins.json"
    assert cache.is_file()
    again = run_gg(env, "good", "show", "1")
    assert again.returncode == 0, again.stderr


def test_vetting_is_remembered_by_the_plugins_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = install(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    monkeypatch.setenv("GRIDGAMES_PLUGIN_SECONDS", "1")
    monkeypatch.syspath_prepend(SUPPORT)
    monkeypatch.syspath_prepend(str(tmp_path))
    probes: list[list[str]] = []
    real = registry_module._Probe.collect

    def counted(self: registry_module._Probe) -> object:
        probes.append([child.name for child in self.everyone])
        return real(self)

    monkeypatch.setattr(registry_module._Probe, "collect", counted)

    def fresh() -> Registry:
        registry = Registry.from_list([ep for ep in entry_points(GROUP) if ep.name == "good"])
        registry.isolate = True
        return registry

    assert fresh().load("good").name == "good"
    assert fresh().load("good").name == "good"
    assert probes == [["good"]]  # the second process-like registry trusted the cache
    module = tmp_path / "gg55_good.py"
    module.write_text(module.read_text() + "# changed\n")
    os.utime(module, ns=(1, 1))
    assert fresh().load("good").name == "good"
    assert probes == [["good"], ["good"]]  # changed files are vetted again
