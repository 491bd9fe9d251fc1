"""Load on ``gridgames serve`` over loopback: concurrent games and counts answer correctly, memory stays bounded,
a cancelled count frees its worker.

    python bench/web_load.py [--games 50] [--counts 5] [--rounds 2] [--workers 2]

The server runs as ``gridgames serve`` in a child process on 127.0.0.1 (only loopback is used); the clients are
threads of this process (httpx). Each game is a session playing Connect Four on 7x6, a human seat (this client,
playing the first legal column of a seeded random choice) against the ``random`` computer level, to the end; every
view the server sends is checked against the same game replayed here with the rules. Each count is a session
counting the 6x10 pentomino tilings (9356). Rounds repeat the load; the server's resident memory is sampled
(/proc) throughout and after each round. Then one count of the 8x8 board with the 2x2 square is cancelled after a
second, and the time until its worker is free again (``/api/status``) is measured. Everything is bounded in count
and time (``--max-seconds``); the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx

from gridgames_connect4 import Connect4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mb(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak (VmRSS, VmHWM), in MiB."""
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class Client:
    def __init__(self, base: str, deadline: float) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.deadline = deadline
        self.http.headers["X-Session"] = self.call("POST", "/api/session", {})["session"]
        self.busy = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the load run went past --max-seconds")
            response = self.http.request(method, path, json=body)
            if response.status_code == 503 or (response.status_code == 409 and "already has" in response.text):
                self.busy += 1
                time.sleep(0.05)  # the server is busy: retry
                continue
            if response.status_code >= 400:
                raise AssertionError(f"{method} {path}: {response.status_code} {response.text}")
            return response.json() if response.headers.get("content-type", "").startswith("application/json") else response.text

    def job(self, path: str, body: Any = None) -> dict[str, Any]:
        job = self.call("POST", path, body)["job"]
        while job["status"] in ("queued", "running"):
            time.sleep(0.05)
            job = self.call("GET", f"/api/jobs/{job['id']}")
        return job


def play_game(base: str, seed: int, deadline: float, results: list[Any]) -> None:
    try:
        client = Client(base, deadline)
        rng = random.Random(seed)
        view = client.call("POST", "/api/play/connect4/new", {"seats": ["human", "random"], "seed": seed})
        local = Connect4().new_state()
        while view["outcome"] is None:
            if view["computer_to_move"]:
                job = client.job("/api/play/connect4/computer")
                assert job["status"] == "done" and job["result"]["applied"], job
                view = client.call("GET", "/api/play/connect4")
            else:
                move = rng.choice(view["legal"])
                view = client.call("POST", "/api/play/connect4/move", {"move": move})
            local = Connect4().from_notation(view["moves"])  # the server's moves are a legal game...
            assert view["legal"] == [str(m + 1) for m in local.legal_moves()]  # ...whose legal moves it reports
        assert local.outcome is not None and view["outcome"]["winner"] == local.outcome.winner
        results.append(("game", len(local.history), client.busy))
    except Exception as error:  # reported, not raised: the other threads go on
        results.append(("error", repr(error), 0))


def count_tilings(base: str, deadline: float, results: list[Any]) -> None:
    try:
        client = Client(base, deadline)
        client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "6x10"}})
        start = time.monotonic()
        job = client.job("/api/puzzle/pentomino/count")
        assert job["status"] == "done" and job["result"]["count"] == 9356 and not job["result"]["partial"], job
        results.append(("count", round(time.monotonic() - start, 2), client.busy))
    except Exception as error:
        results.append(("error", repr(error), 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--counts", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-sessions", type=int, default=256, help="the server's bound on sessions")
    parser.add_argument("--max-seconds", type=float, default=600)
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "gridgames", "serve", "--port", str(port), "--workers", str(args.workers),
                               "--max-sessions", str(args.max_sessions)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    deadline = time.monotonic() + args.max_seconds
    try:
        while True:
            try:
                httpx.get(f"{base}/api/status", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; server workers: {args.workers}, "
              f"max sessions {args.max_sessions}; {args.games} games and {args.counts} counts at once, {args.rounds} rounds")
        print(f"server at start: {rss_mb(server.pid)[0]:.0f} MiB resident")
        peak = 0.0
        for round_number in range(1, args.rounds + 1):
            results: list[Any] = []
            threads = [threading.Thread(target=play_game, args=(base, 1000 * round_number + i, deadline, results)) for i in range(args.games)]
            threads += [threading.Thread(target=count_tilings, args=(base, deadline, results)) for _ in range(args.counts)]
            start = time.monotonic()
            for thread in threads:
                thread.start()
            while any(t.is_alive() for t in threads):
                peak = max(peak, rss_mb(server.pid)[0])
                time.sleep(0.2)
            wall = time.monotonic() - start
            errors = [r for r in results if r[0] == "error"]
            games = [r for r in results if r[0] == "game"]
            counts = [r for r in results if r[0] == "count"]
            status = httpx.get(f"{base}/api/status").json()
            print(f"round {round_number}: {len(games)}/{args.games} games to the end ({sum(g[1] for g in games)} moves) and "
                  f"{len(counts)}/{args.counts} counts of 9356 correct in {wall:.1f} s wall; count times {[c[1] for c in counts]} s; "
                  f"busy answers retried {sum(r[2] for r in results)}; errors {len(errors)} {errors[:2]}")  # fmt: skip
            print(f"  server: {rss_mb(server.pid)[0]:.0f} MiB resident after the round, peak so far {peak:.0f} MiB; "
                  f"sessions {status['sessions']} (expired {status['expired']}), jobs {status['jobs']}")  # fmt: skip
        client = Client(base, deadline)
        client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
        job = client.call("POST", "/api/puzzle/pentomino/count")["job"]
        time.sleep(1.0)
        asked = time.monotonic()
        client.call("POST", f"/api/jobs/{job['id']}/cancel")
        while client.call("GET", f"/api/jobs/{job['id']}")["status"] == "running" or httpx.get(f"{base}/api/status").json()["jobs"]["running"]:
            time.sleep(0.01)
        freed = time.monotonic() - asked
        final = client.call("GET", f"/api/jobs/{job['id']}")
        print(f"cancelled 8x8+O count: status {final['status']}, partial count {final['result']['count']:,} kept, "
              f"worker free {freed * 1000:.0f} ms after the cancel")  # fmt: skip
        after = client.job("/api/puzzle/pentomino/list", {"n": 1})
        print(f"next job on the freed worker: {after['status']} in {after['seconds']:.2f} s")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
