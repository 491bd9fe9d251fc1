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
UNTIMED = ("--jobs 256 on 3 parts", "plain list (no hostile plugin)")  # real work, or the reference: memory bar only
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
            "code": child.returncode, "out": out.read(), "err": err.read(), "seconds": seconds,
            "mb": usage.ru_maxrss / 1024
        }


def judge(
    result: dict[str, Any], expect: int, max_seconds: float, max_mb: float,
    check: Callable[[dict[str, Any]], bool] | None, startup: float, timed: bool
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
        ("--width 4.0", ["--width", "4.0"]), ("--height 1e1", ["--height", "1e1"]), ("--think nan", ["--think", "nan"])
    ]:
        table.append(("options", label, ["play", "connect4", *extra], "", 2, base, None))
    table.append(
        (
            "options", "--jobs 256 on 3 parts", [*count, "--jobs", "256"], "", 0, base,
            lambda r: "0 solutions" in r["out"] or "solution" in r["out"]
        )
    )

    def saved(r: dict[str, Any]) -> bool:
        return "game saved to" in r["out"]

    table.append(
        (
            "interrupted play", "end of input (connect4)", ["play", "connect4", "--red", "human", "--yellow", "human"],
            "4\n4\n", 0, base, saved
        )
    )
    table.append(
        (
            "interrupted play", "end of input (mnk)", ["play", "mnk", "--x", "human", "--o", "human"], "b2\n", 0, base,
            saved
        )
    )
    table.append(
        (
            "interrupted play", "--resume", ["play", "connect4", "--resume", "--red", "human", "--yellow", "human"], "",
            0, base, saved
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
        *GG, "solve", "pentomino", "--board", "8x8", "--pieces", "pentominoes+tetromino:O", "--count", "--jobs", "2"
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
        "seconds": seconds, "workers": len(workers), "alive": alive, "code": child.returncode, "out": out.strip(),
        "ok": ok
    }


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
        if not opts.only or "fault" in opts.only:
            fault = sigterm_run(opts.max_seconds)
            print(
                f"{'ok' if fault['ok'] else 'FAIL':<14} {'fault: SIGTERM --jobs 2':<28} "
                f"{'count stopped, workers gone':<44} "
                f"exit {fault['code']:>3} {fault['seconds']:5.2f} s  workers {fault['workers']}, alive after: "
                f"{fault['alive']}  {fault['out'][:80]}"
            )
            summary["fault: SIGTERM --jobs 2"] = {
                "tried": 1, "failures": int(not fault["ok"]), "worst_mb": (0.0, "-"),
                "slowest": (fault["seconds"], "SIGTERM")
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
