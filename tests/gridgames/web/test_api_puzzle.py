"""The JSON API of puzzles: presets, pasted boards, listing and paging, counts with progress and cancellation."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from typing import Any

from gridgames_pentomino.puzzle import TilingPuzzle
from gridgames_test_support.web import Api

from gridgames.game import Placement

PENTOMINO = "/api/puzzle/pentomino"


def test_games_list_the_puzzles_presets_and_hooks(api: Api) -> None:
    games = {g["name"]: g for g in api.ok("GET", "/api/games")["games"]}
    assert {"connect4", "pentomino", "mnk", "nqueens"} <= set(games)
    presets = {p["name"]: p for p in games["pentomino"]["presets"]}
    assert presets["6x10"]["options"] == {"board": "6x10", "pieces": "pentominoes"}
    assert "move_scores" in games["connect4"]["hooks"] and games["nqueens"]["hooks"] == []


def test_counting_a_preset_gives_its_known_count(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    assert api.job(f"{PENTOMINO}/count")["result"]["count"] == 8
    result = api.job(f"{PENTOMINO}/count", {"unique": True})["result"]
    assert result["count"] == 2 and not result["partial"]
    assert api.ok("GET", PENTOMINO)["count"]["count"] == 2


def test_listing_pages_through_every_solution_and_each_is_a_valid_tiling(api: Api) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    assert api.job(f"{PENTOMINO}/list", {"n": 5})["result"]["listed"] == 5
    assert api.job(f"{PENTOMINO}/list", {"n": 5})["result"] == {"found": 3, "exhausted": True, "listed": 8}
    puzzle = TilingPuzzle.create("3x20")
    seen = set()
    for number in range(1, 9):
        solution = api.ok("GET", f"{PENTOMINO}/solution/{number}")
        placements = tuple(Placement(p["piece"], [tuple(c) for c in p["cells"]]) for p in solution["placements"])
        assert puzzle.is_solution(placements) and solution["valid"]
        seen.add(placements)
        ET.fromstring(solution["svg"])  # well-formed SVG
    assert len(seen) == 8
    assert api.get(f"{PENTOMINO}/solution/9").status_code == 404
    svg = api.get(f"{PENTOMINO}/solution/2.svg")
    assert (
        svg.headers["content-type"].startswith("image/svg+xml") and "attachment" in svg.headers["content-disposition"]
    )
    exported = json.loads(api.get(f"{PENTOMINO}/solutions.json").text)
    assert len(exported["solutions"]) == 8 and exported["first"] == 1
    assert api.post(f"{PENTOMINO}/list", {"n": 5}).status_code == 409  # all listed


def test_a_pasted_board_and_piece_file_make_a_puzzle(api: Api) -> None:
    board = "\n".join(["." * 20] * 3)
    view = api.ok("POST", f"{PENTOMINO}/new", {"board": board, "pieces": "pentominoes"})
    assert "60 cells" in view["describe"]
    assert api.job(f"{PENTOMINO}/count")["result"]["count"] == 8
    pieces = "O*5\n##\n##\n"
    api.ok("POST", f"{PENTOMINO}/new", {"board": "....\n....\n....\n....\n....", "pieces": pieces})
    assert api.job(f"{PENTOMINO}/count")["result"]["count"] == 0  # 2x2 squares cannot tile 5 rows


def test_bad_puzzles_get_one_json_error_line(api: Api) -> None:
    for body, words in [
        ({"board": "....\n....", "pieces": "pentominoes"}, "8 cells"),
        ({"board": "..x.", "pieces": "O"}, "unexpected 'x'"),
        ({"options": {"board": "6x10", "pieces": "nonsense"}}, "nonsense"),
        ({"options": {"size": 3}}, "no option 'size'"),
        ({"board": "." * 6000}, "too long"),
    ]:
        response = api.post(f"{PENTOMINO}/new", body)
        assert response.status_code == 400, body
        assert words in response.json()["error"]
    # no pasted boards there
    assert api.post("/api/puzzle/nqueens/new", {"board": "...."}).status_code == 400
    assert api.get(f"{PENTOMINO}/solution/x").status_code in (400, 404)


def test_a_generic_puzzle_counts_through_its_own_solver(api: Api) -> None:
    api.ok("POST", "/api/puzzle/nqueens/new", {"options": {"n": 6}})
    assert api.job("/api/puzzle/nqueens/count")["result"]["count"] == 4
    api.job("/api/puzzle/nqueens/list", {"n": 10})
    assert api.ok("GET", "/api/puzzle/nqueens")["listed"] == 4


def test_one_job_at_a_time_and_a_cancelled_count_is_partial_and_frees_its_worker(api: Api, client: object) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "8x8", "pieces": "pentominoes+O"}})
    job = api.ok("POST", f"{PENTOMINO}/count")["job"]
    second = api.post(f"{PENTOMINO}/list", {"n": 1})
    assert second.status_code == 409 and "already has" in second.json()["error"]
    time.sleep(0.5)
    api.ok("POST", f"/api/jobs/{job['id']}/cancel")
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, "the cancelled job never ended"
        time.sleep(0.05)
        job = api.ok("GET", f"/api/jobs/{job['id']}")
    assert job["status"] == "cancelled" and job["stopped"] == "cancelled"
    # what it found so far, marked partial
    assert job["result"]["partial"] and job["result"]["count"] >= 0
    assert api.ok("GET", "/api/status")["jobs"]["running"] == 0
    # the session may start another
    assert api.job(f"{PENTOMINO}/list", {"n": 1})["status"] == "done"


def test_sessions_are_apart(api: Api, client: object) -> None:
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    job = api.ok("POST", f"{PENTOMINO}/count")["job"]
    other = Api(client)
    assert other.get(PENTOMINO).status_code == 404  # no puzzle of its own
    assert other.get(f"/api/jobs/{job['id']}").status_code == 404  # nor sight of another's job
    assert other.post(f"/api/jobs/{job['id']}/cancel").status_code == 404


def test_a_pasted_puzzle_with_no_tiling_counts_0_and_lists_none(api: Api) -> None:
    # issue 45: these counts raised ZeroDivisionError in the engine's tree estimate (no placement covers the first cell)
    reports = [
        ("..##.\n.....", "Y5\n.#\n##\n.#\n.#\n\nI3\n###\n"),
        ("....\n###.\n....\n....", "P5*2\n##\n##\n#.\n\nL3\n#.\n##\n"),
    ]
    for board, pieces in reports:
        api.ok("POST", f"{PENTOMINO}/new", {"board": board, "pieces": pieces})
        for unique in (False, True):
            job = api.job(f"{PENTOMINO}/count", {"unique": unique})
            assert job["status"] == "done", job
            assert (job["result"]["count"], job["result"]["partial"], job["result"]["unique"]) == (0, False, unique)
        listed = api.job(f"{PENTOMINO}/list", {"n": 5})["result"]
        assert (listed["listed"], listed["exhausted"]) == (0, True)


def test_kept_solutions_are_bounded_over_all_sessions_and_the_oldest_go_first(api: Api, client: Any) -> None:
    store = client.app.state.gridgames.sessions
    store.kept_cells = 8 * 60  # eight solutions of 3x20 over the whole server
    api.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    assert api.job(f"{PENTOMINO}/list", {"n": 6})["result"]["listed"] == 6
    other = Api(client)
    other.ok("POST", f"{PENTOMINO}/new", {"options": {"board": "3x20"}})
    assert other.job(f"{PENTOMINO}/list", {"n": 4})["result"]["listed"] == 4
    # 10 solutions over 8: the first session's (the least recently used) are dropped, the new ones kept
    assert other.ok("GET", f"{PENTOMINO}/solution/4")["valid"]
    gone = api.get(f"{PENTOMINO}/solution/1")
    assert gone.status_code == 404 and "not listed" in gone.json()["error"]
    # it resumes
    assert api.job(f"{PENTOMINO}/list", {"n": 2})["result"] == {"found": 2, "exhausted": False, "listed": 8}
    assert api.ok("GET", f"{PENTOMINO}/solution/8")["valid"]
    kept = sum(len(run.solutions) * 60 for session in store._sessions.values() for run in session.puzzles.values())
    assert kept <= store.kept_cells
