"""Tests for the generic play and solve commands, run through the top-level CLI with the example plugins."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gridgames.cli
import gridgames.cli_solve
import gridgames.registry
from gridgames.cli import app
from gridgames.registry import GROUP, Registry

pytest.importorskip("gridgames_mnk", reason="the mnk example is not installed (pip install -e examples/mnk)")
pytest.importorskip(
    "gridgames_nqueens", reason="the nqueens example is not installed (pip install -e examples/nqueens)"
)

runner = CliRunner()


@pytest.fixture(autouse=True)
def example_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The two example plugins, plus one that cannot be imported."""
    registry = Registry.from_list(
        [
            EntryPoint("mnk", "gridgames_mnk:SPEC", GROUP),
            EntryPoint("nqueens", "gridgames_nqueens:SPEC", GROUP),
            EntryPoint("broken", "no_such_module_for_gridgames:SPEC", GROUP),
        ]
    )
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


def _play(args: list[str], moves: str) -> str:
    result = runner.invoke(app, ["play", "mnk", *args], input=moves)
    assert result.exit_code == 0, result.output
    return result.output


def _last_line(output: str) -> str:
    return output.strip().splitlines()[-1]


# --- play ---------------------------------------------------------------------------------------
def test_two_humans_play_mnk_from_a_script_to_a_win() -> None:
    output = _play(["--x", "human", "--o", "human"], "b2\na1\nb1\na2\nb3\n")
    assert "moves: b2 a1 b1 a2 b3" in output
    assert _last_line(output) == "X wins (X has 3 in a row)"
    assert "3 . X .\n2 O X .\n1 O X ." in output


def test_bad_input_is_explained_and_the_turn_is_not_lost() -> None:
    output = _play(["--x", "human", "--o", "human"], "b2\nzz\nb2\na1\nb1\na2\nb3\n")
    assert "such as 'b2', not 'zz'; try again" in output
    assert "move 'b2' is not legal here; try again" in output
    assert _last_line(output) == "X wins (X has 3 in a row)"


def test_undo_takes_back_the_own_move_and_the_reply() -> None:
    output = _play(["--x", "human", "--o", "human"], "u\nb2\na1\nu\nc3\nq\n")
    assert "nothing to undo" in output
    assert "3 . . X\n2 . . .\n1 . . ." in output  # after the undo, c3 is played on an empty board
    assert _last_line(output) == "game abandoned"


def test_the_end_of_input_quits_cleanly_with_one_line() -> None:
    output = _play(["--x", "human", "--o", "human"], "b2\n")
    assert _last_line(output).startswith("end of input: game saved to ") and _last_line(output).endswith("(moves: b2)")


def test_a_human_plays_against_the_ai_which_blocks_a_threat() -> None:
    output = _play(["--first", "human", "--second", "ai", "--think", "0.2", "--seed", "1"], "a1\nb1\nq\n")
    assert "O (negamax) plays c1" in output.split("X to move")[2]  # blocks the row a1-b1-c1
    assert "depth " in output


def test_computer_players_play_a_whole_game() -> None:
    output = _play(["--x", "random", "--o", "ai", "--think", "0.1", "--seed", "3"], "")
    last = _last_line(output)
    assert last.startswith(("X wins", "O wins", "draw ("))
    assert not last.startswith("X wins")  # the AI does not lose 3x3 to a random player
    assert "X (random) plays" in output


def test_game_options_reach_the_game() -> None:
    output = _play(
        ["--width", "4", "--height", "2", "--k", "2", "--first", "random", "--second", "random", "--seed", "2"], ""
    )
    assert "  a b c d" in output and "\n2 " in output and "\n3 " not in output


def test_a_saved_4x4_game_loads_without_retyping_its_options(tmp_path: Path) -> None:
    path = tmp_path / "four.json"
    _play(["--width", "4", "--height", "4", "--x", "human", "--o", "human"], f"b2\nc3\ns {path}\nq\n")
    assert json.loads(path.read_text())["options"] == {"width": 4, "height": 4, "k": 3}
    # the defaults (--width 3 --height 3) were not typed
    resumed = _play(["--load", str(path)], "q\n")
    assert resumed.startswith("4 . . . .\n") and "\n  a b c d\n" in resumed
    assert "4 . . . .\n3 . . O .\n2 . X . ." in resumed
    same = _play(["--load", str(path), "--width", "4", "--k", "3"], "q\n")  # typed and equal: fine
    assert "4 . . . .\n3 . . O .\n2 . X . ." in same


@pytest.mark.parametrize("typed", [["--width", "5"], ["--k", "4"], ["--height", "3"]])
def test_a_typed_option_that_differs_from_the_saved_game_is_refused(tmp_path: Path, typed: list[str]) -> None:
    path = tmp_path / "four.json"
    _play(["--width", "4", "--height", "4", "--x", "human", "--o", "human"], f"b2\ns {path}\nq\n")
    result = runner.invoke(app, ["play", "mnk", "--load", str(path), *typed], input="q\n")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"{typed[0]} {typed[1]} differs from the saved game's" in result.stderr


def test_resume_loads_an_autosaved_4x4_game_without_retyping_its_options() -> None:
    # end of input autosaves
    _play(["--width", "4", "--height", "4", "--x", "human", "--o", "human"], "d4\n")
    resumed = _play(["--resume"], "q\n")
    assert "4 . . . X\n" in resumed


def _moves_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("moves: "))


def test_the_same_seed_and_node_budget_give_the_same_game_on_every_run() -> None:
    seats = ["--width", "4", "--height", "4", "--x", "mcts", "--o", "ai", "--seed", "4", "--nodes", "150"]
    games = [_moves_line(_play(seats, "")) for _ in range(2)]
    assert games[0] == games[1] and len(games[0].split()) >= 6


def test_a_node_budget_is_saved_and_kept_by_load(tmp_path: Path) -> None:
    path = tmp_path / "nodes.json"
    _play(["--x", "human", "--o", "mcts", "--nodes", "40", "--seed", "1"], f"b2\ns {path}\nq\n")
    assert json.loads(path.read_text())["nodes"] == 40
    resumed = _play(["--load", str(path)], "a1\nq\n")
    assert "mcts 40 playouts in " in resumed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "mnk", "--k", "9"], "k must be from 1 to the longer side"),
        (["play", "mnk", "--x", "genius"], "unknown player kind 'genius'"),
        (["play", "mnk", "--red", "human"], "No such option: --red"),
        (["play", "mnk", "--think", "0"], "--think must be a number of seconds above 0"),
        (["play", "mnk", "--nodes", "0"], "node budget must be a whole number of at least 1"),
        (["play", "mnk", "--nodes", "2.5"], "--nodes"),
        (["play", "nqueens"], "nqueens is a puzzle"),
        (["solve", "mnk"], "mnk is a turn-based game"),
        (["solve", "nqueens", "--n", "0"], "n must be an integer"),
        (["solve", "nqueens", "--limit", "0"], "--limit must be at least 1"),
        (["play", "broken"], "game 'broken' is broken"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_generated_help_lists_the_seats_and_the_games_options() -> None:
    result = runner.invoke(app, ["play", "mnk", "--help"])
    assert result.exit_code == 0
    for flag in ("--x", "--first", "--o", "--second", "--think", "--seed", "--width", "--height", "--k"):
        assert flag in result.output
    assert "who plays X (first to move)" in result.output


def test_seats_are_named_from_the_players_names_unless_a_name_cannot_be_an_option() -> None:
    from gridgames.cli_play import seat_flags
    from gridgames.game import GameKind, GameSpec, Option

    spec = GameSpec(
        name="toy",
        summary="Toy: a game",
        kind=GameKind.TURN_BASED,
        create=lambda: None,
        options=(Option("size", int, 3, "side"),),
    )
    assert seat_flags(spec, ("Vertical", "Horizontal")) == [["--vertical", "--first"], ["--horizontal", "--second"]]
    # clashes with --size; not a name
    assert seat_flags(spec, ("Size", "1st")) == [["--first"], ["--second"]]
    # the same name twice
    assert seat_flags(spec, ("Red team", "red team")) == [["--first"], ["--second"]]


def test_help_does_not_repeat_the_games_name() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "nqueens: nqueens" not in text.lower() and "Solve" in text


@pytest.mark.slow
def test_a_broken_plugin_is_listed_with_its_reason_while_the_others_work() -> None:
    listing = runner.invoke(app, ["list"])
    assert listing.exit_code == 0
    assert any(
        line.startswith("broken") and "BROKEN" in line and "ModuleNotFoundError" in line
        for line in listing.output.splitlines()
    )
    assert any(line.startswith("mnk") for line in listing.output.splitlines())
    assert runner.invoke(app, ["solve", "nqueens", "--n", "5", "--count"]).exit_code == 0


# --- solve --------------------------------------------------------------------------------------
def _solve_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["solve", "nqueens", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_count_as_json_is_one_object_with_the_known_count() -> None:
    report = _solve_json("--n", "8", "--count")
    assert {k: report[k] for k in ("game", "options", "solutions", "unique", "partial")} == {
        "game": "nqueens",
        "options": {"n": 8},
        "solutions": 92,
        "unique": False,
        "partial": False,
    }
    assert isinstance(report["seconds"], float)


def test_unique_count_is_one_per_symmetry_class() -> None:
    assert _solve_json("--n", "8", "--count", "--unique")["solutions"] == 12


def test_default_options_are_reported() -> None:
    assert _solve_json("--count")["options"] == {"n": 8}


def test_solve_draws_the_first_solution() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "4"])
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines() == [".Q..", "...Q", "Q...", "..Q."]


def test_limit_draws_up_to_that_many_solutions() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "4", "--limit", "5"])
    assert result.exit_code == 0
    assert result.stdout.count("Q") == 8 and _last_line(result.stdout) == "2 solutions shown"
    listed = _solve_json("--n", "6", "--limit", "3")
    assert listed["solutions"] == 3 and len(listed["pictures"]) == 3  # type: ignore[arg-type]


def test_a_puzzle_without_solution_says_so() -> None:
    assert runner.invoke(app, ["solve", "nqueens", "--n", "3"]).stdout.strip() == "no solution"
    assert runner.invoke(app, ["solve", "nqueens", "--n", "3", "--count"]).stdout.startswith("0 solutions in ")
    assert runner.invoke(app, ["solve", "nqueens", "--n", "1", "--count"]).stdout.startswith("1 solution in ")


def test_an_interrupted_count_is_reported_as_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    @contextmanager
    def interrupting_progress(description: str) -> Iterator[object]:
        def on_progress(fraction: float, found: int) -> None:
            raise KeyboardInterrupt

        yield on_progress

    monkeypatch.setattr(gridgames.cli_solve, "search_progress", interrupting_progress)
    monkeypatch.setattr("gridgames.search.exact_cover._FIRST_BUDGET", 100)
    text = runner.invoke(app, ["solve", "nqueens", "--n", "10", "--count"])
    # as pentomino's (issue 46)
    assert text.exit_code == 130 and "partial count: interrupted" in text.stdout
    result = runner.invoke(app, ["solve", "nqueens", "--n", "10", "--count", "--json"])
    assert result.exit_code == 130, result.output
    report = json.loads(result.stdout)
    assert report["partial"] is True and report["solutions"] < 724
