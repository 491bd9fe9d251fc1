"""The generic ``play`` and ``show`` commands of turn-based games, built from the game's own API.

``gridgames play GAME`` seats a human or a computer player on each side (one option
per player, named after the game's own player names, e.g. ``--x KIND --o KIND`` for the
m,n,k-game, and also ``--first KIND --second KIND``; KIND is ``human``, ``ai``,
``negamax``, ``mcts`` or ``random``), draws the position after each move and reads the
human's commands from standard input, so it also runs from a script:

* a move in the game's notation (``p`` or ``pass`` passes, in a game with a pass: the
  prompt says when the pass is the only move); ``u`` takes back the last own move and the replies;
* ``h`` asks the game's AI (`gridgames.search.players.make_ai`) for a hint;
* ``s FILE`` saves the game (`gridgames.saves`: options, moves, seats, think time, seed);
* ``q`` quits.

``--nodes N`` gives each computer move a fixed budget (negamax positions, MCTS playouts)
instead of ``--think`` seconds: with ``--seed`` the same replies on every run and machine.
``--load FILE`` resumes a saved game with its seats, think time, seed and node budget (options given
on the command line win, except the game's own options, which must agree); ``--resume``
the last autosave (written on Ctrl-C or end of input). ``gridgames GAME show RECORD``
replays a save file (or a notation string) move by move.
"""

from __future__ import annotations

import inspect
import random
import sys
from pathlib import Path
from typing import Any, Optional

import attrs
import typer

from gridgames.cli_generic import _command, _flag, _game_options, _game_parameters, _keyword, _summary_help, _typed_game_options
from gridgames.cli_support import one_line, whole_number
from gridgames.errors import GridGamesError, OptionError, PluginError
from gridgames.files import autosave_dir, latest_autosave, user_path, write_autosave
from gridgames.game import PASS_TEXT, Game, GameSpec, Move, Outcome, Player, State
from gridgames.saves import SavedPlay, load_play, restore, save_play, to_json
from gridgames.search.players import AI_KINDS, make_ai
from gridgames.parsing import check_seconds

__all__ = ["SEAT_KINDS", "TerminalPlay", "play_command", "play_in_terminal", "result_line", "seat_flags", "show_command"]

SEAT_KINDS = ("human", *AI_KINDS)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
PLAY_OPTIONS = ("think", "seed", "nodes", "load", "resume", *ORDINALS)
UNDO_WORDS = ("u", "undo")
HINT_WORDS = ("h", "hint")
SAVE_WORDS = ("s", "save")
QUIT_WORDS = ("q", "quit", "exit")
PASS_WORDS = ("p", PASS_TEXT)
DEFAULT_THINK = 1.0
COMMANDS_HELP = "u: undo, h: hint, s FILE: save, q: quit"


def _slug(name: str) -> str:
    """A player's name as an option name: lower case, words joined by '-' ('' when it cannot be one)."""
    words = "".join(ch if ch.isalnum() else " " for ch in name.lower()).split()
    slug = "-".join(words)
    return slug if slug[:1].isalpha() else ""


def seat_flags(spec: GameSpec, names: tuple[str, ...]) -> list[list[str]]:
    """Each seat's option names: the player's own name (``--x``, ``--vertical``) and its place (``--first``)."""
    taken = {_flag(name) for name in ("think", "seed", "nodes", "help", "load", "resume")} | {_flag(o.name) for o in spec.options}
    slugs = [_slug(name) for name in names]
    flags = []
    for i, slug in enumerate(slugs):
        own = f"--{slug}" if slug and slugs.count(slug) == 1 and f"--{slug}" not in taken and slug not in ORDINALS else None
        ordinal = f"--{ORDINALS[i]}" if i < len(ORDINALS) else None
        flags.append([flag for flag in (own, ordinal) if flag])
    return flags


def _player_names(spec: GameSpec) -> tuple[str, ...]:
    game = spec.make()
    return game.info.player_names if isinstance(game, Game) else ("first", "second")


def play_command(spec: GameSpec) -> Any:
    """The generic ``play`` command of a turn-based game, as a click command."""
    default = spec.make()
    levels = default.computer_levels() if isinstance(default, Game) else ()
    kinds = "/".join((*SEAT_KINDS, *(level for level in levels if level not in SEAT_KINDS)))
    names = _player_names(spec)
    seats = [
        (i, _keyword(f"seat_{i}", None, Optional[str], *flags,
                     help_text=f"who plays {names[i]} ({ORDINALS[i] if i < len(ORDINALS) else i + 1} to move): {kinds} "
                               f"[default: {'human' if i == 0 else 'ai'}]"))
        for i, flags in enumerate(seat_flags(spec, names))
        if flags
    ]
    parameters = [
        *(p for _, p in seats),
        _keyword("think", None, Optional[float], "--think", help_text=f"seconds a computer player thinks per move [default: {DEFAULT_THINK}]"),
        _keyword("seed", None, Optional[int], "--seed", help_text="seed of the computer players' random choices"),
        inspect.Parameter("nodes", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[int], default=typer.Option(
            None, "--nodes", parser=whole_number, help="a fixed budget per computer move instead of --think: negamax "
            "positions or MCTS playouts (with --seed, the same replies on every run)")),
        _keyword("load", None, Optional[Path], "--load", help_text="resume a game saved with 's FILE' (its seats, think time and seed too)"),
        _keyword("resume", False, bool, "--resume", help_text="resume the last interrupted game (autosaved on Ctrl-C or end of input)"),
        *_game_parameters(spec, PLAY_OPTIONS),
    ]

    def body(think: float | None, seed: int | None, nodes: int | None, load: Path | None, resume: bool, **values: Any) -> int:
        given: list[str | None] = [None] * len(names)
        for i, parameter in seats:
            given[i] = values.pop(parameter.name)
        options = _game_options(spec, values)
        if resume:
            if load is not None:
                raise OptionError("--resume loads the last interrupted game and --load a file; choose one")
            load = latest_autosave(spec.name)
            if load is None:
                raise OptionError(f"no interrupted {spec.name} game to resume (autosaves are kept in {autosave_dir()})")
        if load is not None:
            saved = load_play(load)
            for name, value in _typed_game_options(spec, options).items():  # defaults do not count as typed
                if name in saved.options and saved.options[name] != value:
                    raise OptionError(f"{_flag(name)} {value} differs from the saved game's {saved.options[name]}; --load takes the game from the file")
            game, state = restore(spec, saved, source=str(load))
            options = dict(saved.options)
            saved_seats = list(saved.seats) or [None] * len(names)
            kinds = [g if g is not None else s for g, s in zip(given, saved_seats)]
            think = think if think is not None else saved.think
            seed = seed if seed is not None else saved.seed
            nodes = nodes if nodes is not None else saved.nodes
        else:
            made = spec.make(**options)
            if not isinstance(made, Game):
                raise PluginError(f"{spec.name} is declared turn-based but creates a {type(made).__name__}")
            game, state, kinds = made, made.new_state(), given
        kinds = [k if k is not None else ("human" if i == 0 else "ai") for i, k in enumerate(kinds)]
        think = DEFAULT_THINK if think is None else think
        players = _seats(game, kinds, think, random.Random(seed), nodes)
        match = TerminalPlay(spec.name, options, state, players, [k.lower() for k in kinds][: game.info.num_players], think, seed, nodes)
        return match.run()

    return _command("play", _summary_help("Play", spec), parameters, body)


def _seats(game: Game, kinds: list[str], think: float, rng: random.Random, nodes: int | None = None) -> list[Player | None]:
    """One player per seat (None for a human); seats past the second are computer players."""
    check_seconds(think)
    kinds = (kinds + ["ai"] * game.info.num_players)[: game.info.num_players]
    own = game.computer_levels()
    seats: list[Player | None] = []
    for kind in (k.lower() for k in kinds):
        if kind in own:  # the game's own computer players (its API), before the generic ones
            seats.append(game.computer_player(kind, rng))
        elif kind in SEAT_KINDS:
            seats.append(None if kind == "human" else make_ai(game, kind, seconds=think, rng=rng, nodes=nodes))
        else:
            raise OptionError(f"unknown player kind {kind!r} (choose from {', '.join((*SEAT_KINDS, *own))})")
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
    movers = []
    replay = state.game.new_state()
    for move in state.history:
        movers.append(replay.current_player)
        replay.play(move)
    if player not in movers:
        return False
    last_own = len(movers) - 1 - movers[::-1].index(player)
    while len(state.history) > last_own:
        state.undo()
    return True


@attrs.define
class TerminalPlay:
    """One game at the terminal: the position, who sits where (None: a human), and what a save file records."""

    name: str
    options: dict[str, Any]
    state: State
    seats: list[Player | None]
    kinds: list[str] = attrs.field(factory=list)
    think: float = DEFAULT_THINK
    seed: int | None = None
    nodes: int | None = None

    def record(self) -> SavedPlay:
        """The game as a save file holds it."""
        return SavedPlay(self.name, self.options, self.state.notation(), tuple(self.kinds), self.think, self.seed, self.nodes)

    def keep(self) -> str:
        """Autosave an unfinished game; what happened, as one line for the player."""
        moves = self.state.notation()
        if not self.state.history:
            return "no move played, nothing to save"
        try:
            path = write_autosave(self.name, to_json(self.record()))
        except (GridGamesError, OSError, ValueError) as error:
            return f"could not autosave ({one_line(str(error))[:300]}); moves: {moves}"
        return f"game saved to {path} (moves: {moves})"

    def hint(self) -> str:
        """The move the game's AI would play here (its strongest own level, else `make_ai`), as one line."""
        rng = random.Random(None if self.seed is None else self.seed + len(self.state.history))
        game = self.state.game
        levels = game.computer_levels()  # the game's own strongest player, else the generic AI
        advisor = game.computer_player(levels[-1], rng) if levels else make_ai(game, "ai", seconds=min(self.think, 5.0), rng=rng, nodes=self.nodes)
        move = advisor.choose(self.state.copy())
        note = getattr(advisor, "note", "")
        return f"hint: {self.state.game.format_move(move)} ({advisor.name}" + (f", {note})" if note else ")")

    def save(self, path: str) -> str:
        """Save the game to ``path``; what happened, as one line."""
        if not path:
            return "type 's' and a file name, e.g. 's game.json'"
        try:
            written = save_play(user_path(path, what="save file"), self.record())
        except GridGamesError as error:
            return f"not saved: {error}"
        return f"saved to {written}; resume with: gridgames play {self.name} --load {written}"

    def run(self) -> int:
        """Play to the end, the end of input, ``q`` or Ctrl-C (which autosaves); the exit code."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            typer.echo(f"\ninterrupted: {self.keep()}")
            return 0
        except Exception as error:
            kept = self.keep()
            typer.echo(f"error: {type(error).__name__}: {one_line(str(error))[:300]}; {kept}", err=True)
            return 1

    def _loop(self) -> int:
        state, game = self.state, self.state.game
        names = game.info.player_names
        typer.echo(state.to_text())
        while not state.is_over:
            player = state.current_player
            seat = self.seats[player]
            if seat is None:
                line = _read_line(_prompt(state))
                if line is None:
                    typer.echo(f"end of input: {self.keep()}")
                    return 0
                word, _, rest = line.partition(" ")
                word = word.lower()
                if line.lower() in QUIT_WORDS:
                    typer.echo("game abandoned")
                    return 0
                if line.lower() in UNDO_WORDS:
                    if not _undo_own_move(state, player):
                        typer.echo("nothing to undo")
                        continue
                elif line.lower() in HINT_WORDS:
                    typer.echo(self.hint())
                    continue
                elif word in SAVE_WORDS and (rest.strip() or line.lower() in SAVE_WORDS):
                    typer.echo(self.save(rest.strip()))
                    continue
                elif not line:
                    continue
                else:
                    try:
                        state.play(_parse_typed(game, line))
                    except GridGamesError as error:
                        typer.echo(f"{error}; try again")
                        continue
            else:
                move = seat.choose(state)
                note = getattr(seat, "note", "")
                typer.echo(f"{names[player]} ({seat.name}) plays {game.format_move(move)}" + (f"  [{note}]" if note else ""))
                state.play(move)
            typer.echo(state.to_text())
        typer.echo(f"moves: {state.notation()}")
        typer.echo(_result(state))
        return 0


def _prompt(state: State) -> str:
    """The human's prompt: who is to move, the commands, and the pass when it is the only move."""
    name = state.game.info.player_names[state.current_player]
    pass_move = state.game.pass_move
    if pass_move is None:
        return f"{name} to move ({COMMANDS_HELP}): "
    if list(state.legal_moves()) == [pass_move]:
        return f"{name} has no move and must pass (type p or pass; {COMMANDS_HELP}): "
    return f"{name} to move ({COMMANDS_HELP}, p: pass when you have no move): "


def _parse_typed(game: Game, line: str) -> Move:
    """The move a human typed: the game's notation, or ``p`` / ``pass`` in a game with a pass."""
    if game.pass_move is not None and line.strip().lower() in PASS_WORDS:
        return game.pass_move
    return game.parse_move(line)


def result_line(outcome: Outcome, player_names: tuple[str, ...]) -> str:
    """The end of a game as one line: ``Black wins 40-24 (the board is full)`` (the winner's score first), ``draw (...)``."""
    scores = ""
    if outcome.scores is not None:
        order = list(range(len(outcome.scores)))
        if outcome.winner is not None:
            order.remove(outcome.winner)
            order.insert(0, outcome.winner)
        scores = " " + "-".join(f"{outcome.scores[i]:g}" for i in order)
    if outcome.winner is None:
        return f"draw{scores} ({outcome.reason})"
    return f"{player_names[outcome.winner]} wins{scores} ({outcome.reason})"


def _result(state: State) -> str:
    outcome = state.outcome
    assert outcome is not None
    return result_line(outcome, state.game.info.player_names)


def play_in_terminal(game: Game, seats: list[Player | None], *, name: str = "game", options: dict[str, Any] | None = None) -> int:
    """Play a game with these seats (None: a human at the terminal) to the end; returns the exit code."""
    kinds = ["human" if seat is None else getattr(seat, "name", "ai") for seat in seats]
    kinds = [k if k in SEAT_KINDS else "ai" for k in kinds]
    return TerminalPlay(name, options or {}, game.new_state(), seats, kinds).run()


def _is_file(path: Path) -> bool:
    """True when ``path`` names an existing file; False for text no file can have (too long, a NUL byte, ~nouser)."""
    try:
        return path.exists()
    except (OSError, ValueError, RuntimeError):
        return False


def show_command(spec: GameSpec) -> Any:
    """The generic ``show`` command: replay a save file (or a notation string) move by move."""
    parameters = [
        _keyword("record", "", str, "--record", help_text="placeholder"),  # replaced below by an argument
        _keyword("final", False, bool, "--final", help_text="print only the final position"),
        *_game_parameters(spec, ("final", "record")),
    ]
    parameters[0] = parameters[0].replace(default=typer.Argument("", help="a save file (s FILE, an autosave) or the moves in the game's notation"))

    def body(record: str, final: bool, **values: Any) -> int:
        options = _game_options(spec, values)
        path = user_path(record, what="save file") if record else None
        if path is not None and (_is_file(path) or record.endswith(".json")):
            saved = load_play(path)
            game, state = restore(spec, saved, source=record)
        else:
            made = spec.make(**options)
            if not isinstance(made, Game):
                raise PluginError(f"{spec.name} is declared turn-based but creates a {type(made).__name__}")
            game, state = made, made.from_notation(record)
        replay = game.new_state()
        names = game.info.player_names
        if not final:
            typer.echo(replay.to_text())
        for number, move in enumerate(state.history, start=1):
            mover = names[replay.current_player]
            replay.play(move)
            if not final:
                typer.echo(f"\n{number}. {mover} plays {game.format_move(move)}")
                typer.echo(replay.to_text())
        if final:
            typer.echo(replay.to_text())
        typer.echo(f"moves: {replay.notation() or '(none)'} ({len(replay.history)} played)")
        typer.echo(_result(replay) if replay.is_over else f"{names[replay.current_player]} to move")
        return 0

    return _command("show", f"Replay a game of {spec.name}: a save file or the moves in its notation.", parameters, body)
