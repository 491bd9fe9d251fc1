"""Where the solver's compiled kernels come from: a module built ahead of time when one fits, else numba's JIT.

numba's JIT keeps its machine code on disk (``cache=True``), but a process that loads it imports numba and sets up
its compiler first: about half a second of every fresh process, longer than most searches past the opening book.
The same kernel sources compiled ahead of time (``numba.pycc``) into an extension module load in milliseconds and
run without numba. `build` makes that module (``numba.pycc`` needs a C compiler; the CLI builds it at the first use
of a fresh install, where it would otherwise fill numba's cache); `load` returns it when one built from these
sources, with this numba, Python and CPU, exists (else None, and the solver runs the JIT kernels). It serves one-word
boards ((height + 1) x width <= 64) and single searchers: two-word boards and parallel searchers (whose helper
threads need the GIL released) run the JIT kernels.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import platform
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames_connect4.engine import layout as L

MODULE = "_gridgames_c4_kernels"
"""The extension module's name (its init function is PyInit_<MODULE>)."""
EXPORTED = ("run_search", "solve_moves", "replay", "winning_cells", "limited_search")
_SOURCES = ("bits.py", "board.py", "aot.py", "layout.py", "rules.py", "search.py", "table.py")
_HERE = Path(__file__).resolve().parent
_loaded: list[Any] = []  # [module or None] once looked for
_why: list[str] = []


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
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return f"{MODULE}.{fingerprint()}{suffix}"


def load() -> ModuleType | None:
    """The kernels built ahead of time for the current sources, numba, Python and CPU, or None (looked up once)."""
    if not _loaded:
        _loaded.append(_find())
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


def _find() -> ModuleType | None:
    """Import the built module from the first folder that has one for this fingerprint."""
    name = file_name()
    for folder in _folders():
        path = folder / name
        if path.is_file():
            try:
                return _import(path)
            except Exception as exc:  # a damaged or foreign file: run the JIT kernels instead
                _why.append(f"{path} does not load ({exc})")
                return None
    _why.append(f"none built for these sources (run `gridgames connect4 compile`; looked for {name})")
    return None


def _import(path: Path) -> ModuleType:
    """Import the extension module at path and check it exports every kernel."""
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(path))
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    if spec is None:
        raise ImportError("no import spec")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    missing = [name for name in EXPORTED if not hasattr(module, name)]
    if missing:
        raise ImportError(f"it lacks {', '.join(missing)}")
    return module


def jit() -> Any:
    """numba's JIT kernels (imports numba): any board, parallel searchers."""
    from gridgames_connect4.engine import board as K
    from gridgames_connect4.engine import search as S

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
    """Compile the kernels ahead of time into the first writable folder of `_folders` (or folder); its path.

    Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the cause, on any failure. Written
    under a temporary name and renamed, so processes building at once never load half a file.
    """
    try:
        return _build(folder)
    except OSError:
        raise
    except Exception as exc:  # numba.pycc missing from a future numba, a kernel numba cannot compile...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise OSError(f"{exc.__class__.__name__}: {first}") from exc


def _build(folder: Path | None) -> Path:
    """`build`'s work (its errors other than OSError are turned into one by `build`)."""
    import warnings

    with warnings.catch_warnings():  # numba.pycc is marked for deprecation; it still builds (numba 0.68)
        warnings.simplefilter("ignore")
        from numba.pycc import CC

    from gridgames_connect4.engine import board as K
    from gridgames_connect4.engine import search as S

    functions = {"run_search": S.run_search, "solve_moves": S.solve_moves, "replay": K.replay,
                 "winning_cells": K.winning_cells, "limited_search": K.limited_search}
    errors: list[str] = []
    for target in [folder] if folder is not None else _folders():
        try:
            target.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=target) as tmp:
                try:
                    cc = CC(MODULE)  # numba.pycc checks for a C compiler here
                except Exception as exc:
                    raise OSError(f"no C compiler for numba.pycc ({exc.__class__.__name__}: "
                                  f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''})") from exc
                cc.output_dir = tmp
                cc.use_nrt = False  # nothing in the kernels allocates; no reference counting (as the JIT's _nrt=False)
                cc.target_cpu = "host"
                cc.verbose = False
                for name, sig in signatures().items():
                    if name == "limited_search":  # it calls itself: its own dispatcher must know the signature
                        functions[name].compile(sig.args)
                    cc.export(name, sig)(functions[name].py_func)
                with warnings.catch_warnings(), _captured_output(Path(tmp) / "build.log"):
                    warnings.simplefilter("ignore")
                    cc.compile()
                built = Path(tmp) / cc.output_file
                try:  # a module that does not load (say, a kernel that needs numba's runtime) is a failed build
                    _import(built)
                except Exception as exc:
                    raise OSError(f"the built module does not load ({exc})") from exc
                path = target / file_name()
                os.replace(built, path)
            for old in target.glob(f"{MODULE}.*"):  # built from older sources: never loaded again
                if old != path:
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
