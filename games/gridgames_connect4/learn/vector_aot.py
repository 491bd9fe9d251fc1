"""Where the vector environment's kernels come from: the module built with the package when it verifies, else
numba's JIT.

A process that runs numba's JIT kernels (``cache=True``) imports numba and sets up its dispatchers first: about
0.25 s of a process's first ``vector_env("connect4")`` and its first ``reset()``, 50-100x the reset itself. The same
kernel sources (`gridgames_connect4.learn.vector_kernels`) compiled with the package (``numba.pycc``:
`gridgames.native`) load in about a millisecond and run without numba. `kernels` returns that module when it
verifies; where none does (no C compiler at install) or ``GRIDGAMES_VECTOR_JIT`` is set, numba's JIT kernels serve.

The module's functions do not check their arguments' types: every array must be C-contiguous of the dtype in
`signatures` (`gridgames_connect4.learn.vector.Connect4VectorBackend` makes sure).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.native import NativeModule

__all__ = ["EXPORTED", "NATIVE", "build", "jit", "kernels", "load", "signatures"]

MODULE = "_gridgames_c4_vector"
"""The extension module's name (its init function is PyInit_<MODULE>)."""
EXPORTED = ("step_kernel", "reply_kernel", "reset_kernel")
FORCE_JIT = "GRIDGAMES_VECTOR_JIT"
"""Set (to anything but empty): numba's JIT kernels serve, never the module built with the package."""


def _define(cc: Any) -> None:
    """Export each kernel on ``cc`` (a ``numba.pycc.CC``) with its signature."""
    module = jit()
    for name, signature in signatures().items():
        cc.export(name, signature)(getattr(module, name).py_func)


NATIVE = NativeModule(
    MODULE,
    "gridgames_connect4.learn",
    Path(__file__).resolve().parent,
    ("vector_kernels.py", "vector_aot.py"),
    # the kernels allocate nothing
    _define,
    EXPORTED,
    use_nrt=False,
    force_jit=FORCE_JIT,
    what="vector env kernels",
)
"""The module built with the package (`gridgames.native.NativeModule`; listed in the ``gridgames.native`` group)."""


def load() -> ModuleType | None:
    """The kernels built with the package when they verify, or None (looked up once)."""
    return NATIVE.load()


def jit() -> ModuleType:
    """numba's JIT kernels (imports numba)."""
    from gridgames_connect4.learn import vector_kernels

    return vector_kernels


def kernels(mode: str = "auto") -> Any:
    """The kernels to run: ``"auto"``, built with the package when they verify, else numba's JIT ones; ``"jit"``;
    ``"aot"`` (None when no module verifies)."""
    if mode == "jit":
        return jit()
    found = load()
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
    """Compile the kernels into ``folder`` (default: the user's cache folder); the module's path (OSError if not)."""
    return NATIVE.build(folder)
