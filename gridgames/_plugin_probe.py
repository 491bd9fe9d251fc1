"""Import plugins in a child process for ``gridgames list`` (see `gridgames.registry.Registry.list_all`).

``python -m gridgames._plugin_probe '[["name", "module:SPEC"], ...]'`` imports each entry
point in turn with standard output and error sent to /dev/null (at the file-descriptor
level, so nothing a plugin prints reaches the listing) and ``SystemExit`` caught, and
reports on the original standard output one JSON line when it starts a plugin and one
with its kind and summary, or the reason it is broken. The parent kills this process
when a plugin's import takes too long, and starts another for the plugins left.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def _emit(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def main(argv: list[str]) -> int:
    """Probe the entry points given as one JSON argument; always exits 0 unless a plugin ends the process."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    from gridgames.errors import PluginError
    from gridgames.entry_points import _EntryPoint
    from gridgames.registry import GROUP, Registry

    for name, value in json.loads(argv[0]):
        _emit(out, {"start": name})
        registry = Registry.from_list([_EntryPoint(name, value, GROUP, None)])
        try:
            spec = registry.load(name)
        except PluginError:
            _emit(out, {"name": name, "reason": registry.load_all(vet=False)[1][0].reason})
        except SystemExit as exit_:
            _emit(out, {"name": name, "reason": f"its import called sys.exit({exit_.code!r})"})
        except BaseException as error:  # a plugin may raise anything, KeyboardInterrupt included
            _emit(out, {"name": name, "reason": f"import failed: {type(error).__name__}: {error}"})
        else:
            _emit(out, {"name": name, "kind": spec.kind.value, "summary": spec.summary})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
