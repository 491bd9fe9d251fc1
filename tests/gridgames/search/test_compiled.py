"""kernels_ready: a numba kernel is ready once compiled in the process or cached on disk."""

from __future__ import annotations

import importlib.util
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
