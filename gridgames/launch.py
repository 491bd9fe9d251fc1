"""The ``gridgames`` console script: a game's quick answer when it has one, else the command line.

``gridgames GAME ARGS...`` first asks the game's quick hook, before typer (the command-line library, about
30 ms of a fresh process) is imported; the hook answers the commands people run most whose work is smaller than
that (``gridgames connect4 analyze MOVES`` from the opening book) or declines, and then `gridgames.cli` parses
the command line as always. A built-in game declares its hook in the ``gridgames.quick`` entry-point group
(`QUICK_GROUP`), found without the registry, the game protocol or attrs (about 28 ms more): such a hook imports
only what it needs. Any other game's hook is its `GameSpec.quick`, through the registry. Nothing else is imported
here: see docs/startup.md for what a process costs.
"""

from __future__ import annotations

import sys

QUICK_GROUP = "gridgames.quick"
"""The entry-point group of the built-in games' quick hooks (``name = "module:function"``, the game's name)."""
OWN_DISTRIBUTION = "gridgames"
"""Only this distribution's ``gridgames.quick`` entry points are used (a plugin's hook is its `GameSpec.quick`)."""


def quick_answer(args: list[str]) -> int | None:
    """The exit code of ``gridgames ARGS`` answered by the game's quick hook, or None (not a game, no hook or
    declined)."""
    if len(args) < 2 or args[0].startswith("-"):
        return None
    from gridgames.entry_points import entry_points

    for ep in entry_points(QUICK_GROUP):
        if ep.name == args[0] and ep.dist is not None and ep.dist.name == OWN_DISTRIBUTION:
            try:
                hook = ep.load()
            # a broken install: the full command line reports it
            except (ImportError, AttributeError):
                return None
            return hook(args[1:])  # type: ignore[no-any-return]
    from gridgames.errors import GridGamesError
    from gridgames.registry import default_registry

    registry = default_registry()
    if args[0] not in registry.entries:
        return None
    try:
        spec = registry.load(args[0])
    except GridGamesError:  # a broken plugin: the full command line reports it
        return None
    return None if spec.quick is None else spec.quick(args[1:])


def main() -> None:
    """Console-script entry point: the quick answer, else `gridgames.cli.main` (each prints `gridgames.native`'s
    notices: a compiled module that does not verify, a cache that cannot be written)."""
    code = quick_answer(sys.argv[1:])
    native = sys.modules.get("gridgames.native")  # imported when the answer needed compiled kernels
    for text in native.notices() if native is not None else ():
        _say(text)
    if code is not None:
        sys.stdout.flush()
        sys.exit(code)
    from gridgames.cli import main as full

    full()


def _say(text: str) -> None:
    """One line on standard error."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


if __name__ == "__main__":
    main()
