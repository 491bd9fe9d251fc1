"""Helpers of the browser tests: the server in a thread, the system's Chromium through Playwright, PNG checks."""

from __future__ import annotations

import base64
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Without the background-networking flags Chromium keeps calling out to a network this machine may not have."""


def chromium_path() -> str | None:
    """The system's Chromium (Debian's chromium package), or None; nothing is ever downloaded."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def browser_or_skip() -> str:
    """The Chromium a browser test module drives; called at its import, it skips the module, saying why, without the
    web extras, Playwright or a Chromium (an error instead when GRIDGAMES_REQUIRE_BROWSER is set, as in CI, where a
    skip would hide the missing browser)."""
    import pytest

    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web,web-test]'")
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install '.[web-test]'")
    path = chromium_path()
    if path is None:
        if os.environ.get("GRIDGAMES_REQUIRE_BROWSER"):
            raise RuntimeError(
                "GRIDGAMES_REQUIRE_BROWSER is set but no Chromium was found (Debian: apt-get install chromium)"
            )
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)", allow_module_level=True)
    return path


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running_server(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on loopback in a thread; yields its base URL; stops it after."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextmanager
def browser_context(executable: str, **options: Any) -> Iterator[Any]:
    """A Playwright context of the system's Chromium with a fresh profile (downloads accepted); ``options`` are
    Playwright's context options (a phone: ``viewport``, ``is_mobile``, ``has_touch``, ``device_scale_factor``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            args=CHROMIUM_ARGS,
            headless=True,
            **({"accept_downloads": True, "viewport": {"width": 1100, "height": 850}} | options),
        )
        try:
            yield context
        finally:
            context.close()


@contextmanager
def game_page(path: str, *, timeout_ms: int = 60_000) -> Iterator[Any]:
    """A tab of the system's Chromium (a fresh profile) on ``path`` of a fresh app served in a thread; fails if the
    page's scripts raised any error. For a test module that called `browser_or_skip` first."""
    from gridgames.web.app import ServerConfig, create_app

    executable = chromium_path()
    assert executable is not None, "call browser_or_skip() at the top of the test module"
    with running_server(create_app(ServerConfig())) as url, browser_context(executable) as browser:
        browser.set_default_timeout(timeout_ms)
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{url}{path}")
        yield tab
        tab.close()
        assert not errors, errors


_DECODE_PNG_JS = """async (b64) => {
  const image = new Image();
  image.src = "data:image/png;base64," + b64;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
"""
"""The start of a function of a base64 PNG: its decoded pixels in ``data`` (RGBA), its size in ``image``."""

PNG_COLOURS_JS = (
    _DECODE_PNG_JS
    + """  const seen = new Set();
  for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return [image.width, image.height, seen.size];
}"""
)


def png_colours(page: Any, png: bytes) -> tuple[int, int, int]:
    """A PNG screenshot's width, height and number of distinct colours (1: blank), decoded by the browser itself."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    width, height, colours = page.evaluate(PNG_COLOURS_JS, base64.b64encode(png).decode())
    return int(width), int(height), int(colours)


PNG_PIXELS_JS = (
    _DECODE_PNG_JS
    + """  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  return [image.width, image.height, btoa(text)];
}"""
)


def small_png(page: Any, png: bytes, colours: int = 256) -> bytes:
    """A screenshot as a palette PNG of at most ``colours`` colours (the most frequent; every other pixel takes the
    nearest of them): a few times smaller than the browser's RGB PNG, for pictures kept in the repository."""
    import struct
    import zlib

    import numpy as np

    width, height, b64 = page.evaluate(PNG_PIXELS_JS, base64.b64encode(png).decode())
    rgba = np.frombuffer(base64.b64decode(b64), dtype=np.uint8).reshape(int(height), int(width), 4)
    codes = (rgba[..., 0].astype(np.int64) << 16) | (rgba[..., 1].astype(np.int64) << 8) | rgba[..., 2]
    unique, inverse, counts = np.unique(codes.ravel(), return_inverse=True, return_counts=True)
    order = np.argsort(-counts)[:colours]
    palette = unique[order]
    rgb = lambda c: np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], axis=-1).astype(np.int64)  # noqa: E731
    distance = ((rgb(unique)[:, None, :] - rgb(palette)[None, :, :]) ** 2).sum(axis=2)
    index = distance.argmin(axis=1).astype(np.uint8)[inverse].reshape(int(height), int(width))
    # filter 0 on every row
    rows = np.concatenate([np.zeros((int(height), 1), dtype=np.uint8), index], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", int(width), int(height), 8, 3, 0, 0, 0)),
            chunk(b"PLTE", rgb(palette).astype(np.uint8).tobytes()),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)),
            chunk(b"IEND", b""),
        ]
    )
