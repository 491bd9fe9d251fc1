"""Benchmark of robustness: hostile inputs on every CLI surface, each in a fresh process, against the bar.

Usage: python bench/robustness.py [--only SURFACE] [--max-seconds 2] [--max-mb 200]

Every input of issue 13's adversarial campaign runs as ``gridgames ...`` in a fresh
process (start-up included), with its own peak resident memory (``wait4``) and wall
time. An input fails when it gives a traceback, an exit code other than the expected
one, more than one line on standard error when it exits 2, or exceeds the memory bar or
the time bar. The time bar applies to the time beyond start-up (the best of three
``gridgames --help`` runs, measured first and printed: on a busy machine start-up alone
can take more than the bar); inputs whose right answer is real work (a count) are
judged on memory only. Fault runs: SIGTERM of a ``--jobs 2`` count (time until the command and
both workers are gone, and the partial count printed). Prints a line per input, then
per surface: inputs tried, failures (expected 0), the worst peak memory and the
slowest time to the error. The machine's load average is printed: start-up is slower
when other work shares the cores.

Issue 46's cases (``--only 46``; `issue46_cases` and `issue46_runs`, kept apart from the rest) add: set-up outside
every budget, memory without a ceiling (under address-space limits), hostile plugins under ``gridgames serve``,
a game lost on an error mid-game, server options, a SIGSTOPped Dask worker and the smaller cases, with their
own table of tried / traceback / unbounded / wrong / lost.

Issue 55's cases (``--only 55``; bench/robustness55.py: plugins under every command, a negated shipped book, a web
game against other clients, killed games, data files, the smaller cases) print their own table too.

Issue 38's cases (``--only 38``; bench/robustness38.py: unbounded work, a hanging or lying Dask peer, what is lost,
silent waits and the cases fixed before) print their own table of tried / traceback / unbounded / wrong / lost.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridgames.registry import PLUGIN_IMPORT_SECONDS

GG = [sys.executable, "-m", "gridgames"]
PLUGIN_SECONDS = PLUGIN_IMPORT_SECONDS  # how long list lets a plugin's import take
# real work, or the reference: memory bar only
UNTIMED = ("--jobs 256 on 3 parts", "plain list (no hostile plugin)")
BIG_INT_SAVE = '{"format":"gridgames-connect4","version":' + "1" * 5000 + "}"
HOSTILE_PLUGINS = {
    "hsleepy": "import time\ntime.sleep(30)\n",
    "hexit": "import sys\nsys.exit(3)\n",
    "hprint": "print('HELLO FROM A PLUGIN')\n",
}


def make_files(tmp: Path) -> dict[str, str]:
    """Hostile files, by label."""
    files = {}
    (tmp / "bigint.json").write_text(BIG_INT_SAVE)
    files["5000-digit int"] = str(tmp / "bigint.json")
    with open(tmp / "sparse100m", "wb") as handle:
        handle.truncate(100_000_000)
    files["100 MB file"] = str(tmp / "sparse100m")
    (tmp / "dots1m.txt").write_text(("." * 999 + "\n") * 1000)
    files["1 MB of dots"] = str(tmp / "dots1m.txt")
    (tmp / "binary").write_bytes(bytes(range(256)) * 10)
    files["binary"] = str(tmp / "binary")
    (tmp / "nested.json").write_text("[" * 200_000 + "]" * 200_000)
    files["deep nesting"] = str(tmp / "nested.json")
    (tmp / "empty").write_text("")
    files["empty"] = str(tmp / "empty")
    os.mkfifo(tmp / "fifo")
    files["FIFO"] = str(tmp / "fifo")
    files["/dev/zero"] = "/dev/zero"
    files["directory"] = str(tmp)
    files["missing"] = str(tmp / "absent")
    return files


def make_plugins(tmp: Path) -> str:
    """A folder with hostile plugin modules and a dist-info declaring them: to put on PYTHONPATH."""
    folder = tmp / "plugins"
    folder.mkdir()
    for name, body in HOSTILE_PLUGINS.items():
        (folder / f"{name}.py").write_text(body)
    info = folder / "hostile_plugins-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-plugins\nVersion: 0.1\n")
    points = "\n".join(f"{name} = {name}:SPEC" for name in HOSTILE_PLUGINS)
    (info / "entry_points.txt").write_text(f"[gridgames.games]\n{points}\n")
    return str(folder)


def run_measured(
    args: list[str], stdin: str = "", env: dict[str, str] | None = None, timeout: float = 60
) -> dict[str, Any]:
    """Run one command: exit code, output, wall seconds and the child's own peak resident memory (MB, from wait4)."""
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
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        return {
            "code": child.returncode,
            "out": out.read(),
            "err": err.read(),
            "seconds": seconds,
            "mb": usage.ru_maxrss / 1024,
        }


def judge(
    result: dict[str, Any],
    expect: int,
    max_seconds: float,
    max_mb: float,
    check: Callable[[dict[str, Any]], bool] | None,
    startup: float,
    timed: bool,
) -> str:
    """'' when the result meets the bar, else why not."""
    text = result["out"] + result["err"]
    if "Traceback" in text:
        return "traceback"
    if result["code"] != expect:
        return f"exit {result['code']}, expected {expect}"
    if expect == 2 and not (result["err"].startswith("error: ") and result["err"].count("\n") == 1):
        return "not one error line"
    if timed and result["seconds"] - startup > max_seconds:
        return f"{result['seconds'] - startup:.2f} s"
    if result.get("mb", 0) > max_mb:
        return f"{result['mb']:.0f} MB"
    if check is not None and not check(result):
        return "wrong answer"
    return ""


def cases(
    files: dict[str, str], plugins: str, home: str
) -> list[tuple[str, str, list[str], str, int, dict[str, str] | None, Any]]:
    """(surface, label, args, stdin, expected exit code, env, check) for every hostile input."""
    base = {**os.environ, "XDG_DATA_HOME": home}
    table: list[tuple[str, str, list[str], str, int, dict[str, str] | None, Any]] = []
    surfaces = {
        "save file (play --load)": ["play", "connect4", "--load"],
        "board file (--board-file)": ["solve", "pentomino", "--board-file"],
        "pieces file (--pieces-file)": ["solve", "pentomino", "--pieces-file"],
    }
    for surface, prefix in surfaces.items():
        for label, path in files.items():
            table.append((surface, label, [*prefix, path], "", 2, base, None))
    count = ["solve", "pentomino", "--board", "3x5", "--pieces", "L,P,U", "--count"]
    for label, extra in [
        ("--jobs 99999999999999999999", ["--jobs", "99999999999999999999"]),
        ("--jobs 1000", ["--jobs", "1000"]),
        ("--jobs ''", ["--jobs", ""]),
        ("--jobs -1", ["--jobs", "-1"]),
        ("--scheduler ''", ["--scheduler", ""]),
        ("--scheduler unreachable", ["--scheduler", "tcp://127.0.0.1:1"]),
        ("--scheduler bad port", ["--scheduler", "tcp://127.0.0.1:99999"]),
    ]:
        table.append(("options", label, [*count, *extra], "", 2, base, None))
    for label, extra in [
        ("--width 4.0", ["--width", "4.0"]),
        ("--height 1e1", ["--height", "1e1"]),
        ("--think nan", ["--think", "nan"]),
    ]:
        table.append(("options", label, ["play", "connect4", *extra], "", 2, base, None))
    table.append(
        (
            "options",
            "--jobs 256 on 3 parts",
            [*count, "--jobs", "256"],
            "",
            0,
            base,
            lambda r: "0 solutions" in r["out"] or "solution" in r["out"],
        )
    )

    def saved(r: dict[str, Any]) -> bool:
        return "game saved to" in r["out"]

    table.append(
        (
            "interrupted play",
            "end of input (connect4)",
            ["play", "connect4", "--red", "human", "--yellow", "human"],
            "4\n4\n",
            0,
            base,
            saved,
        )
    )
    table.append(
        (
            "interrupted play",
            "end of input (mnk)",
            ["play", "mnk", "--x", "human", "--o", "human"],
            "b2\n",
            0,
            base,
            saved,
        )
    )
    table.append(
        (
            "interrupted play",
            "--resume",
            ["play", "connect4", "--resume", "--red", "human", "--yellow", "human"],
            "",
            0,
            base,
            saved,
        )
    )
    env = {**base, "PYTHONPATH": os.pathsep.join([plugins, os.environ.get("PYTHONPATH", "")])}

    def listed(r: dict[str, Any]) -> bool:
        lines = r["out"].splitlines()
        broken = [line for line in lines if "BROKEN" in line]
        return len(broken) == 3 and any(line.startswith("connect4") for line in lines) and "HELLO" not in r["out"]

    table.append(("plugins (list)", "plain list (no hostile plugin)", ["list"], "", 0, base, None))
    table.append(("plugins (list)", "sleep 30 s / sys.exit(3) / print at import", ["list"], "", 0, env, listed))
    return table


def sigterm_run(max_seconds: float) -> dict[str, Any]:
    """SIGTERM a --jobs 2 count once both workers run: time until the command and its workers are gone."""
    args = [
        *GG,
        "solve",
        "pentomino",
        "--board",
        "8x8",
        "--pieces",
        "pentominoes+tetromino:O",
        "--count",
        "--jobs",
        "2",
    ]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: list[int] = []
    for _ in range(600):  # bounded: up to 30 s for the workers to start
        time.sleep(0.05)
        try:
            workers = [int(p) for p in Path(f"/proc/{child.pid}/task/{child.pid}/children").read_text().split()]
        except OSError:
            workers = []
        if len(workers) >= 2:
            break
    time.sleep(0.5)
    started = time.perf_counter()
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=60)
    alive = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    seconds = time.perf_counter() - started
    ok = not alive and "partial" in out and "Traceback" not in out + err and seconds <= max_seconds
    return {
        "seconds": seconds,
        "workers": len(workers),
        "alive": alive,
        "code": child.returncode,
        "out": out.strip(),
        "ok": ok,
    }


# --- issue 46's cases (kept apart: other branches edit the cases above) -----------------------------------------------

Case46 = tuple[str, str, list[str], str, tuple[int, ...], int | None, float, Any]
"""(surface, label, gridgames arguments, stdin, accepted exit codes, address-space limit in MB or None, time bar in
seconds beyond start-up, check of the result or None)."""

HOSTILE_SERVE_PLUGINS = {
    "sysexit": "import sys\nsys.exit(3)\n",
    "osexit": "import os\nos._exit(4)\n",
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "interrupt": "raise KeyboardInterrupt\n",
    "sleepy": "import time\ntime.sleep(30)\n",
    "memoryerror": "import attrs\nfrom gridgames_connect4 import SPEC as _C4\n"
    "def _make(**options):\n    raise MemoryError\n"
    "SPEC = attrs.evolve(_C4, name='memoryerror', create=_make, app=None, web=None)\n",
}

STOPPING_PART = """\
import os, signal

def square_stopping_once(arg):
    x, marker = arg
    if x == 2:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return x * x
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGSTOP)
    return x * x
"""

DASK_SCRIPT = """\
import os, signal, sys, time
from pathlib import Path
import distributed
from gridgames.search.parallel import run_parts
from gg_bench_stop import square_stopping_once
if __name__ == "__main__":
    marker = sys.argv[1]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        started = time.perf_counter()
        try:
            parts = [(x, marker) for x in range(8)]
            result = run_parts(square_stopping_once, parts, scheduler=cluster.scheduler_address)
        finally:
            if Path(marker).exists():
                os.kill(int(Path(marker).read_text()), signal.SIGCONT)
        seconds = time.perf_counter() - started
        right = result.results == [x * x for x in range(8)] and not result.partial
        stopped = Path(marker).exists()
        print(f"{'exact' if right else 'WRONG'}: reruns {result.reruns}, stopped worker {stopped}, {seconds:.1f} s")
"""


def issue46_cases(tmp: Path, home: str) -> list[Case46]:
    """Issue 46's hostile inputs that run as one command each."""
    dominoes = tmp / "dominoes2000.txt"
    dominoes.write_text("\n\n".join(f"D{i}\n##" for i in range(2000)) + "\n")
    (tmp / "zero.book.partial").symlink_to("/dev/zero")
    os.mkfifo(tmp / "fifo.book.partial")
    build = ["connect4", "book", "build", "--depth", "2", "--width", "5", "--height", "4", "--out"]
    long_name = "s " + "x" * 5000 + "\n"

    def kept(r: dict[str, Any]) -> bool:
        return "game saved to" in r["out"] + r["err"]

    def drawn(r: dict[str, Any]) -> bool:
        return r["out"].count("M") >= 8000

    return [
        (
            "46 set-up budget",
            "100x80, monomino*8000, --limit 1 (was 12 s)",
            ["solve", "pentomino", "--board", "100x80", "--pieces", "monomino*8000", "--limit", "1"],
            "",
            (0,),
            None,
            6.0,
            drawn,
        ),
        (
            "46 memory",
            "2,000 distinct dominoes on 40x100 under 4 GB",
            ["solve", "pentomino", "--board", "40x100", "--pieces-file", str(dominoes), "--limit", "1"],
            "",
            (2,),
            4096,
            20.0,
            None,
        ),
        (
            "46 memory",
            "--table-mb 16000 under 4 GB",
            ["connect4", "analyze", "4453", "--no-book", "--table-mb", "16000"],
            "",
            (2,),
            4096,
            2.0,
            None,
        ),
        (
            "46 memory",
            "63x63 domino* --count (OverflowError)",
            ["solve", "pentomino", "--board", "63x63", "--pieces", "domino*", "--count"],
            "",
            (2,),
            None,
            2.0,
            None,
        ),
        ("46 memory", "checkpoint -> /dev/zero", [*build, str(tmp / "zero.book")], "", (2,), None, 2.0, None),
        ("46 memory", "checkpoint is a FIFO (hung)", [*build, str(tmp / "fifo.book")], "", (2,), None, 2.0, None),
        (
            "46 server options",
            "--max-seconds nan",
            ["serve", "--max-seconds", "nan", "--port", "1"],
            "",
            (2,),
            None,
            2.0,
            None,
        ),
        ("46 server options", "--host 999.1.1.1", ["serve", "--host", "999.1.1.1"], "", (2,), None, 12.0, None),
        ("46 server options", "--host ''", ["serve", "--host", ""], "", (2,), None, 2.0, None),
        (
            "46 lost game",
            "connect4: save name of 5,000 characters",
            ["play", "connect4", "--red", "human", "--yellow", "human"],
            "4\n4\n" + long_name,
            (0, 1),
            None,
            2.0,
            kept,
        ),
        (
            "46 lost game",
            "mnk: save name of 5,000 characters",
            ["play", "mnk", "--x", "human", "--o", "human"],
            "b2\n" + long_name,
            (0, 1),
            None,
            2.0,
            kept,
        ),
        (
            "46 small cases",
            "book build --out ''",
            ["connect4", "book", "build", "--out", "", "--depth", "1"],
            "",
            (2,),
            None,
            2.0,
            None,
        ),
        (
            "46 small cases",
            "review --width 0 (meant 7)",
            ["connect4", "review", "4", "--width", "0"],
            "",
            (2,),
            None,
            2.0,
            None,
        ),
        (
            "46 small cases",
            "review --width 1_0",
            ["connect4", "review", "4", "--width", "1_0"],
            "",
            (2,),
            None,
            2.0,
            None,
        ),
    ]


def _limited(mb: int | None) -> Callable[[], None] | None:
    if mb is None:
        return None

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, resource.RLIM_INFINITY))

    return limit


def _measured46(
    args: list[str], stdin: str, env: dict[str, str], limit_mb: int | None, timeout: float
) -> dict[str, Any]:
    """`run_measured` with an optional address-space limit (through a tiny wrapper that sets it, then execs)."""
    if limit_mb is None:
        return run_measured(args, stdin, env, timeout)
    wrapper = [
        sys.executable,
        "-c",
        "import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]) << 20, "
        "resource.RLIM_INFINITY)); os.execv(sys.argv[2], sys.argv[2:])",
        str(limit_mb),
    ]
    return run_measured([*wrapper, *args], stdin, env, timeout)


def _verdict46(result: dict[str, Any], accepted: tuple[int, ...], bar: float, startup: float, check: Any) -> str:
    """'' or the failure's kind: traceback, unbounded, wrong, lost (as issue 46's table counts them)."""
    text = result["out"] + result["err"]
    if "Traceback" in text:
        return "traceback"
    if result["seconds"] - startup > bar:
        return "unbounded"
    if result["code"] not in accepted or (
        result["code"] == 2 and not (result["err"].startswith("error: ") and result["err"].count("\n") == 1)
    ):
        return "wrong"
    if check is not None and not check(result):
        return "lost" if "game" in str(check.__name__) or check.__name__ == "kept" else "wrong"
    return ""


def _sigint46(args: list[str], env: dict[str, str], after: float) -> dict[str, Any]:
    """Run a command, send SIGINT ``after`` seconds in (Python's handler in place by then), and time its end."""
    child = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(after)
    started = time.perf_counter()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
    return {"code": child.returncode, "out": out, "err": err, "seconds": time.perf_counter() - started, "mb": 0.0}


def _serve46(tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    """gridgames serve with six hostile plugins: time until /api/games answers, the broken listed, a Connect Four
    move."""
    import socket
    import urllib.request

    folder = tmp / "serve_plugins"
    folder.mkdir()
    for name, body in HOSTILE_SERVE_PLUGINS.items():
        (folder / f"gg46_{name}.py").write_text(body)
    info = folder / "gg46_hostile-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gg46-hostile\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[gridgames.games]\n" + "".join(f"{n} = gg46_{n}:SPEC\n" for n in HOSTILE_SERVE_PLUGINS)
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    run_env = {**env, "PYTHONPATH": os.pathsep.join([str(folder), env.get("PYTHONPATH", "")])}
    run_env.pop("GRIDGAMES_PLUGIN_SECONDS", None)
    base = f"http://127.0.0.1:{port}"
    child = subprocess.Popen(
        [*GG, "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=run_env
    )
    started = time.perf_counter()
    result: dict[str, Any] = {"code": 0, "out": "", "err": "", "mb": 0.0}

    def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(
            base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    try:
        games = None
        while time.perf_counter() - started < 120 and child.poll() is None:
            try:
                games = call("GET", "/api/games")
                break
            except OSError:
                time.sleep(0.2)
        result["seconds"] = time.perf_counter() - started
        if games is None:
            result["code"] = child.poll() if child.poll() is not None else -1
            result["err"] = "the server never answered"
            return result
        broken = {item["name"] for item in games["broken"]}
        session = {"X-Session": call("POST", "/api/session")["session"]}
        call("POST", "/api/play/connect4/new", {"seats": ["human", "human"]}, session)
        view = call("POST", "/api/play/connect4/move", {"move": "4"}, session)
        result["out"] = (
            f"{len(broken & set(HOSTILE_SERVE_PLUGINS))}/6 listed broken; move played: {'4' in json.dumps(view)}"
        )
        result["ok"] = broken >= set(HOSTILE_SERVE_PLUGINS) and child.poll() is None
    except Exception as error:
        result["err"] = f"{type(error).__name__}: {error}"
        result["ok"] = False
    finally:
        child.send_signal(signal.SIGINT)
        try:
            out, _ = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            out, _ = child.communicate()
        result["err"] += "Traceback" if "Traceback" in out else ""
    return result


def issue46_runs(tmp: Path, home: str, startup: float) -> list[tuple[str, str, str, dict[str, Any]]]:
    """Issue 46's cases that need more than one command: (surface, label, verdict, result) for each."""
    env = {**os.environ, "XDG_DATA_HOME": home}
    rows: list[tuple[str, str, str, dict[str, Any]]] = []
    for surface, label, args, stdin, accepted, limit_mb, bar, check in issue46_cases(tmp, home):
        result = _measured46([*GG, *args], stdin, env, limit_mb, timeout=max(60.0, 10 * bar))
        rows.append((surface, label, _verdict46(result, accepted, bar, startup, check), result))
    # Ctrl-C: during a count's set-up (printed nothing), and on a generic count (exited 0)
    setup = _sigint46(
        [*GG, "solve", "pentomino", "--board", "200x200", "--pieces", "monomino*40000", "--count"], env, 3.0
    )
    ok = setup["code"] == 130 and setup["err"].strip() != "" and "Traceback" not in setup["out"] + setup["err"]
    rows.append(
        (
            "46 set-up budget",
            "Ctrl-C in a 40,000-piece count's set-up",
            ""
            if ok and setup["seconds"] < 1.0
            else ("traceback" if "Traceback" in setup["err"] else "unbounded" if setup["seconds"] >= 1.0 else "wrong"),
            setup,
        )
    )
    queens = _sigint46([*GG, "solve", "nqueens", "--n", "16", "--count"], env, 3.0)
    ok = queens["code"] == 130 and "partial" in queens["out"] and "Traceback" not in queens["err"]
    rows.append(("46 small cases", "Ctrl-C on solve nqueens --count (exited 0)", "" if ok else "wrong", queens))
    served = _serve46(tmp, env)
    rows.append(
        (
            "46 serve, hostile plugins",
            "exit/_exit/segv/^C/sleep at import, make() MemoryError",
            "" if served.get("ok") and "Traceback" not in served["err"] else "lost",
            served,
        )
    )
    try:
        import distributed  # noqa: F401
    except ImportError:
        return rows
    (tmp / "gg_bench_stop.py").write_text(STOPPING_PART)
    dask_env = {**env, "PYTHONPATH": os.pathsep.join([str(tmp), env.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-c", DASK_SCRIPT, str(tmp / "stopped")],
        capture_output=True,
        text=True,
        env=dask_env,
        timeout=600,
    )
    result = {
        "code": run.returncode,
        "out": run.stdout.strip(),
        "err": "",
        "seconds": time.perf_counter() - started,
        "mb": 0.0,
    }  # the
    # workers' own log lines (the stopped one's lost heartbeats) are Dask's, on its standard error: not judged
    verdict = (
        "traceback"
        if "Traceback" in run.stdout
        else "wrong"
        if not run.stdout.startswith("exact")
        else "unbounded"
        if result["seconds"] > 120
        else ""
    )
    rows.append(("46 Dask", "a SIGSTOPped worker mid-count (hung > 240 s)", verdict, result))
    return rows


def print_issue46(rows: list[tuple[str, str, str, dict[str, Any]]], summary: dict[str, dict[str, Any]]) -> None:
    """Each run's line, then issue 46's table (tried / traceback / unbounded / wrong / lost); adds the rows to
    ``summary``."""
    table: dict[str, dict[str, int]] = {}
    for surface, label, verdict, result in rows:
        first = (result["err"].strip() or (result["out"].strip().splitlines() or [""])[-1])[:90]
        print(
            f"{'FAIL ' + verdict if verdict else 'ok':<14} {surface:<28} {label[:44]:<44} exit {result['code']:>3} "
            f"{result['seconds']:5.2f} s {result['mb']:6.1f} MB  {first}"
        )
        counts = table.setdefault(surface, {"tried": 0, "traceback": 0, "unbounded": 0, "wrong": 0, "lost": 0})
        counts["tried"] += 1
        if verdict:
            counts[verdict] += 1
        row = summary.setdefault(surface, {"tried": 0, "failures": 0, "worst_mb": (0.0, ""), "slowest": (0.0, "")})
        row["tried"] += 1
        row["failures"] += bool(verdict)
        row["worst_mb"] = max(row["worst_mb"], (result["mb"], label))
        row["slowest"] = max(row["slowest"], (result["seconds"], label))
    print(f"\n{'issue 46 surface':<30} {'tried':>5} {'traceback':>9} {'unbounded':>9} {'wrong':>5} {'lost':>4}")
    for surface, counts in table.items():
        print(
            f"{surface:<30} {counts['tried']:>5} {counts['traceback']:>9} {counts['unbounded']:>9} "
            f"{counts['wrong']:>5} {counts['lost']:>4}"
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the surfaces whose name contains this")
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--max-mb", type=float, default=200.0)
    opts = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    summary: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        files = make_files(tmp)
        plugins = make_plugins(tmp)
        home = str(tmp / "home")
        startup = min(run_measured([*GG, "--help"])["seconds"] for _ in range(3))
        print(
            f"start-up (gridgames --help, best of 3): {startup:.2f} s; the time bar is {opts.max_seconds:g} s beyond it"
        )
        plain_list = startup
        for surface, label, args, stdin, expect, env, check in cases(files, plugins, home):
            if opts.only and opts.only not in surface:
                continue
            result = run_measured([*GG, *args], stdin, env)
            if label.startswith("plain list"):
                plain_list = result["seconds"]
            # a listing with a stalled plugin is judged against a plain listing plus the plugin time limit
            base_time = plain_list + PLUGIN_SECONDS if label.startswith("sleep 30 s") else startup
            why = judge(result, expect, opts.max_seconds, opts.max_mb, check, base_time, timed=label not in UNTIMED)
            row = summary.setdefault(surface, {"tried": 0, "failures": 0, "worst_mb": (0.0, ""), "slowest": (0.0, "")})
            row["tried"] += 1
            row["failures"] += bool(why)
            row["worst_mb"] = max(row["worst_mb"], (result["mb"], label))
            row["slowest"] = max(row["slowest"], (result["seconds"], label))
            first = (result["err"].strip() or (result["out"].strip().splitlines() or [""])[-1])[:90]
            print(
                f"{'FAIL ' + why if why else 'ok':<14} {surface:<28} {label:<44} exit {result['code']:>3} "
                f"{result['seconds']:5.2f} s {result['mb']:6.1f} MB  {first}"
            )
        if not opts.only or "46" in opts.only:
            print_issue46(issue46_runs(tmp, home, startup), summary)
        # issue 38's cases: bench/robustness38.py (its own table, then the summary)
        if not opts.only or "38" in opts.only:
            from robustness38 import issue38_runs, print_table

            print_table(issue38_runs(tmp, home, startup), summary)
        # issue 55's cases: bench/robustness55.py (its own table, then the summary)
        if not opts.only or "55" in opts.only:
            from robustness38 import print_table
            from robustness55 import issue55_runs

            print_table(issue55_runs(tmp / "issue55", startup), summary, title="issue 55 surface")
        if not opts.only or "fault" in opts.only:
            fault = sigterm_run(opts.max_seconds)
            print(
                f"{'ok' if fault['ok'] else 'FAIL':<14} {'fault: SIGTERM --jobs 2':<28} "
                f"{'count stopped, workers gone':<44} "
                f"exit {fault['code']:>3} {fault['seconds']:5.2f} s  workers {fault['workers']}, alive after: "
                f"{fault['alive']}  {fault['out'][:80]}"
            )
            summary["fault: SIGTERM --jobs 2"] = {
                "tried": 1,
                "failures": int(not fault["ok"]),
                "worst_mb": (0.0, "-"),
                "slowest": (fault["seconds"], "SIGTERM"),
            }
    print()
    print(f"{'surface':<30} {'tried':>5} {'failures':>8}  {'worst peak memory':<40} slowest time to the error")
    for surface, row in summary.items():
        mb, mb_label = row["worst_mb"]
        seconds, slow_label = row["slowest"]
        print(
            f"{surface:<30} {row['tried']:>5} {row['failures']:>8}  {mb:6.1f} MB ({mb_label[:28]})".ljust(83)
            + f" {seconds:.2f} s ({slow_label[:40]})"
        )
    total = sum(r["tried"] for r in summary.values())
    failed = sum(r["failures"] for r in summary.values())
    print(f"\n{total} inputs, {failed} failures")
    print(json.dumps({"inputs": total, "failures": failed}))


if __name__ == "__main__":
    main()
