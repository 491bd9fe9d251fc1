"""The generic ``play`` and ``solve`` commands, for games that bring no commands of their own.

``gridgames play GAME`` seats a human or a computer player on each side (one option
per player, named after the game's own player names, e.g. ``--x KIND --o KIND`` for the
m,n,k-game, and also ``--first KIND --second KIND``; KIND is ``human``, ``ai``,
``negamax``, ``mcts`` or ``random``), draws the position after each move and
reads the human's moves from standard input (``u`` takes back the last own move and
the reply, ``q`` quits), so it also runs from a script.

``gridgames solve GAME`` draws a solution of a puzzle (``--limit N``: up to N),
counts them (``--count``; ``--unique``: one per symmetry class) with a progress bar
on standard error, and reports as one JSON object with ``--json``. Ctrl-C stops a
count and reports the partial count as partial.

Each game's own options (`GameSpec.options`) become options of these commands.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any, Optional

import typer

from gridgames.cli_support import whole_number
from gridgames.errors import GridGamesError, OptionError, PluginError
from gridgames.files import write_autosave
from gridgames.game import Game, GameKind, GameSpec, Player, Puzzle, Solution, State
from gridgames.progress import search_progress
from gridgames.search.players import AI_KINDS, make_ai

SEAT_KINDS = ("human", *AI_KINDS)
PLAY_OPTIONS = ("think", "seed", *("first", "second", "third", "fourth", "fifth", "sixth"))
SOLVE_OPTIONS = ("count", "limit", "unique", "json")
UNDO_WORDS = ("u", "undo")
QUIT_WORDS = ("q", "quit", "exit")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _game_parameters(spec: GameSpec, reserved: tuple[str, ...]) -> list[inspect.Parameter]:
    """One keyword parameter per game option (named ``game_option_<i>``, offered as ``--name``)."""
    taken = {_flag(name) for name in reserved}
    parameters = []
    for i, option in enumerate(spec.options):
        if _flag(option.name) in taken:
            raise PluginError(f"{spec.name}'s option {option.name!r} clashes with the generic command's {_flag(option.name)}")
        annotation: Any = option.type if option.default is not None else Optional[option.type]
        strict = {"parser": whole_number} if option.type is int else {}  # '4.0' is not a width
        default = typer.Option(option.default, _flag(option.name), help=option.help or None, **strict)
        parameters.append(inspect.Parameter(f"game_option_{i}", inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
    return parameters


def _game_options(spec: GameSpec, values: dict[str, Any]) -> dict[str, Any]:
    """The game's options by name, from the command's keyword arguments (unset ones left out)."""
    chosen = {option.name: values.pop(f"game_option_{i}") for i, option in enumerate(spec.options)}
    return {name: value for name, value in chosen.items() if value is not None}


def _command(name: str, help_text: str, parameters: list[inspect.Parameter], body: Callable[..., Any]) -> Any:
    """A click command (through typer) with the given parameters, calling ``body(**values)``."""

    def command(**values: Any) -> Any:
        return body(**values)

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__name__ = name
    command.__doc__ = help_text
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    app.command(name=name, help=help_text)(command)
    return typer.main.get_command(app)


def _keyword(name: str, default: Any, annotation: Any, *decls: str, help_text: str) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=typer.Option(default, *decls, help=help_text), annotation=annotation)


def generic_command(verb: str, spec: GameSpec) -> Any:
    """The generic ``play`` (turn-based games) or ``solve`` (puzzles) command for a game, as a click command."""
    if verb == "play":
        if spec.kind is not GameKind.TURN_BASED:
            raise GridGamesError(f"{spec.name} is a puzzle, not played in turns: try 'gridgames solve {spec.name}'")
        return _play_command(spec)
    if verb == "solve":
        if spec.kind is not GameKind.PUZZLE:
            raise GridGamesError(f"{spec.name} is a turn-based game with nothing to solve: try 'gridgames play {spec.name}'")
        return _solve_command(spec)
    raise GridGamesError(f"there is no generic {verb!r} command (only 'play' and 'solve')")


# ----------------------------------------------------------------------------------------------
# play
# ----------------------------------------------------------------------------------------------
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _slug(name: str) -> str:
    """A player's name as an option name: lower case, words joined by '-' ('' when it cannot be one)."""
    words = "".join(ch if ch.isalnum() else " " for ch in name.lower()).split()
    slug = "-".join(words)
    return slug if slug[:1].isalpha() else ""


def seat_flags(spec: GameSpec, names: tuple[str, ...]) -> list[list[str]]:
    """Each seat's option names: the player's own name (``--x``, ``--vertical``) and its place (``--first``)."""
    taken = {_flag(name) for name in ("think", "seed", "help")} | {_flag(o.name) for o in spec.options}
    slugs = [_slug(name) for name in names]
    flags = []
    for i, slug in enumerate(slugs):
        own = f"--{slug}" if slug and slugs.count(slug) == 1 and f"--{slug}" not in taken and slug not in ORDINALS else None
        ordinal = f"--{ORDINALS[i]}" if i < len(ORDINALS) else None
        flags.append([flag for flag in (own, ordinal) if flag])
    return flags


def _summary_help(verb: str, spec: GameSpec) -> str:
    """``Play cram: ...`` unless the summary already names the game (no "Play cram: Cram: ...")."""
    if spec.summary.lower().startswith(spec.name.lower()):
        return f"{verb} {spec.summary[0].lower()}{spec.summary[1:]}" if verb else spec.summary
    return f"{verb} {spec.name}: {spec.summary}"


def _play_command(spec: GameSpec) -> Any:
    kinds = "/".join(SEAT_KINDS)
    game = spec.make()
    names = game.info.player_names if isinstance(game, Game) else ("first", "second")
    seat_parameters = [
        _keyword(f"seat_{i}", "human" if i == 0 else "ai", str, *flags, help_text=f"who plays {names[i]} ({ORDINALS[i] if i < len(ORDINALS) else i + 1} to move): {kinds}")
        for i, flags in enumerate(seat_flags(spec, names))
        if flags
    ]
    parameters = [
        *seat_parameters,
        _keyword("think", 1.0, float, "--think", help_text="seconds a computer player thinks per move"),
        _keyword("seed", None, Optional[int], "--seed", help_text="seed of the computer players' random choices"),
        *_game_parameters(spec, PLAY_OPTIONS),
    ]

    def body(think: float, seed: int | None, **values: Any) -> int:
        kinds_chosen = [values.pop(p.name) for p in seat_parameters]
        options = _game_options(spec, values)
        game = spec.make(**options)
        if not isinstance(game, Game):
            raise PluginError(f"{spec.name} is declared turn-based but creates a {type(game).__name__}")
        seats = _seats(game, kinds_chosen, think, random.Random(seed))
        return play_in_terminal(game, seats, name=spec.name, options=options)

    return _command("play", _summary_help("Play", spec), parameters, body)


def _seats(game: Game, kinds: list[str], think: float, rng: random.Random) -> list[Player | None]:
    """One player per seat (None for a human); seats past the second are computer players."""
    if think <= 0:
        raise OptionError(f"--think must be a positive number of seconds, got {think}")
    kinds = (kinds + ["ai"] * game.info.num_players)[: game.info.num_players]
    seats: list[Player | None] = []
    for kind in kinds:
        if kind not in SEAT_KINDS:
            raise OptionError(f"unknown player kind {kind!r} (choose from {', '.join(SEAT_KINDS)})")
        seats.append(None if kind == "human" else make_ai(game, kind, seconds=think, rng=rng))
    return seats


def _read_line(prompt: str) -> str | None:
    """One line from standard input after the prompt, or None at the end of input."""
    typer.echo(prompt, nl=False)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        typer.echo()  # end the prompt's line
        return None
    if not sys.stdin.isatty():
        typer.echo(line.rstrip("\n"))  # echo scripted input so that the transcript reads like a session
    return line.strip()


def _undo_own_move(state: State, player: int) -> bool:
    """Take back ``player``'s last move and every move after it; False when they have not moved."""
    history = state.history
    movers = []
    replay = state.game.new_state()
    for move in history:
        movers.append(replay.current_player)
        replay.play(move)
    if player not in movers:
        return False
    last_own = len(movers) - 1 - movers[::-1].index(player)
    while len(state.history) > last_own:
        state.undo()
    return True


AUTOSAVE_FORMAT = "gridgames-moves"
"""An interrupted generic game's autosave: {"format", "version": 1, "game", "options", "moves"} (the game's notation)."""


def autosave_game(name: str, options: dict[str, Any], state: State) -> str:
    """Save an unfinished game's moves under the autosave folder; what happened, as one line for the player."""
    moves = state.notation()
    if not state.history:
        return "no move played, nothing to save"
    data = {"format": AUTOSAVE_FORMAT, "version": 1, "game": name, "options": options, "moves": moves}
    try:
        path = write_autosave(name, json.dumps(data, indent=2) + "\n")
    except GridGamesError as error:
        return f"could not autosave ({error}); moves: {moves}"
    return f"game saved to {path} (moves: {moves})"


def play_in_terminal(game: Game, seats: list[Player | None], *, name: str = "game", options: dict[str, Any] | None = None) -> int:
    """Play a game with these seats (None: a human at the terminal) to the end; returns the exit code.

    On end of input or Ctrl-C an unfinished game is autosaved (`autosave_game`) and the file named.
    """
    names = game.info.player_names
    state = game.new_state()
    typer.echo(state.to_text())
    try:
        while not state.is_over:
            player = state.current_player
            seat = seats[player]
            if seat is None:
                line = _read_line(f"{names[player]} to move (u: undo, q: quit): ")
                if line is None:
                    typer.echo(f"end of input: {autosave_game(name, options or {}, state)}")
                    return 0
                if line.lower() in QUIT_WORDS:
                    typer.echo("game abandoned")
                    return 0
                if line.lower() in UNDO_WORDS:
                    if not _undo_own_move(state, player):
                        typer.echo("nothing to undo")
                        continue
                elif not line:
                    continue
                else:
                    try:
                        state.play(game.parse_move(line))
                    except GridGamesError as error:
                        typer.echo(f"{error}; try again")
                        continue
            else:
                move = seat.choose(state)
                note = getattr(seat, "note", "")
                typer.echo(f"{names[player]} ({seat.name}) plays {game.format_move(move)}" + (f"  [{note}]" if note else ""))
                state.play(move)
            typer.echo(state.to_text())
    except KeyboardInterrupt:
        typer.echo(f"\ninterrupted: {autosave_game(name, options or {}, state)}")
        return 0
    outcome = state.outcome
    assert outcome is not None  # the loop ends only when the game is over
    typer.echo(f"moves: {state.notation()}")
    if outcome.winner is None:
        typer.echo(f"draw ({outcome.reason})")
    else:
        typer.echo(f"{names[outcome.winner]} wins ({outcome.reason})")
    return 0


# ----------------------------------------------------------------------------------------------
# solve
# ----------------------------------------------------------------------------------------------
def _solve_command(spec: GameSpec) -> Any:
    parameters = [
        _keyword("count", False, bool, "--count", help_text="count every solution instead of drawing one"),
        _keyword("limit", None, Optional[int], "--limit", help_text="draw up to this many solutions"),
        _keyword("unique", False, bool, "--unique", help_text="one solution per class of the board's symmetries"),
        _keyword("as_json", False, bool, "--json", help_text="print one JSON object (game, options, solutions, ...)"),
        *_game_parameters(spec, SOLVE_OPTIONS),
    ]

    def body(count: bool, limit: int | None, unique: bool, as_json: bool, **values: Any) -> int:
        options = _game_options(spec, values)
        puzzle = spec.make(**options)
        if not isinstance(puzzle, Puzzle):
            raise PluginError(f"{spec.name} is declared a puzzle but creates a {type(puzzle).__name__}")
        if limit is not None and limit < 1:
            raise OptionError(f"--limit must be at least 1, got {limit}")
        all_options = {o.name: o.default for o in spec.options} | options
        if count:
            return _count(spec.name, puzzle, all_options, unique, as_json)
        return _draw(spec.name, puzzle, all_options, limit, unique, as_json)

    return _command("solve", _summary_help("Solve", spec), parameters, body)


def _report(game: str, options: dict[str, Any], solutions: int, unique: bool, partial: bool, seconds: float, **extra: Any) -> str:
    return json.dumps(
        {"game": game, "options": options, "solutions": solutions, "unique": unique, "partial": partial, "seconds": round(seconds, 6), **extra}
    )


def _count(name: str, puzzle: Puzzle, options: dict[str, Any], unique: bool, as_json: bool) -> int:
    with search_progress(f"Counting {name}") as on_progress:
        result = puzzle.count(unique=unique, on_progress=on_progress)
    if as_json:
        typer.echo(_report(name, options, result.count, unique, result.partial, result.seconds))
        return 0
    what = "distinct solutions (up to symmetry)" if unique else "solutions"
    partial = " -- partial count: interrupted before the end" if result.partial else ""
    typer.echo(f"{result.count:,} {what} in {result.seconds:.2f} s{partial}")
    return 0


def _draw(name: str, puzzle: Puzzle, options: dict[str, Any], limit: int | None, unique: bool, as_json: bool) -> int:
    started = time.perf_counter()
    found: list[Solution] = []
    partial = False
    try:
        with search_progress(f"Solving {name}") as on_progress:
            for solution in puzzle.solutions(limit=limit or 1, unique=unique, on_progress=on_progress):
                found.append(solution)
    except KeyboardInterrupt:
        partial = True
    seconds = time.perf_counter() - started
    pictures = [puzzle.picture(solution).to_text() for solution in found]
    if as_json:
        typer.echo(_report(name, options, len(found), unique, partial, seconds, pictures=pictures))
        return 0
    if not found:
        typer.echo("interrupted before a solution was found" if partial else "no solution")
        return 0
    typer.echo("\n\n".join(pictures))
    if limit is not None or partial:
        typer.echo(f"\n{len(found)} solution{'s' if len(found) != 1 else ''} shown" + (" (interrupted)" if partial else ""))
    return 0


__all__ = ["generic_command", "play_in_terminal", "SEAT_KINDS"]

