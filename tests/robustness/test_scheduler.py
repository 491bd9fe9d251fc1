"""A Dask scheduler address that hangs, lies or dies cannot hang or crash us (issue 38).

A port that accepts and says nothing, one that answers garbage (whose length prefix asked numpy for exabytes),
another transport's scheme: one line and exit code 2, in bounded time. A scheduler killed during a run: the parts
finished so far, marked partial. Every wait is bounded; nothing is timed.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridgames.errors import GridGamesError
from gridgames_test_support.cli_runs import assert_one_line_error

COUNT = ["solve", "pentomino", "--board", "3x5", "--pieces", "L,P,U", "--count", "--scheduler"]


def _server(answer: bytes | None) -> Iterator[str]:
    """A local TCP server that accepts, then sends ``answer`` (None: says nothing); its tcp:// address."""
    listener = socket.create_server(("127.0.0.1", 0))
    kept: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            kept.append(connection)
            if answer is not None:
                connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in kept:
            connection.close()
        listener.close()


@pytest.fixture
def silent_port() -> Iterator[str]:
    yield from _server(None)


@pytest.fixture
def garbage_port() -> Iterator[str]:
    yield from _server(b"\xff" * 8 + b"HTTP/1.1 400 Bad Request\r\n\r\n" * 10)


@pytest.fixture
def http_port() -> Iterator[str]:
    yield from _server(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")


@pytest.mark.slow
def test_a_port_that_accepts_and_says_nothing_is_refused_in_one_line(silent_port: str) -> None:
    assert_one_line_error([*COUNT, silent_port], "did not answer")


@pytest.mark.parametrize("fixture", ["garbage_port", "http_port"])
def test_a_port_that_answers_garbage_is_refused_in_one_line(fixture: str, request: pytest.FixtureRequest) -> None:
    assert_one_line_error([*COUNT, request.getfixturevalue(fixture)], "does not speak Dask's protocol")


@pytest.mark.parametrize("address", ["udp://127.0.0.1:9", "inproc://x", "ucx://127.0.0.1:9", "ws://127.0.0.1:9"])
def test_other_transports_are_refused_in_our_words(address: str) -> None:
    assert_one_line_error([*COUNT, address], "tcp://HOST:PORT")


def test_an_unclosed_ipv6_bracket_is_one_line() -> None:
    assert_one_line_error([*COUNT, "tcp://[::1"], "not a Dask scheduler address")


@pytest.mark.slow
def test_analyze_and_book_build_probe_the_scheduler_too(silent_port: str, tmp_path: Path) -> None:
    assert_one_line_error(["connect4", "analyze", "4453", "--scheduler", silent_port], "did not answer")
    assert_one_line_error(
        [
            "connect4",
            "book",
            "build",
            "--width",
            "4",
            "--height",
            "4",
            "--depth",
            "2",
            "--out",
            str(tmp_path / "b.book"),
            "--scheduler",
            silent_port,
        ],
        "did not answer",
    )


def test_the_probe_accepts_a_real_scheduler() -> None:
    distributed = pytest.importorskip("distributed")
    from gridgames.search._parallel_dask import probe

    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        probe(cluster.scheduler_address)  # no error


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_gives_the_parts_finished_so_far() -> None:
    pytest.importorskip("distributed")
    from gridgames.search.parallel import run_parts

    port = socket.create_server(("127.0.0.1", 0))
    number = port.getsockname()[1]
    port.close()
    address = f"tcp://127.0.0.1:{number}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(number),
            "--no-dashboard",
        ],
        **quiet,
    )  # type: ignore[call-overload]
    worker = None
    try:
        for _ in range(600):  # bounded: up to 60 s for the scheduler to listen
            try:
                socket.create_connection(("127.0.0.1", number), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--host",
                "127.0.0.1",
                "--no-dashboard",
            ],
            **quiet,
        )  # type: ignore[call-overload]
        from distributed import Client

        # a busy machine starts a worker in seconds, not at once
        with Client(address, timeout=120) as watcher:
            watcher.wait_for_workers(1, timeout=120)
        finished: list[int] = []

        def on_result(i: int, _result: object) -> None:
            finished.append(i)
            if len(finished) == 1:
                os.kill(scheduler.pid, signal.SIGKILL)

        result = run_parts(time.sleep, [0.2] * 40, scheduler=address, on_result=on_result, connect_timeout=30)
        assert result.partial and "scheduler was lost" in result.note, result.note
        assert 1 <= sum(result.done) < 40 and sum(result.done) == len(finished)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.kill()
                process.wait()


def test_probe_errors_are_gridgames_errors(silent_port: str) -> None:
    from gridgames.search._parallel_dask import probe

    with pytest.raises(GridGamesError, match="did not answer in 0.3 s"):
        probe(silent_port, answer=0.3)
