"""Whether numba kernels are ready: compiled in this process or cached on disk (the first use of a fresh install
compiles); numba's cache of kernels spread over several modules kept true to their sources; and kernels compiled
ahead of time into an extension module (`AheadOfTime`), which a fresh process loads in milliseconds without numba.

A game's CLI asks before long work, so that it can say why the first run waits::

    >>> from gridgames.search.compiled import kernels_ready
    >>> kernels_ready()
    True
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["AheadOfTime", "drop_stale_cache", "kernels_ready"]


def kernels_ready(*dispatchers: Any) -> bool:
    """Whether every numba dispatcher given is compiled in this process or has numba's on-disk cache index."""
    for dispatcher in dispatchers:
        if getattr(dispatcher, "signatures", None):
            continue
        try:
            index = dispatcher._cache._cache_file._index_path  # numba's on-disk cache index
        except AttributeError:  # not a caching dispatcher (or another numba version): nothing to say
            continue
        if not os.path.exists(index):
            return False
    return True


def drop_stale_cache(sources: Sequence[Path], cache: Path | None = None) -> bool:
    """Delete numba's cached machine code of these kernel modules when any of their sources changed since (True if so).

    numba checks only the file that defines a cached function, not the modules it calls nor the constants it imports,
    so after an edit of those it keeps running the old machine code. Give every ``.py`` file of kernels that call each
    other or share constants (one folder), and call this when they are imported, before any of them compiles or loads.
    ``cache``: numba's cache folder for them, default their ``__pycache__`` (where an editable install, in which sources
    change under a cache, keeps it). A stamp file there names the sources the cache came from.
    """
    if not sources:
        return False
    folder = sources[0].parent / "__pycache__" if cache is None else cache
    stems = sorted(path.stem for path in sources)
    stamp = folder / f"{'+'.join(stems)}.numba-stamp"
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.read_bytes())
    digest.update(_numba_version())
    wanted = digest.hexdigest()[:16]
    try:
        if stamp.read_text(encoding="utf-8") == wanted:
            return False
    except OSError:
        pass
    dropped = False
    for stem in stems:
        for path in folder.glob(f"{stem}.*.nb[ic]"):
            with contextlib.suppress(OSError):
                path.unlink()
                dropped = True
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(wanted, encoding="utf-8")
    return dropped


def _numba_version() -> bytes:
    """What names the installed numba's version: its ``_version.py`` (found without importing numba, nor
    importlib.metadata, about 17 ms of a fresh process), or b"no numba"."""
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        return b"no numba"
    try:
        return (Path(next(iter(spec.submodule_search_locations))) / "_version.py").read_bytes()
    except OSError:
        return b"numba of unknown version"


def _cpu_features() -> str:
    """The CPU's model and feature flags where the system tells them (a module built ahead of time is for this CPU)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [line for line in f if line.startswith(("model name", "flags", "Features"))]
        return "".join(dict.fromkeys(lines))
    except OSError:
        return platform.processor()


class AheadOfTime:
    """numba kernels compiled ahead of time (``numba.pycc``, which needs a C compiler) into one extension module,
    found by a fingerprint of their sources, numba, Python and the CPU.

    ``module``: the extension module's name (its init function is ``PyInit_<module>``); ``here``: the folder of the
    kernel sources; ``sources``: the file names there the module depends on; ``exported``: names a loaded module
    must have; ``hint``: what to tell a user when none is built. The module is looked for, and built into, the
    `folders` (beside the sources, as numba's cache; then the user's cache folder). A build that failed for a
    fingerprint is remembered there, so that only an explicit build tries again.
    """

    def __init__(self, module: str, here: Path, sources: Sequence[str], exported: Sequence[str] = (),
                 hint: str = "") -> None:
        self.module = module
        self.here = here
        self.sources = tuple(sources)
        self.exported = tuple(exported)
        self.hint = hint
        self._loaded: list[ModuleType | None] = []
        self._why: list[str] = []

    def folders(self) -> list[Path]:
        """Where the module may be: beside the kernel sources, then the user's cache folder."""
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gridgames"
        return [self.here / "__pycache__", cache]

    def fingerprint(self) -> str:
        """A hash of what the built module depends on: the kernel sources, numba's version, Python and the CPU."""
        h = hashlib.sha256()
        for name in self.sources:
            h.update((self.here / name).read_bytes())
        h.update(_numba_version())
        h.update(sys.version.encode())
        h.update(platform.machine().encode())
        h.update(_cpu_features().encode())
        return h.hexdigest()[:16]

    def file_name(self) -> str:
        """The built module's file name for the current sources, numba, Python and CPU."""
        return f"{self.module}.{self.fingerprint()}{importlib.machinery.EXTENSION_SUFFIXES[0]}"

    def load(self) -> ModuleType | None:
        """The module built for the current fingerprint, or None (looked up once; `forget` to look again)."""
        if not self._loaded:
            found = self.find()
            self._loaded.append(None if found is None else found[0])
        return self._loaded[0]

    def forget(self) -> None:
        """Make the next `load` look on disk again."""
        self._loaded.clear()
        self._why.clear()

    def find(self) -> tuple[ModuleType, Path] | None:
        """Import the module from the first folder that has one for this fingerprint: it and its path, or None
        (`missing_reason` then says why)."""
        self._why.clear()
        name = self.file_name()
        for folder in self.folders():
            path = folder / name
            if path.is_file():
                try:
                    return self.import_file(path), path
                except Exception as exc:  # a damaged or foreign file: the JIT kernels serve instead
                    self._why.append(f"{path} does not load ({exc})")
                    return None
        self._why.append(f"none built for these sources ({self.hint + '; ' if self.hint else ''}looked for {name})")
        return None

    def missing_reason(self) -> str:
        """Why the last look found no module (for messages), or "found"."""
        if not self._why and not self._loaded:
            self.load()
        return self._why[0] if self._why else "found"

    def import_file(self, path: Path) -> ModuleType:
        """Import the extension module at path and check it has every name of ``exported``."""
        loader = importlib.machinery.ExtensionFileLoader(self.module, str(path))
        spec = importlib.util.spec_from_file_location(self.module, path, loader=loader)
        if spec is None:
            raise ImportError("no import spec")
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        missing = [name for name in self.exported if not hasattr(module, name)]
        if missing:
            raise ImportError(f"it lacks {', '.join(missing)}")
        return module

    def failed_before(self) -> bool:
        """Whether a build for the current fingerprint failed here before (then only `build` itself tries again)."""
        name = f"{self.module}.{self.fingerprint()}.failed"
        return any((folder / name).is_file() for folder in self.folders())

    def remember_failure(self, reason: str) -> None:
        """Note in the first writable folder that the build failed for this fingerprint (and why)."""
        for folder in self.folders():
            try:
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"{self.module}.{self.fingerprint()}.failed").write_text(reason + "\n", encoding="utf-8")
                return
            except OSError:
                continue

    def build(self, define: Callable[[Any], str | None], folder: Path | None = None, use_nrt: bool = True) -> Path:
        """Compile the kernels into the first writable folder of `folders` (or ``folder``); the module's path.

        ``define(cc)`` exports the kernels on a ``numba.pycc.CC`` (``cc.export(name, signature)(function)``) and
        returns the text of a JSON file to keep beside the module (same name, ``.json``), or None. ``use_nrt=False``
        builds without numba's runtime (kernels that allocate nothing). Imports numba and needs a C compiler; raises
        OSError, naming the cause, on any failure. Written under a temporary name and renamed, so processes building
        at once never load half a file.
        """
        try:
            return self._build(define, folder, use_nrt)
        except OSError:
            raise
        except Exception as exc:  # numba.pycc missing from a future numba, a kernel numba cannot compile...
            raise OSError(f"{exc.__class__.__name__}: {_first_line(exc)}") from exc

    def _build(self, define: Callable[[Any], str | None], folder: Path | None, use_nrt: bool) -> Path:
        """`build`'s work (its errors other than OSError are turned into one by `build`)."""
        import warnings

        with warnings.catch_warnings():  # numba.pycc is marked for deprecation; it still builds (numba 0.68)
            warnings.simplefilter("ignore")
            from numba.pycc import CC

        errors: list[str] = []
        for target in [folder] if folder is not None else self.folders():
            try:
                target.mkdir(parents=True, exist_ok=True)
                with tempfile.TemporaryDirectory(dir=target) as tmp:
                    try:
                        cc = CC(self.module)  # type: ignore[no-untyped-call]  # numba.pycc has no type hints
                    except Exception as exc:  # numba.pycc checks for a C compiler here
                        raise OSError(f"no C compiler for numba.pycc ({exc.__class__.__name__}: "
                                      f"{_first_line(exc)})") from exc
                    cc.output_dir = tmp
                    if not use_nrt:
                        cc.use_nrt = False
                    cc.target_cpu = "host"
                    cc.verbose = False
                    side = define(cc)
                    with warnings.catch_warnings(), _captured_output(Path(tmp) / "build.log"):
                        warnings.simplefilter("ignore")
                        cc.compile()
                    built = Path(tmp) / cc.output_file
                    try:  # a module that does not load (say, a kernel that needs numba's runtime) is a failed build
                        self.import_file(built)
                    except Exception as exc:
                        raise OSError(f"the built module does not load ({exc})") from exc
                    path = target / self.file_name()
                    keep = {path}
                    if side is not None:
                        table = Path(tmp) / "side.json"
                        table.write_text(side, encoding="utf-8")
                        os.replace(table, path.with_suffix(".json"))
                        keep.add(path.with_suffix(".json"))
                    os.replace(built, path)
                for old in target.glob(f"{self.module}.*"):  # built from older sources: never loaded again
                    if old not in keep:
                        with contextlib.suppress(OSError):
                            old.unlink()
            except OSError as exc:
                errors.append(f"{target}: {exc}")
                if isinstance(exc.__cause__, Exception):  # not the folder's fault: the next one fails alike
                    break
                continue
            self.forget()
            return path
        raise OSError("; ".join(errors))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


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
