"""Load on ``gridgames serve`` over loopback: hostile requests refused, concurrent games and counts answer correctly,
memory stays bounded, a cancelled count frees its worker.

    python bench/web_load.py [--clients 50] [--seconds 30] [--games 50] [--counts 5] [--rounds 1] [--workers 2]

First the hostile part (issue 44): foreign-origin simple and preflighted requests to every state-changing call
(each must be a 403, the owner's game unchanged); 10,000 session creations from one client (another client's game
must survive); hostile bodies and headers (each must be a 4xx); the 1000x1000 monomino listing (refused) and the
largest boards the web accepts (time to start, picture size, cancel). Then ``--clients`` clients play Connect Four
for ``--seconds`` seconds, every request timed (p50, p99).

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
import json
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
    def __init__(self, base: str, deadline: float, latencies: list[float] | None = None) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.deadline = deadline
        self.latencies = latencies
        self.http.headers["X-Session"] = self.call("POST", "/api/session", {})["session"]
        self.busy = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the load run went past --max-seconds")
            sent = time.monotonic()
            response = self.http.request(method, path, json=body)
            if self.latencies is not None:
                self.latencies.append(time.monotonic() - sent)
            if response.status_code == 503 or (response.status_code == 409 and "already has" in response.text):
                self.busy += 1
                time.sleep(0.05)  # the server is busy: retry
                continue
            if response.status_code >= 400:
                raise AssertionError(f"{method} {path}: {response.status_code} {response.text}")
            return (
                response.json()
                if response.headers.get("content-type", "").startswith("application/json")
                else response.text
            )

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
            # the server's moves are a legal game...
            local = Connect4().from_notation(view["moves"])
            # ...whose legal moves it reports
            assert view["legal"] == [str(m + 1) for m in local.legal_moves()]
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


EVIL = "http://evil.example"
STATE_CHANGING = [
    "/api/session",
    "/api/play/connect4/new",
    "/api/play/connect4/move",
    "/api/play/connect4/undo",
    "/api/play/connect4/redo",
    "/api/play/connect4/computer",
    "/api/play/connect4/scores",
    "/api/play/connect4/review",
    "/api/play/connect4/load",
    "/api/puzzle/pentomino/new",
    "/api/puzzle/pentomino/list",
    "/api/puzzle/pentomino/count",
    "/api/jobs/j1-0/cancel",
]


def foreign_origins(base: str, deadline: float) -> str:
    """Every state-changing call from a foreign page: simple, preflight, preflighted; each must be a 403."""
    owner = Client(base, deadline)
    owner.call("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
    owner.call("POST", "/api/play/connect4/move", {"move": "4"})
    tries = refused = 0
    with httpx.Client(base_url=base, timeout=30) as page:
        for path in STATE_CHANGING:
            answers = [
                page.post(path, content=b"{}", headers={"Origin": EVIL, "Content-Type": "text/plain"}),
                page.post(path, content=b"a=b", headers={"Content-Type": "application/x-www-form-urlencoded"}),
                page.post(path, content=b"{}", headers={"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"}),
                page.options(
                    path,
                    headers={
                        "Origin": EVIL,
                        "Access-Control-Request-Method": "POST",
                        "Access-Control-Request-Headers": "content-type,x-session",
                    },
                ),
                page.post(path, json={}, headers={"Origin": EVIL, **owner.http.headers}),
            ]
            tries += len(answers)
            refused += sum(a.status_code == 403 and "access-control-allow-origin" not in a.headers for a in answers)
    intact = owner.call("GET", "/api/play/connect4")["moves"] == "4"
    return f"{refused}/{tries} refused (403) over {len(STATE_CHANGING)} calls; the owner's game intact: {intact}"


def session_flood(base: str, deadline: float, n: int) -> str:
    """``n`` session creations from one client; another client's game must survive."""
    owner = Client(base, deadline)
    owner.call("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
    owner.call("POST", "/api/play/connect4/move", {"move": "3"})
    codes: dict[int, int] = {}
    start = time.monotonic()
    with httpx.Client(base_url=base, timeout=30) as flood:
        for _ in range(n):
            code = flood.post("/api/session", json={}).status_code
            codes[code] = codes.get(code, 0) + 1
    wall = time.monotonic() - start
    intact = owner.call("GET", "/api/play/connect4")["moves"] == "3"
    return f"{n:,} creations in {wall:.1f} s, answers {codes}; the other client's game intact: {intact}"


def hostile(base: str, deadline: float) -> str:
    """Hostile bodies and headers: each must be a 4xx (never a 500)."""
    client = Client(base, deadline)
    client.call("POST", "/api/play/connect4/new", {"seats": ["human", "human"]})
    save = client.call("GET", "/api/play/connect4/save")  # JSON text, parsed
    client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "3x20"}})
    session = dict(client.http.headers)
    pieces = "\n\n".join(f"D{i}\n##" for i in range(400))
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/api/play/connect4/load", {"json": {"text": json.dumps({**save, "version": "1.x"})}}),
        ("POST", "/api/play/connect4/load", {"json": {"text": "{"}}),
        ("POST", "/api/play/connect4/move", {"json": {"move": "99"}}),
        (
            "POST",
            "/api/play/connect4/new",
            {"content": b"[" * 200_000, "headers": {"Content-Type": "application/json"}},
        ),
        (
            "POST",
            "/api/play/connect4/new",
            {"content": b" " * 400_000, "headers": {"Content-Type": "application/json"}},
        ),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"board": ""}}),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"board": "..\n.\x00"}}),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"board": "." * 4999}}),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"board": "\n".join(["." * 40] * 20), "pieces": pieces}}),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"options": {"board": "100x100", "pieces": "monomino*10000"}}}),
        ("POST", "/api/puzzle/pentomino/new", {"json": {"options": {"board": "30x30", "pieces": "pentominoes*15"}}}),
        (
            "POST",
            "/api/puzzle/pentomino/new",
            {"json": {"options": {"board": "1000x1000", "pieces": "monomino*1000000"}}},
        ),
        ("GET", "/api/puzzle/pentomino/solution/99999999999999999999999999999", {}),
        ("GET", "/api/puzzle/pentomino/solution/99999999999999999999999999999.svg", {}),
        ("GET", "/api/puzzle/pentomino", {"headers": {"x-session": "a" * 10_000}}),
        # past uvicorn's header limit
        ("GET", "/api/puzzle/pentomino", {"headers": {"x-session": "a" * 100_000}}),
    ]
    answers = []
    with httpx.Client(base_url=base, timeout=60) as raw:
        for method, path, extra in cases:
            headers = {**session, **extra.pop("headers", {})}
            try:
                answers.append(raw.request(method, path, headers=headers, **extra).status_code)
            except httpx.TransportError:  # the server closed the connection without an answer
                answers.append(0)
    bad = [(c[1], a) for c, a in zip(cases, answers) if not 400 <= a < 500]
    return f"{sum(400 <= a < 500 for a in answers)}/{len(cases)} answered 4xx {sorted(set(answers))}; not 4xx: {bad}"


def big_boards(base: str, deadline: float, pid: int) -> list[str]:
    """The 1000x1000 monomino listing (refused) and the largest boards accepted: start, picture size, cancel."""
    client = Client(base, deadline)
    lines = [f"server peak before: {rss_mb(pid)[1]:.0f} MiB"]
    start = time.monotonic()
    refused = client.http.post(
        "/api/puzzle/pentomino/new", json={"options": {"board": "1000x1000", "pieces": "monomino*1000000"}}
    )
    lines.append(
        f"1000x1000 monominoes: {refused.status_code} in {(time.monotonic() - start) * 1000:.0f} ms: "
        f"{refused.json()['error'][:90]}..."
    )
    start = time.monotonic()
    client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "32x32", "pieces": "monomino*1024"}})
    made = time.monotonic() - start
    job = client.job("/api/puzzle/pentomino/list", {"n": 500})
    listed = time.monotonic() - start
    svg = client.http.get("/api/puzzle/pentomino/solution/1.svg").text
    lines.append(
        f"32x32 monominoes (the most pieces accepted): new {made:.2f} s, then list 500 {job['status']} "
        f"({job['result']['found']} found, the job's own {job['seconds']:.2f} s) {listed:.2f} s after the POST; "
        f"solution 1's SVG {len(svg) / 1e6:.2f} MB; server peak so far {rss_mb(pid)[1]:.0f} MiB"
    )
    client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "20x30", "pieces": "pentominoes*10"}})
    posted = time.monotonic()
    job = client.call("POST", "/api/puzzle/pentomino/list", {"n": 500})["job"]
    while (job := client.call("GET", f"/api/jobs/{job['id']}"))["status"] == "queued":
        time.sleep(0.01)
    started = time.monotonic() - posted
    time.sleep(1.0)
    asked = time.monotonic()
    client.call("POST", f"/api/jobs/{job['id']}/cancel")
    while (job := client.call("GET", f"/api/jobs/{job['id']}"))["status"] == "running":
        time.sleep(0.01)
    lines.append(
        f"20x30 with 120 pentominoes (the costliest set-up accepted), list 500: running {started:.2f} s after the "
        "POST; cancelled after 1 s: "
        f"{job['status']} {(time.monotonic() - asked) * 1000:.0f} ms after the cancel; server peak so far "
        f"{rss_mb(pid)[1]:.0f} MiB"
    )
    return lines


def timed_clients(base: str, deadline: float, clients: int, seconds: float) -> str:
    """``clients`` clients playing Connect Four for ``seconds`` s, each view checked; p50/p99 of every request."""
    latencies: list[float] = []
    results: list[Any] = []
    stop = time.monotonic() + seconds

    def run(seed: int) -> None:
        try:
            client = Client(base, deadline, latencies)
            rng, games = random.Random(seed), 0
            while time.monotonic() < stop:
                view = client.call(
                    "POST", "/api/play/connect4/new", {"seats": ["human", "random"], "seed": seed + games}
                )
                while view["outcome"] is None and time.monotonic() < stop:
                    if view["computer_to_move"]:
                        job = client.job("/api/play/connect4/computer")
                        assert job["status"] == "done" and job["result"]["applied"], job
                        view = client.call("GET", "/api/play/connect4")
                    else:
                        view = client.call("POST", "/api/play/connect4/move", {"move": rng.choice(view["legal"])})
                    local = Connect4().from_notation(view["moves"])
                    assert view["legal"] == [str(m + 1) for m in local.legal_moves()]
                games += view["outcome"] is not None
            results.append(("ok", games))
        except Exception as error:  # reported, not raised
            results.append(("error", repr(error)))

    threads = [threading.Thread(target=run, args=(10_000 * i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [r for r in results if r[0] == "error"]
    ordered = sorted(latencies)
    p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{clients} clients for {seconds:.0f} s: {len(ordered):,} requests, "
        f"{sum(r[1] for r in results if r[0] == 'ok')} games "
        f"to the end, every view checked; p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max "
        f"{ordered[-1] * 1000:.0f} ms; "
        f"errors {len(errors)} {errors[:2]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--counts", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--clients", type=int, default=50, help="clients of the timed load")
    parser.add_argument("--seconds", type=float, default=30, help="how long the timed load runs")
    parser.add_argument("--flood", type=int, default=10_000, help="session creations from one client")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-sessions", type=int, default=256, help="the server's bound on sessions")
    parser.add_argument("--max-seconds", type=float, default=600)
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gridgames",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--max-sessions",
            str(args.max_sessions),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
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
        print(
            f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; server workers: {args.workers}, "
            f"max sessions {args.max_sessions}; {args.games} games and {args.counts} counts at once, {args.rounds} "
            "rounds"
        )
        print(f"server at start: {rss_mb(server.pid)[0]:.0f} MiB resident")
        sampling = threading.Event()
        peak_box = [0.0]

        def sample() -> None:
            while not sampling.is_set() and server.poll() is None:
                try:
                    peak_box[0] = max(peak_box[0], rss_mb(server.pid)[1])
                except (KeyError, OSError):  # the server is ending
                    return
                time.sleep(0.1)

        threading.Thread(target=sample, daemon=True).start()
        print(f"foreign origins: {foreign_origins(base, deadline)}")
        print(f"session flood: {session_flood(base, deadline, args.flood)}")
        print(f"hostile requests: {hostile(base, deadline)}")
        for line in big_boards(base, deadline, server.pid):
            print(f"big boards: {line}")
        print(f"  server peak so far {peak_box[0]:.0f} MiB resident")
        print(f"timed load: {timed_clients(base, deadline, args.clients, args.seconds)}")
        print(f"  server peak so far {peak_box[0]:.0f} MiB resident")
        peak = 0.0
        for round_number in range(1, args.rounds + 1):
            results: list[Any] = []
            threads = [
                threading.Thread(target=play_game, args=(base, 1000 * round_number + i, deadline, results))
                for i in range(args.games)
            ]
            threads += [
                threading.Thread(target=count_tilings, args=(base, deadline, results)) for _ in range(args.counts)
            ]
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
            print(
                f"round {round_number}: {len(games)}/{args.games} games to the end ({sum(g[1] for g in games)} moves) "
                "and "
                f"{len(counts)}/{args.counts} counts of 9356 correct in {wall:.1f} s wall; count times "
                f"{[c[1] for c in counts]} s; "
                f"busy answers retried {sum(r[2] for r in results)}; errors {len(errors)} {errors[:2]}"
            )
            print(
                f"  server: {rss_mb(server.pid)[0]:.0f} MiB resident after the round, peak so far {peak:.0f} MiB; "
                f"sessions {status['sessions']} (expired {status['expired']}), jobs {status['jobs']}"
            )
        client = Client(base, deadline)
        client.call("POST", "/api/puzzle/pentomino/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
        job = client.call("POST", "/api/puzzle/pentomino/count")["job"]
        time.sleep(1.0)
        asked = time.monotonic()
        client.call("POST", f"/api/jobs/{job['id']}/cancel")
        while (
            client.call("GET", f"/api/jobs/{job['id']}")["status"] == "running"
            or httpx.get(f"{base}/api/status").json()["jobs"]["running"]
        ):
            time.sleep(0.01)
        freed = time.monotonic() - asked
        final = client.call("GET", f"/api/jobs/{job['id']}")
        print(
            f"cancelled 8x8+O count: status {final['status']}, partial count {final['result']['count']:,} kept, "
            f"worker free {freed * 1000:.0f} ms after the cancel"
        )
        after = client.job("/api/puzzle/pentomino/list", {"n": 1})
        print(f"next job on the freed worker: {after['status']} in {after['seconds']:.2f} s")
        sampling.set()
        print(f"server peak resident memory over the whole run (VmHWM): {rss_mb(server.pid)[1]:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
