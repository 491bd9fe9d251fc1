"""kernels_ready: a numba kernel is ready once compiled in the process or cached on disk; drop_stale_cache keeps numba's
cache of kernels spread over several modules true to their sources."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.search.compiled import drop_stale_cache, kernels_ready


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


@pytest.mark.slow
def test_a_kernel_cached_on_disk_follows_an_edit_of_the_module_whose_constant_it_reads(tmp_path: Path) -> None:
    package = tmp_path / "twomodules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "constants.py").write_text("K = 1\n")
    (package / "kernels.py").write_text(
        "from pathlib import Path\n"
        "from numba import njit\n"
        "from gridgames.search.compiled import drop_stale_cache\n"
        "drop_stale_cache([Path(__file__).with_name('constants.py'), Path(__file__)])\n"
        "from twomodules.constants import K\n\n"
        "@njit(cache=True)\n"
        "def k():\n"
        "    return K\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    # no .pyc: an edit of the same size within the second of the first run would leave constants.py's bytecode
    # looking current (it records the source's mtime in whole seconds), and the kernel would read the old K
    env["PYTHONDONTWRITEBYTECODE"] = "1"

    def run() -> str:
        code = "from twomodules.kernels import k; print(k())"
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                              check=True).stdout.strip()

    assert run() == "1"
    assert list((package / "__pycache__").glob("kernels.k-*.nbi"))  # numba cached it
    (package / "constants.py").write_text("K = 2\n")  # numba alone would keep answering 1 (it checks kernels.py only)
    assert run() == "2"


def test_a_stale_cache_is_dropped_once_and_only_the_kernel_modules_files(tmp_path: Path) -> None:
    sources = [tmp_path / "a.py", tmp_path / "b.py"]
    for path in sources:
        path.write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    cached = ["a.f-3.py311.nbi", "a.f-3.py311.1.nbc", "b.g-9.py311.2.nbc"]
    others = ["c.h-1.py311.nbi", "a.cpython-311.pyc", "ab.f-1.py311.nbi"]
    for name in cached + others:
        (cache / name).write_bytes(b"x")
    assert drop_stale_cache(sources)  # no stamp yet: the cache may come from any sources
    assert sorted(p.name for p in cache.iterdir() if not p.name.endswith(".numba-stamp")) == sorted(others)
    for name in cached:
        (cache / name).write_bytes(b"x")
    assert not drop_stale_cache(sources)  # cached from these sources: kept
    assert all((cache / name).is_file() for name in cached)
    sources[1].write_text("x = 2\n")
    assert drop_stale_cache(sources)
    assert not any((cache / name).exists() for name in cached)
