"""One bad plugin cannot stop ``gridgames serve`` (issue 46): with plugins that exit, segfault, raise
KeyboardInterrupt or sleep at import, and one whose ``make()`` raises MemoryError, all installed at once,
the server starts promptly, lists them broken, and a Connect Four move is played through the API."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from gridgames_test_support.browser import free_port
from gridgames_test_support.plugin_dists import call_json as _call

HOSTILE = {
    "sysexit": "import sys\nsys.exit(3)\n",
    "osexit": "import os\nos._exit(4)\n",
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "interrupt": "raise KeyboardInterrupt\n",
    "sleepy": "import time\ntime.sleep(30)\n",
    "memoryerror": (
        "import attrs\nfrom gridgames_test_support.toy_games import NIM_SPEC\n"
        "def _make(**options):\n    raise MemoryError\n"
        "SPEC = attrs.evolve(NIM_SPEC, name='memoryerror', create=_make)\n"
    ),
}

START_SECONDS = 120.0


def install_hostile_plugins(folder: Path) -> dict[str, str]:
    """The hostile plugins as one installed distribution; the environment that finds them."""
    for name, body in HOSTILE.items():
        (folder / f"gg_hostile_{name}.py").write_text(body)
    info = folder / "gridgames_hostile_plugins-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: gridgames-hostile-plugins\nVersion: 1.0\n")
    lines = "".join(f"{name} = gg_hostile_{name}:SPEC\n" for name in HOSTILE)
    info.joinpath("entry_points.txt").write_text("[gridgames.games]\n" + lines)
    env = {key: value for key, value in os.environ.items() if key != "GRIDGAMES_PLUGIN_SECONDS"}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), *(p for p in sys.path if p)])
    return env


@pytest.mark.slow
def test_serve_with_every_hostile_plugin_serves_connect4(tmp_path: Path) -> None:
    env = install_hostile_plugins(tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gridgames", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        start = time.monotonic()
        status, games = 0, None
        while time.monotonic() - start < START_SECONDS:
            assert server.poll() is None, (
                f"the server ended with {server.returncode}: {server.stdout.read() if server.stdout else ''}"
            )
            try:
                status, games = _call(base, "GET", "/api/games")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        assert status == 200, (status, games)
        names = {game["name"] for game in games["games"]}
        broken = {item["name"]: item["reason"] for item in games["broken"]}
        assert "connect4" in names and "pentomino" in names
        assert set(HOSTILE) - {"memoryerror"} <= set(broken), broken
        assert "memoryerror" in broken and "MemoryError" in broken["memoryerror"]
        status, session = _call(base, "POST", "/api/session")
        assert status == 201
        headers = {"X-Session": session["session"]}
        status, _view = _call(base, "POST", "/api/play/connect4/new", {"seats": ["human", "human"]}, headers)
        assert status < 300, _view
        status, view = _call(base, "POST", "/api/play/connect4/move", {"move": "4"}, headers)
        assert status < 300, view
        assert view["moves"] == ["4"] or "4" in json.dumps(view)
        assert server.poll() is None
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["info", "connect4"], "connect4 (turn-based)"),
        (["solve", "nqueens", "--n", "6", "--count"], "4 solutions"),
        (["connect4", "show", "4453"], "Red"),
    ],
)
@pytest.mark.slow
def test_other_games_work_with_every_hostile_plugin_installed(tmp_path: Path, args: list[str], needle: str) -> None:
    """info/play/solve of the other games never import a hostile plugin (only the named game is loaded)."""
    env = install_hostile_plugins(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0 and needle in result.stdout, (
        result.returncode,
        result.stdout[-300:],
        result.stderr[-300:],
    )


def test_a_hostile_plugin_named_itself_is_one_line(tmp_path: Path) -> None:
    env = install_hostile_plugins(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", "info", "sysexit"], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 2 and result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "sys.exit(3)" in result.stderr
