"""The ``connect4`` commands: ``play`` (the terminal game), ``show`` and ``analyze``.

``play`` runs on the framework's terminal play (`gridgames.cli_play.TerminalPlay`: moves, undo,
hints, save files of `gridgames.saves`, autosave, the end) with Connect Four's look
(`Connect4Look`: coloured discs, column prompts, every column's score as a hint, the review
after the end); save files of 0.1's own format load too (`gridgames_connect4.old_saves`).
Input is read line by line from standard input, so a game can be scripted
(``printf '4\\n4\\n5\\n' | gridgames play connect4 --red human --yellow human``);
output goes through a rich Console made at call time (no colour codes unless
standard output is a terminal).
"""

from __future__ import annotations

import functools
import json
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import attrs
import typer

from gridgames_connect4 import SPEC, levels
from gridgames_connect4.surfaces import cli_book, cli_drill, cli_explain, cli_review, render
from gridgames_connect4.surfaces.terminal import console, error_console, prepare_solver
from gridgames_connect4.position.geometry import fits_one_word
from gridgames_connect4.position.notation import line_words
from gridgames_connect4.position.rules import PLAYER_NAMES, Connect4, Connect4State
from gridgames.cli_look import PlayLook, Played, PlayTexts
from gridgames.cli_play import TerminalPlay, choose_resume
from gridgames.cli_support import EXIT_INTERRUPTED, check_parallel_options, command_app, whole_number
from gridgames.errors import OptionError
from gridgames.game import Move, Player
from gridgames.parsing import check_memory, check_seconds
from gridgames.saves import SavedPlay, load_play, restore

if TYPE_CHECKING:
    # rich is imported when something is printed: `analyze --json` starts faster
    from rich.console import Console

    from gridgames_connect4.solve.book import Book

_SOLVER_KINDS = ("hard", "perfect")  # the levels that run the exact solver
COMMANDS_HELP = "u undo, h hint, s FILE save, q quit"
SEATS_HELP = ", ".join(("human", *levels.KINDS))
END_HELP = "r reviews the game, s FILE saves it, q quits"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


TEXTS = PlayTexts(
    nothing_to_undo="Nothing to undo.",
    took_back="Took back {count} move{s}.",
    save_needs_a_name="Type 's' and a file name, e.g. 's game.json'.",
    saved="Saved to {path}; resume with: gridgames play connect4 --load {path}",
    not_saved="Not saved: {error}.",
    nothing_to_keep="no move played, nothing to save.",
    kept="game saved to {path} (moves: {moves}); resume with: gridgames play connect4 --resume",
    not_kept="could not autosave ({error}); the moves so far: {moves}.",
    end_of_input="End of input: {kept}",
    interrupted="Interrupted: {kept}",
    quit="Quit.",
    quit_unsaved="Quit without saving (type 's FILE' before 'q' to keep a game).",
    save_first="Save the game first? File name (empty: don't save): ",
    end_help=END_HELP,
    not_a_command_at_the_end="{line!r} is not a command here: {help}.",
)
"""The terminal game's messages (`gridgames.cli_look.PlayTexts`): sentences, the commands spelled out."""


@attrs.define
class Connect4Look(PlayLook):
    """Connect Four at the terminal: coloured discs (X and O without colour), column prompts, scored hints, the review.

    ``out`` is the rich console everything is printed on; ``book`` the opening book hints and the review use (None:
    the solver alone); ``rng`` seeds the hints' fallback search. ``u`` takes back the last human move and every
    computer reply after it.
    """

    out: Console = attrs.field(factory=console)
    book: Book | None = None
    rng: random.Random = attrs.field(factory=random.Random)
    texts: PlayTexts = TEXTS
    undo_any_human: bool = True
    legend_shown: bool = attrs.field(default=False, init=False)
    """True once a hint has explained the scores' signs (the legend comes with the first hint only)."""

    @property
    def plain(self) -> bool:
        """True when the console shows no colour (discs drawn as X and O)."""
        return not render.shows_colour(self.out)

    def say(self, text: str, *, end: str = "\n") -> None:
        """Print one line of plain text (no markup) on the console."""
        self.out.print(text, markup=False, soft_wrap=True, end=end)
        self.out.file.flush()

    def player_name(self, play: Played, player: int) -> str:
        """The colour of a player, capitalised ('Red')."""
        return _game_of(play).colours[player].capitalize()

    def draw(self, play: Played) -> None:
        """The board with column numbers, the last move marked."""
        self.out.print(render.board(_state_of(play), first=_game_of(play).first, plain=self.plain), end="")

    def opening(self, play: Played) -> list[str]:
        """The board, the line length, who plays which colour; how to play when a human does."""
        game = _game_of(play)
        names = [f"{self.player_name(play, p)}: {play.kinds[p]}" for p in (0, 1)]
        lines = [f"Connect Four {game.size}, {line_words(game.connect)} wins. {names[0]}, {names[1]}."]
        if any(seat is None for seat in play.seats):
            lines.append(f"Type a column number (1-{game.width}) to drop a disc; {COMMANDS_HELP}.")
        return lines

    def prompt(self, play: Played) -> str:
        """'Red (X) to move [1-7, u, h, s FILE, q]: ' (the disc shown without colour)."""
        state = _state_of(play)
        mover = render.to_move(state, first=state.game.first, plain=self.plain)
        return f"{mover} [1-{state.game.width}, u, h, s FILE, q]: "

    def empty_line(self, play: Played) -> str:
        """How to play, when nothing was typed."""
        return f"Type a column number (1-{_game_of(play).width}), or {COMMANDS_HELP}."

    def refused(self, play: Played, line: str, error: Exception) -> str:
        """Why a number is not playable, or that the line is neither a column nor a command."""
        if line.isdigit():
            return f"{_capital(str(error))}. Try again."
        return f"{line!r} is not a column or a command: type a column (1-{_game_of(play).width}), or {COMMANDS_HELP}."

    def computer_moved(self, play: Played, player: int, seat: Player, move: Move, note: str) -> list[str]:
        """'Yellow (medium) plays 4.', then the player's note, indented."""
        lines = [f"{self.player_name(play, player)} ({play.kinds[player]}) plays {_game_of(play).format_move(move)}."]
        return [*lines, f"  {note}"] if note else lines

    def hint(self, play: Played) -> str:
        """Every column's score from the book or the solver (saying which), else a search's choice; with exact scores
        a second line saying why (`gridgames_connect4.teach.brief`)."""
        state = _state_of(play)
        game = state.game  # the first hint of an install may compile the solver: say so
        prepare_solver(error_console, fits_one_word(game.width, game.height))
        advice = levels.advise(state, self.rng, play.think, self.book)
        if advice.scores is None:
            return f"Hint: play {advice.column + 1} ({advice.reason})."
        legal = set(state.legal_moves())
        scores = "  ".join(
            f"{c + 1}: {'full' if c not in legal else '?' if s is None else f'{s:+d}'}"
            for c, s in enumerate(advice.scores)
        )
        mover = self.player_name(play, state.current_player).lower()
        source = "Book" if advice.source == levels.BOOK else "Solver"
        unsolved = "? not solved in time" if any(advice.scores[c] is None for c in legal) else ""
        legend = "" if self.legend_shown else "+ wins, - loses, 0 draws; the further from 0, the sooner"
        self.legend_shown = True
        notes = "; ".join(n for n in (unsolved, legend) if n)
        text = f"Hint: play {advice.column + 1}. {source} scores for {mover}: {scores}"
        text += f" ({notes})." if notes else "."
        if unsolved:
            return text
        from gridgames_connect4.teach.brief import brief

        return f"{text}\n  Why: {brief(state.game, state.history, advice.scores, state.game.colours)}"

    def ending(self, play: Played) -> list[str]:
        """'Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).' or 'Draw: the board is full.'"""
        state = _state_of(play)
        return [render.result(state, first=state.game.first)]

    def review(self, play: Played) -> list[str]:
        """The review of the game just played, as ``gridgames connect4 review MOVES`` prints it (Ctrl-C stops it)."""
        from gridgames_connect4.teach.drill import record_review
        from gridgames_connect4.surfaces.cli_review import review_text, run_review

        state = _state_of(play)
        if play.is_interactive:
            self.say("Reviewing the game (Ctrl-C stops the review)...")
        try:
            report, seconds = run_review(state.game, state.history, self.book, first=state.game.first)
        except KeyboardInterrupt:
            return ["Review interrupted."]
        humans = tuple(p for p, seat in enumerate(play.seats) if seat is None)
        kept = record_review(report, humans or (0, 1)) if report.reviews else None
        drill = ["Drill the positions before the mistakes: gridgames connect4 drill"] if kept is None else [kept]
        return [*review_text(report, seconds, self.book), *(drill if report.mistakes() else [])]


def _state_of(play: Played) -> Connect4State:
    return cast(Connect4State, play.state)


def _game_of(play: Played) -> Connect4:
    return _state_of(play).game


def _is_file(text: str) -> bool:
    """True when ``text`` names an existing file (False for what no file name can be: a NUL byte, too long)."""
    try:
        return bool(text) and Path(text).is_file()
    except (OSError, ValueError):
        return False


def _check_kind(option: str, kind: str, kinds: tuple[str, ...]) -> str:
    kind = kind.lower()
    if kind not in kinds:
        raise OptionError(f"{option} must be one of {', '.join(kinds)}, not {kind!r}")
    return kind


def _state_to_play(
    load: Path | None, width: int | None, height: int | None, connect: int | None, first: str | None
) -> tuple[Connect4State, SavedPlay | None]:
    """A new game, or the saved one (any format Connect Four ever wrote); the options typed must agree with it."""
    if load is None:
        game = Connect4(
            7 if width is None else width,
            6 if height is None else height,
            4 if connect is None else connect,
            first=first or "red",
        )
        return game.new_state(), None
    saved = load_play(load, SPEC)
    _, state = restore(SPEC, saved, source=str(load))
    game = cast(Connect4, state.game)
    for name, given, kept in (
        ("width", width, game.width),
        ("height", height, game.height),
        ("connect", connect, game.connect),
    ):
        if given is not None and given != kept:
            raise OptionError(
                f"--{name} {given} differs from the saved game's {kept}; --load takes the board from the file"
            )
    if first is not None and first != game.first:
        raise OptionError(f"--first {first} differs from the saved game, where {game.first} moved first")
    return cast(Connect4State, state), saved


class _AnalysisProgress:
    """Progress of ``analyze`` on standard error: a notice while the kernels compile, then (after 1 s) a status line."""

    DELAY = 1.0

    def __init__(self, width: int) -> None:
        self.width = width
        self.start = time.perf_counter()
        self.status: Any = None
        self.total = 0
        self.last = 0

    @functools.cached_property
    def err(self) -> Console:
        """The standard error console, made at its first use (a quick answer does not import rich)."""
        return error_console()

    def notice_compiling(self, ahead: bool) -> None:
        """Say so when this run compiles the solver's kernels (the first use only), see `prepare_solver`."""
        prepare_solver(lambda: self.err, ahead)

    def __enter__(self) -> _AnalysisProgress:
        return self

    def update(self, progress: Any) -> None:
        """Show a SearchProgress (or, in parallel runs, the number of columns solved)."""
        elapsed = time.perf_counter() - self.start
        if isinstance(progress, int):
            text = f"{progress}/{self.width} columns solved, {elapsed:.0f} s"
        else:
            if progress.explored < self.last:
                self.total += self.last
            self.last = progress.explored
            explored = self.total + progress.explored
            window = f"{progress.lo:+d}..{progress.hi:+d}"
            text = (
                f"Solving: {explored / 1e6:,.1f} M positions, {explored / max(elapsed, 1e-9) / 1e6:.1f} M/s, "
                f"score window {window}, {elapsed:.0f} s"
            )
        if elapsed < self.DELAY or not self.err.is_terminal:
            return
        if self.status is None:
            self.status = self.err.status(text)
            self.status.start()
        else:
            self.status.update(text)

    def __exit__(self, *exc: object) -> None:
        if self.status is not None:
            self.status.stop()


def make_app() -> typer.Typer:
    """The ``connect4`` sub-app: play, show, analyze."""
    app = command_app("Connect Four: play in the terminal, show or analyze positions.", no_args_is_help=True)

    @app.command("play")
    def play(
        red: str | None = typer.Option(
            None, "--red", help=f"Who plays red: {SEATS_HELP} [default: human, or the saved game's]."
        ),
        yellow: str | None = typer.Option(
            None, "--yellow", help=f"Who plays yellow: {SEATS_HELP} [default: medium, or the saved game's]."
        ),
        first: str | None = typer.Option(None, "--first", help="Which colour moves first: red (default) or yellow."),
        seed: int | None = typer.Option(
            None, "--seed", help="Seed for reproducible computer play [default: the saved game's, if any]."
        ),
        think: float | None = typer.Option(
            None,
            "--think",
            help=f"Seconds a computer may think per move [default: {levels.DEFAULT_THINK}, or the saved game's].",
        ),
        width: int | None = typer.Option(None, "--width", parser=whole_number, help="Columns, 4 to 10 (default 7)."),
        height: int | None = typer.Option(None, "--height", parser=whole_number, help="Rows, 4 to 10 (default 6)."),
        connect: int | None = typer.Option(
            None, "--connect", parser=whole_number, help="Line length that wins, 3 to 6 (default 4)."
        ),
        load: Path | None = typer.Option(None, "--load", help="Resume a game saved with 's FILE'."),
        resume: bool = typer.Option(
            False, "--resume", help="Resume the last interrupted game (saved automatically on Ctrl-C or end of input)."
        ),
        book: Path | None = typer.Option(
            None, "--book", help=cli_review.BOOK_HELP + " For hard, perfect, hints and the review."
        ),
        no_book: bool = typer.Option(False, "--no-book", help=cli_review.NO_BOOK_HELP),
    ) -> None:
        """Play Connect Four in the terminal: you (red) against the computer (medium) unless told otherwise."""
        if resume:
            if load is not None:
                raise OptionError("--resume loads the last interrupted game and --load a file; choose one")
            load = choose_resume(SPEC, typer.echo, "Connect Four")
        if first is not None and first.lower() not in PLAYER_NAMES:
            raise OptionError(f"--first must be red or yellow, not {first!r}")
        if think is not None:
            check_seconds(think)
        state, saved = _state_to_play(load, width, height, connect, first.lower() if first else None)
        game = state.game
        kinds = ("human", *game.computer_levels())
        kept = dict(zip(game.colours, saved.seats)) if saved is not None and saved.seats else {}
        chosen_kinds = {
            "red": _check_kind("--red", red if red is not None else kept.get("red", "human"), kinds),
            "yellow": _check_kind("--yellow", yellow if yellow is not None else kept.get("yellow", "medium"), kinds),
        }
        if saved is not None:
            think = think if think is not None else saved.think
            seed = seed if seed is not None else saved.seed
        think = levels.DEFAULT_THINK if think is None else think
        chosen = cli_review.choose_book(game.width, game.height, game.connect, book, no_book)
        # now, not mid-game
        if not state.is_over and any(kind in _SOLVER_KINDS for kind in chosen_kinds.values()):
            prepare_solver(error_console, fits_one_word(game.width, game.height))
        seats: list[Player | None] = []
        for player, colour in enumerate(game.colours):
            kind = chosen_kinds[colour]
            rng = random.Random(None if seed is None else seed * 2 + player)
            seats.append(None if kind == "human" else levels.make_player(kind, game, rng, think, chosen))
        options = {"width": game.width, "height": game.height, "connect": game.connect, "first": game.first}
        look = Connect4Look(console(), chosen, random.Random(seed))
        match = TerminalPlay(
            "connect4",
            options,
            state,
            seats,
            [chosen_kinds[c] for c in game.colours],
            think,
            seed,
            look=look,
            autosave=load if resume else None,
        )
        code = match.run()
        if code:
            raise typer.Exit(code)

    @app.command("show")
    def show(
        moves: str = typer.Argument(
            "", help="Moves from the start: '4453' or '4,4,5,3' (1-based columns), or a save file."
        ),
        width: int = typer.Option(7, "--width", parser=whole_number, help="Columns, 4 to 10."),
        height: int = typer.Option(6, "--height", parser=whole_number, help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", parser=whole_number, help="Line length that wins, 3 to 6."),
        picture: bool = typer.Option(False, "--picture", help="Print the plain picture (X red, O yellow) instead."),
        url: bool = typer.Option(False, "--url", help="Print the web page's URL for the position instead."),
        base: str = typer.Option("http://127.0.0.1:8000", "--base", help="With --url: where gridgames serve runs."),
    ) -> None:
        """Print the position after a move string, or the one a save file holds (s FILE, an autosave)."""
        if moves.endswith(".json") or _is_file(moves):  # the board and colours are the file's
            shown = restore(SPEC, load_play(moves, SPEC), source=moves)[1]
        else:
            shown = Connect4(width, height, connect).from_notation(moves)
        state = cast(Connect4State, shown)
        if url:
            from gridgames_connect4.surfaces.share import position_url

            typer.echo(position_url(state.game, state.history, base))
            return
        out = console()
        if picture:
            out.print(state.to_text(), markup=False)
            return
        plain, first = not render.shows_colour(out), state.game.first
        out.print(render.board(state, first=first, plain=plain), end="")
        played = f"Moves: {state.notation() or '(none)'} ({len(state.history)} played). "
        status = (
            render.result(state, first=first)
            if state.is_over
            else render.to_move(state, first=first, plain=plain) + "."
        )
        out.print(played + status, markup=False, soft_wrap=True)

    @app.command("analyze")
    def analyze(
        moves: str = typer.Argument("", help="Moves from the start: '4453' or '4,4,5,3' (1-based columns)."),
        width: int = typer.Option(
            7, "--width", parser=whole_number, help="Columns, 4 to 10 (a bit per cell and one per column: at most 128)."
        ),
        height: int = typer.Option(6, "--height", parser=whole_number, help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", parser=whole_number, help="Line length that wins, 3 to 6."),
        weak: bool = typer.Option(False, "--weak", help="Only win (+1), draw (0) or loss (-1): faster."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        jobs: str | None = typer.Option(
            None, "--jobs", "-j", help="Solve the columns in N local processes (0 or auto: one per core)."
        ),
        scheduler: str | None = typer.Option(
            None,
            "--scheduler",
            help='Solve the columns on a Dask cluster: tcp://HOST:8786 (pip install "gridgames[dask]").',
        ),
        think: float = typer.Option(
            cli_review.DEFAULT_REVIEW_SECONDS,
            "--think",
            help="Stop after this many seconds (as review does); unsolved columns are marked ? and the answer is not "
            "exact.",
        ),
        table_mb: float | None = typer.Option(
            None, "--table-mb", help="Transposition table size in MiB (default 56; per process with --jobs)."
        ),
        book: Path | None = typer.Option(None, "--book", help=cli_review.BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=cli_review.NO_BOOK_HELP),
    ) -> None:
        """Solve a position: its score and every column's, from the side to move's view, and the best moves."""
        from gridgames_connect4.solve.scorer import Limits
        from gridgames_connect4.teach.analysis import analyze_position

        check_parallel_options(jobs, scheduler)
        check_seconds(think)
        if table_mb is not None and not 0.0625 <= table_mb <= 16384:
            raise OptionError(f"--table-mb must be between 0.0625 and 16384, not {table_mb!r}")
        # a table that cannot fit is refused before the solver allocates it
        if table_mb is not None:
            check_memory(int(table_mb * 2**20), what=f"--table-mb {table_mb:g}")
        state = cast(Connect4State, Connect4(width, height, connect).from_notation(moves))
        chosen = cli_review.choose_book(width, height, connect, book, no_book)
        with _AnalysisProgress(state.game.width) as progress:
            if not state.is_over and (chosen is None or len(state.history) >= chosen.depth):
                progress.notice_compiling(fits_one_word(width, height))
            limits = Limits(
                think=think,
                weak=weak,
                book=chosen,
                jobs=jobs,
                scheduler=scheduler,
                table_mb=table_mb,
                on_progress=progress.update,
                keep_partial=True,
            )
            report = analyze_position(state, limits)
        if as_json:
            typer.echo(json.dumps(report.as_dict()))
        else:
            out = console()
            for line in report.lines():
                out.print(line, markup=False, soft_wrap=True)
        if report.stopped == "interrupted":
            raise typer.Exit(EXIT_INTERRUPTED)

    app.add_typer(cli_book.make_book_app(), name="book")
    cli_review.register(app)
    cli_explain.register(app)
    cli_drill.register(app)
    return app
