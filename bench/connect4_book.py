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
* --analyze PLIES (e.g. 0,2,4,6,8,10,14,20,30): ``gridgames connect4 analyze MOVES --json`` in a fresh process for
  seeded random 7x6 positions of each ply (the empty board for ply 0), as a user runs it: wall and child CPU
  seconds, start-up and kernel loading included, each run stopped by ``--think`` (--cap seconds; then the answer
  is partial and the time a lower bound); --shipped uses the shipped book instead of --no-book; --analyze-set
  Test_L1_R3 takes the positions from Begin-Hard's lines of each length instead (plies 1-13). With
  --book-load, the same for a 7x6 book of depth 9's size (the real keys, placeholder scores: it times the load
  and the lookup only, its scores mean nothing).
* --perfect-games N: N seeded 7x6 games of perfect (red, or --perfect-as yellow; default think, the book given
  with --book, else none, for both players) against each of --opponents (default medium; e.g.
  random,easy,medium,hard,perfect); prints each game's result, the
  plies where perfect's move was not exact (the depth-limited fallback) and its CPU seconds per move, then a
  tally per opponent.
* --bounded-parts 300,700,1000: those parts of the 7x6 build plan one ply deeper than the book (--book, default the
  shipped one) solved twice, plainly and with each position's lower bound from its parents' scores in the book
  (what `book build` does by default): positions explored, CPU seconds, how many scores equal their bound.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from gridgames_connect4.solve.book import HEADER_SIZE, BookKeys
from gridgames_connect4.solve.book_build import build_book, enumerate_entries
from gridgames_connect4.teach.review import review_game
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver, parse_pons_moves

GAMES_7X6 = [
    "2252576253462244111563365343671351441",  # 37 moves: the first position of Pons' End-Easy set
    # 28 moves: a Middle-Easy position (the last 20 moves start after 8)
    "1233722555341451114725221333",
]


def timed_build(
    folder: Path, name: str, w: int, h: int, depth: int, bits: int | None, **options: object
) -> tuple[float, bytes, int]:
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
        print(
            f"  this process  {one:7.2f} s  {entries:,} positions  {entries / one:8,.0f} positions/s per core  "
            f"{len(reference):,} bytes"
        )
        if parallel:
            two, data, _ = timed_build(folder, "two.bin", w, h, depth, bits, jobs=2)
            print(
                f"  --jobs 2      {two:7.2f} s  {one / two:.2f}x  {entries / two / 2:8,.0f} positions/s per core  "
                f"same bytes: {data == reference}"
            )
        if dask:
            from distributed import LocalCluster

            with LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
            ) as cluster:
                for run in ("first run", "warm"):
                    seconds, data, _ = timed_build(
                        folder, f"dask-{run}.bin", w, h, depth, bits, scheduler=cluster.scheduler_address
                    )
                    print(
                        f"  Dask 2 workers, {run:9} {seconds:7.2f} s  {one / seconds:.2f}x  same bytes: "
                        f"{data == reference}"
                    )


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
        print(
            f"  ply {ply:2}: {counts[ply]:9,} positions, mean {means[ply]:7.3f} s, median "
            f"{sorted(times)[len(times) // 2]:7.3f} s, "
            f"max {max(times):7.2f} s, {nodes / sum(times) / 1e6:.2f} M nodes/s",
            flush=True,
        )
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
        print(
            f"Review of moves {len(moves) - 19}-{len(moves)} of a 7x6 game {text} (no book): {seconds:.2f} s, "
            f"{len(review.mistakes())} mistake(s)",
            flush=True,
        )


def _random_position(ply: int, seed: int) -> str:
    """A seeded random 7x6 position of ``ply`` discs, game not over (the empty board for ply 0), as a move string."""
    game = Connect4()
    rng = random.Random(seed)
    while True:
        state = game.new_state()
        while len(state.history) < ply and not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over and len(state.history) == ply:
            return state.notation()


def _fresh(args: list[str], timeout: float) -> tuple[float, float, str]:
    """Run gridgames in a fresh process: wall seconds, its CPU seconds, its standard output.

    Bytecode is cached as a user's Python does it (PYTHONDONTWRITEBYTECODE is dropped from the child's
    environment; pip writes the installed package's bytecode at install time anyway), so the first run writes it.
    """
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gridgames", *args], capture_output=True, text=True, timeout=timeout, env=env
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 130):
        raise SystemExit(f"gridgames {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, cpu, done.stdout


def _set_positions(name: str, ply: int, count: int) -> list[str]:
    """The first ``count`` lines of ``ply`` moves of one of Pons' sets (his column digits are our notation's)."""
    from connect4_solver import DATA, sample_lines

    return [moves for moves, _ in sample_lines(DATA / name, None) if len(moves) == ply][:count]


def analyze_fresh(plies: list[int], per_ply: int, cap: float, shipped: bool = False, from_set: str = "") -> None:
    """analyze --json in a fresh process per position (no book, or the shipped one), stopped by --think cap."""
    book = [] if shipped else ["--no-book"]
    # numba's on-disk cache is warm after this
    _fresh(["connect4", "analyze", "4444443", "--json", "--no-book"], 600)
    which = "the shipped book" if shipped else "no book"
    source = f"lines of Pons' {from_set}" if from_set else "seeded random playouts"
    print(
        f"7x6 analyze --json {' '.join(book) or '(shipped book)'}, a fresh process per position, --think {cap:g}"
        f" (today's solver, {which}; positions: {source}; bytecode cached, as in a user's install)"
    )
    slow: list[tuple[float, str]] = []  # issue 12's bar: every position in at most 1 s (wall)
    runs = 0
    for ply in plies:
        walls, cpus, partial = [], [], 0
        count = 1 if ply == 0 else per_ply
        chosen = (
            _set_positions(from_set, ply, count)
            if from_set
            else [_random_position(ply, 1000 * ply + i) for i in range(count)]
        )
        for moves in chosen:
            wall, cpu, out = _fresh(["connect4", "analyze", moves, "--json", *book, "--think", f"{cap:g}"], cap + 120)
            answer = json.loads(out)
            partial += bool(answer.get("partial"))
            walls.append(wall)
            cpus.append(cpu)
            runs += 1
            if wall > 1.0:
                slow.append((wall, moves))
            shown = "exact" if not answer.get("partial") else f"stopped, {len(answer['unsolved'])} column(s) unsolved"
            print(
                f"    ply {ply:2} {moves or '(empty)':<32} {wall:7.2f} s wall {cpu:7.2f} s cpu  score "
                f"{answer['score']}  {shown}",
                flush=True,
            )
        mark = ">=" if partial else "  "
        print(
            f"  ply {ply:2}: mean {mark}{sum(walls) / len(walls):7.2f} s wall, {mark}{sum(cpus) / len(cpus):7.2f} s "
            "cpu "
            f"({len(walls)} position(s), {partial} stopped at {cap:g} s)",
            flush=True,
        )
    shown = ", ".join(f"{moves} ({len(moves)} discs) {wall:.2f} s" for wall, moves in sorted(slow, reverse=True))
    print(f"over 1 s wall: {len(slow)} of {runs} position(s){': ' + shown if slow else ''}", flush=True)


def book_load_fresh(depth: int, repeat: int) -> None:
    """analyze --json answered from a book of a 7x6 depth-``depth`` book's size in fresh processes (timing only)."""
    from gridgames_connect4.solve.book import Book

    keys, _ = enumerate_entries(7, 6, 4, depth)
    book = Book.from_entries(7, 6, 4, depth, keys, np.zeros(keys.shape[0], np.int8))
    with tempfile.TemporaryDirectory() as tmp:
        path = book.save(Path(tmp) / "placeholder.bin")
        size = path.stat().st_size
        started = time.perf_counter()
        Book.load(path, width=7, height=6, connect=4)
        load = time.perf_counter() - started
        print(
            f"7x6 book of depth {depth}'s size ({len(book):,} entries, {size:,} bytes; placeholder scores): "
            f"Book.load {load * 1000:.1f} ms in this process"
        )
        for moves in ("", "44", "4453", "44556612"):
            runs = [
                _fresh(["connect4", "analyze", moves, "--json", "--book", str(path)], 60)[:2] for _ in range(repeat)
            ]
            wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
            print(
                f"  analyze {moves or '(empty)':<9} --json --book: {wall:.2f} s wall, {cpu:.2f} s cpu (best of "
                f"{repeat}, fresh process)"
            )
        wall, cpu = min((_fresh(["--help"], 60)[:2] for _ in range(repeat)), key=lambda r: r[0])
        print(f"  gridgames --help (start-up alone): {wall:.2f} s wall, {cpu:.2f} s cpu")


def perfect_games(count: int, book_path: str | None, opponents: list[str], seat: str = "red") -> None:
    """Seeded 7x6 games of perfect (red or yellow) against each opponent: results, and perfect's moves not exact."""
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.levels import DEFAULT_THINK, make_player

    game = Connect4()
    book = Book.load(book_path, width=7, height=6, connect=4) if book_path else None
    me = 0 if seat == "red" else 1
    for opponent in opponents:
        other = "yellow" if me == 0 else "red"
        print(
            f"7x6: perfect ({seat}, --think {DEFAULT_THINK:g}, {'book ' + book_path if book else 'no book'}) "
            f"against {opponent} ({other}), {count} games (seeds 0..{count - 1})"
        )
        tally = {f"{seat} (perfect) wins": 0, "draw": 0, f"{other} ({opponent}) wins": 0}
        inexact_games, total_cpu, total_moves, worst = 0, 0.0, 0, 0.0
        for seed in range(count):
            state = game.new_state()
            seats = [
                make_player("perfect", game, random.Random(seed * 2), book=book),
                make_player(opponent, game, random.Random(seed * 2 + 1), book=book),
            ]
            if me == 1:
                seats.reverse()
            inexact, cpu, moves = [], 0.0, 0
            while not state.is_over:
                player = seats[state.current_player]
                started = time.process_time()
                column = player.choose(state)
                if state.current_player == me:
                    spent = time.process_time() - started
                    cpu += spent
                    worst = max(worst, spent)
                    moves += 1
                    if player.note:
                        inexact.append(len(state.history))
                state.play(column)
            outcome = state.outcome
            result = (
                "draw"
                if outcome.winner is None
                else (f"{seat} (perfect) wins" if outcome.winner == me else f"{other} ({opponent}) wins")
            )
            tally[result] += 1
            inexact_games += bool(inexact)
            total_cpu += cpu
            total_moves += moves
            print(
                f"  seed {seed}: {result} in {len(state.history)} moves; perfect's moves not exact at plies "
                f"{inexact or 'none'}; {cpu / moves:.2f} s cpu per move ({moves} moves)  {state.notation()}",
                flush=True,
            )
        print(
            f"  against {opponent}: "
            + ", ".join(f"{name} {n}" for name, n in tally.items())
            + f"; games with a move not exact: {inexact_games}; perfect's CPU {total_cpu / total_moves:.2f} s per move"
            f" (worst {worst:.2f} s)",
            flush=True,
        )


def bounded_parts(parts: list[int], bounds_path: str | None) -> None:
    """Parts of a 7x6 build one ply deeper than a book, solved plainly and from that book's parent bounds."""
    from gridgames_connect4.solve.book import Book, default_book, scores_of_keys
    from gridgames_connect4.solve.book_build import plan_parts

    book = Book.load(bounds_path) if bounds_path else default_book()
    if book is None:
        print("bounded parts: no 7x6 book to take bounds from")
        return
    depth = book.depth + 1
    keys, plies = enumerate_entries(7, 6, 4, depth)
    leaves = int((plies == depth).sum())
    plan = plan_parts(keys[:leaves], plies[:leaves])
    g = BookKeys(7, 6, 4)
    print(
        f"7x6 depth {depth} plan: {leaves:,} positions in {len(plan)} parts; bounds from the depth-{book.depth} book"
        f" ({book.path}); parts {parts}, one Solver per mode (table kept between positions, as a worker does)"
    )
    chosen = np.concatenate([plan[i] for i in parts])
    lower = g.parent_bounds(chosen, lambda wanted: scores_of_keys(book.keys, book.scores, wanted))
    results = {}
    for mode in ("plain", "bounded"):
        solver = Solver()
        solver.solve([3, 3])
        explored, start, scores = 0, time.process_time(), []
        for key, bound in zip(chosen.tolist(), lower.tolist()):
            moves = g.moves_of_key(key)
            use = mode == "bounded" and bound != 1 << 20
            scores.append(solver.solve(moves, lower=bound if use else None))
            explored += solver.explored
        cpu = time.process_time() - start
        results[mode] = (explored, cpu, scores)
        settled = sum(1 for b, s in zip(lower.tolist(), scores) if b == s)
        print(
            f"  {mode:8s} {len(scores)} positions: {explored:,} explored, {cpu:.1f} CPU s, "
            f"{cpu / len(scores) * 1000:.0f} ms each; score equals the bound for {settled}"
        )
    (pe, pc, ps), (be, bc, bs) = results["plain"], results["bounded"]
    print(f"  same scores: {ps == bs}; bounded / plain: positions {be / pe:.2f}x, CPU {bc / pc:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", default="5x4:8")
    parser.add_argument("--no-parallel", action="store_true")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--sample", type=int, default=0, help="7x6 positions solved per ply (0: skip)")
    parser.add_argument("--plies", default="5-8")
    parser.add_argument("--review", action="store_true")
    parser.add_argument("--table-bits", type=int, default=None)
    parser.add_argument("--analyze", default="", help="plies of 7x6 positions for analyze --json in fresh processes")
    parser.add_argument("--per-ply", type=int, default=2)
    parser.add_argument("--cap", type=float, default=30.0, help="--think for each analyze run (seconds)")
    parser.add_argument("--shipped", action="store_true", help="--analyze with the shipped book (default: --no-book)")
    parser.add_argument(
        "--analyze-set",
        default="",
        help="--analyze takes each ply's positions from this Pons set "
        "(a file name in the shared data, e.g. Test_L1_R3 for Begin-Hard) instead of random playouts",
    )
    parser.add_argument(
        "--book-load", type=int, default=0, help="time analyze from a placeholder 7x6 book of this depth"
    )
    parser.add_argument(
        "--perfect-games", type=int, default=0, help="seeded 7x6 games of perfect against each opponent"
    )
    parser.add_argument(
        "--opponents", default="medium", help="levels perfect plays in --perfect-games (comma-separated)"
    )
    parser.add_argument("--book", default=None, help="the 7x6 book perfect uses in --perfect-games")
    parser.add_argument(
        "--perfect-as", choices=["red", "yellow"], default="red", help="perfect's seat in --perfect-games"
    )
    parser.add_argument(
        "--bounded-parts",
        default="",
        help="parts (e.g. 300,700,1000) of the 7x6 plan one ply deeper "
        "than --book (default the shipped book): solved plainly and from the book's parent bounds",
    )
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.small:
        small_board(args.small, args.table_bits, not args.no_parallel, not args.no_dask)
    if args.sample:
        low, _, high = args.plies.partition("-")
        sample_7x6(args.sample, range(int(low), int(high or low) + 1), args.table_bits)
    if args.review:
        review_time()
    if args.book_load:
        book_load_fresh(args.book_load, 3)
    if args.perfect_games:
        perfect_games(args.perfect_games, args.book, args.opponents.split(","), args.perfect_as)
    if args.bounded_parts:
        bounded_parts([int(x) for x in args.bounded_parts.split(",")], args.book)
    if args.analyze:
        analyze_fresh([int(x) for x in args.analyze.split(",")], args.per_ply, args.cap, args.shipped, args.analyze_set)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
