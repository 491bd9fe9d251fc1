"""A plugin's web ``prepare`` hook cannot keep ``gridgames serve`` from serving (issue 55, case 1): one that sleeps,
calls ``sys.exit(3)`` or ``os._exit(7)`` marks only its game unavailable, with the reason, while the server opens its
port and serves the other games; a healthy plugin's hook runs and its game works."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")

from gridgames_test_support.browser import free_port
from gridgames_test_support.plugin_dists import call_json as call
from gridgames_test_support.plugin_dists import install_plugins

# a safety net only: the server opens its port after the built-in games' own preparation
SAFETY_SECONDS = 240.0

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
    bodies = {name: HOOK.format(body=body, name=name) for name, body in PREPARES.items()}
    env = install_plugins(folder, bodies, "gg55-prepare", "gg55")
    env.update(GRIDGAMES_PREPARE_SECONDS="3", XDG_CACHE_HOME=str(folder / "cache"), XDG_DATA_HOME=str(folder / "data"))
    return env


def test_serve_opens_its_port_whatever_a_prepare_hook_does(tmp_path: Path) -> None:
    env = install(tmp_path)
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
