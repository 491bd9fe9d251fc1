"""The ``connect4`` commands: ``play`` (the terminal game), ``show`` and ``analyze``.

Input is read line by line from standard input, so a game can be scripted
(``printf '4\\n4\\n5\\n' | gridgames play connect4 --red human --yellow human``);
output goes through a rich Console made at call time (no colour codes unless
standard output is a terminal).
"""

from __future__ import annotations

import functools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import attrs
import typer

from gridgames_connect4 import cli_book, cli_explain, cli_review, players, render
from gridgames_connect4.notation import line_words
from gridgames_connect4.rules import PLAYER_NAMES, Connect4, Connect4State
from gridgames_connect4.save import SavedGame, load_game, save_game, to_json
from gridgames.cli_support import EXIT_INTERRUPTED, check_parallel_options, command_app, whole_number
from gridgames.errors import GridGamesError, OptionError, SolverError
from gridgames.files import autosave_dir, latest_autosave, user_path, write_autosave
from gridgames.parsing import check_memory, check_seconds

if TYPE_CHECKING:
    from rich.console import Console  # rich is imported when something is printed: `analyze --json` starts faster

SEAT_KINDS = ("human", *players.KINDS)
_SOLVER_KINDS = ("hard", "perfect")  # the levels that run the exact solver
COMMANDS_HELP = "u undo, h hint, s FILE save, q quit"
END_HELP = "r reviews the game, s FILE saves it, q quits"


def console() -> Console:
    """A console on the current standard output (colour only on a terminal)."""
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False)


def error_console() -> Console:
    """A console on the current standard error (colour only on a terminal)."""
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False)


def _game(width: int | None, height: int | None, connect: int | None) -> Connect4:
    return Connect4(7 if width is None else width, 6 if height is None else height, 4 if connect is None else connect)


@attrs.define
class Seat:
    """Who plays one colour: a human at the terminal (player None) or a computer player."""

    kind: str
    player: Any = None

    @property
    def is_human(self) -> bool:
        """True for a human seat."""
        return self.player is None


@attrs.define
class TerminalGame:
    """One game in the terminal: the position, who sits where, and the console to talk through."""

    state: Connect4State
    seats: tuple[Seat, Seat]
    out: Console
    first: str = "red"
    think: float = players.DEFAULT_THINK
    rng: random.Random = attrs.field(factory=random.Random)
    interactive: bool = False
    seed: int | None = None
    book: Any = None
    """The opening book for hints and the review (None: none)."""
    _at_prompt: bool = attrs.field(default=False, init=False)

    @property
    def plain(self) -> bool:
        """True when the console shows no colour (discs drawn as X and O)."""
        return not render.shows_colour(self.out)

    def colour(self, player: int) -> str:
        """The colour name of a player index, capitalised."""
        return render.colour_names(self.first)[player].capitalize()

    def say(self, text: str) -> None:
        """Print one line of plain text (no markup)."""
        self.out.print(text, markup=False, soft_wrap=True)

    def run(self) -> int:
        """Play to the end (or until the user quits); returns the exit code."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.say(("\n" if self._at_prompt else "") + "Interrupted: " + self.keep())
            return EXIT_INTERRUPTED
        except Exception as error:
            self.say(f"Error: {type(error).__name__}: {' '.join(str(error).split())[:300]}; {self.keep()}")
            return 1

    def keep(self) -> str:
        """Autosave an unfinished game (nothing is lost on Ctrl-C or end of input); what happened, as one sentence."""
        moves = self.state.notation()
        if not moves:
            return "no move played, nothing to save."
        try:
            path = write_autosave("connect4", to_json(self.state, first=self.first, **self.recorded()))
        except (GridGamesError, OSError, ValueError) as error:
            return f"could not autosave ({error}); the moves so far: {moves}."
        return f"game saved to {path} (moves: {moves}); resume with: gridgames play connect4 --resume"

    def _loop(self) -> int:
        game = self.state.game
        names = [f"{self.colour(p)}: {self.seats[p].kind}" for p in (0, 1)]
        self.say(f"Connect Four {game.size}, {line_words(game.connect)} wins. {names[0]}, {names[1]}.")
        if any(seat.is_human for seat in self.seats):
            self.say(f"Type a column number (1-{game.width}) to drop a disc; {COMMANDS_HELP}.")
        while True:
            self.out.print(render.board(self.state, first=self.first, plain=self.plain), end="")
            if self.state.is_over:
                self.say(render.result(self.state, first=self.first))
                return self._after_the_end()
            seat = self.seats[self.state.current_player]
            if seat.is_human:
                code = self._human_turn()
                if code is not None:
                    return code
            else:
                self._computer_turn(seat)

    def _computer_turn(self, seat: Seat) -> None:
        mover = self.colour(self.state.current_player)
        column = seat.player.choose(self.state)
        self.state.play(column)
        self.say(f"{mover} ({seat.kind}) plays {self.state.game.format_move(column)}.")
        if seat.player.note:
            self.say(f"  {seat.player.note}")

    def _read(self, prompt: str) -> str | None:
        """One line from standard input (None at its end), echoed when input is not a terminal."""
        self.out.print(prompt, end="", markup=False)
        self.out.file.flush()
        self._at_prompt = True
        line = sys.stdin.readline()
        self._at_prompt = False
        if not line:
            self.say("")
            return None
        if not self.interactive:
            self.say(line.rstrip("\r\n"))
        return line.strip()

    def _human_turn(self) -> int | None:
        """Read commands until a move is played or the board changes; an exit code when the game ends here."""
        game = self.state.game
        prompt = f"{render.to_move(self.state, first=self.first, plain=self.plain)} [1-{game.width}, u, h, s FILE, q]: "
        while True:
            line = self._read(prompt)
            if line is None:
                self.say("End of input: " + self.keep())
                return 0
            word, _, rest = line.partition(" ")
            word = word.lower()
            if not line:
                self.say(f"Type a column number (1-{game.width}), or {COMMANDS_HELP}.")
            elif line.isdigit():
                try:
                    self.state.play(game.parse_move(line))
                    return None
                except GridGamesError as error:
                    self.say(f"{_capital(str(error))}. Try again.")
            elif word in ("u", "undo"):
                if self._undo():
                    return None
            elif word in ("h", "hint"):
                self.say(self.hint())
            elif word in ("s", "save"):
                self._save(rest.strip())
            elif word in ("q", "quit", "exit"):
                return self._quit()
            else:
                self.say(f"{line!r} is not a column or a command: type a column (1-{game.width}), or {COMMANDS_HELP}.")

    def _after_the_end(self) -> int:
        """After the last move, when someone may type: r shows the review, s FILE saves, q or the end of input leaves.

        Nothing is printed when input is not a terminal and has nothing more to say (scripted games end as before).
        """
        if not (self.interactive or any(seat.is_human for seat in self.seats)):
            return 0
        prompt = f"Game over: {END_HELP} [r, s FILE, q]: " if self.interactive else ""
        while True:
            self.out.print(prompt, end="", markup=False)
            self.out.file.flush()
            line = sys.stdin.readline()
            if not line:
                if prompt:
                    self.say("")
                return 0
            if not self.interactive:
                self.say(line.rstrip("\r\n"))
            word, _, rest = line.strip().partition(" ")
            word = word.lower()
            if word in ("", "q", "quit", "exit"):
                return 0
            if word in ("r", "review"):
                self._review()
            elif word in ("s", "save"):
                self._save(rest.strip())
            else:
                self.say(f"{line.strip()!r} is not a command here: {END_HELP}.")

    def _review(self) -> None:
        """Print the review of the game just played, as ``gridgames connect4 review MOVES`` does (Ctrl-C stops it)."""
        from gridgames_connect4.cli_review import review_lines

        if self.interactive:
            self.say("Reviewing the game (Ctrl-C stops the review)...")
        try:
            lines = review_lines(self.state.game, self.state.history, self.book, first=self.first)
        except KeyboardInterrupt:
            self.say("Review interrupted.")
            return
        for line in lines:
            self.say(line)

    def _undo(self) -> bool:
        """Take back the last human move and every computer reply after it; False when there is none."""
        history = self.state.history
        human_moves = [i for i in range(len(history)) if self.seats[i % 2].is_human]
        if not human_moves:
            self.say("Nothing to undo.")
            return False
        count = len(history) - human_moves[-1]
        for _ in range(count):
            self.state.undo()
        self.say(f"Took back {count} move{'s' if count > 1 else ''}.")
        return True

    def hint(self) -> str:
        """A one-line hint: every column's score from the book or the solver (saying which), else a search's choice."""
        if players.solver_available():  # the first hint of an install compiles the solver: say so (issue 38)
            game = self.state.game
            prepare_solver(error_console, (game.height + 1) * game.width <= 64)
        advice = players.advise(self.state, self.rng, self.think, self.book)
        if advice.scores is None:
            return f"Hint: play {advice.column + 1} ({advice.reason})."
        legal = set(self.state.legal_moves())
        scores = "  ".join(f"{c + 1}: {'full' if c not in legal else '?' if s is None else f'{s:+d}'}"
                           for c, s in enumerate(advice.scores))
        mover = self.colour(self.state.current_player).lower()
        source = "Book" if advice.source == players.BOOK else "Solver"
        unsolved = "? not solved in time; " if any(advice.scores[c] is None for c in legal) else ""
        return (f"Hint: play {advice.column + 1}. {source} scores for {mover}: {scores} "
                f"({unsolved}+ wins, - loses, 0 draws; the further from 0, the sooner).")

    def recorded(self) -> dict[str, Any]:
        """What a save file keeps beside the moves: who plays each colour, the think time and the seed."""
        colours = render.colour_names(self.first)
        return {"seats": {colours[p]: self.seats[p].kind for p in (0, 1)}, "think": self.think, "seed": self.seed}

    def _save(self, name: str) -> None:
        if not name:
            self.say("Type 's' and a file name, e.g. 's game.json'.")
            return
        try:
            path = save_game(self.state, user_path(name, what="save file"), first=self.first, **self.recorded())
        except GridGamesError as error:
            self.say(f"Not saved: {error}.")
            return
        self.say(f"Saved to {path}; resume with: gridgames play connect4 --load {path}")

    def _quit(self) -> int:
        if self.interactive and self.state.history:
            line = self._read("Save the game first? File name (empty: don't save): ")
            if line:
                self._save(line)
        elif self.state.history:
            self.say("Quit without saving (type 's FILE' before 'q' to keep a game).")
            return 0
        self.say("Quit.")
        return 0


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _check_kind(option: str, kind: str) -> str:
    kind = kind.lower()
    if kind not in SEAT_KINDS:
        raise OptionError(f"{option} must be one of {', '.join(SEAT_KINDS)}, not {kind!r}")
    return kind


def _state_to_play(load: Optional[Path], width: int | None, height: int | None, connect: int | None,
                   first: str | None) -> tuple[Connect4State, str, SavedGame | None]:
    if load is None:
        return _game(width, height, connect).new_state(), first or "red", None
    saved = load_game(load)
    game = saved.state.game
    for name, given, kept in (("width", width, game.width), ("height", height, game.height), ("connect", connect, game.connect)):
        if given is not None and given != kept:
            raise OptionError(f"--{name} {given} differs from the saved game's {kept}; --load takes the board from the file")
    if first is not None and first != saved.first:
        raise OptionError(f"--first {first} differs from the saved game, where {saved.first} moved first")
    return saved.state, saved.first, saved


def prepare_solver(err: Callable[[], Console], ahead: bool) -> None:
    """At the first use of the solver: say so on the console ``err()`` gives, and where kernels built ahead of time
    serve (``ahead``: a board of at most 64 bits) build them now, so that this and later runs search without numba
    (else numba's JIT compiles them at the first search)."""
    from gridgames_connect4.solver import prepare_kernels

    prepare_kernels(lambda text: err().print(text, markup=False, highlight=False), ahead)


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
            text = (f"Solving: {explored / 1e6:,.1f} M positions, {explored / max(elapsed, 1e-9) / 1e6:.1f} M/s, "
                    f"score window {window}, {elapsed:.0f} s")
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
        red: Optional[str] = typer.Option(None, "--red", help=f"Who plays red: {', '.join(SEAT_KINDS)} [default: human, or the saved game's]."),
        yellow: Optional[str] = typer.Option(None, "--yellow", help=f"Who plays yellow: {', '.join(SEAT_KINDS)} [default: medium, or the saved game's]."),
        first: Optional[str] = typer.Option(None, "--first", help="Which colour moves first: red (default) or yellow."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed for reproducible computer play [default: the saved game's, if any]."),
        think: Optional[float] = typer.Option(None, "--think", help=f"Seconds a computer may think per move [default: {players.DEFAULT_THINK}, or the saved game's]."),
        width: Optional[int] = typer.Option(None, "--width", parser=whole_number, help="Columns, 4 to 10 (default 7)."),
        height: Optional[int] = typer.Option(None, "--height", parser=whole_number, help="Rows, 4 to 10 (default 6)."),
        connect: Optional[int] = typer.Option(None, "--connect", parser=whole_number, help="Line length that wins, 3 to 6 (default 4)."),
        load: Optional[Path] = typer.Option(None, "--load", help="Resume a game saved with 's FILE'."),
        resume: bool = typer.Option(False, "--resume", help="Resume the last interrupted game (saved automatically on Ctrl-C or end of input)."),
        book: Optional[Path] = typer.Option(None, "--book", help=cli_review.BOOK_HELP + " For hard, perfect, hints and the review."),
        no_book: bool = typer.Option(False, "--no-book", help=cli_review.NO_BOOK_HELP),
    ) -> None:
        """Play Connect Four in the terminal: you (red) against the computer (medium) unless told otherwise."""
        if resume:
            if load is not None:
                raise OptionError("--resume loads the last interrupted game and --load a file; choose one")
            load = latest_autosave("connect4")
            if load is None:
                raise OptionError(f"no interrupted Connect Four game to resume (autosaves are kept in {autosave_dir()})")
        if first is not None and first.lower() not in PLAYER_NAMES:
            raise OptionError(f"--first must be red or yellow, not {first!r}")
        if think is not None:
            check_seconds(think)
        state, first_colour, saved = _state_to_play(load, width, height, connect, first.lower() if first else None)
        kept = saved.seats if saved is not None else {}
        kinds = {
            "red": _check_kind("--red", red if red is not None else kept.get("red", "human")),
            "yellow": _check_kind("--yellow", yellow if yellow is not None else kept.get("yellow", "medium")),
        }
        if saved is not None:
            think = think if think is not None else saved.think
            seed = seed if seed is not None else saved.seed
        think = players.DEFAULT_THINK if think is None else think
        game = state.game
        chosen = cli_review.choose_book(game.width, game.height, game.connect, book, no_book)
        if not state.is_over and any(kind in _SOLVER_KINDS for kind in kinds.values()):  # now, not mid-game
            prepare_solver(error_console, (game.height + 1) * game.width <= 64)
        seats = []
        for player, colour in enumerate(render.colour_names(first_colour)):
            kind = kinds[colour]
            rng = random.Random(None if seed is None else seed * 2 + player)
            seats.append(Seat(kind, None if kind == "human" else players.make_player(kind, state.game, rng, think, chosen)))
        match = TerminalGame(
            state, (seats[0], seats[1]), console(), first_colour, think,
            random.Random(seed), interactive=sys.stdin.isatty(), seed=seed, book=chosen,
        )
        code = match.run()
        if code:
            raise typer.Exit(code)

    @app.command("show")
    def show(
        moves: str = typer.Argument("", help="Moves from the start: '4453' or '4,4,5,3' (1-based columns)."),
        width: int = typer.Option(7, "--width", help="Columns, 4 to 10."),
        height: int = typer.Option(6, "--height", help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", help="Line length that wins, 3 to 6."),
        picture: bool = typer.Option(False, "--picture", help="Print the plain picture (X red, O yellow) instead."),
        url: bool = typer.Option(False, "--url", help="Print the web page's URL for the position instead."),
        base: str = typer.Option("http://127.0.0.1:8000", "--base", help="With --url: where gridgames serve runs."),
    ) -> None:
        """Print the position after a move string."""
        state = Connect4(width, height, connect).from_notation(moves)
        if url:
            from gridgames_connect4.share import position_url

            typer.echo(position_url(state.game, state.history, base))
            return
        out = console()
        if picture:
            out.print(state.to_text(), markup=False)
            return
        plain = not render.shows_colour(out)
        out.print(render.board(state, plain=plain), end="")
        played = f"Moves: {state.notation() or '(none)'} ({len(state.history)} played). "
        status = render.result(state) if state.is_over else render.to_move(state, plain=plain) + "."
        out.print(played + status, markup=False, soft_wrap=True)

    @app.command("analyze")
    def analyze(
        moves: str = typer.Argument("", help="Moves from the start: '4453' or '4,4,5,3' (1-based columns)."),
        width: int = typer.Option(7, "--width", help="Columns, 4 to 10 ((height + 1) x width at most 128)."),
        height: int = typer.Option(6, "--height", help="Rows, 4 to 10."),
        connect: int = typer.Option(4, "--connect", help="Line length that wins, 3 to 6."),
        weak: bool = typer.Option(False, "--weak", help="Only win (+1), draw (0) or loss (-1): faster."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        jobs: Optional[str] = typer.Option(None, "--jobs", "-j", help="Solve the columns in N local processes (0 or auto: one per core)."),
        scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Solve the columns on a Dask cluster: tcp://HOST:8786 (pip install \"gridgames[dask]\")."),
        think: Optional[float] = typer.Option(None, "--think", help="Stop after this many seconds; unsolved columns are marked ? and the answer is not exact."),
        table_mb: Optional[float] = typer.Option(None, "--table-mb", help="Transposition table size in MiB (default 56; per process with --jobs)."),
        book: Optional[Path] = typer.Option(None, "--book", help=cli_review.BOOK_HELP),
        no_book: bool = typer.Option(False, "--no-book", help=cli_review.NO_BOOK_HELP),
    ) -> None:
        """Solve a position: its score and every column's, from the side to move's view, and the best moves."""
        from gridgames_connect4.analysis import analyze_position

        check_parallel_options(jobs, scheduler)
        if think is not None:
            check_seconds(think)
        if table_mb is not None and not 0.0625 <= table_mb <= 16384:
            raise OptionError(f"--table-mb must be between 0.0625 and 16384, not {table_mb!r}")
        if table_mb is not None:  # a table that cannot fit is refused before the solver allocates it
            check_memory(int(table_mb * 2**20), what=f"--table-mb {table_mb:g}")
        state = Connect4(width, height, connect).from_notation(moves)
        chosen = cli_review.choose_book(width, height, connect, book, no_book)
        with _AnalysisProgress(state.game.width) as progress:
            if not state.is_over and (chosen is None or len(state.history) >= chosen.depth):
                progress.notice_compiling((height + 1) * width <= 64)
            report = analyze_position(state, weak=weak, jobs=jobs, scheduler=scheduler, think=think,
                                      table_mb=table_mb, on_progress=progress.update, keep_partial=True,
                                      book=chosen)
        if as_json:
            typer.echo(json.dumps(report.as_dict()))
        else:
            out = console()
            for line in report.lines():
                out.print(line, markup=False, soft_wrap=True)
        if report.stopped == "interrupted":
            raise typer.Exit(EXIT_INTERRUPTED)

    @app.command("compile")
    def compile_() -> None:
        """Build the solver's kernels ahead of time (needs a C compiler): later runs start without numba."""
        from gridgames_connect4 import solver

        start = time.perf_counter()
        try:
            path = solver.compile_kernels()
        except OSError as exc:
            raise SolverError(f"cannot build the solver's kernels ahead of time: {exc}") from None
        typer.echo(f"Built the solver's kernels in {time.perf_counter() - start:.1f} s: {path}")

    app.add_typer(cli_book.make_book_app(), name="book"); cli_review.register(app)  # noqa: E702  (one line: book, review)
    cli_explain.register(app)
    return app
