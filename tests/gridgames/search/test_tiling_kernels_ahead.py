"""The tiling kernels compiled with the package: the same answers as numba's JIT, only for the argument types built
for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from gridgames.grid import Grid
from gridgames.search import tiling
from gridgames.search.tiling import kernels
from gridgames.shapes import PENTOMINOES

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
NO_COMPILER = not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc"))


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A cache folder (for XDG_CACHE_HOME) holding the kernels built for the current sources, or None where the
    module the package was built with is current. Built once a session (about 30 s of CPU, the workload's JIT
    kernels warm)."""
    kernels._loaded.clear()
    if kernels.load() is not None:
        return None
    if NO_COMPILER:
        pytest.skip("no C compiler: numba.pycc cannot build the kernels ahead of time")
    cache = tmp_path_factory.mktemp("cache")
    kernels.build(cache / "gridgames" / "native")
    return cache


@pytest.fixture()
def ahead(built: Path | None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process and the processes it starts find the kernels built ahead of time."""
    if built is not None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(built))
    monkeypatch.delenv("GRIDGAMES_TILING_JIT", raising=False)
    kernels._loaded.clear()
    assert kernels.load() is not None, kernels.missing_reason()
    yield
    kernels._loaded.clear()


def test_argument_keys_tell_apart_what_numba_compiles_apart() -> None:
    a = np.zeros(4, dtype=np.int64)
    frozen = a.copy()
    frozen.flags.writeable = False
    arguments = (a, a.astype(np.int32), a.reshape(2, 2), frozen, a[::2], 3, np.uint64(3), (a, 1))
    keys = {kernels.args_key((x,)) for x in arguments}
    assert len(keys) == 8
    # values do not matter
    assert kernels.args_key((a, 1)) == kernels.args_key((np.ones(9, dtype=np.int64), 7))


@pytest.mark.slow
def test_a_call_of_unseen_argument_types_runs_the_jit_kernel() -> None:
    coords = np.array([(0, 0), (0, 1), (1, 0), (1, 1)], dtype=np.int64)
    # the module (if built) exports int64 coordinates only
    got = kernels.square_neighbours(coords.astype(np.int32))
    assert np.array_equal(got, kernels.square_neighbours.jit()(coords))


@pytest.mark.slow
@pytest.mark.parametrize("board", [Grid.empty(3, 20), CENTRE_8X8, Grid.empty(5, 12)])
@pytest.mark.usefixtures("ahead")
def test_the_module_built_ahead_counts_as_the_jit_kernels(board: Grid) -> None:
    problem = tiling.TilingProblem.build(board, PENTOMINOES)
    module = kernels.load()
    assert any(name.startswith("one_word_run__") for name in dir(module))
    assert any(name.startswith("build_place__") for name in dir(module))
    ahead = [tiling.count(problem, unique=u).count for u in (False, True)]
    code = (
        "from gridgames.search import tiling; from gridgames.grid import Grid; "
        "from gridgames.shapes import PENTOMINOES; import sys\n"
        f"p = tiling.TilingProblem.build(Grid.from_text({board.to_text()!r}), PENTOMINOES)\n"
        "print(tiling.count(p).count, tiling.count(p, unique=True).count, 'numba' in sys.modules)"
    )
    jit = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"GRIDGAMES_TILING_JIT": "1", **_env()},
    )
    assert jit.stdout.split() == [*map(str, ahead), "True"]


@pytest.mark.usefixtures("ahead")
def test_a_count_with_the_module_built_ahead_never_imports_numba() -> None:
    code = (
        "import sys; from gridgames.search import tiling; from gridgames.grid import Grid; "
        "from gridgames.shapes import PENTOMINOES\n"
        "p = tiling.TilingProblem.build(Grid.empty(4, 15), PENTOMINOES)\n"
        "print(tiling.count(p, on_progress=lambda f, n: None).count, tiling.count(p, unique=True).count, "
        "'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env())
    assert out.stdout.split() == ["1472", "368", "False"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "GRIDGAMES_TILING_JIT"}


def test_an_export_missing_from_the_module_runs_the_jit_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    coords = np.array([(0, 0), (0, 1), (1, 0)], dtype=np.int64)
    key = kernels.args_key((coords,))
    name = kernels.export_name
    assert name(kernels.square_neighbours, key) != name(kernels.square_neighbours, key + "x")
    module = type("Module", (), {name(kernels.square_neighbours, key + "x"): staticmethod(lambda c: None)})
    # a module that exports the kernel for other types only
    monkeypatch.setattr(kernels, "_loaded", [module])
    assert np.array_equal(kernels.square_neighbours(coords), kernels.square_neighbours.jit()(coords))


@pytest.mark.slow
@pytest.mark.usefixtures("ahead")
def test_a_fresh_count_from_the_command_line_never_imports_numba() -> None:
    pytest.importorskip("gridgames_pentomino", reason="the pentomino game is not installed")
    code = (
        "import runpy, sys\n"
        "sys.argv = ['gridgames', 'solve', 'pentomino', '-b', '3x20', '--count']\n"
        "try:\n    runpy.run_module('gridgames', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print('numba' in sys.modules, 'rich' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env())
    assert out.stdout.split()[0] == "8" and out.stdout.split()[-2:] == ["False", "False"], out.stdout + out.stderr
