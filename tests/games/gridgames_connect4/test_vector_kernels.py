"""The vector env's kernels compiled with the package (numba.pycc): the JIT kernels' games step for step, no numba."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from gridgames_connect4.learn import vector_aot
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.learn.vector import Connect4VectorBackend
from gridgames.errors import OptionError

NO_COMPILER = not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the vector kernels built ahead of time for the current sources (a few seconds)."""
    if NO_COMPILER:
        pytest.skip("no C compiler: numba.pycc cannot build the kernels ahead of time")
    folder = tmp_path_factory.mktemp("vector-kernels")
    # the JIT kernels run first in this process: the build must not link their machine code (it needed numba's
    # runtime once, and the built module did not load)
    jit = Connect4VectorBackend(Connect4(), 4, "random", 1, kernels="jit")
    jit.reset(np.ones(4, np.bool_), [1, 2, 3, 4])
    jit.step(np.zeros(4, np.int64), np.ones(4, np.bool_))
    vector_aot.build(folder)
    vector_aot.NATIVE.forget()
    return folder


def _kernels_only_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The backend looks for kernels built ahead of time in ``folder`` alone (forgetting what it loaded before and
    after)."""
    monkeypatch.delenv(vector_aot.FORCE_JIT, raising=False)
    monkeypatch.setattr(vector_aot.NATIVE, "folders", lambda: [folder])
    vector_aot.NATIVE.forget()
    yield folder
    vector_aot.NATIVE.forget()


@pytest.fixture()
def ahead(built: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The backend finds only the kernels in `built`."""
    yield from _kernels_only_in(built, monkeypatch)


@pytest.fixture()
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The backend finds no kernels built ahead of time (an empty folder)."""
    yield from _kernels_only_in(tmp_path, monkeypatch)


def _state(backend: Connect4VectorBackend) -> list[np.ndarray]:
    return [backend.observation, backend.action_mask, backend._heights, backend._lengths, backend._moves, backend._rng]


@pytest.mark.parametrize(
    ("width", "height", "connect", "seat"), [(7, 6, 4, 0), (7, 6, 4, 1), (9, 7, 5, 0), (4, 4, 3, 1)]
)
@pytest.mark.slow
def test_kernels_built_ahead_play_the_jit_kernels_games(
    ahead: Path, width: int, height: int, connect: int, seat: int
) -> None:
    game = Connect4(width=width, height=height, connect=connect)
    n = 64
    aot = Connect4VectorBackend(game, n, "random", seat, kernels="aot")
    jit = Connect4VectorBackend(game, n, "random", seat, kernels="jit")
    assert aot.kernels is vector_aot.load() and jit.kernels is not aot.kernels
    everyone = np.ones(n, np.bool_)
    for backend in (aot, jit):
        backend.reset(everyone, list(range(100, 100 + n)))
    for a, b in zip(_state(aot), _state(jit)):
        np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(7)
    ends = illegal_moves = 0
    for _ in range(300):
        # mostly legal columns, some illegal (full or out of range); the envs that ended are reset, as autoreset does
        actions = np.where(
            rng.random(n) < 0.03,
            rng.integers(-1, width + 1, n),
            np.argmax(rng.random((n, width)) * aot.action_mask, axis=1),
        ).astype(np.int64)
        active = aot.action_mask.any(axis=1)
        outs = [backend.step(actions, active) for backend in (aot, jit)]
        for a, b in zip(outs[0], outs[1]):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(_state(aot), _state(jit)):
            np.testing.assert_array_equal(a, b)
        done = outs[0][1] | ~active
        ends += int(outs[0][1].sum())
        illegal_moves += int(outs[0][2].sum())
        for backend in (aot, jit):
            backend.reset(done.copy(), [None] * n)
    assert ends > n and illegal_moves > 0  # the run ended many games, some by an illegal action


def test_kernels_built_ahead_serve_a_perfect_opponents_replies_as_the_jit_ones(ahead: Path) -> None:
    game = Connect4()
    aot = Connect4VectorBackend(game, 8, "perfect", 1, kernels="aot")
    jit = Connect4VectorBackend(game, 8, "perfect", 1, kernels="jit")
    for backend in (aot, jit):
        backend.reset(np.ones(8, np.bool_), list(range(8)))
    for _ in range(4):
        actions = np.argmax(aot.action_mask, axis=1).astype(np.int64)
        outs = [backend.step(actions, np.ones(8, np.bool_)) for backend in (aot, jit)]
        for a, b in zip(outs[0], outs[1]):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(_state(aot), _state(jit)):
            np.testing.assert_array_equal(a, b)


def test_a_process_with_kernels_built_ahead_resets_and_steps_with_the_judge_without_numba(built: Path) -> None:
    code = (
        "import sys\nfrom pathlib import Path\nfrom gridgames_connect4.learn import vector_aot\n"
        f"vector_aot.NATIVE.folders = lambda: [Path({str(built)!r})]\n"
        "from gridgames.rl import vector_env\n"
        "env = vector_env('connect4', num_envs=16, judge=True)\n"
        "obs, info = env.reset(seed=3)\n"
        "obs, *_ , info = env.step(obs['action_mask'].argmax(axis=1))\n"
        "print(int(obs['observation'].sum()), env.backend.kernels is vector_aot.load(), 'numba' in sys.modules)"
    )
    environ = {k: v for k, v in os.environ.items() if k != vector_aot.FORCE_JIT}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=environ)
    assert out.returncode == 0, out.stderr
    # 16 envs, the agent's disc and the reply in each
    assert out.stdout.split() == ["32", "True", "False"]


def test_without_a_module_the_jit_kernels_serve_and_nothing_is_built(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path | None] = []

    def refuse_build(folder: Path | None = None) -> Path:
        calls.append(folder)
        raise OSError("not built here")

    monkeypatch.setattr(vector_aot.NATIVE, "build", refuse_build)
    with pytest.raises(OptionError, match="no ahead-of-time vector kernels: not built"):
        Connect4VectorBackend(Connect4(), 2, "random", 0, kernels="aot")
    assert Connect4VectorBackend(Connect4(), 2, "random", 0).kernels is vector_aot.jit()
    # a run never builds (the package's build does)
    assert not calls and not list(nowhere.iterdir())


def test_the_environment_can_force_the_jit(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_aot.NATIVE, "folders", lambda: [built])
    monkeypatch.setenv(vector_aot.FORCE_JIT, "1")
    vector_aot.NATIVE.forget()
    assert Connect4VectorBackend(Connect4(), 2, "random", 0).kernels is vector_aot.jit()
    monkeypatch.delenv(vector_aot.FORCE_JIT)
    vector_aot.NATIVE.forget()
    assert Connect4VectorBackend(Connect4(), 2, "random", 0).kernels is vector_aot.load() is not None
    vector_aot.NATIVE.forget()
    with pytest.raises(OptionError, match="kernels must be one of auto, jit, aot"):
        Connect4VectorBackend(Connect4(), 2, "random", 0, kernels="fast")


def test_the_backend_refuses_arrays_of_another_length_than_its_envs() -> None:
    backend = Connect4VectorBackend(Connect4(), 3, "random", 0)
    backend.reset(np.ones(3, np.bool_), [0, 1, 2])
    with pytest.raises(OptionError, match=r"one value per env, shape \(3,\), not \(4,\)"):
        backend.step(np.zeros(4, np.int64), np.ones(4, np.bool_))
    with pytest.raises(OptionError, match="one value per env"):
        backend.reset(np.ones(2, np.bool_), [None, None])
    # lists become arrays of the right types
    reward, terminated, _ = backend.step([3, 3, 3], [True, True, True])
    assert not terminated.any() and backend._lengths.tolist() == [2, 2, 2]
