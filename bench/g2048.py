"""The chance example (issue 53): g2048's generic AI against random play and a one-move greedy rule.

    python bench/g2048.py                         # 20 seeded games each, 3x3 (the default), the AI at 1.0 s a move
    python bench/g2048.py --games 4 --think 0.2   # a quick look
    python bench/g2048.py --jobs 4                # the AI's games in 4 processes (each still thinks --think a move)

Needs ``pip install ./examples/g2048``. Game i of each player starts from seed i: the
new tiles are drawn from ``random.Random(i)`` by the framework (`gridgames.game.play_chance`),
never seen by a player before they are drawn; the players' own random choices come from
``random.Random(1000 + i)``. Players: ``random`` (a uniformly random slide), ``greedy``
(`gridgames_g2048.greedy_move`: the slide scoring the most points now) and ``ai``
(``make_ai(game, "ai")``: negamax with the game's evaluation, expectimax at the chance
points, at ``--think`` seconds a move, the CLI's default 1.0); ``--players mcts`` adds the
generic MCTS (sampling the tiles, crediting raw scores) at the same think time. Prints each player's mean,
median, lowest and highest score, the mean number of slides a game and seconds a slide,
with the core count and the load average; the bar is the AI's mean above both others'.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from gridgames.game import play_chance
from gridgames.search.players import make_ai
from gridgames_g2048 import G2048Game, G2048State, greedy_move


def play_one(size: int, kind: str, seed: int, think: float) -> tuple[int, int, float]:
    """One game: its score, its number of slides and the seconds the player took."""
    game = G2048Game(size)
    state: G2048State = game.new_state()
    tiles, own = random.Random(seed), random.Random(1000 + seed)
    ai = make_ai(game, kind, seconds=think, rng=own) if kind in ("ai", "mcts", "negamax") else None
    play_chance(state, tiles)
    slides, spent = 0, 0.0
    while not state.is_over:
        started = time.perf_counter()
        if ai is not None:
            move = ai.choose(state)
        elif kind == "greedy":
            move = greedy_move(state)
        else:
            move = own.choice(list(state.legal_moves()))
        spent += time.perf_counter() - started
        state.play(move)
        slides += 1
        play_chance(state, tiles)
    return state.score, slides, spent


def main() -> None:
    """Run the games and print one line per player."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--players", default="random,greedy,ai")
    args = parser.parse_args()
    print(
        f"g2048 {args.size}x{args.size}, {args.games} seeded games, ai at {args.think} s a move; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for kind in args.players.split(","):
        seeds = range(args.games)
        if args.jobs > 1 and kind not in ("random", "greedy"):
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(
                    pool.map(play_one, [args.size] * args.games, [kind] * args.games, seeds, [args.think] * args.games)
                )
        else:
            results = [play_one(args.size, kind, seed, args.think) for seed in seeds]
        scores = [score for score, _, _ in results]
        slides = sum(n for _, n, _ in results)
        seconds = sum(s for _, _, s in results)
        print(
            f"{kind:>7}: mean {statistics.mean(scores):8,.1f}  median {statistics.median(scores):8,.1f}  "
            f"min {min(scores):6,}  max {max(scores):6,}  slides/game {slides / len(scores):6.1f}  "
            f"s/slide {seconds / max(slides, 1):.4f}  (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
