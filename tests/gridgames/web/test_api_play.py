"""The JSON API of turn-based games: Connect Four with its hooks (scores, review, save files) and the generic mnk
game."""

from __future__ import annotations

import json

import pytest
from gridgames_connect4 import SPEC
from gridgames.saves import from_json
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.web import Api

C4 = "/api/play/connect4"
SMALL = {"width": 5, "height": 4, "connect": 3}  # red wins with best play: +6 from the empty board


def test_a_human_who_follows_the_exact_scores_beats_perfect_on_a_board_red_wins(api: Api) -> None:
    view = api.ok("POST", f"{C4}/new", {"options": SMALL, "seats": ["human", "perfect"], "seed": 3})
    while view["outcome"] is None:
        if view["computer_to_move"]:
            job = api.job(f"{C4}/computer")
            assert job["status"] == "done" and job["result"]["applied"]
        else:
            job = api.job(f"{C4}/scores")
            assert job["status"] == "done" and job["result"]["exact"]
            scores = job["result"]["scores"]
            api.ok("POST", f"{C4}/move", {"move": max(scores, key=lambda m: scores[m])})
        view = api.ok("GET", C4)
    assert view["outcome"]["winner"] == 0
    assert len(view["outcome"]["cells"]) == 3


def test_scores_match_the_solver_and_stay_with_the_position_until_a_move(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 5, "height": 4}, "seats": ["human", "human"]})
    for move in "3", "3", "2":
        api.ok("POST", f"{C4}/move", {"move": move})
    job = api.job(f"{C4}/scores")
    expected = Solver(5, 4, 4).analyze([2, 2, 1])
    assert job["result"]["scores"] == {str(c + 1): s for c, s in enumerate(expected) if s is not None}
    assert api.ok("GET", C4)["scores"]["moves"] == "332"  # kept visible
    # a new position needs new scores
    assert api.ok("POST", f"{C4}/move", {"move": "1"})["scores"] is None


def test_two_humans_undo_and_redo_one_move_at_a_time(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"seats": ["human", "human"]})
    for move in "4", "4", "5":
        api.ok("POST", f"{C4}/move", {"move": move})
    assert api.ok("POST", f"{C4}/undo")["history"] == ["4", "4"]
    view = api.ok("POST", f"{C4}/redo")
    assert view["history"] == ["4", "4", "5"] and not view["can_redo"]
    api.ok("POST", f"{C4}/undo")
    # a new move forgets the moves undone
    assert not api.ok("POST", f"{C4}/move", {"move": "1"})["can_redo"]


def test_undo_against_the_computer_takes_back_its_reply_too(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"seats": ["human", "medium"], "seed": 1})
    api.ok("POST", f"{C4}/move", {"move": "4"})
    refused = api.post(f"{C4}/move", {"move": "4"})  # the computer's turn: not a human's move
    assert refused.status_code == 409 and "medium" in refused.json()["error"]
    assert api.job(f"{C4}/computer")["status"] == "done"
    assert len(api.ok("GET", C4)["history"]) == 2
    view = api.ok("POST", f"{C4}/undo")
    assert view["history"] == [] and view["to_move"] == 0 and not view["computer_to_move"]


def test_the_save_file_is_the_terminal_games_and_loads_back_with_its_seats(api: Api, client: object) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 6, "height": 5}, "seats": ["human", "hard"]})
    api.ok("POST", f"{C4}/move", {"move": "3"})
    text = api.get(f"{C4}/save").text
    saved = from_json(text, spec=SPEC)  # the format of gridgames play connect4's 's FILE'
    assert saved.moves == "3" and saved.seats == ("human", "hard")
    other = Api(client)
    view = other.ok("POST", f"{C4}/load", {"text": text})
    assert view["moves"] == "3" and view["seats"] == ["human", "hard"]
    assert view["options"] == {"width": 6, "height": 5, "connect": 4, "first": "red"}


def test_a_yellow_first_save_loads_plays_and_saves_back_with_its_colours(api: Api) -> None:
    import json

    text = json.dumps(
        {
            "format": "gridgames-connect4",
            "version": 2,
            "width": 6,
            "height": 5,
            "connect": 4,
            "first": "yellow",
            "moves": "34",
            "seats": {"yellow": "human", "red": "hard"},
        }
    )  # as 0.1 saved it
    view = api.ok("POST", f"{C4}/load", {"text": text})
    assert view["seats"] == ["human", "hard"] and view["to_move"] == 0 and view["options"]["width"] == 6
    # drawn in the file's colours
    assert view["players"] == ["yellow", "red"] and view["styles"] == [1, 0]
    api.ok("POST", f"{C4}/move", {"move": "3"})
    saved = from_json(api.get(f"{C4}/save").text, spec=SPEC)
    assert saved.options["first"] == "yellow" and saved.seats == ("human", "hard")
    assert saved.moves == "343"
    fresh = api.ok(
        "POST", f"{C4}/new", {"options": {"width": 6, "height": 5, "connect": 4}, "seats": ["human", "human"]}
    )
    assert fresh["players"] == ["red", "yellow"] and fresh["styles"] == [0, 1]


def test_review_marks_a_thrown_away_win_as_a_mistake(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 4, "height": 4, "connect": 3}, "seats": ["human", "human"]})
    for move in "1", "2", "4", "3", "1", "1", "4", "4", "3", "2", "2", "3", "4", "3", "1", "2":
        view = api.ok("POST", f"{C4}/move", {"move": move})
        if view["outcome"] is not None:
            break
    assert view["outcome"] is not None
    job = api.job(f"{C4}/review")
    assert job["status"] == "done"
    review = api.ok("GET", C4)["review"]
    assert [e["move"] for e in review] == view["history"]
    assert all(e["mark"] in (None, "mistake", "inaccuracy") for e in review)
    solved = [e for e in review if e["score"] is not None]
    assert solved and all(e["score"] <= e["best"] for e in solved)
    # 4x4 connect 3 is a red win that a random-ish game throws away
    assert any(e["mark"] == "mistake" for e in review)


def test_the_generic_game_plays_by_notation_and_its_ai_replies(api: Api) -> None:
    view = api.ok("POST", "/api/play/mnk/new", {"seats": ["human", "ai"], "think": 0.2})
    assert view["kinds"][0] == "human" and "ai" in view["kinds"]
    assert view["targets"]["b2"] == [[1, 1]]  # found by playing the move on a copy
    # Game.player_styles by default: player i in style i
    assert view["styles"] == [0, 1] and len(view["players"]) == 2
    api.ok("POST", "/api/play/mnk/move", {"move": "b2"})
    assert api.job("/api/play/mnk/computer")["status"] == "done"
    view = api.ok("GET", "/api/play/mnk")
    assert len(view["history"]) == 2 and view["svg"].startswith("<svg")
    assert not view["features"]["scores"]
    assert api.post("/api/play/mnk/scores").status_code == 404


def test_a_generic_save_file_round_trips(api: Api) -> None:
    api.ok("POST", "/api/play/mnk/new", {"options": {"width": 4, "height": 4, "k": 3}, "seats": ["human", "human"]})
    api.ok("POST", "/api/play/mnk/move", {"move": "a1"})
    text = api.get("/api/play/mnk/save").text
    assert json.loads(text)["format"] == "gridgames-moves"
    view = api.ok("POST", "/api/play/mnk/load", {"text": text})
    assert view["history"] == ["a1"] and view["options"] == {"width": 4, "height": 4, "k": 3}


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        (f"{C4}/move", {"move": "9"}, 400, "no column 9"),
        (f"{C4}/move", {"move": 4}, 400, "'move' must be a string"),
        (f"{C4}/move", {}, 400, "missing"),
        (f"{C4}/new", {"options": {"width": 11}}, 400, "width"),
        (f"{C4}/new", {"options": {"colour": "red"}}, 400, "no option 'colour'"),
        (f"{C4}/new", {"options": {"width": "7"}}, 400, "must be a int"),
        (f"{C4}/new", {"seats": ["human", "grandmaster"]}, 400, "not a player"),
        (f"{C4}/new", {"seats": ["human"]}, 400, "one per player"),
        (f"{C4}/new", {"think": -1}, 400, "'think'"),
        (f"{C4}/new", [1, 2], 400, "JSON object"),
        (f"{C4}/load", {"text": "{"}, 400, "not valid JSON"),
        (
            f"{C4}/load",
            {
                "text": '{"format": "gridgames-connect4", "version": 2, "width": 7, "height": 6, "connect": 4, '
                '"moves": "1111111"}'
            },
            400,
            "not a legal game",
        ),
        (f"{C4}/computer", {}, 409, "not a computer player's turn"),
        ("/api/play/mnk/move", {"move": "a1"}, 404, "no mnk game in this session"),
        (f"{C4}/undo", {}, 409, "no move to undo"),
        (f"{C4}/review", {}, 409, "after the end"),
        ("/api/play/chess/new", {}, 404, "no game named 'chess'"),
        ("/api/play/pentomino/new", {}, 400, "not a turn-based one"),
    ],
)
def test_bad_requests_get_one_json_error_line(api: Api, path: str, body: object, status: int, words: str) -> None:
    api.ok("POST", f"{C4}/new", {"seats": ["human", "human"]})
    response = api.post(path, body)
    assert response.status_code == status
    error = response.json()["error"]
    assert words in error and "\n" not in error and "Traceback" not in error


def test_a_column_that_is_full_is_refused_and_nothing_changes(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 4, "height": 4}, "seats": ["human", "human"]})
    for _ in range(4):
        api.ok("POST", f"{C4}/move", {"move": "1"})
    response = api.post(f"{C4}/move", {"move": "1"})
    assert response.status_code == 400 and "full" in response.json()["error"]
    assert api.ok("GET", C4)["history"] == ["1"] * 4
