"""Slow clients cannot hold the server's connections (issue 55, case 3): a connection that does not deliver its
request's headers, or its body, within the deadline is closed; a request received whole is answered however long its
handler takes."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gridgames_test_support.browser import free_port

from gridgames.web.slow_clients import timed_protocol

uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")

SAFETY = 60.0  # socket timeouts: a safety net, not the assertion


async def app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    more = True
    while more:
        more = (await receive()).get("more_body", False)
    if scope["path"] == "/slow":
        await asyncio.sleep(1.5)  # longer than the deadline: the request itself arrived in time
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@pytest.fixture
def port() -> Iterator[int]:
    chosen = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=chosen, log_level="error", http=timed_protocol(0.5))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + SAFETY
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield chosen
    server.should_exit = True
    thread.join(SAFETY)


def _closed(sock: socket.socket) -> bool:
    """True when the server closed the connection (without answering)."""
    sock.settimeout(SAFETY)
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True


def test_slow_headers_and_a_slow_body_are_cut_off(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as quiet:
        assert _closed(quiet)  # connected, sent nothing
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        assert _closed(slow)
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as dribble:
        # body never finished
        dribble.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123")
        assert _closed(dribble)


def test_a_whole_request_is_answered_however_long_its_handler_takes(port: int) -> None:
    for path in ("/", "/slow"):
        with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as client:
            client.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            answer = b""
            while not answer.endswith(b"ok"):
                chunk = client.recv(1000)
                assert chunk, f"closed before the answer to {path}"
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200")
