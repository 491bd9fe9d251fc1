"""The generic engines every game gets: game-tree search, exact cover, tiling and the parallel runner.

* two-player games: `negamax` (alpha-beta with iterative deepening), `mcts` (UCT with random playouts) and
  `players` (the computer players and the factory that picks one for a game);
* exact cover and puzzles: `exact_cover` (Knuth's Algorithm X on dancing links, its numba kernel in
  `_exact_cover_kernel`), `puzzle` (`ExactCoverPuzzle`: any placement puzzle, on the tiling engine's bitmask kernel
  when it fits, else on dancing links), `backtrack` (the readable reference tiling solver), `frontier` (counts with
  unlimited copies of each piece) and `symmetry` (board symmetries, solutions up to symmetry);
* `tiling/`: the fast tiling engine on bit masks (problems, kernels, counting by parts; its own map);
* running parts of a search at once: `parallel` (`run_parts`: this process, local worker processes or a Dask
  cluster), with `_workers` (local workers and their watchdog), `_parallel_dask` (the Dask side) and
  `_parallel_parts` (what the two sides share);
* `compiled`: whether numba kernels are ready, and kernels compiled ahead of time into extension modules.

Importing this package imports none of them.
"""
