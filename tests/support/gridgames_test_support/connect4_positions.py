"""Random unfinished Connect Four positions for tests (seeded, so every run draws the same)."""

from __future__ import annotations

import random

from gridgames_connect4.position.rules import Connect4


def random_positions(game: Connect4, plies: range, count: int, seed: int) -> list[list[int]]:
    """``count`` random unfinished positions with a number of discs drawn from ``plies``."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < count:
        state = game.new_state()
        target = rng.choice(list(plies))
        while len(state.history) < target and not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over and len(state.history) == target:
            out.append(list(state.history))
    return out
