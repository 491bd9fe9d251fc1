"""Helpers every game's commands share: one-line failures, exit codes, the --jobs/--scheduler check.

A game's own typer commands (built-in or plugin) use these so that every command of the
``gridgames`` CLI fails the same way: one line ``error: ...`` on standard error, exit code 2;
an interrupted run exits 130 after reporting what it found.

>>> check_parallel_options(jobs="2", scheduler=None)
>>> check_parallel_options(jobs="2", scheduler="tcp://host:8786")
Traceback (most recent call last):
...
gridgames.errors.OptionError: --jobs runs local processes and --scheduler a Dask cluster; choose one
"""

from __future__ import annotations

from typing import Any

import typer

from gridgames.errors import OptionError

__all__ = [
    "command_app",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "check_parallel_options",
    "fail",
    "one_line",
    "whole_number",
]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def one_line(text: str) -> str:
    """The text with every run of white space (newlines included) as one space."""
    return " ".join(text.split())


def whole_number(text: str | int) -> int:
    """An option's whole number, strictly: '4' or '-4', never '4.0' or '1e3' (use as
    ``typer.Option(parser=whole_number)``)."""
    if isinstance(text, int) and not isinstance(text, bool):  # the option's default
        return text
    digits = str(text).strip()
    if (
        not (digits.lstrip("+-").isdecimal() and digits.isascii() and digits.count("-") + digits.count("+") <= 1)
        or len(digits) > 12
    ):
        raise typer.BadParameter(f"{text!r} is not a whole number")
    return int(digits)


def command_app(help: str | None = None, **settings: Any) -> typer.Typer:
    """A typer app set up as every gridgames command is: plain help text, no shell completion, no rich tracebacks."""
    return typer.Typer(
        help=help,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        **settings,
    )


def fail(message: str) -> typer.Exit:
    """Print a one-line error to standard error and return the exit to raise (code 2)."""
    typer.echo(f"error: {one_line(message)}", err=True)
    return typer.Exit(EXIT_USAGE)


def check_parallel_options(jobs: str | None, scheduler: str | None) -> None:
    """Check --jobs / --scheduler before any work starts: not both, a valid job count, Dask installed."""
    if jobs is not None and scheduler is not None:
        raise OptionError("--jobs runs local processes and --scheduler a Dask cluster; choose one")
    if jobs is None and scheduler is None:
        # the parallel machinery (multiprocessing, concurrent.futures) is imported only when asked for
        return
    from gridgames.search.parallel import check_scheduler, require_dask, resolve_jobs

    if jobs is not None:
        resolve_jobs(jobs)
    if scheduler is not None:
        from gridgames.search._parallel_dask import probe

        require_dask()
        # a refused or unreachable scheduler fails now, before any work
        probe(check_scheduler(scheduler) or "")
