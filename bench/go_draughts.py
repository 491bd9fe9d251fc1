"""The Go and draughts examples (issue 53): the generic AI at the default think time against random.

    python bench/go_draughts.py                       # Go 5x5 and draughts, 20 seeded games each, 1.0 s a move
    python bench/go_draughts.py --go-size 9 --games 4 # Go 9x9 (long: up to 162 AI moves a game)
    python bench/go_draughts.py --only draughts
    python bench/go_draughts.py --only go --random-never-passes   # random passes only when it has no other move

Each installed example (``pip install ./examples/go ./examples/draughts``) plays its generic
AI (``make_ai(game, "ai")``: negamax with the game's evaluation, at ``--think`` seconds a
move, the CLI's default 1.0) against ``random`` (`RandomPlayer`) in ``--games`` seeded
games: game i seeds the AI with i and random with 1000 + i, and the AI moves first in the
even games. Go runs on a ``--go-size`` board (5x5 by default: a 9x9 game against random
lasts up to 324 moves, 162 of them the AI's at 1 s each) with komi 7.5. Printed: the AI's
wins, draws and losses, the mean margin (Go's area points; 0 for draughts, which keeps no
score), the mean game length, and seconds a move; the bar is 19 wins in 20. Random passes
as often as any other move (1 in 26 on 5x5), which ends many Go games early (a pass answered
by a pass); ``--random-never-passes`` makes it pass only when it has no other move, so
that the AI must win the board. The core count
and the load before and after are printed too.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Any


class NoPassRandom:
    """Random play that passes only when it has no other move."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any) -> int:
        """A uniformly random legal move other than the pass, else the pass."""
        legal = list(state.legal_moves())
        others = [m for m in legal if m != state.game.pass_move]
        return self.rng.choice(others or legal)


def ai_against_random(
    name: str, options: dict[str, Any], games: int, think: float, *, never_passes: bool = False
) -> dict[str, float]:
    """Seeded games of the generic AI against random: wins, draws, losses, mean margin and length, s a move."""
    from gridgames.registry import load_game
    from gridgames.search.players import RandomPlayer, make_ai

    game = load_game(name).make(**options)
    wins = draws = losses = ai_moves = plies = 0
    ai_seconds, margins = 0.0, []
    for seed in range(games):
        ai_seat = seed % 2
        seats: list[Any] = [None, None]
        seats[ai_seat] = make_ai(game, "ai", seconds=think, rng=random.Random(seed))
        rng = random.Random(1000 + seed)
        seats[1 - ai_seat] = NoPassRandom(rng) if never_passes else RandomPlayer(rng=rng)
        state = game.new_state()
        while not state.is_over:
            started = time.perf_counter()
            move = seats[state.current_player].choose(state)
            if state.current_player == ai_seat:
                ai_moves += 1
                ai_seconds += time.perf_counter() - started
            state.play(move)
        outcome = state.outcome
        assert outcome is not None
        wins += outcome.winner == ai_seat
        draws += outcome.winner is None
        losses += outcome.winner == 1 - ai_seat
        margins.append(outcome.margin_for(ai_seat))
        plies += len(state.history)
        print(
            f"  game {seed}: AI seat {ai_seat}, {len(state.history)} moves, {outcome.reason!r}, "
            f"AI {'won' if outcome.winner == ai_seat else 'drew' if outcome.winner is None else 'lost'}",
            flush=True,
        )
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "margin": sum(margins) / games,
        "length": plies / games,
        "per_move": ai_seconds / max(1, ai_moves),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per game")
    parser.add_argument("--think", type=float, default=1.0, help="the AI's seconds per move")
    parser.add_argument("--go-size", type=int, default=5, help="Go's board size")
    parser.add_argument("--only", choices=("go", "draughts"), default=None)
    parser.add_argument("--random-never-passes", action="store_true", help="random passes only without another move")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )
    runs = [("go", {"size": args.go_size}, f"go {args.go_size}x{args.go_size}"), ("draughts", {}, "draughts")]
    rows = []
    for name, options, label in runs:
        if args.only not in (None, name):
            continue
        print(f"{label}:", flush=True)
        never = args.random_never_passes
        rows.append((label, ai_against_random(name, options, args.games, args.think, never_passes=never)))
    header = f"{'game':<12} {'think s':>8} {'wins':>5} {'draws':>5} {'losses':>6} {'margin':>7} {'moves':>6}"
    print(f"{header} {'s/move':>7}")
    for label, r in rows:
        print(
            f"{label:<12} {args.think:>8g} {r['wins']:>5} {r['draws']:>5} {r['losses']:>6} {r['margin']:>7.1f} "
            f"{r['length']:>6.1f} {r['per_move']:>7.3f}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
