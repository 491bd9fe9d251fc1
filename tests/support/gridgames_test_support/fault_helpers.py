"""Parts that hurt their own worker once (a marker file remembers), for the executor's fault-injection tests."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def _first_time(marker: str) -> bool:
    """True the first time (creates the marker with this process's pid), False after."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


def signal_self_once(arg: tuple[int, str, int]) -> int:
    """Part 2 sends its own worker ``signum`` (SIGKILL, SIGTERM, SIGSTOP) the first time it runs; every part squares."""
    x, marker, signum = arg
    if x == 2 and _first_time(marker):
        os.kill(os.getpid(), signum)
        time.sleep(0.5)  # a SIGTERM or SIGKILL lands here
    return x * x


def always_stop(arg: tuple[int, str]) -> int:
    """Part 2 stops its worker (SIGSTOP) every time it runs, recording each pid; the others square."""
    x, folder = arg
    if x == 2:
        Path(folder, str(os.getpid())).write_text("stopped")
        os.kill(os.getpid(), signal.SIGSTOP)
    return x * x


def nap_and_record(arg: tuple[int, str]) -> int:
    """Record this worker's pid in ``folder`` and sleep a long time (until killed)."""
    x, folder = arg
    Path(folder, str(os.getpid())).write_text("running")
    for _ in range(600):
        time.sleep(0.1)
    return x


def lose_worker_once(shared: int, arg: tuple[int, str]) -> int:
    """On Dask: part 2 ends its worker process the first time it runs; every part adds ``shared``."""
    x, marker = arg
    if x == 2 and _first_time(marker):
        os._exit(1)
    return x + shared
