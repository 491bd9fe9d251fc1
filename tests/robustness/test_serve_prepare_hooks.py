"""A plugin's web ``prepare`` hook cannot keep ``gridgames serve`` from serving (issue 55, case 1): one that sleeps,
calls ``sys.exit(3)`` or ``os._exit(7)`` marks only its game unavailable, with the reason, while the server opens its
port and serves the other games; a healthy plugin's hook runs and its game works."""

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
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")

from gridgames_test_support.browser import free_port



def call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")

SUPPORT = str(Path(__file__).parents[1] / "support")
SAFETY_SECONDS = 240.0  # a safety net only: the server opens its port after the built-in games' own preparation

HOOK = """\
import attrs
from gridgames_test_support.toy_games import NIM_SPEC

class Hooks:
    def prepare(self, say):
{body}

SPEC = attrs.evolve(NIM_SPEC, name={name!r}, web=Hooks)
"""

PREPARES = {
    "prepsleep": "        import time\n        time.sleep(600)",
    "prepsysexit": "        import sys\n        sys.exit(3)",
    "preposexit": "        import os\n        os._exit(7)",
    "prepraise": "        raise RuntimeError('no compiler')",
    "prepgood": "        say('prepgood is ready')",
}


def install(folder: Path) -> dict[str, str]:
    for name, body in PREPARES.items():
        (folder / f"gg55_{name}.py").write_text(HOOK.format(body=body, name=name))
    info = folder / "gg55_prepare-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: gg55-prepare\nVersion: 1.0\n")
    lines = "".join(f"{name} = gg55_{name}:SPEC\n" for name in PREPARES)
    info.joinpath("entry_points.txt").write_text("[gridgames.games]\n" + lines)
    env = {key: value for key, value in os.environ.items() if not key.startswith("GRIDGAMES_")}
    env.update(GRIDGAMES_PREPARE_SECONDS="3", XDG_CACHE_HOME=str(folder / "cache"), XDG_DATA_HOME=str(folder / "data"))
    env["PYTHONPATH"] = os.pathsep.join([str(folder), SUPPORT, *(p for p in sys.path if p)])
    return env


def test_serve_opens_its_port_whatever_a_prepare_hook_does(tmp_path: Path) -> None:
    env = install(tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gridgames", "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    try:
        start = time.monotonic()
        broken: dict[str, str] = {}
        while time.monotonic() - start < SAFETY_SECONDS:
            assert server.poll() is None, f"the server ended with {server.returncode}"
            try:
                status, games = call(base, "GET", "/api/games")
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
                continue
            assert status == 200
            broken = {item["name"]: item["reason"] for item in games["broken"]}
            if {"prepsleep", "prepsysexit", "preposexit", "prepraise"} <= set(broken):
                break
            time.sleep(0.2)
        assert "did not finish within 3 s" in broken["prepsleep"]
        assert "sys.exit(3)" in broken["prepsysexit"]
        assert "exit code 7" in broken["preposexit"]
        assert "RuntimeError: no compiler" in broken["prepraise"]
        assert "prepgood" in {game["name"] for game in games["games"]} and "prepgood" not in broken
        status, session = call(base, "POST", "/api/session")
        headers = {"X-Session": session["session"]}
        status, answer = call(base, "POST", "/api/play/prepsleep/new", {"seats": ["human", "human"]}, headers)
        assert status == 404 and "did not finish" in answer["error"]
        for game in ("prepgood", "connect4"):
            status, view = call(base, "POST", f"/api/play/{game}/new", {"seats": ["human", "human"]}, headers)
            assert status == 201, view
        assert server.poll() is None
    finally:
        server.send_signal(signal.SIGINT)
        try:
            output = server.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            server.kill()
            output = server.communicate()[0]
    assert "prepgood is ready" in output and "prepsleep: unavailable" in output
