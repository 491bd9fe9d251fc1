"""Benchmark of the Connect Four book builder: build rate, --jobs 2 and Dask speed-ups, 7x6 extrapolation, review time.

Usage: python bench/connect4_book.py [--small 5x4:8] [--no-parallel] [--no-dask] [--sample N] [--plies 5-8]
                                     [--review] [--table-bits B]

* Small board: builds the whole book in this process, with --jobs 2 and on a two-worker Dask LocalCluster;
  prints positions/s per core and the speed-ups (every build gives the same bytes: checked).
* 7x6: solves a seeded sample of the book's positions of each ply with one Solver whose table is kept between
  positions (as a build worker does), deepest ply first; extrapolates the time to build books of depth 4..10
  on one core (entries of each ply x mean seconds at that ply; plies below the sampled ones use the mean of
  the shallowest sampled ply, an underestimate) and gives each book's size.
* Review: times `review_game` on the last 20 moves of two 7x6 games (no book).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from gridgames_connect4.book import HEADER_SIZE, BookKeys
from gridgames_connect4.book_build import build_book, enumerate_entries
from gridgames_connect4.review import review_game
from gridgames_connect4.rules import Connect4
from gridgames_connect4.solver import Solver, parse_pons_moves

GAMES_7X6 = [
    "2252576253462244111563365343671351441",  # 37 moves: the first position of Pons' End-Easy set
    "1233722555341451114725221333",  # 28 moves: a Middle-Easy position (the last 20 moves start after 8)
]


def timed_build(folder: Path, name: str, w: int, h: int, depth: int, bits: int | None, **options: object) -> tuple[float, bytes, int]:
    path = folder / name
    started = time.perf_counter()
    report = build_book(w, h, 4, depth, path, table_bits=bits, **options)  # type: ignore[arg-type]
    return time.perf_counter() - started, path.read_bytes(), report.entries


def small_board(spec: str, bits: int | None, parallel: bool, dask: bool) -> None:
    size, _, depth_text = spec.partition(":")
    w, h = (int(x) for x in size.split("x"))
    depth = int(depth_text)
    print(f"Build of the {w}x{h} book, depth {depth} (table 2^{bits or 'default'} per worker)")
    Solver(w, h, 4).solve([])  # compile/load the kernels before timing
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        one, reference, entries = timed_build(folder, "one.bin", w, h, depth, bits)
        print(f"  this process  {one:7.2f} s  {entries:,} positions  {entries / one:8,.0f} positions/s per core  "
              f"{len(reference):,} bytes")
        if parallel:
            two, data, _ = timed_build(folder, "two.bin", w, h, depth, bits, jobs=2)
            print(f"  --jobs 2      {two:7.2f} s  {one / two:.2f}x  {entries / two / 2:8,.0f} positions/s per core  "
                  f"same bytes: {data == reference}")
        if dask:
            from distributed import LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                              dashboard_address=None) as cluster:
                for run in ("first run", "warm"):
                    seconds, data, _ = timed_build(folder, f"dask-{run}.bin", w, h, depth, bits,
                                                   scheduler=cluster.scheduler_address)
                    print(f"  Dask 2 workers, {run:9} {seconds:7.2f} s  {one / seconds:.2f}x  same bytes: {data == reference}")


def sample_7x6(sample: int, plies: range, bits: int | None) -> None:
    keys, ply_of = enumerate_entries(7, 6, 4, 10)
    counts = np.bincount(ply_of, minlength=11)
    geometry = BookKeys(7, 6, 4)
    solver = Solver(7, 6, 4, table_bits=bits)
    solver.solve([3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4])  # load the kernels
    rng = random.Random(2024)
    means: dict[int, float] = {}
    print(f"7x6: {sample} positions per ply, one Solver (table kept), deepest ply first")
    for ply in sorted(plies, reverse=True):
        chosen = sorted(rng.sample(list(np.flatnonzero(ply_of == ply)), min(sample, int(counts[ply]))))
        times, nodes = [], 0
        for i in chosen:
            started = time.perf_counter()
            solver.solve(geometry.moves_of_key(int(keys[i])))
            times.append(time.perf_counter() - started)
            nodes += solver.explored
        means[ply] = sum(times) / len(times)
        print(f"  ply {ply:2}: {counts[ply]:9,} positions, mean {means[ply]:7.3f} s, median {sorted(times)[len(times) // 2]:7.3f} s, "
              f"max {max(times):7.2f} s, {nodes / sum(times) / 1e6:.2f} M nodes/s", flush=True)
    shallowest = min(means)
    print("  depth   entries   book bytes   one core (extrapolated)")
    total = 0.0
    for depth in range(0, 11):
        total += counts[depth] * means.get(depth, means[shallowest] if depth < shallowest else means[max(means)])
        if depth >= 4:
            entries = int(counts[: depth + 1].sum())
            print(f"  {depth:5}  {entries:9,}  {HEADER_SIZE + 9 * entries:11,}   {total / 3600:8.1f} h")


def review_time() -> None:
    game = Connect4()
    for text in GAMES_7X6:
        moves = parse_pons_moves(text)
        started = time.perf_counter()
        review = review_game(game, moves, first=len(moves) - 19)
        seconds = time.perf_counter() - started
        print(f"Review of moves {len(moves) - 19}-{len(moves)} of a 7x6 game {text} (no book): {seconds:.2f} s, "
              f"{len(review.mistakes())} mistake(s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", default="5x4:8")
    parser.add_argument("--no-parallel", action="store_true")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--sample", type=int, default=0, help="7x6 positions solved per ply (0: skip)")
    parser.add_argument("--plies", default="5-8")
    parser.add_argument("--review", action="store_true")
    parser.add_argument("--table-bits", type=int, default=None)
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.small:
        small_board(args.small, args.table_bits, not args.no_parallel, not args.no_dask)
    if args.sample:
        low, _, high = args.plies.partition("-")
        sample_7x6(args.sample, range(int(low), int(high or low) + 1), args.table_bits)
    if args.review:
        review_time()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
