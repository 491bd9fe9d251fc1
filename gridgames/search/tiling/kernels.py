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

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import platform
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["Kernel", "build", "failed_before", "jit_ready", "load", "missing_reason", "remember_failure"]

MODULE = "_gridgames_tiling_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""

_HERE = Path(__file__).resolve().parent
_SOURCES = (
    "kernel_build.py", "kernel_common.py", "kernel_multi_word.py", "kernel_one_word.py", "kernel_types.py", "kernels.py"
)
_loaded: list[tuple[ModuleType, dict[str, dict[str, str]]] | None] = []  # [(module, exports) or None] once looked for
_why: list[str] = []
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
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((_HERE / name).read_bytes())
    try:
        h.update(importlib.metadata.version("numba").encode())
    except importlib.metadata.PackageNotFoundError:
        h.update(b"no numba")
    h.update(sys.version.encode())
    h.update(platform.machine().encode())
    h.update(_cpu_features().encode())
    return h.hexdigest()[:16]


def _cpu_features() -> str:
    """The CPU's model and feature flags where the system tells them (the module is compiled for this CPU)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [line for line in f if line.startswith(("model name", "flags", "Features"))]
        return "".join(dict.fromkeys(lines))
    except OSError:
        return platform.processor()


def _folders() -> list[Path]:
    """Where the module may be: beside the kernel sources (as numba's cache), then the user's cache folder."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gridgames"
    return [_HERE / "__pycache__", cache]


def file_name() -> str:
    """The built module's file name for the current sources, numba, Python and CPU."""
    return f"{MODULE}.{fingerprint()}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


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
    name = f"{MODULE}.{fingerprint()}.failed"
    return any((folder / name).is_file() for folder in _folders())


def remember_failure(reason: str) -> None:
    """Note in the first writable folder that the build failed for this fingerprint (and why)."""
    for folder in _folders():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{MODULE}.{fingerprint()}.failed").write_text(reason + "\n", encoding="utf-8")
            return
        except OSError:
            continue


def missing_reason() -> str:
    """Why `load` found no module (for messages)."""
    load()
    return _why[0] if _why else "found"


def jit_ready() -> bool:
    """Whether numba's JIT kernels a first count needs are compiled here or cached on disk (imports numba)."""
    from gridgames.search.compiled import kernels_ready

    return kernels_ready(place.jit(), layout.jit(), run.jit())


def _find() -> tuple[ModuleType, dict[str, dict[str, str]]] | None:
    """Import the built module from the first folder that has one for this fingerprint, with its exports."""
    name = file_name()
    for folder in _folders():
        path = folder / name
        if path.is_file():
            try:
                return _import(path), json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
            except Exception as exc:  # a damaged or foreign file: run the JIT kernels instead
                _why.append(f"{path} does not load ({exc})")
                return None
    _why.append(f"none built for these sources (looked for {name})")
    return None


def _import(path: Path) -> ModuleType:
    """Import the extension module at path."""
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(path))
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    if spec is None:
        raise ImportError("no import spec")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


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
    """Compile the kernels ahead of time into the first writable folder of `_folders` (or folder); its path.

    ``calls``: what to run on the JIT kernels to learn the argument types to export
    (`gridgames.search.tiling.workload.workload`, or more).
    Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the cause, on any failure. Written
    under a temporary name and renamed, so processes building at once never load half a file.
    """
    try:
        return _build(folder, calls)
    except OSError:
        raise
    except Exception as exc:  # numba.pycc missing from a future numba, a kernel numba cannot compile...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise OSError(f"{exc.__class__.__name__}: {first}") from exc


def _build(folder: Path | None, calls: Callable[[], None]) -> Path:
    """`build`'s work (its errors other than OSError are turned into one by `build`)."""
    import warnings

    with warnings.catch_warnings():  # numba.pycc is marked for deprecation; it still builds (numba 0.68)
        warnings.simplefilter("ignore")
        from numba.pycc import CC

    seen = record_signatures(calls)
    errors: list[str] = []
    for target in [folder] if folder is not None else _folders():
        try:
            target.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=target) as tmp:
                try:
                    # numba.pycc checks for a C compiler here
                    cc = CC(MODULE)  # type: ignore[no-untyped-call]  # numba.pycc has no type hints
                except Exception as exc:
                    raise OSError(f"no C compiler for numba.pycc ({exc.__class__.__name__}: "
                                  f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''})") from exc
                cc.output_dir = tmp
                cc.target_cpu = "host"
                cc.verbose = False
                exports: dict[str, dict[str, str]] = {}
                for kernel in KERNELS:
                    for key, signature in sorted(seen.get(kernel.qualname, {}).items(), key=lambda kv: kv[0]):
                        name = export_name(kernel, key)
                        cc.export(name, signature)(kernel.jit().py_func)  # type: ignore[no-untyped-call]  # untyped numba.pycc
                        exports.setdefault(kernel.qualname, {})[key] = name
                with warnings.catch_warnings(), _captured_output(Path(tmp) / "build.log"):
                    warnings.simplefilter("ignore")
                    cc.compile()
                built = Path(tmp) / cc.output_file
                try:  # a module that does not load is a failed build
                    _import(built)
                except Exception as exc:
                    raise OSError(f"the built module does not load ({exc})") from exc
                path = target / file_name()
                table = Path(tmp) / "exports.json"
                table.write_text(json.dumps(exports, indent=1, sort_keys=True), encoding="utf-8")
                os.replace(table, path.with_suffix(".json"))
                os.replace(built, path)
            for old in target.glob(f"{MODULE}.*"):  # built from older sources: never loaded again
                if old not in (path, path.with_suffix(".json")):
                    with contextlib.suppress(OSError):
                        old.unlink()
        except OSError as exc:
            errors.append(f"{target}: {exc}")
            if isinstance(exc.__cause__, Exception):  # not the folder's fault: the next one fails alike
                break
            continue
        _loaded.clear()
        _why.clear()
        return path
    raise OSError("; ".join(errors))


@contextlib.contextmanager
def _captured_output(log: Path) -> Iterator[None]:
    """Send this process's standard output and error (the C compiler's messages too) to log meanwhile; a failure
    raises OSError with the log's last line."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    try:
        with open(log, "wb") as out:
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            try:
                yield
            except Exception as exc:
                lines = log.read_bytes().decode(errors="replace").strip().splitlines()
                raise OSError(f"{exc.__class__.__name__}: {exc}" + (f" ({lines[-1]})" if lines else "")) from exc
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
