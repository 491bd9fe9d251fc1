"""The Connect Four terminal game and commands, scripted through standard input with typer's CliRunner."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from gridgames_connect4 import Connect4
from gridgames_test_support.connect4_play import load_game, save_game, two_humans
from typer.testing import CliRunner

from gridgames.cli import app

runner = CliRunner()
HUMANS = ["play", "connect4", "--red", "human", "--yellow", "human"]
RED_WINS = "4\n4\n5\n5\n6\n6\n7\n"


def play(args: list[str], text: str) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=text)
    return result.exit_code, result.stdout, result.stderr


def test_human_against_human_to_a_win() -> None:
    code, out, _ = play(HUMANS, RED_WINS)
    assert code == 0
    assert out.rstrip().splitlines()[-1] == "Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)."
    assert "| . . . X X X X |" in out  # the final board, without colour codes
    assert "\x1b[" not in out


TRANSCRIPT_GAMES = [
    ([*HUMANS], "4\n\n9\nx\n4 5\nu\nu\nh\ns\nS\n4\n4\n5\n5\n6\n6\n7\nx\ns\nq\n"),
    (["play", "connect4", "--yellow", "random", "--seed", "5"], "4\n3\nu\nU\n5\nq\n"),
    ([*HUMANS, "--first", "yellow", "--width", "5", "--height", "4", "--connect", "3"], "1\n2\n"),
]
"""Scripted games whose whole transcripts 0.1's own terminal game printed (data/transcripts-0.1.txt)."""


def transcript(args: list[str], text: str) -> str:
    """The exit code and standard output of a scripted game, the autosave's folder and name made neutral."""
    import re

    from gridgames.files import autosave_dir

    result = runner.invoke(app, args, input=text)
    out = result.stdout.replace(str(autosave_dir()), "AUTOSAVES")
    return f"### {result.exit_code} {' '.join(args)}\n" + re.sub(r"connect4-[^ )]*\.json", "NAME.json", out)


def test_scripted_games_print_what_the_old_terminal_game_printed() -> None:
    # undo, hint, save without a name, bad input, the end-of-game commands, a seeded computer, yellow first, autosave
    expected = (Path(__file__).parent / "data" / "transcripts-0.1.txt").read_text()
    assert "".join(transcript(args, text) for args, text in TRANSCRIPT_GAMES) == expected


def test_the_board_has_column_numbers_and_marks_the_last_move() -> None:
    _, out, _ = play(HUMANS, "4\n6\nq\n")
    assert "  1 2 3 4 5 6 7\n" in out
    assert "| . . . X . O . |\n+---------------+\n  1 2 3 4 5 6 7\n            ^\n" in out


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("9", "There is no column 9: the columns are 1 to 7. Try again."),
        ("0", "There is no column 0"),
        ("x", "'x' is not a column or a command"),
        ("", "Type a column number (1-7), or u undo, h hint, s FILE save, q quit."),
        ("   ", "Type a column number (1-7)"),
        ("4 5", "'4 5' is not a column or a command"),
    ],
)
def test_bad_input_is_explained_and_the_turn_is_kept(bad: str, message: str) -> None:
    code, out, _ = play(HUMANS, f"4\n{bad}\n4\n5\n5\n6\n6\n7\n")
    assert code == 0
    assert message in out
    assert out.rstrip().endswith("Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).")


def test_a_full_column_is_refused_and_the_turn_is_kept() -> None:
    moves = "1\n1\n1\n1\n1\n1\n1\n" + "2\n3\n2\n3\n2\n3\n2\n"
    code, out, _ = play(HUMANS, moves)
    assert "Column 1 is full. Try again." in out
    assert out.rstrip().endswith("Red wins: four in a row in column 2 (b1 b2 b3 b4).")
    assert code == 0


def test_end_of_input_quits_cleanly() -> None:
    code, out, _ = play(HUMANS, "4\n4\n")
    assert code == 0
    last = out.rstrip().splitlines()[-1]
    assert (
        last.startswith("End of input: game saved to ")
        and "(moves: 44); resume with: gridgames play connect4 --resume" in last
    )


def test_quit_without_a_terminal_says_how_to_save() -> None:
    code, out, _ = play(HUMANS, "4\nq\n5\n")
    assert code == 0
    assert "Quit without saving (type 's FILE' before 'q' to keep a game)." in out
    assert "5\n" not in out.split("q\n", 1)[1]  # nothing is read after q


def test_undo_between_humans_takes_back_one_move() -> None:
    code, out, _ = play(HUMANS, "4\n5\nu\n1\n4\n1\n4\n1\n4\n")
    assert "Took back 1 move." in out
    assert out.rstrip().endswith("Red wins: four in a row in column 4 (d1 d2 d3 d4).")


def test_undo_at_the_start_has_nothing_to_take_back() -> None:
    _, out, _ = play(HUMANS, "u\nq\n")
    assert "Nothing to undo." in out


def test_undo_against_the_computer_takes_back_its_reply_too(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    code, out, _ = play(["play", "connect4", "--yellow", "random", "--seed", "1"], f"4\n3\nu\ns {path}\nq\n")
    assert code == 0
    assert "Took back 2 moves." in out
    assert load_game(path).notation() == "4" + out.split("Yellow (random) plays ")[1][0]


def test_save_then_load_resumes_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = play(HUMANS, f"4\n4\n5\ns {path}\nq\n")
    assert code == 0 and f"Saved to {path}" in out
    assert load_game(path).notation() == "445"
    code, out, _ = play([*HUMANS, "--load", str(path)], "5\n6\n6\n7\n")
    assert code == 0
    assert out.rstrip().endswith("Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).")


def test_save_without_a_name_or_to_a_bad_place_keeps_playing(tmp_path: Path) -> None:
    code, out, _ = play(HUMANS, f"s\ns {tmp_path / 'no' / 'dir.json'}\n{RED_WINS}")
    assert "Type 's' and a file name" in out
    assert "Not saved: cannot write" in out
    assert code == 0 and "Red wins" in out


def test_a_corrupt_save_file_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "gridgames-connect4", "version": 1, "wid')
    code, out, err = play([*HUMANS, "--load", str(path)], "4\n")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "broken.json" in err and "not valid JSON" in err
    assert out == ""


def test_load_refuses_a_board_size_that_contradicts_the_file(tmp_path: Path) -> None:
    path = save_game(Connect4().from_notation("44"), tmp_path / "g.json")
    code, _, err = play([*HUMANS, "--load", str(path), "--width", "8"], "")
    assert code == 2 and "--width 8 differs from the saved game's 7" in err


def test_loading_a_finished_game_shows_the_result(tmp_path: Path) -> None:
    path = save_game(Connect4().from_notation("4455667"), tmp_path / "won.json")
    code, out, _ = play([*HUMANS, "--load", str(path)], "")
    assert code == 0 and out.rstrip().endswith("Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).")


def test_hint_gives_a_column() -> None:
    code, out, _ = play(
        ["play", "connect4", "--red", "human", "--yellow", "human", "--think", "0.2"], "4\n3\n5\n3\n6\nh\nq\n"
    )
    assert code == 0
    hint = next(line for line in out.splitlines() if line.startswith("Hint: "))
    assert hint.startswith("Hint: play 7")  # yellow must block red's d1 e1 f1


@pytest.mark.parametrize(("red", "yellow"), [("random", "random"), ("easy", "random"), ("easy", "easy")])
def test_computer_against_computer_finishes(red: str, yellow: str) -> None:
    code, out, _ = play(["play", "connect4", "--red", red, "--yellow", yellow, "--seed", "3"], "")
    assert code == 0
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(("Red wins: ", "Yellow wins: ", "Draw:"))
    assert f"Red ({red}) plays" in out


def test_medium_against_easy_on_a_small_board_finishes() -> None:
    code, out, _ = play(
        [
            "play",
            "connect4",
            "--red",
            "medium",
            "--yellow",
            "easy",
            "--width",
            "5",
            "--height",
            "4",
            "--connect",
            "3",
            "--seed",
            "0",
        ],
        "",
    )
    assert code == 0 and out.rstrip().splitlines()[-1].startswith(("Red wins", "Yellow wins", "Draw"))


def test_seeded_computer_games_are_reproducible() -> None:
    args = ["play", "connect4", "--red", "easy", "--yellow", "random", "--seed", "11"]
    assert play(args, "")[1] == play(args, "")[1]


def test_the_default_is_you_as_red_against_medium() -> None:
    code, out, _ = play(["play", "connect4"], "4\nq\n")
    assert code == 0
    assert "Red: human, Yellow: medium." in out
    assert "Yellow (medium) plays " in out


def test_first_yellow_lets_yellow_start() -> None:
    code, out, _ = play(["play", "connect4", "--red", "human", "--yellow", "human", "--first", "yellow"], RED_WINS)
    assert "Yellow (O) to move" in out.split("Red (X) to move")[0]
    assert out.rstrip().endswith("Yellow wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).")
    assert "| . . . O O O O |" in out


def test_other_sizes_and_line_lengths() -> None:
    code, out, _ = play([*HUMANS, "--width", "10", "--height", "4", "--connect", "3"], "10\n1\n9\n1\n8\n")
    assert code == 0
    assert " 1 2 3 4 5 6 7 8 910" in out
    assert out.rstrip().endswith("Red wins: three in a row in columns 8 9 10 (h1 i1 j1).")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--red", "nobody"], "--red must be one of human, random, easy, medium, hard, perfect, not 'nobody'"),
        (["--first", "green"], "--first must be red or yellow"),
        (["--width", "11"], "--width must be a whole number from 4 to 10, not 11"),
        (["--connect", "2"], "--connect must be a whole number from 3 to 6"),
        (["--think", "0"], "--think must be a number of seconds above 0"),
        (["--load", "/no/such/file.json"], "cannot read save file '/no/such/file.json': no such file"),
    ],
)
def test_bad_options_are_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    code, out, err = play(["play", "connect4", *args], "")
    assert code == 2
    assert err == f"error: {message}\n" or (err.startswith("error: ") and message in err and err.count("\n") == 1)


def test_ctrl_c_quits_with_one_line_and_code_130(monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Interrupting())
    monkeypatch.setattr(sys, "stdout", out)
    game = two_humans(Connect4().new_state(), rng=random.Random(0))
    assert game.run() == 130
    assert out.getvalue().rstrip().splitlines()[-1] == "Interrupted: no move played, nothing to save."


# --- show and analyze --------------------------------------------------------------------------
def test_show_prints_the_position() -> None:
    result = runner.invoke(app, ["connect4", "show", "4453"])
    assert result.exit_code == 0
    assert "| . . O X X . . |" in result.stdout
    assert result.stdout.rstrip().endswith("Moves: 4453 (4 played). Red (X) to move.")


def test_show_prints_the_position_a_save_file_holds_in_its_colours(tmp_path: Path) -> None:
    # 0.1's format: yellow moved first
    old = Path(__file__).parent / "data" / "v2-yellow-first-wide.json"
    result = runner.invoke(app, ["connect4", "show", str(old)])
    assert result.exit_code == 0, result.output
    assert "| X . . . . . . . . O |" in result.stdout  # 10x5, yellow's discs O
    assert result.stdout.rstrip().endswith("Moves: 10,1,10 (3 played). Red (X) to move.")
    path = save_game(Connect4().from_notation("4455667"), tmp_path / "won.json")
    assert (
        runner.invoke(app, ["connect4", "show", str(path)])
        .stdout.rstrip()
        .endswith("Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).")
    )
    missing = runner.invoke(app, ["connect4", "show", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read save file" in missing.stderr and missing.stderr.count("\n") == 1


def test_show_accepts_the_comma_form_and_other_sizes() -> None:
    result = runner.invoke(app, ["connect4", "show", "10,1,10", "--width", "10"])
    assert result.exit_code == 0
    assert "| O . . . . . . . . X |" in result.stdout
    assert "Moves: 10,1,10 (3 played). Yellow (O) to move." in result.stdout


def test_show_picture_prints_the_plain_picture() -> None:
    result = runner.invoke(app, ["connect4", "show", "4455667", "--picture"])
    assert result.stdout == ".......\n.......\n.......\n.......\n...OOO.\n...XXXX\n"


def test_show_of_a_finished_game_says_who_won() -> None:
    result = runner.invoke(app, ["connect4", "show", "4455667"])
    assert "Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)." in result.stdout


@pytest.mark.parametrize(
    ("moves", "message"),
    [("44x", "move 3 ('x')"), ("4444444", "column 4 is full"), ("44556675", "move 8 ('5'): the game is over")],
)
def test_show_refuses_bad_moves_with_one_line(moves: str, message: str) -> None:
    result = runner.invoke(app, ["connect4", "show", moves])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr and result.stderr.count("\n") == 1


def test_analyze_prints_scores_as_json() -> None:
    solver = pytest.importorskip("gridgames_connect4.solve.solver")
    moves = "4444332233355526666"
    result = runner.invoke(app, ["connect4", "analyze", moves, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    expected = solver.Solver().analyze([int(ch) - 1 for ch in moves])
    assert report["moves"] == moves
    assert report["columns"] == expected
    assert report["score"] == max(s for s in expected if s is not None)
    assert report["best"] == [c + 1 for c, s in enumerate(expected) if s == report["score"]]


def test_analyze_explains_the_score_in_words() -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    result = runner.invoke(app, ["connect4", "analyze", "435363"])  # red wins at once in column 7
    assert result.exit_code == 0, result.output
    assert "red wins with its 1st move from now" in result.stdout
    assert "Best: 7" in result.stdout


@pytest.mark.parametrize(("moves", "message"), [("4x", "move 2 ('x')"), ("4455667", "the game is over")])
def test_analyze_refuses_bad_or_finished_positions(moves: str, message: str) -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    result = runner.invoke(app, ["connect4", "analyze", moves])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_computer_move_short_of_time_is_noted() -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    code, out, _ = play(
        ["play", "connect4", "--yellow", "perfect", "--think", "0.01", "--seed", "1", "--no-book"], "4\nq\n"
    )  # without the shipped book, which answers this position at once
    assert code == 0
    assert "Yellow (perfect) plays " in out
    assert "  depth-limited search (depth " in out and "no exact result within 0.01 s" in out


def test_a_hint_marks_columns_not_solved_in_time_and_says_where_its_scores_came_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gridgames_connect4 import levels

    state = Connect4().from_notation("1111114")  # column 1 full, red to move
    match = two_humans(state)
    unsolved = levels.Advice(3, (None, 2, None, 5, -1, 0, 1), source=levels.SOLVER)
    monkeypatch.setattr(levels, "advise", lambda *args: unsolved)
    assert match.hint() == (
        "Hint: play 4. Solver scores for yellow: 1: full  2: +2  3: ?  4: +5  5: -1  6: +0  7: +1 "
        "(? not solved in time; + wins, - loses, 0 draws; the further from 0, the sooner)."
    )
    monkeypatch.setattr(levels, "advise", lambda *args: levels.Advice(3, (None, 2, 1, 5, -1, 0, 1), source=levels.BOOK))
    second = match.hint()  # the legend came with the first hint: not again
    scores = "1: full  2: +2  3: +1  4: +5  5: -1  6: +0  7: +1"
    assert second.startswith(f"Hint: play 4. Book scores for yellow: {scores}.\n")
    assert "the further from 0" not in second


def test_the_info_text_documents_every_option_of_play_analyze_and_review_and_the_end_of_game_commands() -> None:
    import typer.main
    from gridgames_connect4.surfaces.cli import END_HELP, make_app

    info = runner.invoke(app, ["info", "connect4"])
    assert info.exit_code == 0
    group = typer.main.get_command(make_app())
    missing = []
    for name in ("play", "analyze", "review"):
        for param in group.commands[name].params:
            missing += [f"{name} {opt}" for opt in param.opts if opt.startswith("--") and opt not in info.stdout]
    assert missing == []
    assert "r reviews it" in info.stdout and END_HELP.startswith("r reviews")


def test_r_after_a_game_where_yellow_moved_first_reviews_it_in_its_colours() -> None:
    pytest.importorskip("gridgames_connect4.solve.solver")
    code, out, _ = play(
        [*HUMANS, "--first", "yellow", "--width", "5", "--height", "4", "--no-book"], "1\n1\n2\n2\n3\n3\n4\nr\nq\n"
    )
    assert code == 0 and "Yellow wins: four in a row" in out
    assert "   1  yellow       1" in out and "   2  red          1" in out
    assert "Review of 1122334 (5x4, four in a row): yellow wins." in out and "Yellow: " in out


def test_analyze_json_from_the_book_imports_neither_rich_nor_the_parallel_machinery() -> None:
    # start-up is a third of a fresh `analyze --json` answer; rich and multiprocessing are only needed to draw or fork
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom gridgames.cli import app\n"
        "r = CliRunner().invoke(app, ['connect4', 'analyze', '4444', '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'multiprocessing', 'concurrent'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def _show_in_a_colour_terminal(env_extra: dict[str, str]) -> str:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(env_extra)
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", "connect4", "show", "4453"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_no_color_draws_the_players_as_x_and_o() -> None:
    out = _show_in_a_colour_terminal({"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "| . . O X X . . |" in out  # red X, yellow O: told apart without colour
    assert "Red (X) to move" in out


def test_in_colour_the_players_differ_by_mark_as_well_as_by_hue() -> None:
    import re

    out = re.sub(r"\x1b\[[0-9;]*m", "", _show_in_a_colour_terminal({"FORCE_COLOR": "1", "TERM": "xterm-256color"}))
    assert "│ · · O X X · · │" in out


def _play_in_a_colour_terminal(env_extra: dict[str, str]) -> str:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(env_extra)
    args = [sys.executable, "-m", "gridgames", "play", "connect4", "--red", "human", "--yellow", "human"]
    result = subprocess.run(args, input="4\n5\nq\n", capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_game_in_play_draws_x_and_o_with_no_color_and_colours_them_otherwise() -> None:
    import re

    plain = _play_in_a_colour_terminal({"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "| . . . X O . . |" in plain
    assert "Red (X) to move [1-7, u, h, s FILE, q]: q" in plain
    coloured = _play_in_a_colour_terminal({"FORCE_COLOR": "1", "TERM": "xterm-256color"})
    assert "\x1b[" in coloured  # colour codes, and still the marks: red X, yellow O
    assert "│ · · · X O · · │" in re.sub(r"\x1b\[[0-9;]*m", "", coloured) and "Red to move [1-7" in coloured


def test_quit_at_a_terminal_offers_to_save_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "kept.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"q\n{path}\n"))
    monkeypatch.setattr(sys, "stdout", out)
    game = two_humans(Connect4().from_notation("445"), interactive=True)
    assert game.run() == 0
    lines = out.getvalue().splitlines()  # (a terminal echoes what is typed after each prompt)
    assert lines[-1] == "Quit."
    assert lines[-2].endswith(
        f"[1-7, u, h, s FILE, q]: Save the game first? File name (empty: don't save): "
        f"Saved to {path}; resume with: gridgames play connect4 --load {path}"
    )
    assert load_game(path).notation() == "445"
