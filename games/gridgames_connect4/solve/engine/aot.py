"""Where the solver's compiled kernels come from: a module built ahead of time when one fits, else numba's JIT.

numba's JIT keeps its machine code on disk (``cache=True``), but a process that loads it imports numba and sets up
its compiler first: about half a second of every fresh process, longer than most searches past the opening book.
The same kernel sources compiled ahead of time (``numba.pycc``) into an extension module load in milliseconds and
run without numba. `build` makes that module (``numba.pycc`` needs a C compiler; the CLI builds it at the first use
of a fresh install, where it would otherwise fill numba's cache); `load` returns it when one built from these
sources, with this numba, Python and CPU, exists (else None, and the solver runs the JIT kernels). It serves one-word
boards (`Geometry.fits_one_word`) and single searchers: two-word boards and parallel searchers (whose helper
threads need the GIL released) run the JIT kernels.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.search.compiled import AheadOfTime

from gridgames_connect4.solve.engine import layout as L

MODULE = "_gridgames_c4_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""
EXPORTED = ("run_search", "solve_moves", "replay", "winning_cells", "limited_search")
AHEAD = AheadOfTime(
    MODULE, Path(__file__).resolve().parent,
    ("bits.py", "board.py", "aot.py", "layout.py", "static_rules.py", "search.py", "table.py"),
    EXPORTED, hint="run `gridgames connect4 compile`",
)
"""Where the module is looked for and built, and its fingerprint (`gridgames.search.compiled.AheadOfTime`)."""


def fingerprint() -> str:
    """A hash of what the built module depends on: the kernel sources, numba's version, Python and the CPU."""
    return AHEAD.fingerprint()


def file_name() -> str:
    """The built module's file name for the current sources, numba, Python and CPU."""
    return AHEAD.file_name()


def load() -> ModuleType | None:
    """The kernels built ahead of time for the current sources, numba, Python and CPU, or None (looked up once)."""
    return AHEAD.load()


def failed_before() -> bool:
    """Whether a build for the current fingerprint failed here before (then only `build` itself tries again)."""
    return AHEAD.failed_before()


def remember_failure(reason: str) -> None:
    """Note in the first writable folder that the build failed for this fingerprint (and why)."""
    AHEAD.remember_failure(reason)


def missing_reason() -> str:
    """Why `load` found no module (for messages)."""
    return AHEAD.missing_reason()


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
        "limited_search": i64(u64, u64, i64, i64, i64, i64, i64, i64, i64, u64, u64, L.numba_type("int64[:]"),
                              L.numba_type("uint64[:]"), L.numba_type("int64[:]"), i64, L.numba_type("uint64[:, :]"),
                              L.numba_type("int64[:, :]")),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the kernels ahead of time into the first writable folder of ``AHEAD.folders()`` (or folder); its path.

    Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the cause, on any failure.
    """
    return AHEAD.build(_define, folder, use_nrt=False)  # nothing in the kernels allocates (as the JIT's _nrt=False)


def _define(cc: Any) -> None:
    """Export each kernel on ``cc`` (a ``numba.pycc.CC``) with its one-word signature."""
    from gridgames_connect4.solve.engine import board as K
    from gridgames_connect4.solve.engine import search as S

    functions = {"run_search": S.run_search, "solve_moves": S.solve_moves, "replay": K.replay,
                 "winning_cells": K.winning_cells, "limited_search": K.limited_search}
    for name, sig in signatures().items():
        if name == "limited_search":  # it calls itself: its own dispatcher must know the signature
            functions[name].compile(sig.args)
        cc.export(name, sig)(functions[name].py_func)
