"""Run an outside plugin's web ``prepare`` hook in a child process for ``gridgames serve`` (see
`gridgames.web.app.prepare_games`).

``python -m gridgames.web._prepare_probe NAME MODULE:SPEC`` imports the entry point with standard output and error
sent to /dev/null (file-descriptor level), runs its hooks' ``prepare`` and writes one JSON line on the original
standard output: ``{"ok": true}`` or ``{"reason": ...}``. The server kills it when it takes too long; a hook that ends
the process writes nothing.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    """Prepare the game given as NAME and entry point; always exits 0 unless the hook ends the process."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    from gridgames.entry_points import _EntryPoint
    from gridgames.errors import GridGamesError
    from gridgames.registry import GROUP
    from gridgames.web.hooks import hooks_of

    name, value = argv
    try:
        hooks = hooks_of(_EntryPoint(name, value, GROUP, None).load())
        if callable(getattr(hooks, "prepare", None)):
            hooks.prepare(lambda _text: None)
        message: dict[str, object] = {"ok": True}
    except SystemExit as exit_:
        message = {"reason": f"its prepare hook called sys.exit({exit_.code!r})"}
    except BaseException as error:  # a plugin may raise anything, KeyboardInterrupt included
        shown = str(error) if isinstance(error, GridGamesError) else f"{type(error).__name__}: {error}"
        message = {"reason": f"its prepare hook failed: {shown}"}
    out.write(json.dumps(message) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
