"""The generic AIs' budgets on a Blokus-sized game (issue 53): time and node budgets, MCTS playouts, RL levels.

    python bench/ai_budgets_heavy.py                 # 5 runs of each, alternating, medians
    python bench/ai_budgets_heavy.py --runs 9 --listing-ms 0.8

The game is Duo (tests/support/gridgames_test_support/duo.py): Blokus Duo's rules on
14 x 14, 13,729 placements, a few hundred legal moves a position. Its listing of the
legal moves (a numpy pass over every placement, about 0.2 ms) is made to cost about
1 ms, as issue 53's Blokus plugin did, by burning ``--listing-ms`` more CPU. Each run
starts from a middle-game position (6 seeded random plies; a different seed each run).

Printed: the core count and load; the listing's cost; then, each a median over the runs
(and the range):

- negamax ``--think 1`` (seconds=1.0): wall and CPU seconds the search took, and the CPU
  seconds a whole depth 1 takes (what the old search always finished before looking at its clock);
- negamax ``--nodes 200`` (max_nodes=200): positions searched;
- the same two with main's negamax (``git show main:gridgames/search/negamax.py``, loaded
  as a module: today's reference), alternating with ours;
- MCTS ``--think 1``: wall seconds, and playouts per CPU second with the game's playout
  policy and 4-move playouts against the old rollout (uniform random moves to the end:
  ``Duo(cheap_playouts=False)``), the ratio of the two; runs of the two alternate;
- the learning environments' ``easy`` and ``medium`` levels: CPU seconds for one move.

Wall seconds are what a user waits; on a loaded machine the CPU burn of a listing takes
longer in wall time, so the rates and costs are given in CPU time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from gridgames_test_support.duo import Duo, DuoState

from gridgames.rl.gym import make_opponent
from gridgames.search.mcts import mcts
from gridgames.search.negamax import search


def _main_negamax() -> ModuleType | None:
    """main's negamax module (the reference), or None when git cannot show it."""
    root = Path(__file__).resolve().parents[1]
    shown = subprocess.run(
        ["git", "show", "main:gridgames/search/negamax.py"], cwd=root, capture_output=True, text=True, check=False
    )
    if shown.returncode != 0:
        return None
    path = Path(tempfile.mkdtemp()) / "main_negamax.py"
    path.write_text(shown.stdout)
    spec = importlib.util.spec_from_file_location("main_negamax", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _position(game: Duo, seed: int) -> DuoState:
    state, rng = game.new_state(), random.Random(seed)
    for _ in range(6):
        state.play(rng.choice(list(state.legal_moves())))
    return state


def _listing_ms(game: Duo, runs: int = 200) -> float:
    state = _position(game, 0)
    started = time.process_time()
    for _ in range(runs):
        state._legal = {}
        list(state.legal_moves())
    return (time.process_time() - started) / runs * 1000


def _timed(call: Callable[[], object]) -> tuple[float, float, object]:
    """Wall seconds, CPU seconds and the result of ``call``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def _line(label: str, values: list[float], unit: str = "") -> None:
    low, high = min(values), max(values)
    print(f"  {label:<52} median {statistics.median(values):9.3f}{unit}  range {low:.3f}-{high:.3f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--listing-ms", type=float, default=0.8, help="extra CPU ms each listing burns")
    args = parser.parse_args()
    extra = args.listing_ms / 1000
    new, old = Duo(listing_seconds=extra), Duo(listing_seconds=extra, cheap_playouts=False)
    print(f"cores {os.cpu_count()}, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"listing the legal moves: {_listing_ms(new):.2f} ms of CPU ({_listing_ms(Duo()):.2f} ms without the burn)")

    think, think_cpu, depth1, depth1_wall, nodes, m_wall, rates, old_rates = ([] for _ in range(8))
    main_think, main_nodes = [], []
    levels: dict[str, list[float]] = {"easy": [], "medium": []}
    reference = _main_negamax()
    for run in range(args.runs):
        state = _position(new, run)
        engines = [(search, think, think_cpu, nodes)]
        if reference is not None:
            engines.append((reference.search, main_think, [], main_nodes))
        for engine, walls, cpus, counts in engines if run % 2 == 0 else engines[::-1]:
            wall, cpu, _ = _timed(lambda: engine(state, seconds=1.0, rng=random.Random(run)))
            walls.append(wall)
            cpus.append(cpu)
            counts.append(engine(state, seconds=None, max_nodes=200, rng=random.Random(run)).nodes)
        wall, cpu, _ = _timed(lambda: search(state, seconds=None, max_depth=1))
        depth1.append(cpu)
        depth1_wall.append(wall)
        pairs = [(new, rates), (old, old_rates)]
        for game, out in pairs if run % 2 == 0 else pairs[::-1]:  # alternate which goes first
            position = _position(game, run)
            wall, cpu, result = _timed(lambda: mcts(position, seconds=1.0, rng=random.Random(run)))
            out.append(result.iterations / cpu)  # type: ignore[attr-defined]
            if game is new:
                m_wall.append(wall)
        for level, out in levels.items():
            player = make_opponent(new, level, random.Random(run))
            _, cpu, _ = _timed(lambda: player.choose(state))
            out.append(cpu)
    print("negamax")
    _line("--think 1: wall seconds", think, " s")
    _line("--think 1: CPU seconds", think_cpu, " s")
    _line("a whole depth 1 (the old search's first step): wall", depth1_wall, " s")
    _line("a whole depth 1 (the old search's first step): CPU", depth1, " s")
    _line("--nodes 200: positions searched", [float(n) for n in nodes])
    if main_think:
        _line("main's --think 1: wall seconds", main_think, " s")
        _line("main's --nodes 200: positions searched", [float(n) for n in main_nodes])
    print("MCTS")
    _line("--think 1: wall seconds", m_wall, " s")
    _line("playouts per CPU second, policy + 4-move playouts", rates)
    _line("playouts per CPU second, old rollout (to the end)", old_rates)
    ratio = statistics.median(rates) / statistics.median(old_rates)
    print(f"  ratio of the medians: {ratio:.1f}x")
    print("learning environments' levels (negamax capped in positions): one move")
    for level, out in levels.items():
        _line(f"{level}: CPU seconds", out, " s")


if __name__ == "__main__":
    main()
