"""The ``gridgames`` command line: list, describe, play and solve every installed game.

``gridgames list`` · ``gridgames info GAME`` · ``gridgames play GAME [OPTIONS]`` ·
``gridgames solve GAME [OPTIONS]`` · ``gridgames GAME COMMAND [OPTIONS]`` (a game's own
commands). Games are imported only when used, so ``gridgames --help`` answers fast.
Every error on bad input is one line on standard error and exit code 2.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from gridgames.cli_support import EXIT_INTERRUPTED, EXIT_USAGE, command_app, fail
from gridgames.cli_support import one_line as _one_line
from gridgames.errors import GridGamesError
from gridgames.game import GameKind, GameSpec
from gridgames.registry import default_registry


def generic_command(verb: str, spec: GameSpec) -> Any:
    """The generic ``play`` / ``show`` (turn-based games) or ``solve`` (puzzles) command for a game, as a click
    command."""
    from gridgames import cli_play, cli_solve  # each side only when used

    if verb in ("play", "show"):
        if spec.kind is not GameKind.TURN_BASED:
            raise GridGamesError(f"{spec.name} is a puzzle, not played in turns: try 'gridgames solve {spec.name}'")
        return cli_play.play_command(spec) if verb == "play" else cli_play.show_command(spec)
    if verb == "solve":
        if spec.kind is not GameKind.PUZZLE:
            raise GridGamesError(
                f"{spec.name} is a turn-based game with nothing to solve: try 'gridgames play {spec.name}'"
            )
        return cli_solve.solve_command(spec)
    raise GridGamesError(f"there is no generic {verb!r} command (only 'play', 'show' and 'solve')")


def generic_verbs(spec: GameSpec) -> tuple[str, ...]:
    """The generic commands a game gets: ``play`` and ``show`` for turn-based games, ``solve`` for puzzles."""
    return ("play", "show") if spec.kind is GameKind.TURN_BASED else ("solve",)


class _GenericGroup(TyperGroup):
    """``gridgames GAME COMMAND`` for a game without commands of its own: its generic commands, built when used."""

    def __init__(self, spec: GameSpec) -> None:
        from gridgames.cli_generic import _summary_help

        super().__init__(name=spec.name, help=_summary_help("", spec), no_args_is_help=True)
        self.spec = spec

    def list_commands(self, ctx: Any) -> list[str]:
        """The game's generic commands."""
        return list(generic_verbs(self.spec))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The named generic command, or None."""
        return generic_command(cmd_name, self.spec) if cmd_name in generic_verbs(self.spec) else None


def generic_group(spec: GameSpec) -> Any:
    """A click group of the generic commands of a game that brings none (``gridgames mnk show RECORD``)."""
    return _GenericGroup(spec)


def _first_line(text: str) -> str:
    """A command's whole first paragraph (click's short help cuts it off mid-sentence)."""
    return _one_line(text.strip().split("\n\n")[0])


class GameGroup(TyperGroup):
    """The top-level group: built-in commands, plus each installed game's sub-app, loaded lazily."""

    def list_commands(self, ctx: Any) -> list[str]:
        """Built-in commands, then the installed games' names (without importing them)."""
        own = super().list_commands(ctx)
        return own + [name for name in default_registry().names() if name not in own]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """A built-in command, or the named game's own sub-app (imported now)."""
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in default_registry().names():
            return command
        spec = default_registry().load(cmd_name)
        # a plugin without commands of its own gets the generic ones (gridgames mnk show RECORD)
        if spec.app is None:
            return generic_group(spec)
        return game_command(spec)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """List the built-in commands, then the games by name only (no game is imported for help)."""
        rows = [(name, _first_line(cmd.help or "")) for name, cmd in sorted(self.commands.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
        names = [n for n in default_registry().names() if n not in self.commands]
        if names:
            with formatter.section("Games (gridgames GAME COMMAND --help)"):
                formatter.write_dl([(n, f"{n}'s own commands") for n in names])

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C that no command handled (e.g. during a count's set-up) says so in one line, exit 130.

        Typer turns a KeyboardInterrupt into a silent exit code 130 before `main` sees it: caught here first."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, *a: Any, **kw: Any) -> Any:
        """Run the CLI; turn every error on bad input into one line and exit code 2."""
        kw["standalone_mode"] = False
        try:
            code = super().main(args, prog_name or "gridgames", *a, **kw)
        except GridGamesError as error:
            typer.echo(f"error: {_one_line(str(error))}", err=True)
            sys.exit(EXIT_USAGE)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        # past every estimate made before allocating: still one line, not a traceback
        except MemoryError:
            typer.echo(
                "error: out of memory: this needs more memory than the machine or this process's limits allow; "
                "try a smaller board or fewer pieces",
                err=True,
            )
            sys.exit(EXIT_USAGE)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Exception as error:
            if hasattr(error, "format_message") and hasattr(error, "exit_code"):  # usage errors
                typer.echo(f"error: {_one_line(error.format_message())}", err=True)
                sys.exit(error.exit_code)
            raise
        sys.exit(code if isinstance(code, int) else 0)


app = command_app(
    "Grid puzzles and placement games: play Connect Four, count pentomino tilings, add your own games.",
    cls=GameGroup,
    no_args_is_help=True,
)


def game_command(spec: GameSpec) -> Any:
    """The click command of a game's own sub-app."""
    if spec.app is None:
        raise GridGamesError(f"{spec.name} has no commands of its own")
    command = typer.main.get_command(spec.app())
    command.name = spec.name
    return command


@app.command("list")
def list_games() -> None:
    """List the installed games (and any plugin that failed to load, with its reason)."""
    # plugins imported in a child process: they cannot stall or end this one
    games, broken = default_registry().list_all()
    width = max([len(g.name) for g in games] + [len(b.name) for b in broken] + [4])
    for game in games:
        typer.echo(f"{game.name:<{width}}  {game.kind:<10}  {_one_line(game.summary)}")
    for bad in broken:
        typer.echo(f"{bad.name:<{width}}  {'BROKEN':<10}  {bad.reason} [{bad.target}]")


@app.command("info")
def info(game: str = typer.Argument(..., help="The game's name (see 'gridgames list').")) -> None:
    """Describe a game: its kind, options, commands and rules."""
    spec = default_registry().load(game)
    typer.echo(f"{spec.name} ({spec.kind.value}): {spec.summary}")
    if spec.options:
        typer.echo("\nOptions:")
        for option in spec.options:
            typer.echo(
                f"  --{option.name.replace('_', '-')} {option.type.__name__.upper()}  {option.help} (default: "
                f"{option.default})"
            )
    if spec.app is not None:
        command = game_command(spec)
        names = command.list_commands(None) if hasattr(command, "list_commands") else []
        if names:
            typer.echo(f"\nCommands: {', '.join(names)}  (gridgames {spec.name} COMMAND --help)")
    else:
        typer.echo(f"\nCommands: {', '.join(generic_verbs(spec))}  (generic; gridgames {spec.name} COMMAND --help)")
    if spec.doc:
        typer.echo("\n" + spec.doc.strip())


_PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def _run_game_verb(ctx: typer.Context, verb: str, game: str, args: list[str]) -> Any:
    """Run ``gridgames GAME VERB ARGS`` (the game's own command) or the generic one for its kind."""
    if game in ("--help", "-h"):
        typer.echo(ctx.get_help())
        return 0
    spec = default_registry().load(game)
    command = None
    if spec.app is not None:
        group = game_command(spec)
        command = group.get_command(None, verb) if hasattr(group, "get_command") else None
    if command is None:
        command = generic_command(verb, spec)  # only when a game has no command of its own
    # The command is invoked directly, not through its main: typer's main would turn Ctrl-C into a silent exit 130.
    with command.make_context(f"gridgames {verb} {game}", list(args)) as sub:
        return command.invoke(sub)


@app.command("play", context_settings=_PASS_THROUGH)
def play(ctx: typer.Context, game: str = typer.Argument(..., help="The game to play.")) -> None:
    """Play a game in the terminal (options after GAME go to the game: gridgames play GAME --help)."""
    code = _run_game_verb(ctx, "play", game, ctx.args)
    if isinstance(code, int) and code:
        raise typer.Exit(code)


@app.command("solve", context_settings=_PASS_THROUGH)
def solve(ctx: typer.Context, game: str = typer.Argument(..., help="The puzzle to solve.")) -> None:
    """Solve or count a puzzle (options after GAME go to the game: gridgames solve GAME --help)."""
    code = _run_game_verb(ctx, "solve", game, ctx.args)
    if isinstance(code, int) and code:
        raise typer.Exit(code)


@app.command("serve")
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (loopback by default: this machine only)."
    ),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web browser."),
    workers: int = typer.Option(
        2, "--workers", min=1, max=64, help="Threads for long work (solver moves, scores, counts)."
    ),
    max_seconds: float = typer.Option(
        60.0, "--max-seconds", min=1, max=86400, help="Time budget of each long request."
    ),
    max_sessions: int = typer.Option(
        256, "--max-sessions", min=1, max=100_000, help="Pages kept at once (the oldest expire)."
    ),
) -> None:
    """Play and solve every installed game in the web browser (needs the web extra: pip install "gridgames[web]")."""
    from gridgames.web.server import serve as run

    run(
        host,
        port,
        open_browser=open_browser,
        workers=workers,
        job_seconds=max_seconds,
        max_sessions=max_sessions,
        say=typer.echo,
    )


@app.command("doctor")
def doctor(
    rebuild: bool = typer.Option(
        False,
        "--rebuild",
        help="Compile every module again into the user's cache folder (needs a C compiler; minutes).",
    ),
) -> None:
    """Report the kernels compiled with the package: where each is and whether it verifies (exit 1 if one does not)."""
    import time

    from gridgames.native import built_in

    bad = 0
    for native in built_in():
        if rebuild:
            typer.echo(f"Compiling the {native.what} into {native.folders()[-1]} (up to a few minutes)...", err=True)
            start = time.perf_counter()
            try:
                native.build()
            except OSError as exc:
                typer.echo(f"{native.name}: cannot build ({_one_line(str(exc))})", err=True)
            else:
                typer.echo(f"  built in {time.perf_counter() - start:.0f} s", err=True)
        status = native.status()
        bad += not status.verifies
        where = "" if status.path is None else f" {status.path}:"
        typer.echo(f"{native.name} ({native.what}):{where} {'ok' if status.verifies else status.reason}")
    if bad:
        typer.echo(
            "numba's JIT kernels serve in their place (compiled at first use, cached in the user's cache "
            "folder); `gridgames doctor --rebuild` compiles them again",
            err=True,
        )
        raise typer.Exit(1)


def main() -> None:
    """Console-script entry point: SIGTERM and SIGHUP (a closed terminal) end a command as Ctrl-C does (partial results
    kept); the compiled kernels' notices (`gridgames.native`) one line each on standard error."""
    from gridgames.native import tell_notices_to
    from gridgames.search._workers import sigterm_as_interrupt

    tell_notices_to(lambda text: typer.echo(text, err=True))

    try:
        with sigterm_as_interrupt():
            app()
    finally:
        # The process ends here. Python's exit collects every object tracked by the garbage collector, about 0.1 s
        # with numpy, typer and a game loaded (bench/README.md); objects frozen now are left to the exit itself.
        gc.freeze()


__all__ = ["app", "main", "fail", "GameKind"]
