"""Plugins installed for a test as a distribution (a ``*.dist-info`` folder with entry points) on PYTHONPATH, and a
JSON call to a running server."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SUPPORT = str(Path(__file__).parents[1])


def install_plugins(folder: Path, modules: dict[str, str], dist: str, prefix: str) -> dict[str, str]:
    """Each ``name: module text`` as module ``PREFIX_NAME`` declaring game ``name`` (``PREFIX_NAME:SPEC``) of the
    distribution ``dist``; the environment that finds them (this support package too), without GRIDGAMES_ settings."""
    for name, body in modules.items():
        (folder / f"{prefix}_{name}.py").write_text(body)
    info = folder / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {prefix}_{name}:SPEC\n" for name in modules)
    info.joinpath("entry_points.txt").write_text("[gridgames.games]\n" + lines)
    env = {key: value for key, value in os.environ.items() if not key.startswith("GRIDGAMES_")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), SUPPORT, *(p for p in sys.path if p)])
    return env


def call_json(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """One JSON API call to a running server: (status, answer)."""
    data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
