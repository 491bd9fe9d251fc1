"""Issue 38: the web server's hostile requests, through Starlette's test client (bench/robustness38.py runs this)."""

import json
import time
from starlette.testclient import TestClient
from gridgames.web.app import ServerConfig, create_app

rows = []


def row(label, ok, detail):
    rows.append({"label": label, "ok": bool(ok), "detail": str(detail)[:150]})


app = create_app(ServerConfig(workers=1, job_seconds=20))
with TestClient(app, base_url="http://127.0.0.1:8000") as c:
    h = {"X-Session": c.post("/api/session", json={}).json()["session"]}
    for path in (
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2f..%2fapp.py",
        "/static/%2e%2e%2fapp.py",
        "/static//etc/passwd",
        "/static/play.js%00.txt",
    ):
        r = c.get(path)
        row(
            f"GET {path}",
            r.status_code in (400, 404) and "root:" not in r.text and "def create_app" not in r.text,
            r.status_code,
        )
    r = c.get("/api/games", headers={"Host": "evil.example"})
    row("foreign Host header", 400 <= r.status_code < 500, r.status_code)
    r = c.post("/api/session", json={}, headers={"Origin": "http://evil.example"})
    row("foreign Origin, POST /api/session", r.status_code == 403, r.status_code)
    c.post("/api/play/connect4/new", json={"seats": ["human", "human"]}, headers=h)
    for label, body in (
        ("move 3.5", {"move": 3.5}),
        ("move null", {"move": None}),
        ("move [4]", {"move": ["4"]}),
        ("move of 5,000 digits", {"move": "9" * 5000}),
        ("move -1", {"move": "-1"}),
        ("move '4\\x00'", {"move": "4\x00"}),
    ):
        r = c.post("/api/play/connect4/move", json=body, headers=h)
        row(f"POST move: {label}", 400 <= r.status_code < 500 and "error" in r.json(), f"{r.status_code} {r.text[:80]}")
    for label, raw in (
        ("malformed JSON", b'{"move": '),
        ("a JSON list", b"[1,2]"),
        ("not UTF-8", b"\xff\xfe{}"),
        ("20 MB body", b" " * 20_000_000),
    ):
        started = time.monotonic()
        r = c.post("/api/play/connect4/move", content=raw, headers={**h, "Content-Type": "application/json"})
        row(
            f"POST move: {label}",
            400 <= r.status_code < 500 and time.monotonic() - started < 5,
            f"{r.status_code} {r.text[:80]}",
        )
    view = c.get("/api/play/connect4", headers=h).json()
    row("the game survived the hostile moves", view.get("moves", "x") == "", json.dumps(view)[:80])
    r = c.post("/api/play/nogame/new", json={}, headers=h)
    row("unknown game", r.status_code == 404, r.status_code)
    r = c.get("/api/jobs/does-not-exist", headers=h)
    row("unknown job", r.status_code == 404, r.status_code)
    c.post(
        "/api/puzzle/pentomino/new", json={"options": {"board": "8x8", "pieces": "pentominoes+tetromino:O"}}, headers=h
    )
    job = c.post("/api/puzzle/pentomino/count", json={}, headers=h).json()["job"]
    time.sleep(1.5)
    c.post(f"/api/jobs/{job['id']}/cancel", json={}, headers=h)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        got = c.get(f"/api/jobs/{job['id']}", headers=h).json()
        if got["status"] not in ("queued", "running"):
            break
        time.sleep(0.1)
    row(
        "a cancelled count ends, partial kept",
        got["status"] == "cancelled" and time.monotonic() < deadline,
        json.dumps(got)[:140],
    )
    s = c.get("/api/status").json()
    row("its worker is free again", s["jobs"]["running"] == 0, json.dumps(s["jobs"]))
    sessions = [c.post("/api/session", json={}).status_code for _ in range(2000)]
    row("2,000 sessions from one client", all(code == 201 for code in sessions), sorted(set(sessions)))
    r = c.get("/api/play/connect4", headers=h)
    row(
        "the first session after 2,000 more (max 256 kept)",
        r.status_code in (200, 404, 410),
        f"{r.status_code} {r.text[:80]}",
    )
print(json.dumps(rows))
