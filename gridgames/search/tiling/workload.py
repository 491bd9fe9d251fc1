"""The calls whose argument types the tiling kernels compiled with the package serve, and their build's exports.

Kept apart from `kernels`, which the engine imports: this module imports the engine to run it. (The lattices'
counts, triangles and cubes, call the kernels with no other argument types: measured when this replaced them.)
"""

from __future__ import annotations

from typing import Any

__all__ = ["define", "workload"]


def define(cc: Any) -> None:
    """Export, on ``cc`` (a ``numba.pycc.CC``), each kernel once per argument types `workload` calls it with
    (`gridgames.search.tiling.kernels.NATIVE`'s build)."""
    from gridgames.search.tiling import kernels

    seen = kernels.record_signatures(workload)
    for kernel in kernels.KERNELS:
        for key, signature in sorted(seen.get(kernel.qualname, {}).items(), key=lambda kv: kv[0]):
            cc.export(kernels.export_name(kernel, key), signature)(kernel.jit().py_func)


def workload() -> None:
    """The calls whose argument types the built module serves: square boards (all, distinct, listing, split, MRV),
    a board with holes, pieces with copies, a board over 64 cells."""
    from gridgames.grid import Grid
    from gridgames.search import tiling
    from gridgames.shapes import PENTOMINOES, TETROMINOES

    centre = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
    boards = (Grid.empty(3, 20), centre, Grid.empty(4, 15))
    problems = [tiling.TilingProblem.build(board, PENTOMINOES) for board in boards]
    problems.append(tiling.TilingProblem.build(Grid.empty(4, 5), {**TETROMINOES, "I": TETROMINOES["I"]}))

    def quiet(fraction: float, found: int) -> None:
        """Progress reports (the CLI's bar asks for the searches' fractions)."""

    for problem in problems:
        for unique in (False, True):
            tiling.count(problem, unique=unique, on_progress=quiet)
            tiling.count(problem, unique=unique, method="search", on_progress=quiet)
            tiling.count(problem, unique=unique, mrv=True, on_progress=quiet)
            list(tiling.solve(problem, unique=unique, limit=3, on_progress=quiet))
            # a count by parts, as count_parallel runs it
            how = tiling.split_plan(problem, unique=unique)
            for part in tiling.split(how.problem, 8, unique=how.unique, method=how.method, roots=how.roots):
                tiling.count_part(how.problem, part, unique=how.unique, method=how.method)
        tiling.count(problem, prune=False, on_progress=quiet)
        tiling.count(problem, unique="canonical", on_progress=quiet)
    wide = tiling.TilingProblem.build(Grid.empty(5, 13), {**PENTOMINOES, "L2": PENTOMINOES["L"]})
    for unique in (False, True):  # more than 64 cells: the multi-word kernel
        list(tiling.solve(wide, unique=unique, limit=2, on_progress=quiet))
        list(tiling.solve(wide, unique=unique, limit=2, mrv=True, on_progress=quiet))
