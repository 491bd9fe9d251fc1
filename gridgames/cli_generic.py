"""What the generic commands of games that bring no commands of their own share.

A turn-based game gets ``play`` and ``show`` (`gridgames.cli_play`: seats named after
the game's players, hints from its AI, undo, ``s FILE`` / ``--load FILE`` save files,
a record that replays); a puzzle gets ``solve`` (`gridgames.cli_solve`: pictures as
text and SVG, counts with progress, ``--jobs`` / ``--scheduler``, JSON). `gridgames.cli`
offers them as ``gridgames play GAME`` / ``gridgames solve GAME`` and as ``gridgames GAME
COMMAND``. This module holds what both sides use: each game's own options
(`GameSpec.options`) become options of these commands, and the commands are built from
keyword parameters. It imports neither side, so neither imports the other back.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import typer

from gridgames.cli_support import command_app, whole_number
from gridgames.errors import PluginError
from gridgames.game import GameSpec


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
        parser = whole_number if option.type is int else None  # '4.0' is not a width
        default = typer.Option(option.default, _flag(option.name), help=option.help or None, parser=parser)
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
# click's ParameterSource names for values nobody typed
_DEFAULT_SOURCES = ("DEFAULT", "DEFAULT_MAP")


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
    # typer reads the options from inspect.signature(command); functions have no declared __signature__
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


__all__: list[str] = []  # private helpers of gridgames.cli_play and gridgames.cli_solve
