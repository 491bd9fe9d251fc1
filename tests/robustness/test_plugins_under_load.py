"""``gridgames list`` on a busy machine (issue 37): eight healthy outside plugins, some slow to import, every core
busy with ``yes``; none is called broken, while a plugin whose import hangs still is."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from gridgames.registry import GROUP, PLUGIN_IMPORT_SECONDS, _Probe, _probe_slots

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs 'yes' and Linux's process clocks")

SLOW = {f"slow{i}": 0.5 + 0.1 * i for i in range(8)}  # seconds of CPU work at import: 0.5 .. 1.2 s

PLUGIN = """\
import time
import attrs
from gridgames_test_support.toy_games import NIM_SPEC

_start = time.process_time()
while time.process_time() - _start < {cpu}:  # CPU work at import, as a heavy plugin's imports are
    pass
SPEC = attrs.evolve(NIM_SPEC, name={name!r}, summary="a slow plugin {name}")
"""


def _install_fake_plugins(folder: Path) -> None:
    """Eight slow plugins and one that hangs, installed as a distribution (a dist-info with entry points)."""
    for name, cpu in SLOW.items():
        (folder / f"gg_load_{name}.py").write_text(PLUGIN.format(cpu=cpu, name=name))
    (folder / "gg_load_hanging.py").write_text("import time\ntime.sleep(120)\n")
    info = folder / "gridgames_load_plugins-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: gridgames-load-plugins\nVersion: 1.0\n")
    lines = [f"{name} = gg_load_{name}:SPEC" for name in (*SLOW, "hanging")]
    info.joinpath("entry_points.txt").write_text(textwrap.dedent("[gridgames.games]\n" + "\n".join(lines) + "\n"))


@pytest.fixture
def busy_cores() -> Iterator[int]:
    """A ``yes > /dev/null`` per core for the duration of the test (stopped by the test itself)."""
    cores = os.cpu_count() or 1
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(cores)]
    try:
        yield cores
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.slow
def test_eight_slow_plugins_are_listed_with_every_core_busy_and_a_hanging_one_is_broken(
    tmp_path: Path, busy_cores: int
) -> None:
    _install_fake_plugins(tmp_path)
    # the default limit
    env = {key: value for key, value in os.environ.items() if key != "GRIDGAMES_PLUGIN_SECONDS"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *(p for p in sys.path if p)])
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", "list"], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    for name in SLOW:
        assert lines[name].split()[1] == "turn-based", result.stdout  # not BROKEN
    assert "BROKEN" in lines["hanging"] and f"did not finish within {PLUGIN_IMPORT_SECONDS:g} s" in lines["hanging"]
    assert sum("BROKEN" in line for line in lines.values()) == 1, result.stdout


class _CountingProbe(_Probe):
    """A probe that remembers how many children ran at once."""

    most = 0

    def _fill(self) -> None:
        super()._fill()
        self.most = max(self.most, len(self.running))


def test_probes_run_at_most_slots_at_once_and_each_plugin_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_fake_plugins(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    entries = [(name, EntryPoint(name, f"gg_load_{name}:SPEC", GROUP)) for name in list(SLOW)[:3]]
    probe = _CountingProbe(entries, seconds=30.0, slots=2)
    listings, broken = probe.collect()
    assert sorted(item.name for item in listings) == ["slow0", "slow1", "slow2"] and broken == []
    # the third started once one of the first two had finished
    assert probe.most == 2 and len(probe.everyone) == 3
    assert _probe_slots() == len(os.sched_getaffinity(0))
