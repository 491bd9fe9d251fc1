"""Issue 55's reproducers (cases 1-6), each in a fresh process, judged as issue 38's table does.

    python bench/robustness55.py [--only plugins|book|sessions|kills|files|small]

Every reproducer of the issue's cases 1 to 6 runs as ``gridgames ...`` (or a short ``python -c`` script for the web
and library cases) in a fresh process with its own XDG folders: hostile plugins (os._exit, sleep, KeyboardInterrupt at
import) under info/play/solve/P show/P play; a shipped book copy with every score negated first on the path; a web
game idle 62 s against four cookieless clients with --max-sessions 4; a game killed by SIGKILL/SIGQUIT/SIGUSR1 at its
prompt, then --resume; a 400-digit think in saves, a history nested 100,000 deep, negated cached review scores; the
smaller cases. A case fails as a traceback, unbounded (beyond its bar past start-up), wrong (exit code, not one
error line, or a wrong answer) or lost (a game gone). Prints each run's line, then the table per surface and the
totals (the bar: 0 / 0 / 0 / 0), with the machine's cores and load.
"""

# ruff: noqa: E501 -- the case tables keep one case a line

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from robustness38 import GG, Row, _run, _verdict, print_table

ROOT = Path(__file__).parents[1]
SUPPORT = str(ROOT / "tests" / "support")
PLUGINS = {
    "osexit": "import os\nos._exit(7)\n",
    "sleepy": "import time\ntime.sleep(120)\n",
    "interrupt": "raise KeyboardInterrupt\n",
}


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "XDG_CACHE_HOME": str(tmp / "cache"), **extra}


def plugins(tmp: Path, startup: float) -> list[Row]:
    folder = tmp / "plugins"
    folder.mkdir()
    for name, body in PLUGINS.items():
        (folder / f"gg55_{name}.py").write_text(body)
    info = folder / "gg55_plugins-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: gg55-plugins\nVersion: 1.0\n")
    info.joinpath("entry_points.txt").write_text(
        "[gridgames.games]\n" + "".join(f"{n} = gg55_{n}:SPEC\n" for n in PLUGINS)
    )
    env = _env(tmp, PYTHONPATH=os.pathsep.join([str(folder), *(p for p in sys.path if p)]))
    rows: list[Row] = []
    for name in PLUGINS:
        for command in (["info", name], ["play", name], ["solve", name], [name, "show", "1"], [name, "play"]):
            result = _run([*GG, *command], env=env, timeout=120)
            rows.append(
                ("1 plugin at import", f"{name}: {' '.join(command)}", _verdict(result, (2,), 10.0, startup), result)
            )
    return rows


def book(tmp: Path, startup: float) -> list[Row]:
    import shutil

    import gridgames_connect4

    source = Path(gridgames_connect4.__file__).parent
    package = tmp / "copy" / "gridgames_connect4"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__", "*.bin"))
    data = bytearray((source / "data" / "book-7x6.bin").read_bytes())
    count, key_bytes = int.from_bytes(data[16:24], "little"), data[10]
    start = 64 + count * key_bytes
    data[start:] = bytes((-(b - 256 if b > 127 else b)) & 0xFF for b in data[start:])
    (package / "data" / "book-7x6.bin").write_bytes(bytes(data))
    env = _env(tmp, PYTHONPATH=os.pathsep.join([str(tmp / "copy"), *(p for p in sys.path if p)]))
    rows: list[Row] = []
    for command in (["analyze", "4453", "--json"], ["explain", "4453"]):
        result = _run([*GG, "connect4", *command], env=env)
        rows.append(
            (
                "2 negated shipped book",
                " ".join(command),
                _verdict(result, (2,), 10.0, startup, lambda r: "corrupt" in r["err"]),
                result,
            )
        )
    return rows


SESSIONS = """
import warnings, json
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
from gridgames.web.app import ServerConfig, create_app
app = create_app(ServerConfig(max_sessions=4, allowed_hosts=("testserver",)))
with TestClient(app) as user:
    mine = {"X-Session": user.post("/api/session", json={}).json()["session"]}
    user.post("/api/play/connect4/new", json={"seats": ["human", "human"]}, headers=mine)
    for move in "4453":
        user.post("/api/play/connect4/move", json={"move": move}, headers=mine)
    for s in app.state.gridgames.sessions._sessions.values():
        s.last_seen -= 62
    for _ in range(4):
        with TestClient(app) as stranger:
            r = stranger.post("/api/session", json={})
            if r.status_code == 201:
                stranger.post("/api/play/connect4/new", json={}, headers={"X-Session": r.json()["session"]})
    got = user.get("/api/play/connect4", headers=mine)
    print(json.dumps({"status": got.status_code, "history": got.json().get("history")}))
"""


def sessions(tmp: Path, startup: float) -> list[Row]:
    result = _run([sys.executable, "-c", SESSIONS], env=_env(tmp))

    def kept(r: dict[str, Any]) -> bool:
        try:
            answer = json.loads(r["out"].strip().splitlines()[-1])
        except (ValueError, IndexError):
            return False
        return bool(answer["status"] == 200 and answer["history"] == ["4", "4", "5", "3"])

    return [
        (
            "3 web game, 4 strangers",
            "idle 62 s, --max-sessions 4",
            _verdict(result, (0,), 60.0, startup, kept, lost=True),
            result,
        )
    ]


def kills(tmp: Path, startup: float) -> list[Row]:
    rows: list[Row] = []
    humans = ["--red", "human", "--yellow", "human"]
    for sig in (signal.SIGKILL, signal.SIGQUIT, signal.SIGUSR1):
        home = tmp / f"kill-{sig.name}"
        env = _env(home)
        _run([*GG, "play", "connect4", *humans], "1\n", env)  # an older game A
        game = subprocess.Popen(
            [*GG, "play", "connect4", *humans],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert game.stdin is not None
        game.stdin.write("4\n4\n5\n")
        game.stdin.flush()
        folder = home / "data" / "gridgames" / "autosave"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any('"moves": "445"' in p.read_text() for p in folder.glob("*.json")):
            time.sleep(0.05)
        game.send_signal(sig)
        game.wait(60)
        result = _run([*GG, "play", "connect4", "--resume", *humans], env=env)
        rows.append(
            (
                "4 game killed at its prompt",
                f"{sig.name}, then --resume",
                _verdict(
                    result,
                    (0,),
                    30.0,
                    startup,
                    lambda r: "(moves: 445;" in r["out"] and "Resuming" in r["out"],
                    lost=True,
                ),
                result,
            )
        )
    home = tmp / "finished"
    env = _env(home)
    _run([*GG, "play", "connect4", *humans], "1\n2\n1\n2\n1\n2\n", env)
    _run([*GG, "play", "connect4", "--resume", *humans], "1\n", env)
    result = _run([*GG, "play", "connect4", "--resume", *humans], env=env)
    rows.append(
        (
            "4 game killed at its prompt",
            "a finished game is not offered again",
            _verdict(result, (2,), 30.0, startup),
            result,
        )
    )
    return rows


def files(tmp: Path, startup: float) -> list[Row]:
    rows: list[Row] = []
    think = int("9" * 400)
    save = tmp / "think.json"
    save.write_text(
        json.dumps(
            {
                "format": "gridgames-moves",
                "version": 2,
                "game": "connect4",
                "options": {},
                "moves": "44",
                "seats": ["human", "human"],
                "think": think,
                "seed": 1,
            }
        )
    )
    for command in (
        ["connect4", "show", str(save)],
        ["connect4", "play", "--load", str(save)],
        ["connect4", "review", "--load", str(save)],
        ["connect4", "drill", "--load", str(save)],
        ["play", "connect4", "--load", str(save)],
    ):
        result = _run([*GG, *command], env=_env(tmp))
        rows.append(
            ("5 data files", f"400-digit think: {' '.join(command[:2])}", _verdict(result, (2,), 10.0, startup), result)
        )
    home = tmp / "deep"
    history = home / "data" / "gridgames" / "connect4-drills.json"
    history.parent.mkdir(parents=True)
    history.write_text("[" * 100_000 + "]" * 100_000)
    result = _run([*GG, "connect4", "drill"], env=_env(home))
    rows.append(("5 data files", "history nested 100,000 deep: drill", _verdict(result, (2,), 10.0, startup), result))
    result = _run([*GG, "connect4", "drill", "4453"], "q\n", env=_env(home))
    rows.append(
        (
            "5 data files",
            "history nested 100,000 deep: drill 4453",
            _verdict(result, (0,), 60.0, startup, lambda r: "Drilling 4453" in r["out"]),
            result,
        )
    )
    home = tmp / "negated"
    _run([*GG, "connect4", "review", "3321241", "--width", "5", "--height", "4"], env=_env(home))
    path = home / "data" / "gridgames" / "connect4-drills.json"
    data = json.loads(path.read_text())
    last = data["last_review"]
    last["scores"] = [[n, [None if s is None else -s for s in cols]] for n, cols in last["scores"]]
    path.write_text(json.dumps(data))
    result = _run([*GG, "connect4", "drill"], "1\nq\n", env=_env(home))
    rows.append(
        (
            "5 data files",
            "negated cached review scores: drill",
            _verdict(result, (2,), 10.0, startup, lambda r: "checksum" in r["err"]),
            result,
        )
    )
    return rows


LIBRARY = """
import sys
from gridgames.errors import GridGamesError
case = sys.argv[1]
try:
    if case.startswith("vector_env"):
        from gridgames.rl import vector_env
        vector_env("connect4", num_envs=eval(case.split("=", 1)[1]))
    elif case == "arena None":
        from gridgames.rl.arena import arena
        arena(lambda o: o["action_mask"].argmax(axis=1), "connect4", opponents=None, games=2)
    elif case == "arena 'random'":
        from gridgames.rl.arena import arena
        print([r.opponent for r in arena(lambda o: o["action_mask"].argmax(axis=1), "connect4", opponents="random", games=2)])
        sys.exit(0)
    elif case == "Host localhost:80@evil":
        from gridgames.web.app import _Guard
        refused = _Guard(None, ("localhost",)).refusal({"headers": [(b"host", b"localhost:80@evil")], "method": "GET"})
        print("refused" if refused else "accepted")
        sys.exit(2 if refused else 0)
except GridGamesError as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(2)
"""


def small(tmp: Path, startup: float) -> list[Row]:
    rows: list[Row] = []
    env = _env(tmp)
    for base in ("http://[::1", "http://x\ny"):
        for command in ("show", "drill"):
            result = _run([*GG, "connect4", command, "4453", "--url", "--base", base], env=env)
            rows.append(("6 smaller", f"{command} --base {base!r}", _verdict(result, (2,), 10.0, startup), result))
    result = _run([*GG, "connect4", "analyze", "4", "--height", "1_0"], env=env)
    rows.append(("6 smaller", "analyze --height 1_0", _verdict(result, (2,), 10.0, startup), result))
    result = _run(
        [*GG, "connect4", "analyze", "4", "--width", "10", "--height", "10", "--jobs", "2", "--think", "5"], env=env
    )
    rows.append(
        (
            "6 smaller",
            "analyze 10x10 --jobs 2 --think 5",
            _verdict(result, (0,), 60.0, startup, lambda r: "Column:" in r["out"]),
            result,
        )
    )
    result = _run([*GG, "connect4", "analyze", "4453", "--width", "9"], env=env, timeout=300)
    rows.append(
        (
            "6 smaller",
            "analyze 4453 --width 9 (default bound)",
            _verdict(result, (0,), 90.0, startup, lambda r: "Column:" in r["out"]),
            result,
        )
    )
    result = _run([*GG, "solve", "pentomino", "--board", "5x12", "--count", "--jobs", "256"], env=env, timeout=600)
    rows.append(
        (
            "6 smaller",
            "--jobs 256 on 5x12 (4,040 tilings)",
            _verdict(result, (0,), 60.0, startup, lambda r: "4,040 solutions" in r["out"]),
            result,
        )
    )
    for case, code in (
        ("vector_env num_envs=10**9", 2),
        ("vector_env num_envs=10**30", 2),
        ("arena None", 2),
        ("arena 'random'", 0),
        ("Host localhost:80@evil", 2),
    ):
        result = _run([sys.executable, "-c", LIBRARY, case], env=env)
        check = (lambda r: "['random']" in r["out"]) if code == 0 else None
        if case.startswith("Host"):
            result["err"] = "error: refused\n" if result["code"] == 2 else result["err"]
        rows.append(("6 smaller", case, _verdict(result, (code,), 30.0, startup, check), result))
    return rows


def issue55_runs(tmp: Path, startup: float, only: str | None = None) -> list[Row]:
    """Every case of issue 55 (those of the part named ``only``), as records, in folders under ``tmp``."""
    rows: list[Row] = []
    for label, run in (
        ("plugins", plugins),
        ("book", book),
        ("sessions", sessions),
        ("kills", kills),
        ("files", files),
        ("small", small),
    ):
        if only is None or only == label:
            folder = tmp / label
            folder.mkdir(parents=True)
            rows += run(folder, startup)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=None)
    options = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        startup = min(_run([*GG, "--help"])["seconds"] for _ in range(3))
        print(f"start-up (gridgames --help, best of 3): {startup:.2f} s")
        print_table(issue55_runs(tmp, startup, options.only), title="issue 55 surface")
    print(
        f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.perf_counter() - started:.0f} s in all"
    )


if __name__ == "__main__":
    main()
