"""The bitmask kernel on general exact-cover problems (secondary items as slack options) agrees with dancing links."""

from __future__ import annotations

import random

import pytest

from gridgames.errors import PuzzleError
from gridgames.search.exact_cover import ExactCover
from gridgames.search.tiling import count, count_part, solve, split
from gridgames.search.tiling.general import decode, general_problem


def _random_problem(rng: random.Random) -> tuple[int, int, list[tuple[str, tuple[int, ...]]]]:
    primary, secondary = rng.randint(1, 9), rng.randint(0, 6)
    n = primary + secondary
    options = set()
    for _ in range(rng.randint(1, 30)):
        size = rng.randint(1, min(4, n))
        options.add((rng.choice("ABC"), tuple(sorted(rng.sample(range(n), size)))))
    return primary, secondary, sorted(options)


@pytest.mark.slow
def test_counts_and_solutions_match_dancing_links_on_random_problems() -> None:
    rng = random.Random(14)
    for _ in range(300):
        primary, secondary, options = _random_problem(rng)
        reference = ExactCover.from_options([items for _, items in options], primary=primary, secondary=secondary)
        expected = sorted(tuple(sorted(options[k] for k in chosen)) for chosen in reference.search().solutions())
        problem = general_problem(primary, secondary, options)
        assert count(problem, prune=False).count == len(expected)
        found = sorted(tuple(sorted(d for d in map(decode, s) if d is not None)) for s in solve(problem, prune=False))
        assert found == expected, (primary, secondary, options)


def test_parts_add_up_to_the_count() -> None:
    problem = general_problem(
        3, 2, [("a", (0, 3)), ("b", (1, 3)), ("c", (2,)), ("d", (0,)), ("e", (1, 4)), ("f", (1,)), ("g", (2, 4))]
    )
    total = count(problem, prune=False).count
    parts = split(problem, 3, prune=False)
    # 2 x 3 x 2, less a+b and e+g
    assert len(parts) > 1 and sum(count_part(problem, part, prune=False).count for part in parts) == total == 8


def test_bad_options_are_one_error() -> None:
    with pytest.raises(PuzzleError, match="outside"):
        general_problem(2, 0, [("a", (0, 5))])
    with pytest.raises(PuzzleError, match="same items"):
        general_problem(2, 0, [("a", (0, 1)), ("a", (1, 0))])
    with pytest.raises(PuzzleError, match="primary item"):
        general_problem(0, 2, [("a", (0,))])
