"""Where the tiling kernels come from: the module built with the package when it fits the call, else numba's JIT.

numba's JIT keeps its machine code on disk (in the user's cache folder, `gridgames.native.jit_cache`), but a process
that loads it imports numba and sets up its compiler first: about 0.5 s of CPU, 12 kernels loaded at 20-40 ms each,
far more than a small board's search. The kernels (`kernel_one_word`, `kernel_multi_word`) and the compiled build
(`kernel_build`) compiled with the package (``pip install``, ``numba.pycc``: `gridgames.native`) load in
milliseconds and run without numba.

Each kernel is called through a `Kernel` (``kernels.run(tables, state, limit)``, ``kernels.place(...)``). The module
exports each kernel once per argument types the build saw (its build runs `gridgames.search.tiling.workload` through
the JIT kernels and records them), under a name holding a hash of them (`export_name`): a call whose argument types
were not seen (or with no module that verifies) runs numba's JIT kernel, so the module's wrappers are never given
other types (they do not check them). `load` returns the module when it verifies, else None.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from gridgames.native import NativeModule

__all__ = ["NATIVE", "Kernel", "build", "jit_ready", "load", "missing_reason"]

MODULE = "_gridgames_tiling_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""

SOURCES = (
    "kernel_build.py",
    "kernel_common.py",
    "kernel_multi_word.py",
    "kernel_one_word.py",
    "kernel_types.py",
    "kernels.py",
    "workload.py",
)
"""The files the module is compiled from (the kernels, their types, and the calls whose argument types it serves)."""
# [module or None] once looked for (`record_signatures` sets None)
_loaded: list[ModuleType | None] = []
# during a build: kernel -> argument key -> numba signature
_recording: list[dict[str, dict[str, Any]]] = []
_names: dict[tuple[str, str], str] = {}  # (kernel, argument key) -> exported name


def _key(value: Any) -> str:
    """The argument's numba-relevant type as text: arrays' dtype, dimensions, layout and writability; tuples' fields."""
    if isinstance(value, np.ndarray):
        layout = "C" if value.flags.c_contiguous else ("F" if value.flags.f_contiguous else "A")
        return f"{value.dtype.str}{value.ndim}{layout}{'w' if value.flags.writeable else 'r'}"
    if isinstance(value, tuple):
        fields = getattr(value, "_fields", None)
        inner = ",".join(_key(v) for v in value)
        return f"{type(value).__name__}({inner})" if fields is not None else f"({inner})"
    if isinstance(value, np.generic):
        return value.dtype.str
    return type(value).__name__  # int, float, bool


def args_key(args: tuple[Any, ...]) -> str:
    """The key of a call's arguments (`_key` of each)."""
    return ";".join(_key(a) for a in args)


class Kernel:
    """One kernel, called ahead of time when the module has an export for these argument types, else by numba's JIT."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.qualname = f"{module}.{name}"
        self._jit: Any = None

    def jit(self) -> Any:
        """numba's dispatcher of this kernel (imports numba)."""
        if self._jit is None:
            self._jit = getattr(importlib.import_module(f"gridgames.search.tiling.{self.module}"), self.name)
        return self._jit

    def __call__(self, *args: Any) -> Any:
        found = load()
        key = args_key(args)
        if found is not None:
            name = _names.get((self.qualname, key))
            if name is None:
                name = _names[(self.qualname, key)] = export_name(self, key)
            function = getattr(found, name, None)
            # named by its argument key: never given other types (`export_name`)
            if function is not None:
                return function(*args)
        dispatcher = self.jit()
        result = dispatcher(*args)
        if _recording:
            types = tuple(dispatcher.typeof_pyval(a) for a in args)
            _recording[0].setdefault(self.qualname, {})[key] = dispatcher.overloads[types].signature
        return result


def export_name(kernel: Kernel, key: str) -> str:
    """The built module's name for a kernel compiled for one argument key: the key's hash is in it, so a call of
    other argument types finds no function rather than one of other types."""
    digest = hashlib.sha256(f"{kernel.qualname}|{key}".encode()).hexdigest()[:12]
    return f"{kernel.module.removeprefix('kernel_')}_{kernel.name}__{digest}"


def _kernel(module: str, name: str) -> Kernel:
    return Kernel(module, name)


# the one-word search
run = _kernel("kernel_one_word", "run")
fraction = _kernel("kernel_one_word", "fraction")
estimate = _kernel("kernel_one_word", "estimate")
run_roots = _kernel("kernel_one_word", "run_roots")
# the compiled build of one-word problems
place = _kernel("kernel_build", "place")
layout = _kernel("kernel_build", "layout")
square_neighbours = _kernel("kernel_build", "square_neighbours")
one_word_tables = _kernel("kernel_build", "one_word_tables")
probe_size = _kernel("kernel_build", "probe_size")
probe_entries = _kernel("kernel_build", "probe_entries")
option_images = _kernel("kernel_build", "option_images")
square_symmetries = _kernel("kernel_build", "square_symmetries")
free_representatives = _kernel("kernel_build", "free_representatives")
# the multi-word search
multi_word_run = _kernel("kernel_multi_word", "run")
multi_word_fraction = _kernel("kernel_multi_word", "fraction")
KERNELS = (
    run,
    fraction,
    estimate,
    run_roots,
    multi_word_run,
    multi_word_fraction,
    place,
    layout,
    square_neighbours,
    one_word_tables,
    probe_size,
    probe_entries,
    option_images,
    square_symmetries,
    free_representatives,
)


NATIVE = NativeModule(
    MODULE,
    "gridgames.search.tiling",
    Path(__file__).resolve().parent,
    SOURCES,
    "gridgames.search.tiling.workload:define",
    force_jit="GRIDGAMES_TILING_JIT",
    what="tiling kernels",
)
"""The module built with the package (`gridgames.native.NativeModule`; listed in the ``gridgames.native`` group)."""


def load() -> ModuleType | None:
    """The kernels built with the package when they verify, or None (looked up once)."""
    if not _loaded:
        _loaded.append(NATIVE.load())
    return _loaded[0]


def missing_reason() -> str:
    """Why `load` found no module (for messages)."""
    return NATIVE.status().reason


def jit_ready() -> bool:
    """Whether numba's JIT kernels a first count needs are compiled here or cached on disk (imports numba)."""
    from gridgames.search.compiled import kernels_ready

    return kernels_ready(place.jit(), layout.jit(), run.jit())


def record_signatures(workload: Callable[[], None]) -> dict[str, dict[str, Any]]:
    """Run ``workload`` on numba's JIT kernels and return, per kernel, the numba signature of each argument key seen."""
    _loaded[:] = [None]  # the JIT kernels, whatever is built
    _recording[:] = [{}]
    try:
        workload()
        return _recording[0]
    finally:
        _recording.clear()
        _loaded.clear()


def build(folder: Path | None = None) -> Path:
    """Compile the kernels into ``folder`` (default: the user's cache folder); the module's path (OSError if not)."""
    try:
        return NATIVE.build(folder)
    finally:
        _loaded.clear()
