"""The compiled modules: built with the package, verified before each load, never written into the install at run time.

Kernels written for numba come to a process in one of two ways:

- **Built with the package.** ``pip install .``, ``pip install -e .`` and ``pip wheel .`` compile each `NativeModule`
  named in the ``gridgames.native`` entry-point group (pyproject.toml) into an extension module beside its sources
  (``setup.py`` runs `build`; ``numba.pycc``, which needs a C compiler). A manifest beside it
  (``NAME.manifest.json``) records the module's SHA-256 and size and what it was built for: the hash of its kernel
  sources, Python's tag, the machine, the CPU and numpy's version. `NativeModule.load` checks all of these before it
  imports the module, so a missing, truncated, foreign or corrupted file is never called: the caller gets None (and
  runs numba's JIT kernels) and the command says so in one line (`notices`). Nothing at run time builds or writes a
  module into the install; ``gridgames doctor --rebuild`` builds one into the user's cache folder
  (`gridgames.files.cache_dir`), which `load` looks in after the install.
- **numba's JIT** (no C compiler at install, a ``numba`` without ``pycc``, the ``GRIDGAMES_*_JIT`` variables, kernels
  no built module exports). `jit_cache` points numba's on-disk cache of the kernels of a folder to the user's cache
  folder (``cache_dir() / "numba"``), never the install; where that cannot be written (a read-only home) it caches in a
  temporary folder of the process (compiled again in every process: slower, said once).

The CLI layer prints `notices` (one line each) on standard error; nothing here prints.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.files import cache_dir

__all__ = ["NATIVE_GROUP", "NativeModule", "Status", "built_in", "jit_cache", "notices", "tell_notices_to"]

NATIVE_GROUP = "gridgames.native"
"""The entry-point group naming each built-in `NativeModule` (``name = "module:attribute"``): what the package's
build compiles and ``gridgames doctor`` reports."""
MANIFEST = ".manifest.json"
"""The suffix of a module's manifest, beside it: ``NAME.manifest.json``."""

_notices: list[str] = []
_said: set[str] = set()
_sink: list[Callable[[str], None]] = []


def notices() -> list[str]:
    """The one-line notices gathered since the last call (a module that does not verify, a JIT cache that cannot be
    written), each once; for the CLI layer to print."""
    out = list(_notices)
    _notices.clear()
    return out


def tell_notices_to(sink: Callable[[str], None]) -> None:
    """Give every notice, once, to ``sink`` as it arises (the CLI layer's writer to standard error)."""
    _sink[:] = [sink]
    for text in notices():
        sink(text)


def _notice(text: str) -> None:
    if text in _said:
        return
    _said.add(text)
    if _sink:
        _sink[0](text)
    else:
        _notices.append(text)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__


def _cpu_features() -> str:
    """The CPU's model and feature flags where the system tells them (a module is built for the CPU that built it)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [line for line in f if line.startswith(("model name", "flags", "Features"))]
        return "".join(dict.fromkeys(lines))
    except OSError:
        return os.uname().machine if hasattr(os, "uname") else sys.platform


def _numpy_version() -> str:
    """The installed numpy's version, read from its ``version.py`` (without importing numpy), or "unknown"."""
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return "unknown"
    try:
        text = (Path(next(iter(spec.submodule_search_locations))) / "version.py").read_text(encoding="utf-8")
    except OSError:
        return "unknown"
    import re

    found = re.search(r"""^(?:full_)?version\s*(?::\s*str\s*)?=\s*["']([0-9][^"']*)["']""", text, re.MULTILINE)
    return found.group(1) if found else "unknown"


def _machine() -> str:
    """The machine's architecture (as platform.machine, without importing platform)."""
    return os.uname().machine if hasattr(os, "uname") else os.environ.get("PROCESSOR_ARCHITECTURE", "unknown")


class Status:
    """What `NativeModule.status` found: the module's ``path``, whether it ``verifies``, and why not (``reason``)."""

    def __init__(self, path: Path | None, verifies: bool, reason: str) -> None:
        self.path, self.verifies, self.reason = path, verifies, reason


class NativeModule:
    """numba kernels compiled into one extension module with the package, loaded only when they verify.

    ``name``: the module's name (its init function is ``PyInit_<name>``); ``package``: the dotted package it is built
    into; ``here``: that package's folder (the kernel sources' folder); ``sources``: the file names there the module
    is compiled from; ``exported``: names a loaded module must have; ``define(cc)``: exports the kernels on a
    ``numba.pycc.CC`` (``cc.export(name, signature)(function)``), or ``"module:function"`` naming it (imported by the
    build only: a module that would import its kernels' users); ``use_nrt=False`` builds without numba's runtime
    (kernels that allocate nothing); ``force_jit``: an environment variable that, set, makes `load` return None.
    """

    def __init__(
        self,
        name: str,
        package: str,
        here: Path,
        sources: Sequence[str],
        define: Callable[[Any], None] | str,
        exported: Sequence[str] = (),
        use_nrt: bool = True,
        force_jit: str = "",
        what: str = "",
    ) -> None:
        self.name, self.package, self.here = name, package, here
        self.sources, self.exported = tuple(sources), tuple(exported)
        self.define, self.use_nrt, self.force_jit = define, use_nrt, force_jit
        self.what = what or name
        self._loaded: list[ModuleType | None] = []
        self._status: Status | None = None

    def file_name(self) -> str:
        """The module's file name (``NAME`` and this Python's extension suffix)."""
        return f"{self.name}{importlib.machinery.EXTENSION_SUFFIXES[0]}"

    def folders(self) -> list[Path]:
        """Where the module may be, in order: the installed package (built with it), then the user's cache folder
        (``gridgames doctor --rebuild``)."""
        return [self.here, cache_dir() / "native"]

    def target(self) -> dict[str, str]:
        """What a module must have been built for to load here: its kernel sources, Python, the machine and CPU."""
        sources = hashlib.sha256()
        for name in self.sources:
            sources.update(name.encode() + b"\0" + (self.here / name).read_bytes())
        return {
            "sources": sources.hexdigest()[:16],
            "python": sys.implementation.cache_tag,
            "machine": _machine(),
            "cpu": hashlib.sha256(_cpu_features().encode()).hexdigest()[:16],
        }

    def load(self) -> ModuleType | None:
        """The verified module, or None (numba's JIT kernels serve; `status` says why). Looked up once."""
        if not self._loaded:
            self._loaded.append(self._load())
        return self._loaded[0]

    def forget(self) -> None:
        """Make the next `load` look on disk again."""
        self._loaded.clear()
        self._status = None

    def status(self) -> Status:
        """Where the module is and whether it verifies (after `load`)."""
        self.load()
        assert self._status is not None  # set by _load
        return self._status

    def _load(self) -> ModuleType | None:
        if self.force_jit and os.environ.get(self.force_jit):
            self._status = Status(None, False, f"{self.force_jit} is set")
            return None
        target = self.target()
        first: Status | None = None
        said: list[str] = []
        for folder in self.folders():
            path = folder / self.file_name()
            manifest = folder / f"{self.name}{MANIFEST}"
            if not path.exists() and not manifest.exists():
                continue
            try:
                module = self._verified(path, manifest, target)
            except _Refused as exc:
                first = first or Status(path, False, str(exc))
                if exc.say:
                    said.append(
                        f"gridgames: the compiled {self.what} at {path} {exc}: numba's JIT kernels serve "
                        "(`gridgames doctor --rebuild` builds them again)"
                    )
                continue
            self._status = Status(path, True, "verifies")
            return module
        for text in said[:1]:
            _notice(text)
        self._status = first or Status(None, False, "not built (no C compiler at install, or a numba without pycc)")
        return None

    def _verified(self, path: Path, manifest: Path, target: dict[str, str]) -> ModuleType:
        """The module at path imported after its manifest's checks; raises `_Refused` saying why not."""
        try:
            recorded = json.loads(manifest.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise _Refused("has no manifest") from None
        except (OSError, ValueError) as exc:
            raise _Refused(f"has an unreadable manifest ({_first_line(exc)})") from None
        if not isinstance(recorded, dict):
            raise _Refused("has an unreadable manifest")
        # an editable install whose kernel sources changed since
        if recorded.get("sources") != target["sources"]:
            raise _Refused("was built from other kernel sources", say=False)
        for key in ("python", "machine", "cpu"):
            if recorded.get(key) != target[key]:
                raise _Refused(f"was built for another {'CPU' if key == 'cpu' else key}")
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise _Refused("is missing") from None
        except OSError as exc:
            raise _Refused(f"cannot be read ({_first_line(exc)})") from None
        if len(data) != recorded.get("size") or hashlib.sha256(data).hexdigest() != recorded.get("sha256"):
            raise _Refused("is damaged (its checksum differs from the build's)")
        numpy_now, numpy_then = _numpy_version(), str(recorded.get("numpy", "unknown"))
        if "unknown" not in (numpy_now, numpy_then) and numpy_now.split(".")[0] != numpy_then.split(".")[0]:
            raise _Refused(f"was built for numpy {numpy_then}, not {numpy_now}")
        try:
            return self.import_file(path)
        # a checksum that matches and a module that does not load: another numpy, say
        except Exception as exc:
            raise _Refused(f"does not load ({_first_line(exc)})") from None

    def import_file(self, path: Path) -> ModuleType:
        """Import the extension module at path (unchecked) and check it has every name of ``exported``."""
        loader = importlib.machinery.ExtensionFileLoader(self.name, str(path))
        spec = importlib.util.spec_from_file_location(self.name, path, loader=loader)
        if spec is None:
            raise ImportError("no import spec")
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        missing = [name for name in self.exported if not hasattr(module, name)]
        if missing:
            raise ImportError(f"it lacks {', '.join(missing)}")
        return module

    def build(self, folder: Path | None = None) -> Path:
        """Compile the kernels into ``folder`` (default: the user's cache folder, never the install) with their
        manifest; the module's path. Imports numba and needs a C compiler (numba.pycc); raises OSError, naming the
        cause, on any failure. Written under temporary names and renamed, so a process loading meanwhile never sees
        half a file, and a killed build leaves nothing behind but a temporary folder it removes on its next run."""
        folder = self.folders()[-1] if folder is None else folder
        try:
            return self._build(folder)
        except OSError:
            raise
        # numba.pycc missing from a future numba, a kernel numba cannot compile...
        except Exception as exc:
            raise OSError(f"{exc.__class__.__name__}: {_first_line(exc)}") from exc
        finally:
            self.forget()

    def _build(self, folder: Path) -> Path:
        import shutil
        import tempfile
        import warnings

        # numba.pycc is marked for deprecation; it still builds (numba 0.68)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from numba.pycc import CC

        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f".{self.name}-build-*"):  # left by a build that was killed
            shutil.rmtree(old, ignore_errors=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=f".{self.name}-build-") as tmp:
            try:
                cc = CC(self.name)  # type: ignore[no-untyped-call]  # numba.pycc has no type hints
            except Exception as exc:  # numba.pycc checks for a C compiler here
                raise OSError(f"no C compiler for numba.pycc ({exc.__class__.__name__}: {_first_line(exc)})") from exc
            cc.output_dir = tmp
            cc.use_nrt = self.use_nrt
            cc.target_cpu = "host"
            cc.verbose = False
            define = self.define
            if isinstance(define, str):
                module, _, function = define.partition(":")
                define = getattr(importlib.import_module(module), function)
            define(cc)
            with warnings.catch_warnings(), _captured_output(Path(tmp) / "build.log"):
                warnings.simplefilter("ignore")
                cc.compile()
            built = Path(tmp) / cc.output_file
            # a module that does not load (say, a kernel that needs numba's runtime) is a failed build
            try:
                self.import_file(built)
            except Exception as exc:
                raise OSError(f"the built module does not load ({exc})") from exc
            data = built.read_bytes()
            manifest = {
                **self.target(),
                "sha256": hashlib.sha256(data).hexdigest(),
                "size": len(data),
                "numpy": _numpy_version(),
                "module": self.name,
            }
            path = folder / self.file_name()
            side = Path(tmp) / "manifest.json"
            side.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(built, path)
            os.replace(side, folder / f"{self.name}{MANIFEST}")
        return path


class _Refused(Exception):
    """A module that must not be imported; ``say``: worth a notice (not a stale build of an editable install)."""

    def __init__(self, reason: str, say: bool = True) -> None:
        super().__init__(reason)
        self.say = say


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


def built_in() -> list[NativeModule]:
    """Every `NativeModule` the installed distributions name in the ``gridgames.native`` group (imports them)."""
    from gridgames.entry_points import entry_points

    found = []
    for ep in entry_points(NATIVE_GROUP):
        native = ep.load()
        if isinstance(native, NativeModule):
            found.append(native)
    return found


# numba's JIT cache -------------------------------------------------------------------------------------------------

_jit_roots: list[Path] = []
_stamps: dict[Path, str] = {}
_fallback: list[Path] = []


def jit_cache(source: str | Path) -> None:
    """Make numba cache the JIT kernels (``cache=True``) of the folder of ``source`` (a module's ``__file__``, or a
    folder) and below in the user's cache folder, not beside them. Call it at the top of a kernel module, before its
    decorators (imports numba). A cached kernel is stale when any ``.py`` file of its folder changed (numba alone
    checks only the file that defines it)."""
    root = Path(source).resolve()
    root = root.parent if root.suffix == ".py" else root
    if root not in _jit_roots:
        _jit_roots.append(root)
    from numba.core import caching

    locators: list[Any] = caching.CacheImpl._locator_classes  # numba's list, tried in order
    if _Locator not in locators:
        locators.insert(0, _Locator)


def _folder_stamp(folder: Path) -> str:
    """A hash of every ``.py`` file of the folder (the kernels of one folder call each other and share constants)."""
    if folder not in _stamps:
        digest = hashlib.sha256()
        for path in sorted(folder.glob("*.py")):
            with contextlib.suppress(OSError):
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
        _stamps[folder] = digest.hexdigest()[:16]
    return _stamps[folder]


def _writable(path: Path) -> bool:
    import tempfile

    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def _process_folder(why: Path) -> Path:
    """A temporary folder of this process for numba's cache (removed at exit), with the notice that says so."""
    import atexit
    import shutil
    import tempfile

    if not _fallback:
        _fallback.append(Path(tempfile.mkdtemp(prefix="gridgames-numba-")))
        atexit.register(shutil.rmtree, _fallback[0], True)
        _notice(
            f"gridgames: cannot write numba's cache in {why}: the kernels are compiled again in every process "
            "(slower; set XDG_CACHE_HOME to a writable folder)"
        )
    return _fallback[0]


class _Locator:
    """numba's cache locator for the folders given to `jit_cache`: the user's cache folder, else the process's."""

    def __init__(self, py_file: str, lineno: int, folder: Path) -> None:
        self._py_file, self._lineno = py_file, lineno
        self._source = Path(py_file).resolve().parent
        self._folder = folder

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _Locator | None:
        source = Path(py_file).resolve()
        if not any(source.is_relative_to(root) for root in _jit_roots):
            return None
        name = f"{source.parent.name}-{hashlib.sha256(str(source.parent).encode()).hexdigest()[:12]}"
        folder = cache_dir() / "numba" / name
        if not _writable(folder):
            folder = _process_folder(cache_dir() / "numba") / name
            folder.mkdir(parents=True, exist_ok=True)
        return cls(py_file, py_func.__code__.co_firstlineno, folder)

    def ensure_cache_path(self) -> None:
        self._folder.mkdir(parents=True, exist_ok=True)

    def get_cache_path(self) -> str:
        return str(self._folder)

    def get_source_stamp(self) -> str:
        return _folder_stamp(self._source)

    def get_disambiguator(self) -> str:
        return str(self._lineno)
