"""Compiled plugin rules (issue 54): the hint's search on compiled rules against today's Python search, strength at
equal think time, and perft agreement at depth 5.

    python bench/crules.py speed      # Hex 7x7, Othello 8x8, Golomb 8x8: nodes or playouts per CPU second
    python bench/crules.py strength   # compiled AI against the Python AI, --games 20 seeded games each, --think 0.2
    python bench/crules.py perft      # compiled and Python perft to depth 5, from the start and 20 random positions
    python bench/crules.py vector     # vector_env steps per CPU second, Othello 8x8 and Hex 7x7, random opponent

speed: the hint at ``--think`` seconds (1 by default) from the start position of each game, as ``make_ai(game,
"ai")`` chooses it (negamax for Hex and Othello, which have an evaluation; MCTS for Golomb's game), with
``compiled=False`` (today's Python search) and with the compiled rules, alternating ``--rounds`` times (3);
figures are medians of nodes (negamax positions, MCTS playouts) per CPU second (``time.process_time``), so a
loaded machine does not flatter either side. The compiled engines are compiled (and cached) before timing.
strength: seeded games, the compiled AI and the Python AI each with ``--think`` seconds a move, colours
alternating. perft: positions per ply to depth 5 (smaller boards where Python cannot count that far: Hex 3x3,
Golomb 4x4). vector: ``--envs`` (256) sub-envs of random legal agent moves against the random
opponent, today's generic backend (``compiled=False``) against the compiled one, agent steps per CPU second
(medians of ``--rounds``). Prints the machine's cores and load.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from typing import Any

from gridgames.game import Game, State
from gridgames.registry import load_game
from gridgames.search.crules.engines import Engines
from gridgames.search.players import make_ai

GAMES: dict[str, dict[str, Any]] = {"hex": {}, "othello": {}, "golomb": {}}


def _game(name: str, **options: Any) -> Game:
    game = load_game(name).make(**options)
    assert isinstance(game, Game)
    return game


def _work(player: Any) -> int:
    last = player.last
    return int(getattr(last, "nodes", None) or getattr(last, "iterations", 0))


def _rate(game: Game, compiled: bool, think: float) -> tuple[float, str]:
    player = make_ai(game, "ai", seconds=think, rng=random.Random(0), compiled=compiled)
    state = game.new_state()
    cpu = time.process_time()
    player.choose(state)
    spent = time.process_time() - cpu
    return _work(player) / spent, player.note  # type: ignore[attr-defined]


def speed(rounds: int, think: float) -> None:
    """Nodes or playouts per CPU second, Python and compiled, alternating."""
    for name, options in GAMES.items():
        game = _game(name, **options)
        Engines.of(game)  # compile and cache before timing
        make_ai(game, "ai", seconds=0.05, compiled=True).choose(game.new_state())
        python, compiled = [], []
        notes = ["", ""]
        for _ in range(rounds):
            rate, notes[0] = _rate(game, False, think)
            python.append(rate)
            rate, notes[1] = _rate(game, True, think)
            compiled.append(rate)
        p, c = statistics.median(python), statistics.median(compiled)
        print(f"{name:8} python {p:>12,.0f}/s   compiled {c:>14,.0f}/s   x{c / p:,.0f}")
        print(f"         python:   {notes[0]}\n         compiled: {notes[1]}")


def strength(games: int, think: float) -> None:
    """Seeded games of the compiled AI against the Python AI (colours alternating): the compiled AI's score."""
    for name, options in GAMES.items():
        game = _game(name, **options)
        wins = draws = losses = 0
        for i in range(games):
            rng = random.Random(i)
            fast = make_ai(game, "ai", seconds=think, rng=random.Random(rng.random()), compiled=True)
            slow = make_ai(game, "ai", seconds=think, rng=random.Random(rng.random()), compiled=False)
            seat = i % 2
            state = game.new_state()
            for _ in range(2):  # two random opening moves: different games
                state.play(rng.choice(list(state.legal_moves())))
            while not state.is_over:
                player = fast if state.current_player == seat else slow
                state.play(player.choose(state))
            outcome = state.outcome
            assert outcome is not None
            if outcome.winner is None:
                draws += 1
            elif outcome.winner == seat:
                wins += 1
            else:
                losses += 1
        print(f"{name:8} compiled AI against Python AI, {think} s a move: {wins} wins, {draws} draws, {losses} losses")


def _python_perft(state: State, depth: int) -> list[int]:
    counts = [0] * (depth + 1)

    def walk(ply: int) -> None:
        counts[ply] += 1
        if ply < depth and not state.is_over:
            for move in list(state.legal_moves()):
                state.play(move)
                walk(ply + 1)
                state.undo()

    walk(0)
    return counts


def perft(depth: int, positions: int) -> None:
    """Compiled and Python perft counts from the start and from random positions."""
    from gridgames_golomb import GolombGame
    from gridgames_hex import HexGame

    boards: list[tuple[str, Game]] = [
        ("othello 8x8", _game("othello")),
        ("mnk 3x3", _game("mnk")),
        ("hex 3x3", HexGame(3)),
        ("golomb 4x4", GolombGame(4, 4)),
    ]
    rng = random.Random(54)
    for label, game in boards:
        engines = Engines.of(game)
        starts = [game.new_state()]
        while len(starts) < positions + 1:
            state = game.new_state()
            for _ in range(rng.randrange(1, 12)):
                if state.is_over:
                    break
                state.play(rng.choice(list(state.legal_moves())))
            if not state.is_over:
                starts.append(state)
        agree, total = 0, 0
        cpu_c = cpu_p = 0.0
        for state in starts:
            started = time.process_time()
            compiled = engines.perft(state, depth)[:, 0].tolist()
            cpu_c += time.process_time() - started
            started = time.process_time()
            python = _python_perft(state, depth)
            cpu_p += time.process_time() - started
            agree += compiled == python
            total += compiled[-1]
        print(
            f"{label:24} depth {depth}: {agree}/{len(starts)} positions agree ({total:,} leaves; "
            f"compiled {cpu_c:.2f} s, Python {cpu_p:.1f} s CPU)"
        )


def _steps_per_second(name: str, envs: int, compiled: bool, seconds: float) -> float:
    import numpy as np

    from gridgames.rl.vector import vector_env

    env = vector_env(name, num_envs=envs, compiled=compiled, copy=False)
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    steps, cpu = 0, time.process_time()
    while time.process_time() - cpu < seconds:
        masks = observations["action_mask"]
        # a random legal action in each sub-env (any action when none)
        noise = rng.random(masks.shape) * masks
        observations, *_ = env.step(noise.argmax(axis=1))
        steps += envs
    return steps / (time.process_time() - cpu)


def vector(envs: int, rounds: int) -> None:
    """Agent steps per CPU second, generic and compiled backends, alternating."""
    for name in ("othello", "hex"):
        _steps_per_second(name, envs, True, 0.2)  # compile and cache before timing
        generic, compiled = [], []
        for _ in range(rounds):
            generic.append(_steps_per_second(name, envs, False, 2.0))
            compiled.append(_steps_per_second(name, envs, True, 2.0))
        g, c = statistics.median(generic), statistics.median(compiled)
        print(f"{name:8} generic {g:>12,.0f} steps/s   compiled {c:>14,.0f} steps/s   x{c / g:,.0f}")


def main() -> None:
    """Run the chosen part."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("speed", "strength", "perft", "vector"))
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    print(f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    if args.part == "speed":
        speed(args.rounds, args.think or 1.0)
    elif args.part == "vector":
        vector(args.envs, args.rounds)
    elif args.part == "strength":
        strength(args.games, args.think or 0.2)
    else:
        perft(args.depth, args.positions)


if __name__ == "__main__":
    main()
