"""A cancelled web count keeps its partial result on the puzzle, not only in the job record (issue 46)."""

from __future__ import annotations

import time

from gridgames_test_support.web import Api

PENTOMINO = "/api/puzzle/pentomino"


def test_a_cancelled_count_is_kept_on_the_puzzle_marked_partial(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
    assert api.ok("GET", PENTOMINO)["count"] is None
    job = api.ok("POST", f"{PENTOMINO}/count")["job"]
    time.sleep(0.5)
    api.ok("POST", f"/api/jobs/{job['id']}/cancel")
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, "the cancelled job never ended"
        time.sleep(0.05)
        job = api.ok("GET", f"/api/jobs/{job['id']}")
    assert job["status"] == "cancelled" and job["result"]["partial"]
    kept = api.ok("GET", PENTOMINO)["count"]
    assert kept is not None and kept["partial"] and kept["count"] == job["result"]["count"]
