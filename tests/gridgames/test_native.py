"""The kernels compiled with the package (`gridgames.native`): verified before they are imported, never written into
the install at run time, right answers from a read-only install.

Each test runs whole commands in fresh processes on a copy of the installed packages (PYTHONPATH first), so what it
damages or makes read-only is never the install the other tests use.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.native import MANIFEST, NativeModule, built_in

PACKAGES = ("gridgames", "gridgames_connect4", "gridgames_pentomino")
ANALYZE = ["-m", "gridgames", "connect4", "analyze", "442551175727", "--json"]
COUNT = ["-m", "gridgames", "solve", "pentomino", "--board", "3x20", "--count"]
VECTOR = [
    "-c",
    "from gridgames_connect4.learn.vector import Connect4VectorBackend\n"
    "from gridgames_connect4.position.rules import Connect4\n"
    "import numpy as np\n"
    "b = Connect4VectorBackend(Connect4(), 8, 'perfect', 0)\n"
    "b.reset(np.ones(8, np.bool_), list(range(8)))\n"
    "r, t, _ = b.step(np.arange(8) % 7, np.ones(8, np.bool_))\n"
    "print(b._moves.tolist(), r.tolist(), t.tolist())\n",
]
COMMANDS = {"_gridgames_c4_kernels": ANALYZE, "_gridgames_tiling_kernels": COUNT, "_gridgames_c4_vector": VECTOR}
"""For each compiled module, a command that runs on it."""


def _same(module: str, out: str) -> str:
    """What must not differ between two runs' outputs (a count's line names its time)."""
    return out.split(" in ")[0] if module == "_gridgames_tiling_kernels" else out


def _modules() -> dict[str, NativeModule]:
    return {native.name: native for native in built_in()}


def _all_verify() -> bool:
    modules = _modules()
    return set(modules) == set(COMMANDS) and all(
        native.status().path is not None and native.status().verifies and native.status().path.parent == native.here  # type: ignore[union-attr]
        for native in modules.values()
    )


needs_modules = pytest.mark.skipif(not _all_verify(), reason="the package was installed without its compiled kernels")


def _copy_of_the_install(into: Path) -> Path:
    """A copy of the installed packages (their compiled modules too), without Python's bytecode."""
    import importlib

    for name in PACKAGES:
        source = Path(importlib.import_module(name).__file__).parent  # type: ignore[arg-type]
        shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return into


def _env(tree: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GRIDGAMES_") and k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")
    }
    env.update(PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", COLUMNS="120", **extra)
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _copy_of_the_install(tmp_path_factory.mktemp("install"))


@pytest.fixture(scope="module")
def answers(tree: Path) -> dict[str, str]:
    """Each command's output on the intact modules."""
    out = {}
    for name, args in COMMANDS.items():
        done = _run(args, _env(tree), tree.parent)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        out[name] = done.stdout
    return out


def _damage(kind: str, path: Path, manifest: Path, other: Path) -> None:
    data = path.read_bytes()
    rng = random.Random(f"{kind}{path.name}")
    if kind == "truncated-4000":
        path.write_bytes(data[:4000])
    elif kind == "truncated-half":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind in ("flipped-8-bits", "flipped-1-bit"):
        buffer = bytearray(data)
        for offset in rng.sample(range(64, len(buffer)), 8 if kind == "flipped-8-bits" else 1):
            buffer[offset] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(buffer))
    elif kind == "foreign":
        # another module's file under this name (its own exports, not these)
        path.write_bytes(other.read_bytes())
    elif kind == "missing":
        path.unlink()
    elif kind == "manifest-of-another":
        fields = json.loads(manifest.read_text())
        fields["sha256"] = "0" * 64  # a manifest that does not describe the file (another build's)
        manifest.write_text(json.dumps(fields))
    else:
        raise AssertionError(kind)


KINDS = ("truncated-4000", "truncated-half", "empty", "flipped-8-bits", "flipped-1-bit", "foreign", "missing")
"""Seven damages of each of the three modules: 21 variants."""


@needs_modules
@pytest.mark.parametrize("module", sorted(COMMANDS))
@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_module_gives_the_right_answer_or_one_line_never_a_signal(
    tree: Path,
    answers: dict[str, str],
    module: str,
    kind: str,
) -> None:
    native = _modules()[module]
    folder = tree.joinpath(*native.package.split("."))
    path, manifest = folder / native.file_name(), folder / f"{module}{MANIFEST}"
    other = next(tree.joinpath(*m.package.split("."), m.file_name()) for m in _modules().values() if m.name != module)
    saved = path.read_bytes(), manifest.read_bytes()
    try:
        _damage(kind, path, manifest, other)
        done = _run(COMMANDS[module], _env(tree), tree.parent)
    finally:
        path.write_bytes(saved[0])
        manifest.write_bytes(saved[1])
    assert done.returncode >= 0, f"killed by signal {-done.returncode}: {done.stderr[-500:]}"
    if done.returncode == 2:
        assert done.stderr.count("\n") == 1, done.stderr
        return
    assert done.returncode == 0 and _same(module, done.stdout) == _same(module, answers[module]), done.stderr[-800:]
    said = [line for line in done.stderr.splitlines() if f"{path}" in line]
    # the CLI says it, once
    assert len(said) == (0 if module == "_gridgames_c4_vector" else 1), done.stderr


@needs_modules
def test_a_read_only_install_and_home_give_the_right_answers(
    tree: Path, answers: dict[str, str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    read_only = tmp_path / "ro"
    shutil.copytree(tree, read_only)
    for root in (read_only, home):
        for path in [root, *root.rglob("*")]:
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    user_home = home
    # root writes through any mode bits: a home inside a file cannot be written by anyone
    if os.geteuid() == 0:
        (tmp_path / "file").write_text("")
        user_home = tmp_path / "file" / "home"
    before = _listing([read_only])
    try:
        env = _env(read_only, HOME=str(user_home))
        env.pop("XDG_CACHE_HOME", None)
        for name, args in COMMANDS.items():
            done = _run(args, env, tmp_path)
            assert done.returncode == 0 and _same(name, done.stdout) == _same(name, answers[name]), done.stderr[-800:]
        tall = _run(
            ["-m", "gridgames", "connect4", "analyze", "44", "--height", "10", "--think", "1", "--json"], env, tmp_path
        )  # over 64 bits
        assert tall.returncode == 0 and json.loads(tall.stdout)["moves"] == "44", tall.stderr[-800:]
        # numba's JIT, which can cache nowhere here
        jit = _run(COUNT, env | {"GRIDGAMES_TILING_JIT": "1"}, tmp_path)
        assert jit.returncode == 0 and _same("_gridgames_tiling_kernels", jit.stdout) == _same(
            "_gridgames_tiling_kernels", answers["_gridgames_tiling_kernels"]
        ), jit.stderr[-800:]
        assert jit.stderr.count("cannot write numba's cache") == 1, jit.stderr
        assert _listing([read_only]) == before
    finally:
        for root in (read_only, home):
            for path in [root, *root.rglob("*")]:
                path.chmod(path.stat().st_mode | stat.S_IWUSR)


def _listing(roots: list[Path]) -> dict[str, tuple[int, int]]:
    return {
        str(p): (p.stat().st_size, p.stat().st_mtime_ns)
        for root in roots
        for p in root.rglob("*")
        if p.suffix != ".pyc"
    }


def test_no_file_of_the_install_changes_while_commands_run(tmp_path: Path) -> None:
    import importlib

    roots = [Path(importlib.import_module(name).__file__).parent for name in PACKAGES]  # type: ignore[arg-type]
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    before = _listing(roots)
    for args, extra in (
        (ANALYZE, {}),
        (["-m", "gridgames", "connect4", "analyze", "4444", "--no-book"], {}),
        (COUNT, {}),
        (VECTOR, {"GRIDGAMES_VECTOR_JIT": "1"}),
        (["-m", "gridgames", "doctor"], {}),
    ):
        done = _run(args, {**env, **extra}, tmp_path)
        assert done.returncode in (0, 1), done.stderr[-800:]
    assert _listing(roots) == before


def test_doctor_reports_each_module_and_whether_it_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gridgames.cli import app

    for native in built_in():
        native.forget()
    result = CliRunner().invoke(app, ["doctor"])
    lines = result.stdout.splitlines()
    assert sorted(line.split()[0] for line in lines) == sorted(COMMANDS)
    assert result.exit_code == (0 if all(line.endswith(" ok") for line in lines) else 1), result.output
    modules = _modules()
    monkeypatch.setattr(modules["_gridgames_c4_vector"], "folders", lambda: [Path("/nonexistent")])
    monkeypatch.setattr("gridgames.native.built_in", lambda: list(modules.values()))
    modules["_gridgames_c4_vector"].forget()
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 1 and "_gridgames_c4_vector (vector env kernels): not built" in result.stdout
    assert "gridgames doctor --rebuild" in result.stderr
    modules["_gridgames_c4_vector"].forget()


def test_a_numba_without_pycc_fails_the_build_in_one_line_and_installs_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    native = _modules()["_gridgames_c4_vector"]
    # as after numba removes pycc: its import fails
    monkeypatch.setitem(sys.modules, "numba.pycc", None)
    with pytest.raises(OSError, match=r"^(ModuleNotFoundError|ImportError): "):
        native.build(tmp_path)
    # no module, no manifest, no temporary folder: numba's JIT serves
    assert not any(tmp_path.iterdir())
