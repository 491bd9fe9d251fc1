"""``gridgames connect4 analyze`` answered from the book before typer is imported (`GameSpec.quick`): the same
output as the full command, declined for everything else, and a fresh process that imports neither typer nor numpy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.launch import quick_answer

runner = CliRunner()
LATE = "7616471232776312234226613675575413"  # 34 discs: the endgame search answers, not the book
MIDDLE = "612445121622225"  # 15 discs: the solver answers
PAST_BOOK = "44444326533"  # 11 discs: the solver, given the book


@pytest.mark.parametrize(
    "args",
    [
        ["4", "--json"],
        ["4"],
        ["--json"],
        [],
        ["4453", "--weak"],
        ["4453", "--weak", "--json"],
        ["12121", "--json"],
        ["444444", "--json"],
        ["4", "--json", "--width", "7", "--height", "6", "--connect", "4"],
        [LATE, "--json"],
        [LATE],
        [LATE, "--weak"],
        [LATE, "--no-book", "--json"],
        ["112233", "--no-book", "--json", "--width", "5", "--height", "4"],
        ["4,4,5,3", "--json"],
        ["4 4 5 3"],
        [" 4,4, 5,3, ", "--weak"],
        ["4,04"],
        ["1,2,2,6,3,5,5,10,4,10,1,10,3,7,7,9,6,9,8,9,5,1", "--width", "10", "--height", "4", "--json"],
        ["1 2 2 6 3 5 5 10 4 10 1 10 3 7 7 9 6 9 8 9 5 1", "--width", "10", "--height", "4"],
        # the solver
        [MIDDLE, "--json"],
        [MIDDLE],
        [MIDDLE, "--weak", "--no-book"],
        [PAST_BOOK, "--json"],
    ],
)
@pytest.mark.slow
def test_the_quick_answer_is_the_full_commands(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = quick_answer(["connect4", "analyze", *args])
    quick = capsys.readouterr().out
    full = runner.invoke(app, ["connect4", "analyze", *args])
    assert code == 0 and full.exit_code == 0, full.output
    assert quick == full.stdout  # (standard error may say the solver compiles, at its first use)


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "4", "--help"],
        ["analyze", "4", "--think", "1"],
        ["analyze", "x"],
        ["analyze", "4444444"],
        ["analyze", "4", "--width", "11"],
        ["analyze", "4", "--width", "10", "--height", "6"],
        ["analyze", LATE, "--think", "5"],
        ["analyze", LATE, "--jobs", "2"],
        ["analyze", "1212121", "--json"],
        ["analyze", "4", "5"],
        ["show", "4"],
        ["analyze", "1" * 12, "--json"],
        ["analyze", "4,,4"],
        ["analyze", "4 0"],
        ["analyze", "4,8"],
        ["analyze", "4, 4 5"],
        ["analyze", "\u0664"],
        ["analyze", "4", "--width", "99999"],
    ],
)
def test_anything_else_is_declined_to_the_full_command(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # bad input, other options, a position the book does not cover
    assert quick_answer(["connect4", *args]) is None
    assert capsys.readouterr().out == ""


def test_a_terminal_gets_the_full_commands_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(os, "isatty", lambda fd: True)
    assert quick_answer(["connect4", "analyze", MIDDLE]) is None  # the solver's search: declined
    assert quick_answer(["connect4", "analyze", "4453", "--no-book", "--width", "8"]) is None


def test_ctrl_c_prints_the_columns_solved_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridgames_connect4.solve import solver

    def interrupted(
        self: solver.Solver, moves: list[int], weak: bool = False, *, into: list[int | None], on_progress: object = None
    ) -> None:
        into[2] = -3
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.Solver, "analyze", interrupted)
    assert quick_answer(["connect4", "analyze", MIDDLE, "--json"]) == 130
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "moves": MIDDLE,
        "score": -3,
        "columns": [None, None, -3, None, None, None, None],
        "best": [],
        "partial": True,
        "stopped": "interrupted",
        "unsolved": [1, 4, 5, 6, 7],
    }


HEAVY = (
    "typer",
    "numpy",
    "rich",
    "importlib.metadata",
    "attrs",
    "typing",
    "gridgames.game",
    "gridgames.registry",
    "gridgames_connect4.position.rules",
)
"""What a quick answer does without (docs/startup.md): the command line, numpy, the protocol and attrs."""


@pytest.mark.parametrize(
    ("moves", "columns"),
    [
        ("4", [-4, -2, -2, -1, -2, -2, -4]),
        (LATE, None),  # the endgame search
    ],
)
def test_a_quick_answer_in_a_fresh_process_imports_neither_the_protocol_nor_numpy(
    moves: str, columns: list[int] | None
) -> None:
    code = (
        "import sys; from gridgames.launch import main\n"
        f"sys.argv = ['gridgames', 'connect4', 'analyze', {moves!r}, '--json']\n"
        "try:\n    main()\nexcept SystemExit as end:\n"
        f"    loaded = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "    print(end.code, sorted(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout.splitlines()
    assert columns is None or json.loads(out[0])["columns"] == columns
    assert json.loads(out[0])["moves"] == moves
    assert out[1] == "0 []"


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "connect"), [(7, 6, 4), (5, 4, 4), (6, 5, 3), (7, 6, 5), (4, 4, 3)])
def test_the_endgame_search_gives_the_solvers_scores_or_declines(width: int, height: int, connect: int) -> None:
    import random

    from gridgames_connect4.solve import endgame
    from gridgames_connect4.position.geometry import Geometry
    from gridgames_connect4.position.rules import Connect4
    from gridgames_connect4.solve.solver import Solver

    rng, geometry = random.Random(width * 100 + height * 10 + connect), Geometry.of(width, height, connect)
    solver = Solver(width, height, connect, table_bits=16)
    answered = 0
    for _ in range(40):
        while True:  # a position of 1 to 16 empty cells that is not over
            state = Connect4(width, height, connect).new_state()
            for _ in range(rng.randrange(max(0, width * height - 16), width * height)):
                if state.is_over:
                    break
                state.play(rng.choice(list(state.legal_moves())))
            if not state.is_over:
                break
        found = endgame.column_scores(geometry, list(state.history))
        solver.reset()
        if found is not None:
            answered += 1
            assert found == solver.analyze(list(state.history)), state.notation()
        else:
            assert width * height - len(state.history) > 8  # a tiny search is never declined
    assert answered >= 20
