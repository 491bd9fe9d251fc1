"""Long argument lists: functions outside compiled kernels taking more than `MAX_PARAMETERS` parameters.

Their number may only fall (`KNOWN_LONG`): a new one should take a settings object (as the tiling engine's
`SearchOptions` or the solver's limits) instead of loose arguments. Compiled kernels (numba's ``@njit``) are left
out: numba types their arguments one by one.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
MAX_PARAMETERS = 8
KNOWN_LONG = 25  # 23, then gridgames.native.NativeModule and the compiled negamax's search (as negamax's)
"""How many such functions there are today (typer commands, whose options are parameters, most of them)."""


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The parameters a caller can give: ``self`` and ``cls`` left out, ``*args`` and ``**kwargs`` counted once."""
    a = node.args
    count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)
    first = (a.posonlyargs + a.args)[:1]
    return count - (1 if first and first[0].arg in ("self", "cls") else 0)


def _compiled(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether numba compiles the function (a decorator naming ``jit``: ``@njit``, ``@numba.njit(...)``...)."""
    return any("jit" in ast.unparse(decorator) for decorator in node.decorator_list)


def long_functions(paths: list[Path]) -> list[str]:
    """``path:line name (n parameters)`` of every function outside compiled kernels with too many parameters."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not _compiled(node):
                if _parameters(node) > MAX_PARAMETERS:
                    found.append(f"{path}:{node.lineno} {node.name} ({_parameters(node)} parameters)")
    return found


def _sources() -> list[Path]:
    return sorted(
        path
        for folder in ("gridgames", "games", "examples")
        for path in (REPOSITORY / folder).rglob("*.py")
        if "build" not in path.relative_to(REPOSITORY).parts
    )


def test_long_argument_lists_do_not_grow() -> None:
    found = long_functions(_sources())
    assert len(found) <= KNOWN_LONG, "take a settings object instead of loose arguments:\n" + "\n".join(found)


def test_the_count_sees_methods_keywords_and_leaves_kernels_out(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from numba import njit\n"
        "def few(a, b, c, d, e, f, g, h): pass\n"
        "def many(a, b, c, d, e, f, g, *, h, i): pass\n"
        "class K:\n    def method(self, a, b, c, d, e, f, g, h): pass\n"
        "    def long(self, a, b, c, d, e, f, g, *args, **kwargs): pass\n"
        "@njit(cache=True)\ndef kernel(a, b, c, d, e, f, g, h, i, j): pass\n"
    )
    assert [line.split(" ", 1)[1] for line in long_functions([module])] == [
        "many (9 parameters)",
        "long (9 parameters)",
    ]
