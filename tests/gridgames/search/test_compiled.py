"""kernels_ready: a numba kernel is ready once compiled in the process or cached on disk; `gridgames.native.jit_cache`
keeps numba's cache in the user's cache folder, true to every source of the kernels' folder."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.search.compiled import kernels_ready


def test_a_cached_kernel_is_ready_only_after_its_first_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    source = tmp_path / "fresh_kernel_module.py"
    source.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")

    def load() -> object:
        spec = importlib.util.spec_from_file_location("fresh_kernel_module", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    monkeypatch.setitem(sys.modules, "fresh_kernel_module", None)
    module = load()
    assert not kernels_ready(module.twice)  # type: ignore[attr-defined]
    assert module.twice(21) == 42  # type: ignore[attr-defined]
    assert kernels_ready(module.twice)  # type: ignore[attr-defined]
    assert kernels_ready(load().twice)  # type: ignore[attr-defined]  # a new process would find the cache on disk


def test_something_that_is_not_a_caching_kernel_does_not_block() -> None:
    assert kernels_ready(len, object())


def _two_modules(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A package of two modules, a kernel reading the other's constant, cached through `jit_cache`; its environment."""
    package = tmp_path / "twomodules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "constants.py").write_text("K = 1\n")
    (package / "kernels.py").write_text(
        "from numba import njit\n"
        "from gridgames.native import jit_cache\n"
        "jit_cache(__file__)\n"
        "from twomodules.constants import K\n\n"
        "@njit(cache=True)\n"
        "def k():\n"
        "    return K\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    # no .pyc: an edit of the same size within the second of the first run would leave constants.py's bytecode
    # looking current (it records the source's mtime in whole seconds), and the kernel would read the old K
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return package, env


def _run(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "from twomodules.kernels import k; from gridgames.native import notices; print(k(), notices())"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )


def test_a_kernel_cached_in_the_users_cache_follows_an_edit_of_the_module_whose_constant_it_reads(
    tmp_path: Path,
) -> None:
    package, env = _two_modules(tmp_path)
    assert _run(tmp_path, env).stdout.split() == ["1", "[]"]
    # cached there
    assert list((tmp_path / "cache" / "gridgames" / "numba").glob("twomodules-*/kernels.k-*.nbi"))
    assert not (package / "__pycache__").exists()  # nothing written beside the sources
    # numba alone would keep answering 1 (it checks kernels.py only)
    (package / "constants.py").write_text("K = 2\n")
    assert _run(tmp_path, env).stdout.split() == ["2", "[]"]


def test_where_the_cache_cannot_be_written_the_kernel_still_runs_and_says_so_once(tmp_path: Path) -> None:
    package, env = _two_modules(tmp_path)
    # as a read-only home: no folder
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    out = _run(tmp_path, env).stdout
    assert out.startswith("1 [") and out.count("cannot write numba's cache") == 1, out
    assert not (package / "__pycache__").exists()
