"""The generic commands of games that bring no commands of their own, and what they share.

A turn-based game gets ``play`` and ``show`` (`gridgames.cli_play`: seats named after
the game's players, hints from its AI, undo, ``s FILE`` / ``--load FILE`` save files,
a record that replays); a puzzle gets ``solve`` (`gridgames.cli_solve`: pictures as
text and SVG, counts with progress, ``--jobs`` / ``--scheduler``, JSON). They run as
``gridgames play GAME`` / ``gridgames solve GAME`` and as ``gridgames GAME COMMAND``
(`generic_group`). Each game's own options (`GameSpec.options`) become options of
these commands.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import typer
from typer.core import TyperGroup

from gridgames.cli_support import command_app, whole_number
from gridgames.errors import GridGamesError, PluginError
from gridgames.game import GameKind, GameSpec


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _game_parameters(spec: GameSpec, reserved: tuple[str, ...]) -> list[inspect.Parameter]:
    """One keyword parameter per game option (named ``game_option_<i>``, offered as ``--name``)."""
    taken = {_flag(name) for name in reserved}
    parameters = []
    for i, option in enumerate(spec.options):
        if _flag(option.name) in taken:
            raise PluginError(
                f"{spec.name}'s option {option.name!r} clashes with the generic command's {_flag(option.name)}"
            )
        annotation: Any = option.type if option.default is not None else option.type | None
        strict = {"parser": whole_number} if option.type is int else {}  # '4.0' is not a width
        default = typer.Option(option.default, _flag(option.name), help=option.help or None, **strict)
        parameters.append(
            inspect.Parameter(
                f"game_option_{i}", inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
    return parameters


def _game_options(spec: GameSpec, values: dict[str, Any]) -> dict[str, Any]:
    """The game's options by name, from the command's keyword arguments (unset ones left out)."""
    chosen = {option.name: values.pop(f"game_option_{i}") for i, option in enumerate(spec.options)}
    return {name: value for name, value in chosen.items() if value is not None}


def _typed_game_options(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any]:
    """Those of ``options`` the user gave (on the command line or from the environment), not defaults.

    A typer option's default looks like any other value to the command; click's context knows
    where each value came from, and `_command` keeps the names given for the running command.
    """
    typed = _TYPED.get()
    if typed is None:  # called outside a command made by `_command`: every value counts as given
        return dict(options)
    return {
        option.name: options[option.name]
        for i, option in enumerate(spec.options)
        if f"game_option_{i}" in typed and option.name in options
    }


_TYPED: ContextVar[frozenset[str] | None] = ContextVar("gridgames_typed_parameters", default=None)
"""The parameters of the running generic command that the user gave (not left at their defaults)."""
_DEFAULT_SOURCES = ("DEFAULT", "DEFAULT_MAP")  # click's ParameterSource names for values nobody typed


def _command(name: str, help_text: str, parameters: list[inspect.Parameter], body: Callable[..., Any]) -> Any:
    """A click command (through typer) with the given parameters, calling ``body(**values)``."""

    def command(_gridgames_context: typer.Context, **values: Any) -> Any:
        sources = {name: _gridgames_context.get_parameter_source(name) for name in values}
        typed = frozenset(
            name for name, source in sources.items() if source is not None and source.name not in _DEFAULT_SOURCES
        )
        token = _TYPED.set(typed)
        try:
            return body(**values)
        finally:
            _TYPED.reset(token)

    context = inspect.Parameter("_gridgames_context", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    command.__signature__ = inspect.Signature([context, *parameters])  # type: ignore[attr-defined]
    command.__name__ = name
    command.__doc__ = help_text
    app = command_app()
    app.command(name=name, help=help_text)(command)
    return typer.main.get_command(app)


def _keyword(name: str, default: Any, annotation: Any, *decls: str, help_text: str) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option(default, *decls, help=help_text),
        annotation=annotation,
    )


def _summary_help(verb: str, spec: GameSpec) -> str:
    """``Play cram: ...`` unless the summary already names the game (no "Play cram: Cram: ...")."""
    if spec.summary.lower().startswith(spec.name.lower()):
        return f"{verb} {spec.summary[0].lower()}{spec.summary[1:]}" if verb else spec.summary
    return f"{verb} {spec.name}: {spec.summary}" if verb else spec.summary


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


__all__ = ["generic_command", "generic_group", "generic_verbs"]
