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
the last autosave (written on Ctrl-C or end of input; Ctrl-C exits with 130). ``gridgames GAME show RECORD``
replays a save file (or a notation string) move by move.

`TerminalPlay` is the one terminal game of gridgames: a game with a ``play`` command of its own
(Connect Four) runs it too, with its own `gridgames.cli_look.PlayLook` (picture, prompt, messages,
hints, a review after the end); save files of a game's older formats load through
`GameSpec.save_upgrades`.
"""

from __future__ import annotations

import contextlib
import inspect
import random
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import typer

from gridgames.cli_generic import (
    _command,
    _flag,
    _game_options,
    _game_parameters,
    _keyword,
    _summary_help,
    _typed_game_options,
)
from gridgames.cli_look import COMMAND_PREFIX, PlayLook, reads_as_move, result_line
from gridgames.cli_support import EXIT_INTERRUPTED, one_line, whole_number
from gridgames.errors import GridGamesError, OptionError, PluginError
from gridgames.files import autosave_dir, autosaves, user_path, write_autosave
from gridgames.game import CHANCE, PASS_TEXT, Game, GameSpec, Move, Player, State, mover_name, play_chance
from gridgames.parsing import check_seconds
from gridgames.saves import SEAT_KINDS, SavedPlay, load_play, restore, save_play, to_json
from gridgames.search.players import ai_kinds, make_ai

__all__ = [
    "SEAT_KINDS",
    "TerminalPlay",
    "play_command",
    "play_in_terminal",
    "result_line",
    "seat_flags",
    "show_command",
]

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
# and the seats' flags, which yield to the game's options
PLAY_OPTIONS = ("think", "seed", "nodes", "load", "resume")
UNDO_WORDS = ("u", "undo")
HINT_WORDS = ("h", "hint")
SAVE_WORDS = ("s", "save")
QUIT_WORDS = ("q", "quit", "exit")
PASS_WORDS = ("p", PASS_TEXT)
DEFAULT_THINK = 1.0


def _slug(name: str) -> str:
    """A player's name as an option name: lower case, words joined by '-' ('' when it cannot be one)."""
    words = "".join(ch if ch.isalnum() else " " for ch in name.lower()).split()
    slug = "-".join(words)
    return slug if slug[:1].isalpha() else ""


def seat_flags(spec: GameSpec, names: tuple[str, ...]) -> list[list[str]]:
    """Each seat's option names: the player's own name (``--x``, ``--vertical``) and its place (``--first``)."""
    taken = {_flag(name) for name in ("think", "seed", "nodes", "help", "load", "resume")} | {
        _flag(o.name) for o in spec.options
    }
    slugs = [_slug(name) for name in names]
    flags = []
    for i, slug in enumerate(slugs):
        own = (
            f"--{slug}"
            if slug and slugs.count(slug) == 1 and f"--{slug}" not in taken and slug not in ORDINALS
            else None
        )
        ordinal = (
            f"--{ORDINALS[i]}" if i < len(ORDINALS) and f"--{ORDINALS[i]}" not in taken else None
        )  # a game option wins
        flags.append([flag for flag in (own, ordinal) if flag])
    return flags


def _player_names(spec: GameSpec) -> tuple[str, ...]:
    game = spec.make()
    return game.info.player_names if isinstance(game, Game) else ("first", "second")


def play_command(spec: GameSpec) -> Any:
    """The generic ``play`` command of a turn-based game, as a click command."""
    default = spec.make()
    levels = default.computer_levels() if isinstance(default, Game) else ()
    offered = ("human", *ai_kinds(default)) if isinstance(default, Game) else SEAT_KINDS
    kinds = "/".join((*offered, *(level for level in levels if level not in SEAT_KINDS)))
    names = _player_names(spec)
    seats = [
        (
            i,
            _keyword(
                f"seat_{i}",
                None,
                str | None,
                *flags,
                help_text=f"who plays {names[i]} ({ORDINALS[i] if i < len(ORDINALS) else i + 1} to move): {kinds} "
                f"[default: {'human' if i == 0 else 'ai'}]",
            ),
        )
        for i, flags in enumerate(seat_flags(spec, names))
        if flags
    ]
    parameters = [
        *(p for _, p in seats),
        _keyword(
            "think",
            None,
            float | None,
            "--think",
            help_text=f"seconds a computer player thinks per move [default: {DEFAULT_THINK}]",
        ),
        _keyword("seed", None, int | None, "--seed", help_text="seed of the computer players' random choices"),
        inspect.Parameter(
            "nodes",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=int | None,
            default=typer.Option(
                None,
                "--nodes",
                parser=whole_number,
                help="a fixed budget per computer move instead of --think: negamax "
                "positions or MCTS playouts (with --seed, the same replies on every run)",
            ),
        ),
        _keyword(
            "load",
            None,
            Path | None,
            "--load",
            help_text="resume a game saved with 's FILE' (its seats, think time and seed too)",
        ),
        _keyword(
            "resume",
            False,
            bool,
            "--resume",
            help_text="resume the last interrupted game (autosaved on Ctrl-C or end of input)",
        ),
        *_game_parameters(spec, PLAY_OPTIONS),
    ]

    def body(
        think: float | None, seed: int | None, nodes: int | None, load: Path | None, resume: bool, **values: Any
    ) -> int:
        given: list[str | None] = [None] * len(names)
        for i, parameter in seats:
            given[i] = values.pop(parameter.name)
        options = _game_options(spec, values)
        if resume:
            if load is not None:
                raise OptionError("--resume loads the last interrupted game and --load a file; choose one")
            load = choose_resume(spec, typer.echo)
        if load is not None:
            saved = load_play(load, spec)
            # defaults do not count as typed
            for name, value in _typed_game_options(spec, options).items():
                if name in saved.options and saved.options[name] != value:
                    raise OptionError(
                        f"{_flag(name)} {value} differs from the saved game's {saved.options[name]}; "
                        "--load takes the game from the file"
                    )
            game, state = restore(spec, saved, source=str(load))
            options = dict(saved.options)
            saved_seats: list[str | None] = [*saved.seats] or [None] * len(names)
            chosen = [g if g is not None else s for g, s in zip(given, saved_seats)]
            think = think if think is not None else saved.think
            seed = seed if seed is not None else saved.seed
            nodes = nodes if nodes is not None else saved.nodes
        else:
            made = spec.make(**options)
            if not isinstance(made, Game):
                raise PluginError(f"{spec.name} is declared turn-based but creates a {type(made).__name__}")
            game, state, chosen = made, made.new_state(), given
        kinds = [k if k is not None else ("human" if i == 0 else "ai") for i, k in enumerate(chosen)]
        think = DEFAULT_THINK if think is None else think
        players = _seats(game, kinds, think, random.Random(seed), nodes)
        if any(kind.lower() != "human" for kind in kinds[: game.info.num_players]):  # a human's hint: on demand
            _say_first_compile(game)
        match = TerminalPlay(
            spec.name,
            options,
            state,
            players,
            [k.lower() for k in kinds][: game.info.num_players],
            think,
            seed,
            nodes,
            autosave=load if resume else None,
        )
        return match.run()

    return _command("play", _summary_help("Play", spec), parameters, body)


def _say_first_compile(game: Game) -> None:
    """One line before the game when its compiled rules are about to be compiled for the first time (never a silent
    wait: the first hint or computer move compiles the engines, then they are cached). On standard output, in order
    with the game's own lines: written to standard error it could land after the result line."""
    from gridgames.compiled_rules import rules_of

    rules = rules_of(game)
    if rules is None:
        return
    from gridgames.search.crules.build import cache_folder, is_cached

    if not is_cached(rules):
        print(
            f"compiling the engines for {rules.name}'s compiled rules: the first hint or computer move waits up to a "
            f"minute, once (cached in {cache_folder()})",
            flush=True,
        )


RESUMABLE_SHOWN = 5
"""How many other resumable games ``--resume`` names."""


def choose_resume(spec: GameSpec, say: Any, title: str | None = None) -> Path:
    """The autosave ``--resume`` continues: the newest of an unfinished game of ``spec``; says which and from when, and
    names the other resumable ones. Autosaves of finished games are retired (removed); damaged ones are skipped."""
    found: list[tuple[Path, SavedPlay]] = []
    for path in reversed(autosaves(spec.name)):
        try:
            saved = load_play(path, spec)
            _game, state = restore(spec, saved, source=str(path))
        except GridGamesError:
            continue
        if state.is_over:
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        found.append((path, saved))
        if len(found) > RESUMABLE_SHOWN:
            break
    if not found:
        raise OptionError(
            f"no interrupted {title or spec.name} game to resume (autosaves are kept in {autosave_dir()})"
        )

    def when(path: Path) -> str:
        try:
            return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(path.stat().st_mtime))
        except OSError:
            return "?"

    path, saved = found[0]
    say(f"Resuming the {spec.name} game autosaved at {when(path)} (moves: {saved.moves or 'none'}; {path}).")
    for other, kept in found[1 : RESUMABLE_SHOWN + 1]:
        moves = kept.moves or "none"
        say(f"  Also resumable: {when(other)} (moves: {moves}): gridgames play {spec.name} --load {other}")
    return path


def _seats(
    game: Game, kinds: list[str], think: float, rng: random.Random, nodes: int | None = None
) -> list[Player | None]:
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


def _undo_own_move(state: State, players: set[int]) -> int:
    """Take back the last move of any of ``players`` and every move after it; how many moves (0: they have not
    moved)."""
    movers = []
    replay = state.game.new_state()
    for move in state.history:
        movers.append(replay.current_player)
        replay.play(move)
    own = [i for i, mover in enumerate(movers) if mover in players]
    if not own:
        return 0
    last_own = own[-1]
    count = len(state.history) - last_own
    while len(state.history) > last_own:
        state.undo()
    return count


@attrs.define
class TerminalPlay:
    """One game at the terminal: the position, who sits where (None: a human), what a save file records, and the look.

    ``look`` (`gridgames.cli_look.PlayLook`) draws the game and words every message; ``interactive`` says whether
    a person types at a terminal (None: ask standard input), else typed lines are echoed so that a scripted
    game's transcript reads like a session.
    """

    name: str
    options: dict[str, Any]
    state: State
    seats: list[Player | None]
    kinds: list[str] = attrs.field(factory=list)
    think: float = DEFAULT_THINK
    seed: int | None = None
    nodes: int | None = None
    look: PlayLook = attrs.field(factory=PlayLook)
    interactive: bool | None = None
    autosave: Path | None = None
    """The game's autosave file, rewritten after every move (None until the first; a resumed game's own file)."""
    _at_prompt: bool = attrs.field(default=False, init=False)
    chance_rng: random.Random = attrs.field(default=None, init=False)
    """Where the chance outcomes are drawn from (seeded by ``seed``, apart from the computer players' choices)."""

    def __attrs_post_init__(self) -> None:
        """Seed the chance draws (a game resumed from a file draws afresh from its seed and its length)."""
        self.chance_rng = random.Random(None if self.seed is None else f"{self.seed}/{len(self.state.history)}")

    @property
    def is_interactive(self) -> bool:
        """True when a person types at a terminal."""
        return sys.stdin.isatty() if self.interactive is None else self.interactive

    def record(self) -> SavedPlay:
        """The game as a save file holds it."""
        return SavedPlay(
            self.name, self.options, self.state.notation(), tuple(self.kinds), self.think, self.seed, self.nodes
        )

    def keep(self) -> str:
        """Autosave an unfinished game; what happened, as one line for the player."""
        texts, moves = self.look.texts, self.state.notation()
        if not self.state.history:
            return texts.nothing_to_keep
        try:
            path = self.autosave = write_autosave(self.name, to_json(self.record()), self.autosave)
        except (GridGamesError, OSError, ValueError) as error:
            return texts.not_kept.format(error=one_line(str(error))[:300], moves=moves)
        return texts.kept.format(path=path, moves=moves, name=self.name)

    def moved(self) -> None:
        """After every move: the game's autosave rewritten (atomically: any kill loses at most the move being typed),
        or retired (removed) once the game is over; a failure to write is said once at the end (`keep`)."""
        if self.state.is_over:
            if self.autosave is not None:
                with contextlib.suppress(OSError):
                    self.autosave.unlink()
                self.autosave = None
            return
        if not self.state.history:
            return
        with contextlib.suppress(GridGamesError, OSError, ValueError):
            self.autosave = write_autosave(self.name, to_json(self.record()), self.autosave)

    def hint(self) -> str:
        """The look's hint for the side to move, as one line."""
        return self.look.hint(self)

    def save(self, path: str) -> str:
        """Save the game to ``path``; what happened, as one line."""
        texts = self.look.texts
        if not path:
            return texts.save_needs_a_name
        try:
            written = save_play(user_path(path, what="save file"), self.record())
        except GridGamesError as error:
            return texts.not_saved.format(error=error)
        return texts.saved.format(path=written, name=self.name)

    def run(self) -> int:
        """Play to the end, the end of input, ``q`` or Ctrl-C (which autosaves, exit code 130); the exit code."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.look.say(("\n" if self._at_prompt else "") + self.look.texts.interrupted.format(kept=self.keep()))
            return EXIT_INTERRUPTED
        # a failure nobody foresaw: the game is kept first, then one line says what failed
        except Exception as error:
            kept = self.keep()
            typer.echo(f"error: {type(error).__name__}: {one_line(str(error))[:300]}; {kept}", err=True)
            return 1

    def read(self, prompt: str) -> str | None:
        """One line from standard input after the prompt (echoed when scripted), or None at the end of input."""
        self.look.say(prompt, end="")
        self._at_prompt = True
        line = sys.stdin.readline()
        self._at_prompt = False
        if not line:
            if prompt:
                self.look.say("")  # end the prompt's line
            return None
        if not self.is_interactive:
            self.look.say(line.rstrip("\r\n"))
        return line.strip()

    def _loop(self) -> int:
        state, look = self.state, self.look
        for line in look.opening(self):
            look.say(line)
        look.draw(self)
        while not state.is_over:
            if state.current_player == CHANCE:  # the framework draws, then shows what was drawn
                drawn = play_chance(state, self.chance_rng)
                look.say(look.chance_drawn(self, drawn))
                look.draw(self)
                continue
            seat = self.seats[state.current_player]
            if seat is None:
                code = self._human_turn()
                if code is not None:
                    return code
            else:
                player = state.current_player
                move = seat.choose(state)
                note = getattr(seat, "note", "")
                state.play(move)
                self.moved()
                for line in look.computer_moved(self, player, seat, move, note):
                    look.say(line)
            look.draw(self)
        for line in look.ending(self):
            look.say(line)
        return self._after_the_end()

    def _human_turn(self) -> int | None:
        """Read commands until a move is played or taken back; an exit code when the game ends here."""
        state, look, texts = self.state, self.look, self.look.texts
        while True:
            line = self.read(look.prompt(self))
            if line is None:
                look.say(texts.end_of_input.format(kept=self.keep()))
                return 0
            line, command = _command_text(state, line)
            word, _, rest = line.partition(" ")
            word, lowered = word.lower(), line.lower()
            if not command and line:
                lowered = word = ""  # the game's notation reads it: a move, not a command
            if lowered in QUIT_WORDS:
                return self._quit()
            if lowered in UNDO_WORDS:
                humans = {p for p, seat in enumerate(self.seats) if seat is None}
                count = _undo_own_move(state, humans if look.undo_any_human else {state.current_player})
                if count:
                    self.moved()
                    if texts.took_back:
                        look.say(texts.took_back.format(count=count, s="s" if count > 1 else ""))
                    return None
                look.say(texts.nothing_to_undo)
            elif lowered in HINT_WORDS:
                look.say(self.hint())
            elif word in SAVE_WORDS and (rest.strip() or lowered in SAVE_WORDS):
                look.say(self.save(rest.strip()))
            elif not line or (command and not word):
                said = look.empty_line(self)
                if said:
                    look.say(said)
            else:
                try:
                    state.play(_parse_typed(state, line))
                except GridGamesError as error:
                    look.say(look.refused(self, line, error))
                else:
                    self.moved()
                    return None

    def _quit(self) -> int:
        """``q``: leave (a look may first offer to save, or say how one keeps a game)."""
        texts = self.look.texts
        if self.state.history and texts.save_first is not None and self.is_interactive:
            name = self.read(texts.save_first)
            if name:
                self.look.say(self.save(name))
        elif self.state.history and texts.quit_unsaved is not None:
            self.look.say(texts.quit_unsaved)
            return 0
        self.look.say(texts.quit)
        return 0

    def _after_the_end(self) -> int:
        """After the last move, when the look offers it and someone may type: r reviews, s FILE saves, q leaves.

        Nothing is printed when input is not a terminal and has nothing more to say (scripted games end there).
        """
        texts = self.look.texts
        if texts.end_help is None or not (self.is_interactive or any(seat is None for seat in self.seats)):
            return 0
        prompt = texts.game_over_prompt.format(help=texts.end_help) if self.is_interactive else ""
        while True:
            line = self.read(prompt)
            if line is None:
                return 0
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("", *QUIT_WORDS):
                return 0
            if word in ("r", "review"):
                for text in self.look.review(self):
                    self.look.say(text)
            elif word in SAVE_WORDS:
                self.look.say(self.save(rest.strip()))
            else:
                self.look.say(texts.not_a_command_at_the_end.format(line=line, help=texts.end_help))


def _command_text(state: State, line: str) -> tuple[str, bool]:
    """The typed line without a command prefix (`COMMAND_PREFIX`), and whether it is a command (not a move)."""
    if line.startswith(COMMAND_PREFIX):
        return line[len(COMMAND_PREFIX) :].strip(), True
    pass_move = state.game.pass_move
    if pass_move is not None and line.strip().lower() in PASS_WORDS:
        return line, False
    return line, not reads_as_move(state.game, line)


def _parse_typed(state: State, line: str) -> Move:
    """The move a human typed: the game's notation read in the position (`State.parse_move`: short forms), or ``p`` /
    ``pass`` in a game with a pass."""
    game = state.game
    if game.pass_move is not None and line.strip().lower() in PASS_WORDS:
        return game.pass_move
    return state.parse_move(line)


def _result(state: State) -> str:
    outcome = state.outcome
    assert outcome is not None
    return result_line(outcome, state.game.info.player_names)


def play_in_terminal(
    game: Game, seats: list[Player | None], *, name: str = "game", options: dict[str, Any] | None = None
) -> int:
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
        # replaced below by an argument
        _keyword("record", "", str, "--record", help_text="placeholder"),
        _keyword("final", False, bool, "--final", help_text="print only the final position"),
        *_game_parameters(spec, ("final", "record")),
    ]
    parameters[0] = parameters[0].replace(
        default=typer.Argument("", help="a save file (s FILE, an autosave) or the moves in the game's notation")
    )

    def body(record: str, final: bool, **values: Any) -> int:
        options = _game_options(spec, values)
        path = user_path(record, what="save file") if record else None
        if path is not None and (_is_file(path) or record.endswith(".json")):
            saved = load_play(path, spec)
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
            mover = mover_name(names, replay.current_player)
            replay.play(move)
            if not final:
                typer.echo(f"\n{number}. {mover} plays {game.format_move(move)}")
                typer.echo(replay.to_text())
        if final:
            typer.echo(replay.to_text())
        typer.echo(f"moves: {replay.notation() or '(none)'} ({len(replay.history)} played)")
        typer.echo(_result(replay) if replay.is_over else f"{mover_name(names, replay.current_player)} to move")
        return 0

    return _command(
        "show", f"Replay a game of {spec.name}: a save file or the moves in its notation.", parameters, body
    )
