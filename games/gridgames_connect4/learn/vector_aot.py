"""Where the vector environment's kernels come from: a module built ahead of time when one fits, else numba's JIT.

A process that runs numba's JIT kernels (``cache=True``) imports numba and sets up its dispatchers first: about
0.25 s of a process's first ``vector_env("connect4")`` and its first ``reset()``, 50-100x the reset itself. The same
kernel sources (`gridgames_connect4.learn.vector_kernels`) compiled ahead of time (``numba.pycc``, which needs a C
compiler) into an extension module load in about a millisecond and run without numba. `kernels` returns that module
when one built from these sources, with this numba, Python and CPU, exists; at the first use of a fresh install it
builds it (about 4 s, once, where numba would compile its JIT kernels in 1.4 s); where a build failed (no C
compiler) or ``GRIDGAMES_VECTOR_JIT`` is set, numba's JIT kernels serve. ``gridgames connect4 compile`` builds it too.
Processes building at once each write their own file and rename it: the last one stays, all load.

The module's functions do not check their arguments' types: every array must be C-contiguous of the dtype in
`signatures` (`gridgames_connect4.learn.vector.Connect4VectorBackend` makes sure).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.search.compiled import AheadOfTime

__all__ = ["AHEAD", "EXPORTED", "build", "jit", "kernels", "load", "signatures"]

MODULE = "_gridgames_c4_vector"
"""The extension module's name (its init function is PyInit_<MODULE>)."""
EXPORTED = ("step_kernel", "reply_kernel", "reset_kernel")
FORCE_JIT = "GRIDGAMES_VECTOR_JIT"
"""Set (to anything but empty) in the environment: numba's JIT kernels serve, never a module built ahead of time."""
AHEAD = AheadOfTime(
    MODULE, Path(__file__).resolve().parent, ("vector_kernels.py", "vector_aot.py"), EXPORTED,
    hint="run `gridgames connect4 compile`",
)
"""Where the module is looked for and built, and its fingerprint (`gridgames.search.compiled.AheadOfTime`)."""


def load() -> ModuleType | None:
    """The kernels built ahead of time for the current sources, numba, Python and CPU, or None (looked up once)."""
    return None if os.environ.get(FORCE_JIT) else AHEAD.load()


def jit() -> ModuleType:
    """numba's JIT kernels (imports numba)."""
    from gridgames_connect4.learn import vector_kernels

    return vector_kernels


def kernels(mode: str = "auto") -> Any:
    """The kernels to run: ``"auto"``, built ahead of time (built now at the first use of these sources, unless a
    build failed here before or ``GRIDGAMES_VECTOR_JIT`` is set), else numba's JIT ones; ``"jit"``; ``"aot"`` (None
    when there is no module)."""
    if mode == "jit":
        return jit()
    found = load()
    if found is None and mode == "auto" and not os.environ.get(FORCE_JIT) and not AHEAD.failed_before():
        try:
            build()
        except OSError as exc:  # no C compiler, say: numba's JIT kernels serve (and later processes do not retry)
            AHEAD.remember_failure(str(exc))
        found = AHEAD.load()
    if found is None and mode == "auto":
        return jit()
    return found


def signatures() -> dict[str, Any]:
    """Each kernel's signature (numba types; imports numba): C-contiguous arrays, int64 dimensions."""
    from numba import types as t

    def arr(dtype: Any, ndim: int) -> Any:
        return t.Array(dtype, ndim, "C")

    i64, flag = t.int64, t.boolean
    obs, grid, rows = arr(t.int8, 4), arr(t.int8, 2), arr(t.int64, 1)
    flags, rng, reward = arr(t.boolean, 1), arr(t.uint64, 1), arr(t.float64, 1)
    dims = (i64, i64, i64)  # height, width, connect
    return {
        # actions, active, random_opponent, obs, mask, heights, lengths, moves, rng, reward, terminated, illegal,
        # reply, dims
        "step_kernel": t.none(rows, flags, flag, obs, grid, grid, rows, grid, rng, reward, flags, flags, flags, *dims),
        # columns, which, obs, mask, heights, lengths, moves, reward, terminated, dims
        "reply_kernel": t.none(rows, flags, obs, grid, grid, rows, grid, reward, flags, *dims),
        # which, opponent_first, random_opponent, obs, mask, heights, lengths, moves, rng, reply, dims
        "reset_kernel": t.none(flags, flag, flag, obs, grid, grid, rows, grid, rng, flags, *dims),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the kernels ahead of time into the first writable folder of ``AHEAD.folders()`` (or folder); its path.

    Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the cause, on any failure.
    """
    return AHEAD.build(_define, folder, use_nrt=False)  # the kernels allocate nothing


def _define(cc: Any) -> None:
    """Export each kernel on ``cc`` (a ``numba.pycc.CC``) with its signature."""
    module = jit()
    for name, signature in signatures().items():
        cc.export(name, signature)(getattr(module, name).py_func)
