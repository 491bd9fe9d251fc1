"""The fast tiling engine: exact cover of a set of cells by pieces, on bit masks, with numba.

A `TilingProblem` is compiled once from a board and a piece set::

    problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES)
    count(problem).count                  # 9356
    count(problem, unique=True).count     # 2339 (up to the board's symmetries)
    for solution in solve(problem, limit=3): ...

Files, one job each:

* building a problem: `problem.py` compiles a board and pieces into arrays (`TilingProblem`); `one_word.py` adds
  the one-word kernel's arrays (probe table, MRV columns); `unique.py` prepares counting up to symmetry, and
  `stabilisers.py` splits one piece's placements by their stabilisers when no piece can be restricted;
  `general.py` compiles any exact cover of up to 64 items for the kernels (items as cells, secondary items through
  slack options); `from_puzzle.py` compiles an `ExactCoverPuzzle` either way (`KernelProblem`);
* the kernels: `kernel_one_word.py` and `kernel_multi_word.py`, their structured arguments and constants in
  `kernel_types.py` (no numba) and `kernel_common.py` (the helpers they share); `kernel_build.py` compiles the arrays
  of problems on one word; `kernels.py` says where they come from (built ahead of time, else numba's JIT) and
  `workload.py` lists the calls the ahead-of-time build serves; `warm_up.py` loads them in a fork server or Dask
  worker;
* running them: `stepping.py` runs a kernel a node budget at a time (`Search`); `driver.py` streams solutions and
  counts (`solve`, `count`), as `planning.py` chooses (scan order, pre-placed piece); `orbits.py` counts and lists
  all tilings from the distinct ones (each stands for its orbit under the board's symmetries);
* by parts: `parts.py` splits a count into parts (`split`, `count_part`) and `parallel_count.py` counts them on
  every core or a Dask cluster (`count_parallel`, through `gridgames.search.parallel.run_parts`).

Vocabulary (the short names in the kernels):

* **cell**: a board cell, by its index in scan order; bit ``c`` of a mask.
* **scan order**: ``"column"`` (down each column), ``"row"`` or ``"diagonal"`` (r + c, then r); by
  default along the shorter side (`gridgames.pieces.short_side_order`), so first-blank search runs
  there; counting all, `count` may search the problem `TilingProblem.reordered` along the diagonals.
* **option** (``o``): one placement of one orientation of a piece; its **anchor** is its
  first cell in scan order. **mask** (``m``): an option's cells as bits.
* **occupancy** (``occ``): the covered cells; **copies left** (``rem``) per piece, and
  **used** (one-word kernel): the bit set of pieces with no copy left.
* **column**: what the next placement must cover -- the first blank cell, or with
  ``mrv=True`` (Knuth's MRV) the cell, or piece with one copy left, with the fewest
  fitting options. Its **candidates** are the options that could cover it.
* **entry** (one-word kernel): a candidate with its mask and piece inline; the **probe
  table** lists, for each cell and occupancy of the ``probe_bits`` cells after it, the
  entries anchored there that fit; a **run** is consecutive entries of one piece.
* **stack**: at depth ``d``, candidates ``beg[d]:lim[d]``, the next to try ``pos[d]``,
  the option placed ``chosen[d]``.
* **prune**: flood-fill each empty **region** next to a new placement, up to ``cap``
  cells, and reject a region whose size no multiset of the remaining pieces fills
  (**reach**: the bit set of fillable sizes).
* **deadline** (``late``): a piece that must still be placed but has no option anchored
  at or after the first blank cell kills the branch.
* **part**: the node reached by a prefix of placements, with its **weight** (Knuth's
  estimate of its share of the tree); the parts of `split` add up to the whole count.
* **unique**: counting one solution per class of the board's symmetries (`Unique`).
* **orbits**: all solutions as the distinct ones, each standing for its orbit (``|G|`` over its
  stabiliser's size); the default for counting and listing all when a piece can be restricted
  (``method="auto"``: `count` pre-places that piece at one placement per orbit, the piece chosen by
  Knuth's estimates of the trees; a tree estimated under ``PLAIN_FIRST`` nodes is counted plainly), ``"search"`` is the
  plain search, ``"orbits"`` forces orbits.

Pieces are anything `gridgames.pieces.as_pieces` reads (``{name: Shape}``, `Piece`s...);
copies of a piece are interchangeable, so they never multiply solutions. When every
copy must be used, the checkerboard colouring test first proves some problems empty
(5 tetrominoes on 4x5, 35 hexominoes on 6x35) without searching.

The search is resumable: the kernel runs for a node budget, returns, and the driver
calls it again. Hence `solve` streams solutions (a `SolutionStream`: stop any time,
``limit``, ``partial`` after Ctrl-C or ``close()``), `count` reports progress through
``on_progress(fraction, solutions)`` and returns a `CountResult` flagged ``partial`` on
Ctrl-C. `split(problem, min_parts)` (or ``depth=``) lists independent, picklable `Part`s
whose counts by ``count_part(problem, part)`` add up to the total (pass the same
``mrv``/``prune``/``unique`` to both); `solve` and `count` also accept ``start=`` a `Part`,
option indices or `Placement`s. `TilingProblem` pickles too. ``multiword=True`` forces
the multi-word kernel (for testing it on small boards).
"""

from __future__ import annotations

from gridgames.search.tiling.driver import SolutionStream, count, solve
from gridgames.search.tiling.parts import SplitPlan, count_part, split, split_plan
from gridgames.search.tiling.stepping import Part, colour_feasible
from gridgames.search.tiling.orbits import METHODS, OrbitStream, Plan, plan
from gridgames.search.tiling.problem import TilingProblem, prune_cap
from gridgames.search.tiling.unique import Prepared, Unique, prepare_unique


def kernels_compiled() -> bool:
    """Whether the tiling kernels are ready: built ahead of time (`kernels`), or numba's JIT kernels compiled or cached
    (False: the next build and count compile them, about 15 s once per install)."""
    from gridgames.search.tiling import kernels

    return kernels.load() is not None or kernels.jit_ready()


__all__ = [
    "METHODS",
    "OrbitStream",
    "Part",
    "Plan",
    "Prepared",
    "SolutionStream",
    "SplitPlan",
    "TilingProblem",
    "Unique",
    "colour_feasible",
    "count",
    "count_part",
    "kernels_compiled",
    "plan",
    "prepare_unique",
    "prune_cap",
    "solve",
    "split",
    "split_plan",
]
