"""The arena: a batched policy against the game's computer levels, K games each, with confidence intervals.

    from gridgames.rl.arena import arena
    def policy(observations):            # any callable: observation dict (batched) -> actions
        mask = observations["action_mask"]
        return mask.argmax(axis=1)       # the leftmost open column
    for result in arena(policy, "connect4", opponents=("random", "easy"), games=200):
        print(result)

Each opponent plays ``games`` games, half with the policy moving first (seat 0) and half second, all of a
seat's games at once in one `gridgames.rl.vector_env` (every sub-env plays exactly one game, counted when it
first ends, so short games are not over-counted). An illegal action loses the game (as in the environments).
The score rate is (wins + draws / 2) / games; its interval, and each of the win, draw and loss rates', is
Wilson's 95% score interval. With ``judge=True`` (Connect Four) each result carries the policy's perfect-move
rate: the share of its moves, over all games, whose exact score was the best available.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from gridgames.errors import OptionError
from gridgames.rl.vector import vector_env

Policy = Callable[[dict[str, np.ndarray]], Any]
"""A batched policy: the observation dict of N games (``observation``, ``action_mask``) -> N actions."""
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate of ``successes`` in ``trials`` (95% by default); (0, 1) without trials.

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class ArenaResult:
    """The policy's games against one opponent: counts, rates with Wilson 95% intervals, perfect-move rate."""

    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    illegal: int
    """Games lost by an illegal action (counted in ``losses`` too)."""
    perfect_move_rate: float | None = None
    """The share of the policy's moves that were best (exact judge), None when not judged."""

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games: 1 wins every game, 0.5 an even match."""
        return (self.wins + self.draws / 2) / self.games

    def interval(self, what: str = "score") -> tuple[float, float]:
        """Wilson's 95% interval of the ``score``, ``wins``, ``draws`` or ``losses`` rate."""
        counts = {"score": self.wins + self.draws / 2, "wins": self.wins, "draws": self.draws, "losses": self.losses}
        if what not in counts:
            raise OptionError(f"unknown rate {what!r} (choose from {', '.join(counts)})")
        return wilson(counts[what], self.games)

    def __str__(self) -> str:
        low, high = self.interval()
        judged = "" if self.perfect_move_rate is None else f", perfect moves {self.perfect_move_rate:.1%}"
        illegal = f" ({self.illegal} by illegal actions)" if self.illegal else ""
        return (
            f"against {self.opponent}: {self.wins} won, {self.draws} drawn, {self.losses} lost{illegal} "
            f"of {self.games};"
            f" score {self.score:.3f} (95% {low:.3f}-{high:.3f}){judged}"
        )


def _play_seat(
    policy: Policy,
    game_name: str,
    opponent: str,
    seat: int,
    games: int,
    seed: int,
    judge: bool,
    options: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """``games`` games with the policy in ``seat``: each game's reward, whether illegal, best moves and moves."""
    env = vector_env(game_name, num_envs=games, opponent=opponent, seat=seat, judge=judge, **options)
    observations, _ = env.reset(seed=seed)
    result = np.zeros(games)
    illegal = np.zeros(games, np.bool_)
    done = np.zeros(games, np.bool_)
    best = moves = 0
    while not done.all():
        actions = np.asarray(policy(observations))
        observations, reward, terminated, _truncated, info = env.step(actions)
        live = ~done
        if judge:
            played = info["_move_score"] & live
            moves += int(played.sum())
            best += int((info["is_best"] & played).sum())
        ended = terminated & live
        result[ended] = reward[ended]
        if "illegal" in info:
            illegal |= info["illegal"] & ended
        done |= ended
    env.close()
    return result, illegal, best, moves


def arena(
    policy: Policy,
    game_name: str = "connect4",
    opponents: Sequence[str] = ("random", "easy", "medium"),
    games: int = 100,
    *,
    seed: int = 0,
    judge: bool = False,
    **options: Any,
) -> list[ArenaResult]:
    """``policy`` against each of ``opponents`` for ``games`` games (half moving first), one `ArenaResult` each."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise OptionError(f"games must be a whole number of at least 2, not {games!r}")
    if isinstance(opponents, str):  # 'random': one opponent, not six letters
        opponents = (opponents,)
    if opponents is None or not all(isinstance(o, str) for o in opponents):
        raise OptionError(f"opponents must be a list of computer levels (e.g. ['random', 'easy']), not {opponents!r}")
    results = []
    for opponent in opponents:
        rewards, illegal, best, moves = [], [], 0, 0
        for seat, count in ((0, games - games // 2), (1, games // 2)):
            r, bad, b, m = _play_seat(policy, game_name, opponent, seat, count, seed + seat, judge, options)
            rewards.append(r)
            illegal.append(bad)
            best, moves = best + b, moves + m
        every, bad_games = np.concatenate(rewards), np.concatenate(illegal)
        rate = (best / moves if moves else 0.0) if judge else None
        results.append(
            ArenaResult(
                opponent,
                games,
                int((every > 0).sum()),
                int((every == 0).sum()),
                int((every < 0).sum()),
                int(bad_games.sum()),
                rate,
            )
        )
    return results
