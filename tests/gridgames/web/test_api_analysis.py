"""The analysis board's API: going to any position of the move list, Connect Four's moves-to-end, explanation and
grades, click targets of gravity games without a hook, and plugins installed while the server runs."""

from __future__ import annotations

import re

from importlib.metadata import EntryPoint
from typing import Any

import pytest
from gridgames_connect4.teach.explain import end_ply
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver
from gridgames_test_support.web import Api

from gridgames.registry import GROUP, Registry

C4 = "/api/play/connect4"


def test_goto_sets_any_line_and_the_computer_waits(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 5, "height": 4}, "seats": ["human", "perfect"]})
    view = api.ok("POST", f"{C4}/goto", {"moves": ["3", "3", "2"]})
    assert view["history"] == ["3", "3", "2"] and view["to_move"] == 1
    # the computer's turn, but it did not move
    assert view["computer_to_move"] and len(view["history"]) == 3
    back = api.ok("POST", f"{C4}/goto", {"moves": ["3"]})
    assert back["history"] == ["3"] and sum(v != 0 for row in back["board"]["cells"] for v in row) == 1
    start = api.ok("POST", f"{C4}/goto", {"moves": []})
    assert start["history"] == [] and not start["can_undo"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"moves": "332"}, "'moves' must list"),
        ({"moves": [3, 3]}, "'moves' must list"),
        ({"moves": ["3", "3", "3", "3", "3"]}, "move 5 (3): "),
        ({"moves": ["9"]}, "move 1 (9): "),
        ({"moves": ["1"] * 2001}, "at most 2000"),
    ],
)
def test_goto_refuses_bad_lines_in_one_line_and_keeps_the_position(api: Api, body: Any, message: str) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 5, "height": 4}, "seats": ["human", "human"]})
    api.ok("POST", f"{C4}/move", {"move": "2"})
    response = api.post(f"{C4}/goto", body)
    assert response.status_code == 400 and message in response.json()["error"]
    assert "\n" not in response.json()["error"]
    assert api.ok("GET", C4)["history"] == ["2"]  # nothing the user had is lost


def test_scores_carry_moves_to_the_end_and_the_explanation(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 5, "height": 4}, "seats": ["human", "human"]})
    api.ok("POST", f"{C4}/goto", {"moves": ["3", "3", "2"]})
    result = api.job(f"{C4}/scores")["result"]
    columns = Solver(5, 4, 4).analyze([2, 2, 1])
    assert result["ends"] == {str(c + 1): end_ply(20, 3, s) - 3 for c, s in enumerate(columns) if s is not None}
    best = max(s for s in columns if s is not None)
    best_columns = ", ".join(str(c + 1) for c, s in enumerate(columns) if s == best)
    assert f"Best column(s): {best_columns}." in result["explanation"]
    assert any(line.startswith("Result with best play") for line in result["explanation"])
    # the caption and the explanation say when the game ends in the same words (issue 56)
    if best != 0:
        when = re.search(r"wins with its \d+\w\w move from now", result["note"])
        assert when is not None and any(when[0] in line for line in result["explanation"]), result


def test_the_review_grades_every_move(api: Api) -> None:
    api.ok("POST", f"{C4}/new", {"options": {"width": 5, "height": 4, "connect": 3}, "seats": ["human", "human"]})
    api.ok("POST", f"{C4}/goto", {"moves": ["1", "3", "1", "3", "1"]})  # red wins on its third move
    review = api.job(f"{C4}/review")["result"]
    solver = Solver(5, 4, 3)
    moves = [0, 2, 0, 2, 0]
    checked = 0
    assert [e["move"] for e in review] == ["1", "3", "1", "3", "1"]
    for i, entry in enumerate(review):
        columns = solver.analyze(moves[:i])
        best = max(s for s in columns if s is not None)
        score = columns[moves[i]]
        expected = "best" if score == best else "blunder" if best > 0 > score else None
        if expected is not None:
            assert entry["grade"] == expected, (i, entry)
            checked += 1
        assert entry["moves_lost"] == best - score and 0 <= entry["value"] <= 1
    assert checked >= 3


def test_a_gravity_game_without_a_hook_is_played_by_a_click_anywhere_in_a_column() -> None:
    from gridgames.web.plays import _targets
    from gridgames_mnk import SPEC as MNK

    state = Connect4(5, 4, 4).from_notation("3321")
    targets = _targets(object(), state)  # no move_targets hook: the cells are guessed
    assert targets == {c: [(r, c) for r in range(4)] for c in range(5)}
    mnk = MNK.make().new_state()
    single = _targets(object(), mnk)
    assert all(len(cells) == 1 for cells in single.values()) and len(single) == 9


def test_a_plugin_installed_while_the_server_runs_is_listed_on_reload(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx: pip install '.[web-test]'")
    from starlette.testclient import TestClient

    from gridgames.web import app as web_app

    c4 = EntryPoint("connect4", "gridgames_connect4:SPEC", GROUP)
    installed = [c4]
    monkeypatch.setattr(web_app, "default_registry", lambda: Registry.from_list([c4]))
    monkeypatch.setattr(web_app.Registry, "from_entry_points", classmethod(lambda cls: cls.from_list(installed)))
    server = web_app.create_app(web_app.ServerConfig(allowed_hosts=("testserver",)))
    with TestClient(server) as client:
        assert [g["name"] for g in client.get("/api/games").json()["games"]] == ["connect4"]
        # pip install
        installed.append(EntryPoint("lightsout", "gridgames_test_support.lightsout:SPEC", GROUP))
        assert [g["name"] for g in client.get("/api/games").json()["games"]] == ["connect4", "lightsout"]
        assert client.get("/play/lightsout").status_code == 200
