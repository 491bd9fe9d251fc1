"""Benchmark of the judges on the batch call: the post-game review and the learning environments' judge.

Usage: python bench/connect4_judges.py [--game MOVES] [--from 38,30,25,15,8] [--repeat 3] [--steps 400] [--quick]

* Review: a scripted 7x6 game (default: 40 moves of a seeded medium-against-easy game) reviewed from
  move N on, without a book, two ways in the same process, alternating, best of --repeat, each way
  with its own `Solver` (default table), `reset()` before each run (O(1)), so that the first touch
  of the table's pages (page faults, which dominate a short review in a fresh process) is paid once
  and not measured: "one by one", the review as it was before the batch call
  (each position's columns by `Solver.analyze` in slices, first move first, table kept), and
  `review_game` (the children of several positions per `Solver.solve_many` call, last move first,
  table kept; positions dearer than 10 ms searched alone in slices). Both must give the same review.
* Hints: `players.advise` on every position of that game with at most 22 empty cells (where it now
  solves every column in one `Solver.solve_many` call, table kept) against the path it took before
  (`best_move` within --think 2, all columns scored), in game order, one `Solver` each (reset before
  each pass), best of --repeat: ms per hint.
* Judge: random games in the Gymnasium environment (`gym_env("connect4", "random", judge=True)`),
  a random agent, --steps agent steps on each board; the judge's CPU time per agent step is the run
  with the judge minus the same run (same seeds, same moves) without it. "before": a solver without
  `solve_many` (every position solved by its own `solve` call, as before); "after": the judge as it is.

Times are CPU seconds of this process (`time.process_time`), and wall seconds; the load average is
printed before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

GAME = "4444352152146225467253333132666671117777"
"""The first 40 moves of a seeded 7x6 game, medium (red) against easy (think 0.2 s, seeds 23 and 123)."""


def load() -> str:
    """The load average as text."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(run: Callable[[], Any]) -> tuple[float, float, Any]:
    """(CPU seconds, wall seconds, result) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = run()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def review_one_by_one(game: Any, moves: Sequence[int], first: int, solver: Any) -> list[tuple[int, int, tuple]]:
    """The review as it was before the batch call (main's review_game without a book): the game checked, then each
    position's columns by one sliced `Solver.analyze`, first move first, table kept."""
    from gridgames_connect4.teach.review import MoveReview

    moves = tuple(int(m) for m in game.from_moves(moves).history)
    watch = lambda _progress: None  # noqa: E731  # a watcher: the search runs in slices (Ctrl-C gets through)
    reviews = []
    for i, column in enumerate(moves[first - 1 :], start=first - 1):
        scores = solver.analyze(list(moves[:i]), on_progress=watch)
        best = max(s for s in scores if s is not None)
        reviews.append(
            MoveReview(
                i + 1,
                i % 2,
                column,
                scores[column],
                best,
                tuple(c for c, s in enumerate(scores) if s == best),
                tuple(scores),
            )
        )
    return [(r.score, r.best, r.columns) for r in reviews]


def review_bench(text: str, starts: list[int], repeat: int) -> None:
    from gridgames_connect4.teach.review import review_game
    from gridgames_connect4.position.rules import Connect4
    from gridgames_connect4.solve.solver import Solver

    game = Connect4()
    moves = game.from_notation(text).history
    print(f"Review of a {len(moves)}-move 7x6 game {text} (no book), best of {repeat}, a warm Solver for each way")
    solvers = (Solver(), Solver())
    for solver in solvers:  # touch the tables' pages once
        review_game(game, moves, first=min(starts), solver=solver)
    print(
        f"  {'from':>4} {'moves':>5}  {'one by one cpu ms':>17} {'wall ms':>8}  {'batched cpu ms':>14} {'wall ms':>8}"
        f"  {'ratio':>6}  {'solve_many calls':>16}  same"
    )
    for first in starts:
        best_old = best_new = (float("inf"), float("inf"))
        calls: list[int] = []
        same = True
        for _ in range(repeat):
            solvers[0].reset()
            cpu, wall, old = timed(lambda: review_one_by_one(game, moves, first, solvers[0]))
            best_old = min(best_old, (cpu, wall))
            original = Solver.solve_many
            calls.clear()

            def counted(self: Any, positions: Any, weak: bool = False, reset: bool = True, _o: Any = original) -> Any:
                calls.append(len(positions))
                return _o(self, positions, weak=weak, reset=reset)

            Solver.solve_many = counted  # type: ignore[method-assign]
            try:
                solvers[1].reset()
                cpu, wall, new = timed(lambda: review_game(game, moves, first=first, solver=solvers[1]))
            finally:
                Solver.solve_many = original  # type: ignore[method-assign]
            best_new = min(best_new, (cpu, wall))
            same &= [(r.score, r.best, r.columns) for r in new.reviews] == old
        ratio = best_old[0] / max(best_new[0], 1e-9)
        print(
            f"  {first:>4} {len(moves) - first + 1:>5}  {best_old[0] * 1e3:>17.2f} {best_old[1] * 1e3:>8.2f}"
            f"  {best_new[0] * 1e3:>14.2f} {best_new[1] * 1e3:>8.2f}  {ratio:>5.2f}x  {len(calls):>16}  {same}"
        )


def hint_bench(text: str, repeat: int) -> None:
    from gridgames_connect4 import levels
    from gridgames_connect4.solve.oracle import BATCH_EMPTY_CELLS, pending_columns, solve_pending
    from gridgames_connect4.position.rules import Connect4
    from gridgames_connect4.solve.solver import Solver, nodes_for_seconds

    game = Connect4()
    moves = list(game.from_notation(text).history)
    plies = [n for n in range(len(moves)) if game.width * game.height - n <= BATCH_EMPTY_CELLS]
    old_solver, new_solver = Solver(), Solver()
    budget = nodes_for_seconds(levels.DEFAULT_THINK) * 4 // 3 + 1

    def before() -> list:
        old_solver.reset()
        return [old_solver.best_move(moves[:n], max_nodes=budget).scores for n in plies]

    def after() -> list:
        new_solver.reset()
        return [solve_pending(new_solver, [pending_columns(game, moves, [n])[n]])[0] for n in plies]

    before(), after()  # touch the tables' pages
    best_old = min(timed(before)[0] for _ in range(repeat))
    best_new = min(timed(after)[0] for _ in range(repeat))
    same = [tuple(x) for x in before()] == [tuple(x) for x in after()]
    print(
        f"Hints on the {len(plies)} positions of that game with at most {BATCH_EMPTY_CELLS} empty cells"
        f" (plies {plies[0]}-{plies[-1]}, in game order, table reset before each pass), best of {repeat}:"
        f" before (best_move) {best_old / len(plies) * 1e3:.3f} ms, after (one solve_many) "
        f"{best_new / len(plies) * 1e3:.3f}"
        f" ms per hint, {best_old / best_new:.2f}x; same scores: {same}"
    )


class _OneAtATime:
    """A solver without the batch call: the judge then solves every position by its own `solve` call."""

    def __init__(self, solver: Any) -> None:
        self._solver = solver

    def solve(self, moves: Sequence[int]) -> int:
        return int(self._solver.solve(moves))

    def win_score(self, moves_before: int) -> int:
        return int(self._solver.win_score(moves_before))


def judged_run(
    width: int, height: int, steps: int, opening: int, judge: str | None, seed: int = 0
) -> tuple[float, int]:
    """CPU seconds of ``steps`` random agent steps (whole games from random openings), and the games played."""
    from gridgames.rl import gym_env

    env = gym_env("connect4", "random", width=width, height=height, judge=judge is not None, judge_table_bits=None)
    if judge == "before":
        env.judge._solver = _OneAtATime(env.judge._solver)  # type: ignore[union-attr]
    rng = np.random.default_rng(seed)
    done = games = 0
    cpu = time.process_time()
    while done < steps:
        moves = _opening(width, height, opening, rng)
        observation, _info = env.reset(seed=int(rng.integers(2**31)), options={"moves": moves})
        games += 1
        terminated = False
        while not terminated and done < steps:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _reward, terminated, _truncated, _info = env.step(action)
            done += 1
    return time.process_time() - cpu, games


def _opening(width: int, height: int, plies: int, rng: np.random.Generator) -> list[int]:
    """A random opening of ``plies`` moves that does not end the game (0-based columns)."""
    from gridgames_connect4.position.rules import Connect4

    game = Connect4(width, height)
    while True:
        state = game.new_state()
        for _ in range(plies):
            state.play(int(rng.choice(list(state.legal_moves()))))
            if state.is_over:
                break
        if not state.is_over:
            return list(state.history)


def judge_bench(steps: int, repeat: int) -> None:
    print(f"Judge: gym_env('connect4', 'random', judge=True), a random agent, {steps} agent steps, best of {repeat}")
    print(
        f"  {'board':>5} {'opening':>7}  {'no judge cpu s':>14}  {'before: judge ms/step':>21}  "
        f"{'after: judge ms/step':>20}  games"
    )
    for width, height, opening in ((5, 4, 0), (6, 5, 0), (7, 6, 16)):
        judged_run(width, height, 20, opening, "after")  # compile, and the first touch of a table
        best = {"none": float("inf"), "before": float("inf"), "after": float("inf")}
        games = 0
        for _ in range(repeat):
            for kind in ("none", "before", "after"):
                cpu, games = judged_run(width, height, steps, opening, None if kind == "none" else kind)
                best[kind] = min(best[kind], cpu)
        per = {k: (best[k] - best["none"]) / steps * 1e3 for k in ("before", "after")}
        print(
            f"  {width}x{height:<3} {opening:>7}  {best['none']:>14.3f}  {per['before']:>21.3f}  {per['after']:>20.3f} "
            f" {games}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME, help="The game to review (1-based digits).")
    parser.add_argument("--from", dest="starts", default="38,30,25,15,8", help="Review from these move numbers on.")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--steps", type=int, default=400, help="Agent steps per judge run.")
    parser.add_argument("--quick", action="store_true", help="Review from 25 and 15 only, one run, 100 steps.")
    args = parser.parse_args()
    starts = [int(x) for x in args.starts.split(",")]
    repeat, steps = args.repeat, args.steps
    if args.quick:
        starts, repeat, steps = [25, 15], 1, 100
    print(
        f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, load average before: "
        f"{load()}"
    )
    from gridgames_connect4.solve.solver import Solver

    timed(lambda: Solver(5, 4).solve([2, 2]))  # compile (or load the cache) first
    review_bench(args.game, starts, repeat)
    hint_bench(args.game, max(repeat, 3))
    judge_bench(steps, repeat)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
