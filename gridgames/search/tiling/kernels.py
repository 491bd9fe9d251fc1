"""Where the tiling kernels come from: a module built ahead of time when one fits the call, else numba's JIT.

numba's JIT keeps its machine code on disk (``cache=True``), but a process that loads it imports numba and sets up
its compiler first: about 0.5 s of CPU, 12 kernels loaded at 20-40 ms each, far more than a small board's search.
The kernels (`kernel_one_word`, `kernel_multi_word`) and the compiled build (`kernel_build`) compiled ahead of time
(``numba.pycc``) into an extension module load in milliseconds and run without numba.

Each kernel is called through a `Kernel` (``kernels.run(tables, state, limit)``, ``kernels.place(...)``). A module
built ahead of time exports each kernel once per argument types the build saw (``build`` runs a set of problems
through the JIT kernels and records them; a JSON file beside the module maps each call's argument types to its
export, whose name holds a hash of them). A call whose argument types were not seen (or with no module built) runs
numba's JIT kernel: the module's wrappers must never be given other types (they do not check them). `build` needs a
C compiler; `load` returns the module built from these sources with this numba, Python and CPU, or None.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from gridgames.search.compiled import AheadOfTime

__all__ = ["Kernel", "build", "failed_before", "jit_ready", "load", "missing_reason", "remember_failure"]

MODULE = "_gridgames_tiling_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""

AHEAD = AheadOfTime(
    MODULE, Path(__file__).resolve().parent,
    ("kernel_build.py", "kernel_common.py", "kernel_multi_word.py", "kernel_one_word.py", "kernel_types.py",
     "kernels.py"),
)
"""Where the module is looked for and built, and its fingerprint (`gridgames.search.compiled.AheadOfTime`)."""
_loaded: list[tuple[ModuleType, dict[str, dict[str, str]]] | None] = []  # [(module, exports) or None] once looked for
_recording: list[dict[str, dict[str, Any]]] = []  # during `build`: kernel -> argument key -> numba signature


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
        found = load_with_exports()
        key = args_key(args)
        if found is not None:
            module, exports = found
            function = getattr(module, exports.get(self.qualname, {}).get(key, ""), None)
            if function is not None:  # named by its argument key: never given other types (`export_name`)
                return function(*args)
        dispatcher = self.jit()
        result = dispatcher(*args)
        if _recording:
            types = tuple(dispatcher.typeof_pyval(a) for a in args)
            _recording[0].setdefault(self.qualname, {})[key] = dispatcher.overloads[types].signature
        return result


def export_name(kernel: Kernel, key: str) -> str:
    """The built module's name for a kernel compiled for one argument key: the key's hash is in it, so a JSON file
    that does not match the module (two builds at once) finds no function rather than one of other types."""
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
    run, fraction, estimate, run_roots, multi_word_run, multi_word_fraction, place, layout, square_neighbours,
    one_word_tables, probe_size, probe_entries, option_images, square_symmetries, free_representatives,
)




def fingerprint() -> str:
    """A hash of what the built module depends on: the kernel sources, numba's version, Python and the CPU."""
    return AHEAD.fingerprint()


def file_name() -> str:
    """The built module's file name for the current sources, numba, Python and CPU."""
    return AHEAD.file_name()


def load() -> ModuleType | None:
    """The kernels built ahead of time for the current sources, numba, Python and CPU, or None (looked up once)."""
    found = load_with_exports()
    return None if found is None else found[0]


def load_with_exports() -> tuple[ModuleType, dict[str, dict[str, str]]] | None:
    """`load`'s module with its exports (kernel -> argument key -> exported name), or None."""
    if not _loaded:
        _loaded.append(None if os.environ.get("GRIDGAMES_TILING_JIT") else _find())
    return _loaded[0]


def failed_before() -> bool:
    """Whether a build for the current fingerprint failed here before (then only `build` itself tries again)."""
    return AHEAD.failed_before()


def remember_failure(reason: str) -> None:
    """Note in the first writable folder that the build failed for this fingerprint (and why)."""
    AHEAD.remember_failure(reason)


def missing_reason() -> str:
    """Why `load` found no module (for messages)."""
    if os.environ.get("GRIDGAMES_TILING_JIT"):
        return "GRIDGAMES_TILING_JIT is set"
    load()
    return AHEAD.missing_reason()


def jit_ready() -> bool:
    """Whether numba's JIT kernels a first count needs are compiled here or cached on disk (imports numba)."""
    from gridgames.search.compiled import kernels_ready

    return kernels_ready(place.jit(), layout.jit(), run.jit())


def _find() -> tuple[ModuleType, dict[str, dict[str, str]]] | None:
    """The built module of this fingerprint with its exports (the JSON file beside it), or None."""
    found = AHEAD.find()
    if found is None:
        return None
    module, path = found
    try:
        return module, json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # no or a damaged table of exports: the JIT kernels serve
        return None


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


def build(calls: Callable[[], None], folder: Path | None = None) -> Path:
    """Compile the kernels ahead of time into the first writable folder of ``AHEAD.folders()`` (or folder); its path.

    ``calls``: what to run on the JIT kernels to learn the argument types to export
    (`gridgames.search.tiling.workload.workload`, or more).
    Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the cause, on any failure.
    """
    recorded: list[dict[str, dict[str, Any]]] = []

    def define(cc: Any) -> str:
        if not recorded:  # once, whichever folder the module is built into
            recorded.append(record_signatures(calls))
        seen = recorded[0]
        exports: dict[str, dict[str, str]] = {}
        for kernel in KERNELS:
            for key, signature in sorted(seen.get(kernel.qualname, {}).items(), key=lambda kv: kv[0]):
                name = export_name(kernel, key)
                cc.export(name, signature)(kernel.jit().py_func)
                exports.setdefault(kernel.qualname, {})[key] = name
        return json.dumps(exports, indent=1, sort_keys=True)

    try:
        return AHEAD.build(define, folder)
    finally:
        _loaded.clear()
