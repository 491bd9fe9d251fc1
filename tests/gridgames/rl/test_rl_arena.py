"""The arena: counts add up, illegal actions lose, the judge's perfect-move rate, Wilson's intervals."""

from __future__ import annotations

import numpy as np
import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

from gridgames.errors import OptionError  # noqa: E402
from gridgames.rl.arena import ArenaResult, arena, wilson  # noqa: E402

SMALL = {"width": 4, "height": 4, "connect": 3}


def random_policy(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    return lambda obs: (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)


def test_counts_add_up_and_a_better_policy_scores_better() -> None:
    (weak,) = arena(random_policy(0), "connect4", opponents=("easy",), games=60, **SMALL)
    assert weak.wins + weak.draws + weak.losses == weak.games == 60 and weak.illegal == 0
    (even,) = arena(random_policy(1), "connect4", opponents=("random",), games=200, **SMALL)
    low, high = even.interval()
    assert low < 0.5 < high  # random against random: even, first and second seats alike
    assert even.score > weak.score


def test_illegal_actions_lose_every_game() -> None:
    (result,) = arena(
        lambda obs: np.full(len(obs["action_mask"]), -1), "connect4", opponents=("random",), games=10, **SMALL
    )
    assert result.losses == result.illegal == 10 and result.score == 0.0


@pytest.mark.slow
def test_the_judge_gives_a_perfect_move_rate() -> None:
    (judged,) = arena(random_policy(2), "connect4", opponents=("perfect",), games=20, judge=True, width=5, height=4)
    assert judged.perfect_move_rate is not None and 0.0 < judged.perfect_move_rate < 1.0
    assert "perfect moves" in str(judged)


def test_wilson_interval_contains_the_rate_and_narrows() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(500, 1000), wilson(5, 10)
    assert narrow[0] < 0.5 < narrow[1] and wide[1] - wide[0] > narrow[1] - narrow[0]
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(10, 10)[0] > 0.6


def test_bad_requests_are_refused() -> None:
    with pytest.raises(OptionError):
        arena(random_policy(0), "connect4", games=1)
    with pytest.raises(OptionError):
        ArenaResult("random", 2, 1, 0, 1, 0).interval("ties")
