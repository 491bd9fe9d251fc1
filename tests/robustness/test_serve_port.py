"""``gridgames serve`` on a port already in use: one line, exit 2, before any banner (issue 38)."""

from __future__ import annotations

import socket

import pytest

from gridgames_test_support.cli_runs import invoke

pytest.importorskip("uvicorn")


def test_a_busy_port_is_one_line_and_exit_2() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        code, out, err = invoke(["serve", "--port", str(port)])
    assert code == 2, (code, out, err)
    assert out == ""  # no banner first
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and f"port {port}" in lines[0] and "in use" in lines[0], (
        err
    )
    assert "Errno" not in err and "Traceback" not in err


def test_a_free_port_passes_the_check() -> None:
    from gridgames.web.server import check_port_free

    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    check_port_free("127.0.0.1", port)  # closed again: free
    check_port_free("127.0.0.1", 0)
