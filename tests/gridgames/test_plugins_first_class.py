"""Issue 14: a plugin gets what a built-in game gets -- hints, save/load, records, pictures, symmetry-aware and parallel
counts."""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gridgames.registry
from gridgames.cli import app
from gridgames.errors import PuzzleError, SaveFileError
from gridgames.grid import Grid
from gridgames.registry import GROUP, Registry
from gridgames.saves import SavedPlay, from_json, restore, to_json
from gridgames.search.puzzle import grid_symmetries
from gridgames_test_support.plugin_puzzles import Dominoes

pytest.importorskip("gridgames_mnk", reason="the mnk example is not installed (pip install ./examples/mnk)")
pytest.importorskip("gridgames_nqueens", reason="the nqueens example is not installed (pip install ./examples/nqueens)")

runner = CliRunner()


@pytest.fixture(autouse=True)
def example_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = Registry.from_list(
        [
            EntryPoint("mnk", "gridgames_mnk:SPEC", GROUP),
            EntryPoint("nqueens", "gridgames_nqueens:SPEC", GROUP),
            EntryPoint("connect4", "gridgames_connect4:SPEC", GROUP),
            EntryPoint("squares", "gridgames_test_support.plugin_puzzles:SQUARES", GROUP),
            EntryPoint("c4generic", "gridgames_test_support.plugin_puzzles:C4_GENERIC", GROUP),
            EntryPoint("cram", "gridgames_test_support.cram:SPEC", GROUP),
        ]
    )
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


def _brute_force_classes(board: Grid) -> tuple[int, int]:
    """All domino tilings by plain recursion, and their classes under the board's symmetries (by the partition)."""
    cells = sorted(board.board_cells())
    tilings: list[frozenset[frozenset[tuple[int, int]]]] = []

    def extend(free: set[tuple[int, int]], chosen: list[frozenset[tuple[int, int]]]) -> None:
        if not free:
            tilings.append(frozenset(chosen))
            return
        r, c = min(free)
        for other in ((r, c + 1), (r + 1, c)):
            if other in free:
                extend(free - {(r, c), other}, [*chosen, frozenset({(r, c), other})])

    extend(set(cells), [])
    maps = grid_symmetries(board)
    classes = set()
    for tiling in tilings:
        images = [tiling] + [frozenset(frozenset(m[x] for x in piece) for piece in tiling) for m in maps]
        classes.add(min(tuple(sorted(tuple(sorted(p)) for p in image)) for image in images))
    return len(tilings), len(classes)


@pytest.mark.parametrize("names", ["HV", "D", "by-cell"])
def test_6x6_dominoes_count_930_up_to_symmetry_whatever_the_names(names: str) -> None:
    name = {"HV": None, "D": lambda cells: "D", "by-cell": lambda cells: f"d{cells[0][0]}{cells[0][1]}{cells[1][0]}"}[
        names
    ]
    puzzle = Dominoes(Grid.empty(6, 6), name)
    assert puzzle.count().count == 6728
    assert puzzle.count(unique=True).count == 930
    assert puzzle.count(unique=True, engine="dancing links").count == 930
    assert len(list(puzzle.solutions(unique=True))) == 930


def test_unique_counts_match_brute_force_on_small_random_boards_with_renamed_pieces() -> None:
    rng = random.Random(14)
    checked = 0
    while checked < 12:
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        rows = [["." for _ in range(w)] for _ in range(h)]
        for _ in range(rng.randint(0, 3)):
            r, c = rng.randrange(h), rng.randrange(w)
            rows[r][c] = "#"
            if rng.random() < 0.5:  # keep some symmetry: punch the mirror cell too
                rows[h - 1 - r][w - 1 - c] = "#"
        board = Grid.from_text("\n".join("".join(row) for row in rows))
        if board.area % 2 or board.area == 0:
            continue
        total, classes = _brute_force_classes(board)
        if total == 0:
            continue
        labels = rng.choice(["XY", "AAAB", "QRSTU"])
        puzzle = Dominoes(board, lambda cells, labels=labels: labels[hash(cells) % len(labels)])
        assert puzzle.count().count == total
        for engine in ("tiling", "dancing links"):
            assert puzzle.count(unique=True, engine=engine).count == classes, (board.to_text(), engine)
        checked += 1


def test_a_symmetry_that_does_not_map_the_placements_is_refused_and_named() -> None:
    class OnlyHorizontal(Dominoes):
        def candidates(self):  # type: ignore[no-untyped-def]
            return ((p, cells) for p, cells in super().candidates() if p.piece == "H")

    # quarter turns and diagonal reflections would make flat dominoes upright
    puzzle = OnlyHorizontal(Grid.empty(4, 4))
    result = puzzle.count(unique=True)
    assert "refused: symmetry" in result.method and "where there is no candidate" in result.method
    group = puzzle.placement_group()
    # the identity, the half turn and the two mirror reflections remain
    assert group.size == 4 and len(group.refused) == 4
    assert (puzzle.count().count, result.count) == (1, 1)


def test_dominoes_run_on_the_tiling_kernel_small_queens_on_the_bitmask_kernel_large_ones_on_dancing_links() -> None:
    from gridgames_nqueens import NQueens

    assert Dominoes(Grid.empty(4, 4)).engine == "tiling"
    assert NQueens(10).engine == "bitmask"  # 20 primary + 38 secondary items: one word
    eleven = NQueens(11)  # 22 + 42 = 64 items: a full word
    assert eleven.engine == "bitmask" and eleven.count().count == 2680
    assert NQueens(12).engine == "dancing links"  # 70 items


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_count_the_same_on_both_engines_with_secondary_items_as_slack_options(n: int) -> None:
    from gridgames_nqueens import NQueens

    known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724][n - 1]
    queens = NQueens(n)
    assert queens.count(engine="kernel").count == queens.count(engine="dancing links").count == known
    unique = {queens.count(unique=True, engine=e).count for e in ("kernel", "dancing links")}
    assert len(unique) == 1
    solutions = list(queens.solutions(limit=3, engine="kernel"))
    assert all(queens.is_solution(s) and len(s) == n for s in solutions)


def test_unique_queens_counts() -> None:
    from gridgames_nqueens import NQueens

    assert [NQueens(n).count(unique=True).count for n in (6, 8, 10)] == [1, 12, 92]


@pytest.mark.slow
def test_dominoes_count_in_two_processes() -> None:
    result = Dominoes(Grid.empty(6, 6)).count_parallel(jobs=2)
    assert (result.count, result.partial) == (6728, False)
    assert Dominoes(Grid.empty(6, 6), lambda cells: "D").count_parallel(jobs=2, unique=True).count == 930


def test_queens_count_in_two_processes_when_they_fit_the_kernel_and_refuse_in_one_line_when_not() -> None:
    from gridgames_nqueens import NQueens

    assert NQueens(9).count_parallel(jobs=2).count == 352
    with pytest.raises(PuzzleError, match="dancing links"):
        NQueens(12).count_parallel(jobs=2)


# --- pictures -----------------------------------------------------------------------------------
def test_a_puzzle_of_more_than_61_pieces_draws_and_prints_json() -> None:
    text = runner.invoke(app, ["solve", "squares"])
    assert text.exit_code == 0, text.output
    assert "m00|m01" in text.stdout and "m77" in text.stdout
    result = runner.invoke(app, ["solve", "squares", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["placements"][0]) == 64 and report["placements"][0][0] == {"piece": "m00", "cells": [[0, 0]]}


def test_text_pictures_name_the_pieces_and_outline_them() -> None:
    puzzle = Dominoes(Grid.empty(2, 2))
    pictures = sorted(puzzle.to_text(s) for s in puzzle.solutions(limit=5))
    assert pictures == ["H H\n---\nH H", "V|V\nV|V"]


def test_solve_svg_is_well_formed_with_one_named_label_per_piece(tmp_path: Path) -> None:
    path = tmp_path / "queens.svg"
    result = runner.invoke(app, ["solve", "nqueens", "--n", "5", "--limit", "3", "--svg", str(path)])
    assert result.exit_code == 0, result.output
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    drawings = root.findall(f"{ns}svg")
    assert len(drawings) == 3
    assert [t.text for t in drawings[0].iter(f"{ns}text")] == ["Q"] * 5
    assert "3 solutions drawn to" in result.stdout


def test_solve_jsonl_gives_one_line_per_solution_then_a_summary() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "6", "--count", "--jsonl"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 5 and lines[-1]["solutions"] == 4 and len(lines[0]["placements"]) == 6


def test_unique_count_prints_its_method() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "6", "--count", "--unique"])
    assert result.exit_code == 0
    assert "symmetry: canonical (8 symmetries acting on placements; names kept); dancing links" in result.stdout


@pytest.mark.slow
def test_solve_counts_a_plugin_in_two_processes_from_the_cli() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "8", "--count", "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["solutions"], report["partial"], report["jobs"]) == (92, False, 2)
    assert report["parts_done"] == report["parts"] > 1


@pytest.mark.slow
def test_solve_counts_a_plugin_on_a_dask_cluster(dask_scheduler: str) -> None:
    pytest.importorskip("distributed")
    result = runner.invoke(app, ["solve", "nqueens", "--n", "9", "--count", "--scheduler", dask_scheduler, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["solutions"], report["partial"], report["scheduler"]) == (352, False, dask_scheduler)


def test_parallel_options_for_a_dancing_links_puzzle_are_one_line() -> None:
    result = runner.invoke(app, ["solve", "nqueens", "--n", "12", "--count", "--jobs", "2"])
    assert result.exit_code == 2 and "dancing links" in result.stderr and result.stderr.count("\n") == 1


# --- play: hint, undo, save, load, record -------------------------------------------------------
def _play(args: list[str], script: str) -> str:
    result = runner.invoke(app, ["play", "mnk", *args], input=script)
    assert result.exit_code == 0, result.output
    return result.output


def test_hint_comes_from_the_games_ai_and_does_not_move() -> None:
    output = _play(["--x", "human", "--o", "human", "--think", "0.2", "--seed", "1"], "b2\na1\nb1\nh\nq\n")
    hint = next(line for line in output.splitlines() if "hint:" in line)
    assert "hint: b3" in hint  # O must block X's column b1-b2-b3
    assert output.count("O to move") >= 2  # still O's turn after the hint


def test_save_then_load_resumes_with_the_same_seats_position_think_and_seed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    output = _play(["--x", "human", "--o", "random", "--think", "0.3", "--seed", "9"], f"b2\ns {path}\nq\n")
    assert f"saved to {path}" in output
    saved = json.loads(path.read_text())
    assert saved["seats"] == ["human", "random"] and saved["think"] == 0.3 and saved["seed"] == 9
    moves = saved["moves"]
    resumed = _play(["--load", str(path)], "q\n")
    # the same board
    assert resumed.splitlines()[0:4] == output.split(f"s {path}")[0].splitlines()[-5:-1]
    assert "(random) plays" not in resumed  # X (human) to move: the random seat kept its place
    again = tmp_path / "again.json"
    _play(["--load", str(path)], f"s {again}\nq\n")
    assert json.loads(again.read_text())["moves"] == moves and json.loads(again.read_text())["seats"] == [
        "human",
        "random",
    ]


def test_undo_then_save_keeps_the_undone_position(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _play(["--x", "human", "--o", "human"], f"b2\na1\nb1\nu\nc3\ns {path}\nq\n")
    # O took back a1 (and the reply b1) and played c3
    assert json.loads(path.read_text())["moves"] == "b2 c3"


def test_show_replays_a_record_move_by_move(tmp_path: Path) -> None:
    path = tmp_path / "won.json"
    path.write_text(to_json(SavedPlay("mnk", {"width": 3, "height": 3, "k": 3}, "b2 a1 b1 a2 b3", ("human", "ai"))))
    result = runner.invoke(app, ["mnk", "show", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. X plays b2" in result.stdout and "5. X plays b3" in result.stdout
    assert result.stdout.strip().endswith("X wins (X has 3 in a row)")
    assert runner.invoke(app, ["mnk", "show", "b2 a1", "--final"]).stdout.strip().endswith("X to move")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a gridgames save file"),
        ({"version": 3}, "newer gridgames"),
        ({"seats": ["human", "genius"]}, "'genius' is not a player of mnk"),
        ({"seats": ["human", 3]}, "'seats' must list"),
        ({"think": -1}, "'think' must be a number of seconds above 0"),
        ({"moves": "b2 b2"}, "not a legal game"),
        ({"options": {"width": "3"}}, "must be a int"),
        ({"options": {"colour": 3}}, "has no option 'colour'"),
        ({"game": "nqueens"}, "holds a game of nqueens"),
    ],
)
def test_a_bad_save_file_is_one_error(change: dict[str, object], message: str) -> None:
    data = json.loads(to_json(SavedPlay("mnk", {"width": 3}, "b2 a1", ("human", "ai"), 1.0, 2)))
    data.update(change)
    from gridgames_mnk import SPEC

    with pytest.raises(SaveFileError, match=message):
        restore(SPEC, from_json(json.dumps(data)))


def test_version_1_autosaves_still_load() -> None:
    from gridgames_mnk import SPEC

    saved = from_json(
        json.dumps({"format": "gridgames-moves", "version": 1, "game": "mnk", "options": {}, "moves": "b2"})
    )
    game, state = restore(SPEC, saved)
    assert saved.seats == () and state.notation() == "b2"


@pytest.mark.parametrize(
    ("game", "seats", "opening", "reply"),
    [
        ("mnk", ["--x", "human", "--o", "mcts"], "b2", "O (mcts) plays"),
        ("cram", ["--first", "human", "--second", "mcts"], "b2h", "Second (mcts) plays"),
    ],
)
def test_a_plugin_game_scripted_through_stdin_hints_undoes_saves_loads_and_replays(
    tmp_path: Path, game: str, seats: list[str], opening: str, reply: str
) -> None:
    path = tmp_path / f"{game}.json"
    script = f"h\n{opening}\nu\n{opening}\ns {path}\nq\n"
    played = runner.invoke(app, ["play", game, *seats, "--think", "0.05", "--seed", "3"], input=script)
    assert played.exit_code == 0, played.output
    assert "hint: " in played.stdout
    # the reply to the first opening, taken back with it, and to the second
    assert played.stdout.count(reply) == 2
    saved = json.loads(path.read_text())
    assert saved["seats"] == ["human", "mcts"] and saved["think"] == 0.05 and saved["seed"] == 3
    assert saved["moves"].split()[0] == opening and len(saved["moves"].split()) == 2
    resumed = runner.invoke(app, ["play", game, "--load", str(path)], input="q\n")
    # the human is to move, as when saved
    assert resumed.exit_code == 0 and reply not in resumed.stdout
    replayed = runner.invoke(app, [game, "show", str(path)])
    assert replayed.exit_code == 0 and "\n1. " in replayed.stdout and "\n2. " in replayed.stdout
    # the board after move 2
    final = replayed.stdout.split("\n2. ")[1].split("\n", 1)[1].split("moves:")[0].strip()
    assert resumed.stdout.startswith(final)  # --load resumes at the position the record ends with


def test_cram_seats_are_first_and_second_and_its_help_does_not_repeat_its_name() -> None:
    help_text = " ".join(runner.invoke(app, ["play", "cram", "--help"]).output.split())
    assert "--first" in help_text and "--second" in help_text and "who plays First (first to move)" in help_text
    assert "cram: Cram" not in help_text and "Play cram: put dominoes" in help_text


def test_generic_play_seats_the_games_own_computer_levels_and_saves_them(tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    result = runner.invoke(app, ["play", "c4generic", "--second", "easy", "--seed", "2"], input=f"4\ns {path}\nh\nq\n")
    assert result.exit_code == 0, result.output
    assert "(easy) plays" in result.stdout
    hint = next(line for line in result.stdout.splitlines() if "hint: " in line)
    # the game's strongest level (hard without the solver)
    assert hint.split("(")[1].startswith(("perfect", "hard"))
    assert json.loads(path.read_text())["seats"] == ["human", "easy"]
    assert "easy" in runner.invoke(app, ["play", "c4generic", "--help"]).stdout


# --- Connect Four's save files record the seats too ----------------------------------------------
def test_connect4_load_resumes_against_the_saved_opponent(tmp_path: Path) -> None:
    path = tmp_path / "c4.json"
    result = runner.invoke(
        app, ["connect4", "play", "--yellow", "easy", "--think", "0.1", "--seed", "4"], input=f"4\ns {path}\nq\n"
    )
    assert result.exit_code == 0, result.output
    saved = json.loads(path.read_text())
    assert saved["format"] == "gridgames-moves" and saved["seats"] == ["human", "easy"] and saved["seed"] == 4
    resumed = runner.invoke(app, ["connect4", "play", "--load", str(path)], input="q\n")
    assert "Yellow: easy" in resumed.stdout  # not the default medium


def test_connect4_version_1_files_still_load(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(
        json.dumps(
            {
                "format": "gridgames-connect4",
                "version": 1,
                "width": 7,
                "height": 6,
                "connect": 4,
                "first": "red",
                "moves": "44",
            }
        )
    )
    resumed = runner.invoke(app, ["connect4", "play", "--load", str(path)], input="q\n")
    assert resumed.exit_code == 0 and "Yellow: medium" in resumed.stdout


@pytest.mark.slow
def test_brute_force_helper_knows_the_2x3_board() -> None:
    assert _brute_force_classes(Grid.empty(2, 3)) == (3, 2)
    assert list(itertools.islice(Dominoes(Grid.empty(2, 3)).solutions(unique=True), 5)).__len__() == 2
