"""Importing this module loads the tiling kernels (numba's cache) by counting a tiny problem, all and up to symmetry.

A fork server imports it once (`gridgames.search.parallel.run_parts(preload=...)`), so the
workers forked from it start with the kernels ready instead of loading them each. Dask
workers can do the same when they start, so that the first count does not wait for them:
``dask worker tcp://HOST:8786 --nthreads 1 --preload gridgames.search.tiling.warm_up``.
"""

from __future__ import annotations

from gridgames.grid import Grid
from gridgames.search import tiling
from gridgames.shapes import PENTOMINOES

_problem = tiling.TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)
tiling.count(_problem)
tiling.count(_problem, unique=True)
