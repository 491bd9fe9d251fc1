"""Where the solver's compiled kernels come from: the module built with the package when it verifies, else numba's JIT.

numba's JIT keeps its machine code on disk (in the user's cache folder, `gridgames.native.jit_cache`), but a process
that loads it imports numba and sets up its compiler first: about half a second of every fresh process, longer than
most searches past the opening book. The same kernel sources compiled with the package (``pip install``, through
``numba.pycc``: `gridgames.native`) load in milliseconds and run without numba. `load` returns that module when it
verifies (built from these sources for this Python and CPU, its checksum intact), else None, and the solver runs the
JIT kernels. It serves one-word boards ((height + 1) x width <= 64) and single searchers: two-word boards and
parallel searchers (whose helper threads need the GIL released) run the JIT kernels.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.native import NativeModule

from gridgames_connect4.solve.engine import layout as L

MODULE = "_gridgames_c4_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""
EXPORTED = ("run_search", "solve_moves", "replay", "winning_cells", "limited_search")


def _define(cc: Any) -> None:
    """Export each kernel on ``cc`` (a ``numba.pycc.CC``) with its one-word signature."""
    from gridgames_connect4.solve.engine import board as K
    from gridgames_connect4.solve.engine import search as S

    functions = {
        "run_search": S.run_search,
        "solve_moves": S.solve_moves,
        "replay": K.replay,
        "winning_cells": K.winning_cells,
        "limited_search": K.limited_search,
    }
    for name, sig in signatures().items():
        if name == "limited_search":  # it calls itself: its own dispatcher must know the signature
            functions[name].compile(sig.args)
        cc.export(name, sig)(functions[name].py_func)


NATIVE = NativeModule(
    MODULE,
    "gridgames_connect4.solve.engine",
    Path(__file__).resolve().parent,
    ("bits.py", "board.py", "aot.py", "layout.py", "static_rules.py", "search.py", "table.py"),
    _define,
    EXPORTED,
    use_nrt=False,  # nothing in the kernels allocates (as the JIT's _nrt=False)
    what="Connect Four solver",
)
"""The module built with the package (`gridgames.native.NativeModule`; listed in the ``gridgames.native`` group)."""


def load() -> ModuleType | None:
    """The kernels built with the package when they verify, or None (looked up once)."""
    return NATIVE.load()


def missing_reason() -> str:
    """Why `load` found no module (for messages)."""
    return NATIVE.status().reason


def jit() -> Any:
    """numba's JIT kernels (imports numba): any board, parallel searchers."""
    from gridgames_connect4.solve.engine import board as K
    from gridgames_connect4.solve.engine import search as S

    return _Jit(S.run_search, S.solve_moves, K.replay, K.winning_cells, K.limited_search)


class _Jit:
    """The JIT dispatchers under the names the built module exports."""

    def __init__(self, run_search: Any, solve_moves: Any, replay: Any, winning_cells: Any, limited_search: Any):
        self.run_search, self.solve_moves, self.replay = run_search, solve_moves, replay
        self.winning_cells, self.limited_search = winning_cells, limited_search


def signatures() -> dict[str, Any]:
    """The one-word signatures the solver calls each kernel with (numba types; imports numba).

    The search's arguments come from their declarations in `layout` (Stack, BoardConstants, Table, BookArrays,
    SearchStep, Batch).
    """
    from numba import types as t

    i64, u64 = t.int64, t.uint64
    stack, geometry, table, book = (L.tuple_type(c) for c in (L.Stack, L.BoardConstants, L.Table, L.BookArrays))
    busy = L.numba_type("uint64[:]")
    cols = L.numba_type("uint8[:] readonly")
    return {
        "run_search": i64(stack, geometry, table, book, busy, L.tuple_type(L.SearchStep)),
        "solve_moves": t.none(L.tuple_type(L.Batch), stack, geometry, table, book, busy),
        "replay": t.Tuple((u64, u64, i64, i64))(cols, i64, i64, i64, i64, i64, u64, u64),
        "winning_cells": u64(u64, u64, u64, i64, i64),
        "limited_search": i64(
            u64,
            u64,
            i64,
            i64,
            i64,
            i64,
            i64,
            i64,
            i64,
            u64,
            u64,
            L.numba_type("int64[:]"),
            L.numba_type("uint64[:]"),
            L.numba_type("int64[:]"),
            i64,
            L.numba_type("uint64[:, :]"),
            L.numba_type("int64[:, :]"),
        ),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the kernels into ``folder`` (default: the user's cache folder); the module's path (OSError if not)."""
    return NATIVE.build(folder)
