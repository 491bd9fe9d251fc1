"""Issue 38's cases for bench/robustness.py: unbounded work, a hanging or lying Dask peer, what is lost, silent waits.

Each case is one record, (surface, label, verdict, result): the verdict is '' when the case holds, else the kind of
failure the issue's table counts (traceback, unbounded, wrong, lost); the result holds the exit code, the output,
the seconds and the peak memory. `issue38_runs` runs them all; `print_table` prints each run's line, then per
surface tried / traceback / unbounded / wrong / lost and the totals (the same records as issue 46's table).
Run through ``python bench/robustness.py --only 38`` (or ``python bench/robustness38.py`` alone).
"""

# ruff: noqa: E501 -- the case tables keep one case a line

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GG = [sys.executable, "-m", "gridgames"]
Row = tuple[str, str, str, dict[str, Any]]
KINDS = ("traceback", "unbounded", "wrong", "lost")
THINK_SLACK = 0.10
"""--think bounds a computer move within this share (the issue's bar)."""


def _run(args: list[str], stdin: str = "", env: dict[str, str] | None = None, timeout: float = 120) -> dict[str, Any]:
    """Run ``args``: exit code, output, wall seconds and the child's peak memory (MB, from wait4)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=out, stderr=err, env=env, text=True)
        assert child.stdin is not None
        try:
            child.stdin.write(stdin)
            child.stdin.close()
        except BrokenPipeError:
            pass
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        out.seek(0)
        err.seek(0)
        return {
            "code": os.waitstatus_to_exitcode(status),
            "out": out.read(),
            "err": err.read(),
            "seconds": time.perf_counter() - started,
            "mb": usage.ru_maxrss / 1024,
        }


def _signalled(
    args: list[str],
    signum: int,
    *,
    env: dict[str, str],
    stdin: str = "",
    wait_cpu: float = 0.0,
    after: float = 0.0,
    children: int = 0,
) -> dict[str, Any]:
    """Run a command, send ``signum`` once it has used ``wait_cpu`` s of CPU and has ``children`` child processes,
    ``after`` s more; time its end."""
    child = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdin is not None
    if stdin:
        child.stdin.write(stdin)
        child.stdin.flush()
    tick = os.sysconf("SC_CLK_TCK")
    limit = time.monotonic() + 120
    while wait_cpu and time.monotonic() < limit and child.poll() is None:
        fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= wait_cpu:
            break
        time.sleep(0.05)
    while children and time.monotonic() < limit and child.poll() is None:
        try:
            if len(Path(f"/proc/{child.pid}/task/{child.pid}/children").read_text().split()) >= children:
                break
        except OSError:
            pass
        time.sleep(0.01)
    time.sleep(after)
    started = time.perf_counter()
    child.send_signal(signum)
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
    return {"code": child.returncode, "out": out, "err": err, "seconds": time.perf_counter() - started, "mb": 0.0}


def _verdict(
    result: dict[str, Any],
    codes: tuple[int, ...],
    bar: float,
    base: float,
    check: Callable[[dict[str, Any]], bool] | None = None,
    lost: bool = False,
) -> str:
    """'' or the failure's kind. ``base``: the seconds not counted against ``bar`` (start-up); ``lost``: a failed
    check means something was lost (else a wrong answer)."""
    text = result["out"] + result["err"]
    if "Traceback" in text:
        return "traceback"
    if result["seconds"] - base > bar:
        return "unbounded"
    if result["code"] not in codes:
        return "wrong"
    if result["code"] == 2 and not (result["err"].startswith("error: ") and result["err"].count("\n") == 1):
        return "wrong"
    if check is not None and not check(result):
        return "lost" if lost else "wrong"
    return ""


# --- unbounded work --------------------------------------------------------------------------------------------------

THINK_SCRIPT = """\
import json, random, sys, time
from gridgames_connect4 import levels
from gridgames_connect4.position.rules import Connect4
w, h, k, level, think, moves = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
game = Connect4(w, h, k)
levels.make_player(level, game, random.Random(0), 0.05).choose(game.from_notation("1"))  # compile or load the kernels
player = levels.make_player(level, game, random.Random(0), think)
state, worst = game.from_notation(""), 0.0
for _ in range(moves):
    started = time.perf_counter()
    column = player.choose(state)
    worst = max(worst, time.perf_counter() - started)
    state = state.copy()
    state.play(column)
print(json.dumps({"worst": worst}))
"""


def unbounded(env: dict[str, str], startup: float) -> list[Row]:
    rows: list[Row] = []
    surface = "38 unbounded work"

    def partial_review(r: dict[str, Any]) -> bool:
        return "Partial review (stopped)" in r["out"] and "time budget" in r["out"]

    for moves, width, think in (
        ("4,10", "10", None),
        ("4 10", "10", "2"),
        ("10 1", "10", "2"),
        ("4", "7", "1"),
        ("1,2,3,4,5,6,7", "8", "2"),
    ):
        args = ["connect4", "review", moves, "--width", width, "--no-book", *(["--think", think] if think else [])]
        # + the kernels' first load
        bar = (60.0 if think is None else float(think)) * (1 + THINK_SLACK) + 15
        result = _run([*GG, *args], env=env, timeout=bar + 60)
        rows.append(
            (
                surface,
                f"review {moves!r} --width {width}" + (f" --think {think}" if think else " (default budget)"),
                _verdict(result, (0,), bar, startup, partial_review),
                result,
            )
        )
    fib = [1, 1]
    while len(fib) < 502:
        fib.append(fib[-1] + fib[-2])

    def exact(r: dict[str, Any]) -> bool:
        try:
            return json.loads(r["out"])["solutions"] == fib[500]
        except (ValueError, KeyError):
            return False

    result = _run(
        [*GG, "solve", "pentomino", "--board", "2x500", "--pieces", "domino*500", "--count", "--json"], env=env
    )
    rows.append((surface, "2x500 domino*500 --count (frontier)", _verdict(result, (0,), 20.0, startup, exact), result))
    for label, board, pieces, more in (
        ("10x10 domino*25,monomino*50 --count", "10x10", "domino*25,monomino*50", []),
        ("2x100 domino*100 --count --unique", "2x100", "domino*100", ["--unique"]),
        ("12x12 monomino*44,domino*50 --count", "12x12", "monomino*44,domino*50", []),
    ):
        result = _signalled(
            [*GG, "solve", "pentomino", "--board", board, "--pieces", pieces, "--count", *more],
            signal.SIGINT,
            env=env,
            wait_cpu=3.0,
        )
        rows.append(
            (
                surface,
                label + ": Ctrl-C, partial",
                _verdict(result, (130,), 1.0, 0.0, lambda r: "so far (partial" in r["out"]),
                result,
            )
        )
    for w, h, k, level, think in (
        (9, 7, 5, "perfect", 2.0),
        (9, 7, 5, "perfect", 0.5),
        (9, 7, 5, "hard", 1.0),
        (10, 10, 6, "perfect", 0.5),
        (10, 10, 4, "perfect", 1.0),
        (10, 10, 6, "medium", 0.5),
        (8, 8, 4, "perfect", 0.5),
        (7, 6, 4, "perfect", 0.3),
    ):
        result = _run(
            [sys.executable, "-c", THINK_SCRIPT, str(w), str(h), str(k), level, str(think), "3"], env=env, timeout=120
        )
        try:
            worst = json.loads(result["out"])["worst"]
        except (ValueError, KeyError):
            worst = float("inf")
        result["out"] = f"slowest of 3 moves {worst:.2f} s for --think {think:g}"
        verdict = (
            "traceback" if "Traceback" in result["err"] else "unbounded" if worst > think * (1 + THINK_SLACK) else ""
        )
        rows.append((surface, f"{level} {w}x{h} connect-{k} --think {think:g}: a move", verdict, result))
    args = [
        *GG,
        "play",
        "connect4",
        "--width",
        "9",
        "--height",
        "7",
        "--connect",
        "5",
        "--red",
        "perfect",
        "--yellow",
        "perfect",
        "--think",
        "10",
    ]
    result = _signalled(args, signal.SIGINT, env=env, after=6.0)
    rows.append(
        (surface, "Ctrl-C while perfect thinks (9x7 c5, --think 10)", _verdict(result, (130,), 1.0, 0.0), result)
    )
    return rows


# --- a Dask peer that hangs or lies -----------------------------------------------------------------------------------


@contextmanager
def _server(answer: bytes | None) -> Iterator[str]:
    listener = socket.create_server(("127.0.0.1", 0))
    stop, kept = threading.Event(), []

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


KILLED_SCHEDULER = """\
import os, signal, socket, subprocess, sys, time, json
from gridgames.search.parallel import run_parts
port = socket.create_server(("127.0.0.1", 0)); number = port.getsockname()[1]; port.close()
address = f"tcp://127.0.0.1:{number}"
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(number), "--no-dashboard"], **quiet)
worker = None
try:
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", number), timeout=0.5).close(); break
        except OSError:
            time.sleep(0.1)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"], **quiet)
    finished = []
    def on_result(i, _r):
        finished.append(i)
        if len(finished) == 1:
            os.kill(scheduler.pid, signal.SIGKILL)
    result = run_parts(time.sleep, [0.2] * 40, scheduler=address, on_result=on_result, connect_timeout=30)
    print(json.dumps({"partial": result.partial, "note": result.note, "done": sum(result.done), "reported": len(finished)}))
finally:
    for p in (worker, scheduler):
        if p is not None:
            p.kill(); p.wait()
"""


def scheduler(env: dict[str, str], startup: float, tmp: Path) -> list[Row]:
    rows: list[Row] = []
    surface = "38 --scheduler peer"
    count = ["solve", "pentomino", "--board", "3x5", "--pieces", "L,P,U", "--count", "--scheduler"]
    book = [
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
        str(tmp / "b.book"),
        "--scheduler",
    ]
    greeting_lie = struct.pack("<Q", 1 << 62) + b"\0" * 64  # a length prefix asking for exabytes
    with (
        _server(None) as silent,
        _server(os.urandom(4096)) as garbage,
        _server(greeting_lie) as huge,
        _server(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") as http,
        _server(b"") as mute,
    ):
        for label, args in (
            ("solve: accepts, says nothing", [*count, silent]),
            ("analyze: accepts, says nothing", ["connect4", "analyze", "4453", "--scheduler", silent]),
            ("book build: accepts, says nothing", [*book, silent]),
            ("solve: answers random bytes", [*count, garbage]),
            ("solve: a length prefix of 2^62", [*count, huge]),
            ("solve: an HTTP server", [*count, http]),
            ("analyze: answers random bytes", ["connect4", "analyze", "4453", "--scheduler", garbage]),
            ("solve: accepts, no greeting (mute)", [*count, mute]),
        ):
            result = _run([*GG, *args], env=env, timeout=120)
            rows.append((surface, label, _verdict(result, (2,), 7.0, startup), result))
    for address in (
        "udp://127.0.0.1:9",
        "inproc://x",
        "ucx://127.0.0.1:9",
        "ws://127.0.0.1:9",
        "tls://127.0.0.1:1",
        "tcp://[::1",
        "tcp://127.0.0.1:99999",
        "tcp://" + "h" * 300 + ":1",
    ):

        def ours(r: dict[str, Any]) -> bool:
            return "UCXConnector" not in r["err"] and "known schemes" not in r["err"] and len(r["err"]) < 300

        result = _run([*GG, *count, address], env=env, timeout=60)
        rows.append((surface, f"--scheduler {address[:30]}", _verdict(result, (2,), 3.0, startup, ours), result))
    try:
        import distributed  # noqa: F401
    except ImportError:
        return rows
    result = _run([sys.executable, "-c", KILLED_SCHEDULER], env=env, timeout=240)
    try:
        got = json.loads(result["out"].strip().splitlines()[-1])
        ok = got["partial"] and "scheduler was lost" in got["note"] and got["done"] == got["reported"] >= 1
        result["out"] = f"{got['done']} of 40 parts kept: {got['note']}"
    except (ValueError, KeyError, IndexError):
        ok = False
    rows.append(
        (
            surface,
            "scheduler killed mid-run: partial kept",
            "traceback" if "Traceback" in result["err"] else "" if ok else "lost",
            result,
        )
    )
    return rows


# --- lost or left behind ----------------------------------------------------------------------------------------------

SAVES_UNDER_KILL = """\
import subprocess, sys, time, os
from pathlib import Path
from gridgames.files import write_user_text
folder = Path(sys.argv[1]); target = folder / "game.json"
code = "import sys\\nfrom gridgames.files import write_user_text\\nwhile True:\\n    write_user_text(sys.argv[1], 'x' * 200_000)\\n"
for i in range(int(sys.argv[2])):
    child = subprocess.Popen([sys.executable, "-c", code, str(target)])
    try:
        child.wait(timeout=0.4 + 0.02 * (i % 10))
    except subprocess.TimeoutExpired:
        child.kill(); child.wait()
left = len(list(folder.iterdir())) - 1
write_user_text(target, "{}")
print(left, len(list(folder.iterdir())))
"""


def lost(env: dict[str, str], startup: float, tmp: Path) -> list[Row]:
    rows: list[Row] = []
    surface = "38 lost or left behind"
    count = [*GG, "solve", "pentomino", "--board", "8x8", "--pieces", "pentominoes+tetromino:O", "--count"]
    for label, signum, jobs in (
        ("SIGHUP, one process", signal.SIGHUP, []),
        ("SIGHUP, --jobs 2", signal.SIGHUP, ["--jobs", "2"]),
        ("SIGTERM, one process", signal.SIGTERM, []),
        ("SIGTERM, --jobs 2", signal.SIGTERM, ["--jobs", "2"]),
    ):
        result = _signalled(
            [*count, *jobs],
            signum,
            env=env,
            wait_cpu=3.0 if not jobs else 0.0,
            after=2.0 if jobs else 0.0,
            children=2 if jobs else 0,
        )
        rows.append(
            (
                surface,
                f"count: {label}",
                _verdict(result, (130,), 2.0, 0.0, lambda r: "so far (partial" in r["out"], lost=True),
                result,
            )
        )
    for label, signum in (
        ("SIGTERM as the workers fork", signal.SIGTERM),
        ("SIGHUP as the workers fork", signal.SIGHUP),
    ):
        for _ in range(2):
            result = _signalled([*count, "--jobs", "2"], signum, env=env, children=1)
            rows.append(
                (
                    surface,
                    f"count --jobs 2: {label}",
                    _verdict(
                        result,
                        (130,),
                        2.0,
                        0.0,
                        lambda r: "so far (partial" in r["out"] and "Exception ignored" not in r["err"],
                        lost=True,
                    ),
                    result,
                )
            )
    for game, seats, moves in (
        ("connect4", ["--red", "human", "--yellow", "human"], "4\n5\n"),
        ("mnk", ["--x", "human", "--o", "human"], "b2\n"),
    ):
        home = tmp / f"hup-{game}"
        result = _signalled(
            [*GG, "play", game, *seats], signal.SIGHUP, env={**env, "XDG_DATA_HOME": str(home)}, stdin=moves, after=4.0
        )
        saved = list((home / "gridgames" / "autosave").glob(f"{game}-*.json"))
        result["out"] += f"\n{len(saved)} autosave(s)"
        rows.append(
            (
                surface,
                f"{game}: SIGHUP mid-game autosaves",
                _verdict(result, (0, 130), 2.0, 0.0, lambda r, s=saved: len(s) == 1, lost=True),
                result,
            )
        )
    folder = tmp / "saves"
    folder.mkdir()
    result = _run([sys.executable, "-c", SAVES_UNDER_KILL, str(folder), "30"], env=env, timeout=300)
    try:
        before, after = (int(x) for x in result["out"].split())
    except ValueError:
        before, after = -1, -1
    result["out"] = f"30 kill -9s during saves: {before} temporary file(s), {after - 1} after the next save"
    rows.append((surface, "30 kill -9s during saves, then one save", "" if after == 1 else "lost", result))
    for game, seats, first in (
        ("connect4", ["--red", "human", "--yellow", "human"], "4"),
        ("mnk", ["--x", "human", "--o", "human"], "b2"),
    ):
        for label, name in (
            ("5,000-character name", "a" * 5000),
            ("NUL byte", "a\0b.json"),
            ("~nouser", "~nouser-gg/x.json"),
        ):
            play_dir = tmp / f"play-{game}-{len(rows)}"
            play_dir.mkdir()
            stdin = f"{first}\ns {name}\ns {play_dir}/good.json\nq\n"
            result = _run([*GG, "play", game, *seats], stdin=stdin.replace("\0", "\x00"), env=env)
            rows.append(
                (
                    surface,
                    f"{game}: s with a {label}",
                    _verdict(result, (0,), 2.0, startup, lambda r, d=play_dir: (d / "good.json").is_file(), lost=True),
                    result,
                )
            )
    return rows


# --- silent waits, and issue 38's cases fixed before -------------------------------------------------------------------


def waits_and_earlier(env: dict[str, str], startup: float, tmp: Path) -> list[Row]:
    rows: list[Row] = []
    surface = "38 silent waits"
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = _run([*GG, "serve", "--port", str(port)], env=env, timeout=60)
    rows.append(
        (
            surface,
            "serve on a busy port",
            _verdict(result, (2,), 2.0, startup, lambda r: r["out"] == "" and "Errno" not in r["err"]),
            result,
        )
    )
    result = _run([*GG, "serve", "--port", "99999"], env=env, timeout=60)
    rows.append((surface, "serve --port 99999", _verdict(result, (2,), 2.0, startup), result))
    hint = "4\n4\n4\n4\n4\n3\n6\n5\n6\n3\nh\nq\n"
    result = _run([*GG, "play", "connect4", "--red", "human", "--yellow", "human", "--no-book"], stdin=hint, env=env)
    rows.append(
        (
            surface,
            "first hint, human vs human (warm)",
            _verdict(result, (0,), 10.0, startup, lambda r: "Hint: play" in r["out"]),
            result,
        )
    )
    surface = "38 fixed before (verified)"
    huge = "9" * 5000
    for label, args in (
        ("show 4,<5000 digits>", ["connect4", "show", f"4,{huge}"]),
        ("analyze 4,<5000 digits>", ["connect4", "analyze", f"4,{huge}"]),
        ("review 4,<5000 digits>", ["connect4", "review", f"4,{huge}"]),
        ("--pieces L*<5000 digits>", ["solve", "pentomino", "--pieces", f"L*{huge}"]),
        ("--board <5000 digits>x3", ["solve", "pentomino", "--board", f"{huge}x3"]),
        ("--think 1e308", ["play", "connect4", "--red", "perfect", "--think", "1e308"]),
        ("review --think 1e308", ["connect4", "review", "4", "--think", "1e308"]),
    ):
        result = _run([*GG, *args], env=env)
        rows.append((surface, label, _verdict(result, (2,), 2.0, startup, lambda r: len(r["err"]) < 300), result))
    result = _run([*GG, "connect4", "show", "4453"], env={**env, "NO_COLOR": "1"})
    rows.append(
        (
            surface,
            "NO_COLOR=1 show 4453: X and O",
            _verdict(result, (0,), 2.0, startup, lambda r: "X" in r["out"] and "O" in r["out"] and "●" not in r["out"]),
            result,
        )
    )
    book = tmp / "small.book"
    built = _run(
        [*GG, "connect4", "book", "build", "--width", "5", "--height", "4", "--depth", "3", "--out", str(book)],
        env=env,
        timeout=300,
    )
    if built["code"] == 0 and book.is_file():
        data = bytearray(book.read_bytes())
        named = {11: "width", 12: "height", 13: "connect", 14: "depth", 16: "entry count", 24: "checksum"}
        others: list[dict[str, Any]] = []
        # every byte of the header that is hashed or is the hash (format 3)
        for offset in range(56):
            flipped = bytearray(data)
            flipped[offset] ^= 1
            bad = tmp / f"flipped{offset}.book"
            bad.write_bytes(bytes(flipped))
            result = _run(
                [*GG, "connect4", "analyze", "", "--book", str(bad), "--width", "5", "--height", "4"], env=env
            )
            if offset in named:
                rows.append(
                    (
                        surface,
                        f"5x4 book, a bit of its {named[offset]} flipped",
                        _verdict(result, (2,), 2.0, startup),
                        result,
                    )
                )
            else:
                others.append(result)
        failed = [r for r in others if _verdict(r, (2,), 2.0, startup)]
        summary = {
            "code": 2 if not failed else failed[0]["code"],
            "out": f"{len(others) - len(failed)} of {len(others)} refused",
            "err": "" if not failed else failed[0]["err"],
            "seconds": max(r["seconds"] for r in others),
            "mb": 0.0,
        }
        rows.append(
            (surface, f"5x4 book, each of {len(others)} other header bytes", "wrong" if failed else "", summary)
        )
    return rows


HERE = Path(__file__).resolve().parent
WEB_PROBE = HERE / "robustness38_web.py"
"""The web server's hostile requests, in process (Starlette's test client): one JSON list of {label, ok, detail}."""
RL_PROBE = HERE / "robustness38_rl.py"
"""The learning environments' hostile actions and seeds, in process: one JSON list of {label, ok, detail}."""

PLUGIN = """\
import sys, attrs
from gridgames_connect4 import SPEC as _C4
def _raise(**o): raise RuntimeError("boom in make")
def _exit(**o): sys.exit(5)
def _wrong(**o): return 42
def _memory(**o): raise MemoryError
def _prints(**o):
    print("HELLO FROM MAKE")
    return _C4.create(**o)
RAISES = attrs.evolve(_C4, name="p38raise", create=_raise, app=None, web=None)
EXITS = attrs.evolve(_C4, name="p38exit", create=_exit, app=None, web=None)
WRONG = attrs.evolve(_C4, name="p38wrong", create=_wrong, app=None, web=None)
MEMORY = attrs.evolve(_C4, name="p38memory", create=_memory, app=None, web=None)
PRINTS = attrs.evolve(_C4, name="p38prints", create=_prints, app=None, web=None)
"""
PLUGIN_NAMES = {
    "p38raise": "RAISES",
    "p38exit": "EXITS",
    "p38wrong": "WRONG",
    "p38memory": "MEMORY",
    "p38prints": "PRINTS",
}


def _probe_rows(surface: str, script: Path, env: dict[str, str], timeout: float) -> list[Row]:
    """Run an in-process probe script printing a JSON list of {label, ok, detail}: one record per case."""
    result = _run([sys.executable, str(script)], env=env, timeout=timeout)
    try:
        cases = json.loads(result["out"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [(surface, "the probe itself", "traceback" if "Traceback" in result["err"] else "wrong", result)]
    return [
        (
            surface,
            case["label"],
            "" if case["ok"] else "wrong",
            {
                "code": 0,
                "out": case["detail"],
                "err": "",
                "seconds": result["seconds"] / len(cases),
                "mb": result["mb"],
            },
        )
        for case in cases
    ]


def widened(env: dict[str, str], startup: float, tmp: Path) -> list[Row]:
    """Surfaces the suite did not attack before: the web server, the learning environments, plugins' make()."""
    rows = _probe_rows("38 web server", WEB_PROBE, env, 300)
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        pass
    else:
        rows += _probe_rows("38 learning environments", RL_PROBE, env, 300)
    folder = tmp / "p38plugins"
    folder.mkdir()
    (folder / "pl38.py").write_text(PLUGIN)
    info = folder / "p38-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: p38\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[gridgames.games]\n" + "".join(f"{n} = pl38:{v}\n" for n, v in PLUGIN_NAMES.items())
    )
    plugin_env = {**env, "PYTHONPATH": os.pathsep.join([str(folder), env.get("PYTHONPATH", "")])}
    for name in PLUGIN_NAMES:
        for command in (["play", name], [name, "show", "4"], [name, "play"], ["info", name], ["solve", name]):
            result = _run([*GG, *command], stdin="q\n", env=plugin_env)
            codes = (0,) if (name == "p38prints" and command[0] != "solve") or command[0] == "info" else (2,)
            rows.append(("38 plugins' make()", f"{' '.join(command)}", _verdict(result, codes, 5.0, startup), result))
    # list probes each plugin in a child: judged against a plain list
    plain = _run([*GG, "list"], env=env)["seconds"]
    result = _run([*GG, "list"], env=plugin_env)
    rows.append(
        (
            "38 plugins' make()",
            "list with the five",
            _verdict(result, (0,), 5.0 * 2.0, plain, lambda r: "connect4" in r["out"]),
            result,
        )
    )
    return rows


def issue38_runs(tmp: Path, home: str, startup: float, only: str | None = None) -> list[Row]:
    """Every case of issue 38 (and ours), as records."""
    env = {**os.environ, "XDG_DATA_HOME": home}
    rows: list[Row] = []
    for name, run in (
        ("unbounded", lambda: unbounded(env, startup)),
        ("scheduler", lambda: scheduler(env, startup, tmp)),
        ("lost", lambda: lost(env, startup, tmp)),
        ("waits", lambda: waits_and_earlier(env, startup, tmp)),
        ("widened", lambda: widened(env, startup, tmp)),
    ):
        if only is None or only in name:
            rows += run()
    return rows


def print_table(
    rows: list[Row], summary: dict[str, dict[str, Any]] | None = None, title: str = "issue 38 surface"
) -> None:
    """Each run's line, then per surface tried / traceback / unbounded / wrong / lost and the totals."""
    table: dict[str, dict[str, int]] = {}
    for surface, label, verdict, result in rows:
        first = (
            (result["err"].strip().splitlines() or [""])[-1]
            if result["err"].strip()
            else (result["out"].strip().splitlines() or [""])[-1]
        )
        print(
            f"{'FAIL ' + verdict if verdict else 'ok':<14} {surface:<26} {label[:50]:<50} exit {result['code']:>4} "
            f"{result['seconds']:6.2f} s  {first[:90]}"
        )
        counts = table.setdefault(surface, dict.fromkeys(("tried", *KINDS), 0))
        counts["tried"] += 1
        if verdict:
            counts[verdict] += 1
        if summary is not None:
            row = summary.setdefault(surface, {"tried": 0, "failures": 0, "worst_mb": (0.0, ""), "slowest": (0.0, "")})
            row["tried"] += 1
            row["failures"] += bool(verdict)
            row["worst_mb"] = max(row["worst_mb"], (result.get("mb", 0.0), label))
            row["slowest"] = max(row["slowest"], (result["seconds"], label))
    print(f"\n{title:<30} {'tried':>5} {'traceback':>9} {'unbounded':>9} {'wrong':>5} {'lost':>4}")
    totals = dict.fromkeys(("tried", *KINDS), 0)
    for surface, counts in table.items():
        print(
            f"{surface:<30} {counts['tried']:>5} {counts['traceback']:>9} {counts['unbounded']:>9} {counts['wrong']:>5} {counts['lost']:>4}"
        )
        for key in totals:
            totals[key] += counts[key]
    print(
        f"{'total':<30} {totals['tried']:>5} {totals['traceback']:>9} {totals['unbounded']:>9} {totals['wrong']:>5} {totals['lost']:>4}\n"
    )


if __name__ == "__main__":
    part = sys.argv[1] if len(sys.argv) > 1 else None
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        started = time.perf_counter()
        startup = min(_run([*GG, "--help"])["seconds"] for _ in range(3))
        print(f"start-up (gridgames --help, best of 3): {startup:.2f} s")
        print_table(issue38_runs(tmp, str(tmp / "home"), startup, part))
        print(
            f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.perf_counter() - started:.0f} s in all"
        )
