"""The drill API (`gridgames.web.drills`): Connect Four's positions before a game's mistakes, answers judged and
explained; games without the hook refused; bad input one line, 4xx."""

from __future__ import annotations

from typing import Any

import pytest
from gridgames_test_support.web import Api

pytest.importorskip("gridgames_connect4.solve.solver", reason="the Connect Four solver is not available")

from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver

D = "/api/drill/connect4"
SMALL = {"width": 5, "height": 4, "connect": 4}
# on 5x4: mistakes at moves 3, 4 and 6, a blunder at move 7 (tests/games/.../test_drill.py)
PLAYED = "3321241"


def _error(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert words in message and "\n" not in message, message


def test_the_drill_page_is_served_for_turn_based_games_only(client: Any) -> None:
    page = client.get("/drill/connect4")
    assert page.status_code == 200 and 'src="/static/drill.js"' in page.text
    assert client.get("/drill/pentomino").status_code == 400
    assert client.get("/drill/nosuchgame").status_code == 404
    assert client.get("/static/drill.css").status_code == 200


@pytest.mark.slow
def test_the_games_list_says_which_games_offer_drills(client: Any) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert "drill" in games["connect4"]["hooks"] and "drill" not in games["mnk"]["hooks"]


def test_the_positions_are_those_before_the_mistakes_and_each_answer_is_judged(api: Api) -> None:
    job = api.job(D, {"options": SMALL, "moves": PLAYED})
    assert job["status"] == "done", job
    result = job["result"]
    assert result["moves"] == PLAYED
    positions = result["positions"]
    assert [p["ply"] for p in positions] == [2, 3, 5, 6] and [p["number"] for p in positions] == [3, 4, 6, 7]
    game = Connect4(5, 4, 4)
    solver = Solver(5, 4, 4, table_bits=16)
    for pos in positions:
        moves = list(game.from_notation(PLAYED).history)[: pos["ply"]]
        scores = solver.analyze(moves)
        top = max(s for s in scores if s is not None)
        assert pos["best"] == [str(c + 1) for c, s in enumerate(scores) if s == top]
        assert pos["played"] == PLAYED[pos["ply"]] and pos["grade"] in ("mistake", "blunder")
        view = pos["view"]
        assert view["moves"] == PLAYED[: pos["ply"]] and view["to_move"] == pos["ply"] % 2
        assert sum(v > 0 for row in view["board"]["cells"] for v in row) == pos["ply"]
        assert set(view["legal"]) == {str(c + 1) for c, s in enumerate(scores) if s is not None}
        for column, score in enumerate(scores):
            if score is None:
                continue
            verdict = api.job(f"{D}/answer", {"options": SMALL, "moves": view["moves"], "answer": str(column + 1)})
            assert verdict["status"] == "done", verdict
            answer = verdict["result"]
            assert answer["right"] == (score == top) and answer["score"] == score and answer["best_score"] == top
            assert answer["answer"] == str(column + 1) and answer["best"] == pos["best"]
            assert any(line.startswith(f"Column {column + 1}: score {score:+d}") for line in answer["lines"])
        break  # one position answered in every column is enough (each answer is an explain call)


def test_a_game_without_mistakes_has_nothing_to_drill(api: Api) -> None:
    job = api.job(D, {"options": SMALL, "moves": "3"})
    assert job["status"] == "done" and job["result"]["positions"] == []


@pytest.mark.parametrize(
    "path, body, status, words",
    [
        (D, {"options": SMALL, "moves": "33219"}, 400, "move 5"),
        (D, {"options": SMALL, "moves": ""}, 400, "no move"),
        (D, {"options": {"width": 99}}, 400, "width"),
        (D, {"options": SMALL, "moves": 5}, 400, "moves"),
        (f"{D}/answer", {"options": SMALL, "moves": "33", "answer": "9"}, 400, "column 9"),
        (f"{D}/answer", {"options": SMALL, "moves": "3333", "answer": "3"}, 400, "full"),
        (f"{D}/answer", {"options": SMALL, "moves": "1212121"}, 409, "over"),
        (f"{D}/answer", {"options": SMALL, "moves": "33"}, 400, "answer"),
        ("/api/drill/mnk", {"moves": "b2"}, 404, "offers no drills"),
        ("/api/drill/pentomino", {}, 400, "puzzle"),
    ],
)
def test_bad_requests_are_one_line_4xx(api: Api, path: str, body: dict[str, Any], status: int, words: str) -> None:
    _error(api.post(path, body), status, words)
