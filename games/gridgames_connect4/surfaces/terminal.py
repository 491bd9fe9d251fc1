"""The terminal of the ``connect4`` commands: consoles on standard output and error, and the solver's first-use
notice, shared by `cli` and its subcommands' modules (which `cli` imports, so they cannot import it back)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # rich is imported when something is printed: `analyze --json` starts faster
    from rich.console import Console

__all__ = ["console", "error_console", "prepare_solver"]


def console() -> Console:
    """A console on the current standard output (colour only on a terminal)."""
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False)


def error_console() -> Console:
    """A console on the current standard error (colour only on a terminal)."""
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False)


def prepare_solver(err: Callable[[], Console], ahead: bool) -> None:
    """At the first use of the solver: say so on the console ``err()`` gives, and where kernels built ahead of time
    serve (``ahead``: a board of at most 64 bits) build them now, so that this and later runs search without numba
    (else numba's JIT compiles them at the first search)."""
    from gridgames_connect4.solve.solver import prepare_kernels

    prepare_kernels(lambda text: err().print(text, markup=False, highlight=False), ahead)
