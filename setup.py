"""The package's build: setuptools as configured in pyproject.toml, plus the compiled kernels (`gridgames.native`).

Each module named in the ``gridgames.native`` entry-point group of pyproject.toml is compiled by ``build_ext``
(``numba.pycc``, which needs a C compiler) into its package, with a manifest beside it holding its checksum and what it
was built for: ``pip install .`` and ``pip wheel .`` put them into the installed tree or the wheel (tagged for this
platform), ``pip install -e .`` beside the sources. Why this route: it reuses the builders and the very kernel sources
the JIT runs (one source of truth, already tested against each other), needs no second language, and the build
environment has what they need (numpy, numba: `[build-system] requires`). Should ``numba.pycc`` go, or no C compiler be
present, the build says why on standard error and goes on: the package installs without the modules and numba's JIT
kernels serve (the tests run that path too). ``GRIDGAMES_NO_NATIVE=1`` skips the compiled modules on purpose.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def native_entries() -> dict[str, str]:
    """The ``gridgames.native`` entry points of pyproject.toml: module name -> "module:attribute"."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return dict(project["entry-points"]["gridgames.native"])


class BuildNative(build_ext):
    """Compile each native module with its own builder (`gridgames.native.NativeModule.build`), not a C compiler's
    sources: the extension's name is its package and module name, its sources the entry point."""

    def run(self) -> None:
        if os.environ.get("GRIDGAMES_NO_NATIVE"):
            print("gridgames: GRIDGAMES_NO_NATIVE is set: no compiled kernels (numba's JIT serves)", file=sys.stderr)
            return
        # the sources being built, not an installed gridgames
        sys.path[:0] = [str(ROOT), str(ROOT / "games")]
        # numba's JIT cache of the build's own runs goes to a folder of the build, not the builder's home
        with tempfile.TemporaryDirectory(prefix="gridgames-build-cache-") as cache:
            os.environ["XDG_CACHE_HOME"] = cache
            super().run()

    def build_extension(self, ext: Extension) -> None:
        import importlib

        module, _, attribute = ext.sources[0].partition(":")
        start = time.perf_counter()
        try:
            native = getattr(importlib.import_module(module), attribute)
            if native.name != ext.name.rpartition(".")[2]:
                raise ValueError(f"{ext.sources[0]} is {native.name}, not named so in pyproject.toml")
            path = native.build(Path(self.get_ext_fullpath(ext.name)).parent)
        except Exception as exc:  # no compiler, no numba.pycc: the package works on numba's JIT
            print(f"gridgames: cannot compile {ext.name} ({exc}): numba's JIT kernels will serve", file=sys.stderr)
            return
        print(f"gridgames: compiled {path.name} in {time.perf_counter() - start:.0f} s", file=sys.stderr)

    def copy_extensions_to_source(self) -> None:
        """An editable install: the modules beside their sources, and their manifests."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            inplace, regular = (Path(p) for p in self._get_inplace_equivalent(build_py, ext))
            manifest = f"{ext.name.rpartition('.')[2]}.manifest.json"
            if (regular.parent / manifest).exists():
                self.copy_file(str(regular.parent / manifest), str(inplace.parent / manifest))

    def get_source_files(self) -> list[str]:
        return []  # the entry points are no files (the kernel sources are the packages' own)


setup(
    ext_modules=[
        Extension(f"{value.split(':')[0].rpartition('.')[0]}.{name}", sources=[value], optional=True)
        for name, value in native_entries().items()
    ],
    cmdclass={"build_ext": BuildNative},
)
