"""Many Connect Four games stepped together: the compiled backend of ``gridgames.rl.vector_env("connect4")``.

Vocabulary:

* env: one of the ``num_envs`` games, numbered 0..N-1;
* agent: the learner, in seat ``seat`` of every env (0 moves first); opponent: the computer in the other seat;
* observation: the agent's view, int8 (N, height, width, 2): plane 0 its own discs, plane 1 the opponent's,
  row 0 at the top (what ``gym_env("connect4")`` shows); kept up to date disc by disc, never rebuilt;
* mask: int8 (N, width), 1 for each open column while the agent is to move, all 0 once an env is over;
* history: the columns played in an env since its reset, both sides', in order (``moves[i, :lengths[i]]``).

Any board the game offers (up to 10x10, lines of 3 to 6) runs on the same kernels: a disc's line is found by
counting along the four directions from the cell it landed on, so no bitboard limits the size. The kernels
(`gridgames_connect4.learn.vector_kernels`) run built ahead of time where they can
(`gridgames_connect4.learn.vector_aot`: a fresh process then steps without importing numba), else as numba's JIT.
The ``random`` opponent plays inside the compiled step (a xorshift64* stream per env, seeded per env);
``perfect`` keeps every position's game-theoretic value (win, draw or loss), chosen for all envs at once: from the
shipped opening book (one of the best scores' columns), else by null windows on the children
(`gridgames_connect4.learn.vector_perfect`, which says what it guarantees: not the fastest win);
``easy``, ``medium`` and ``hard`` are the game's own players, one per env (exact, but at their own speed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from gridgames.errors import OptionError

from gridgames_connect4.learn import vector_aot

__all__ = ["OPPONENTS", "Connect4VectorBackend"]

OPPONENTS = ("random", "easy", "medium", "hard", "perfect")
_CACHE_LIMIT = 200_000
"""Positions whose column scores are remembered (a dict; cleared when it grows past this)."""


def _splitmix64(seed: int) -> int:
    """A well-mixed non-zero 64-bit word from any integer seed (the xorshift stream's start)."""
    x = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    return x or 1


class Connect4VectorBackend:
    """``num_envs`` Connect Four games of the agent in ``seat`` against ``opponent`` (see the module's docstring)."""

    def __init__(self, game: Any, num_envs: int, opponent: str, seat: int, kernels: str = "auto") -> None:
        """``kernels``: "auto" (built ahead of time where they can be, else numba's JIT), "jit" or "aot"
        (`gridgames_connect4.learn.vector_aot`)."""
        if opponent not in OPPONENTS:
            raise OptionError(f"unknown opponent {opponent!r} (choose from {', '.join(OPPONENTS)})")
        if kernels not in ("auto", "jit", "aot"):
            raise OptionError(f"kernels must be one of auto, jit, aot, not {kernels!r}")
        self.kernels = vector_aot.kernels(kernels)
        if self.kernels is None:
            raise OptionError(f"no ahead-of-time vector kernels: {vector_aot.NATIVE.status().reason}")
        self.game = game
        self.num_envs = n = num_envs
        self.opponent = opponent
        self.seat = seat
        h, w = game.height, game.width
        self._dims = (h, w, game.connect)
        self.observation = np.zeros((n, h, w, 2), np.int8)
        self.action_mask = np.zeros((n, w), np.int8)
        self._heights = np.zeros((n, w), np.int8)
        self._lengths = np.zeros(n, np.int64)
        self._moves = np.zeros((n, h * w), np.int8)
        self._rng = np.ones(n, np.uint64)
        self._py_seeds: list[int] = list(range(n))
        # made at the first use (seeding one costs tens of microseconds)
        self._py_rngs: dict[int, random.Random] = {}
        self._reward = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._reply = np.zeros(n, np.bool_)
        self._players: dict[int, Any] = {}
        self._scores: dict[tuple[int, ...], int] = {}
        self._book: Any = None
        self._solver: Any = None

    # --- the protocol of gridgames.rl.vector.VectorBackend -------------------------------------------------------
    def reset(self, which: np.ndarray, seeds: Sequence[int | None]) -> None:
        """New games in the envs where ``which`` (the opponent's first move included); a seed restarts an env's
        streams."""
        for i in np.flatnonzero(which).tolist():
            seed = seeds[i]
            if seed is not None:
                self._rng[i] = _splitmix64(seed)
                self._py_seeds[i] = seed
                self._py_rngs.pop(i, None)
                self._players.pop(i, None)
        h, w, k = self._dims
        rand = self.opponent == "random"
        self.kernels.reset_kernel(
            self._per_env(which, np.bool_),
            self.seat == 1,
            rand,
            self.observation,
            self.action_mask,
            self._heights,
            self._lengths,
            self._moves,
            self._rng,
            self._reply,
            h,
            w,
            k,
        )
        if self._reply.any():
            self._replies()

    def step(self, actions: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The agent's actions and the opponent's replies in the active envs: (reward, terminated, illegal)."""
        h, w, k = self._dims
        # exactly the dtypes and layout of vector_aot.signatures: its module checks none
        self.kernels.step_kernel(
            self._per_env(actions, np.int64),
            self._per_env(active, np.bool_),
            self.opponent == "random",
            self.observation,
            self.action_mask,
            self._heights,
            self._lengths,
            self._moves,
            self._rng,
            self._reward,
            self._terminated,
            self._illegal,
            self._reply,
            h,
            w,
            k,
        )
        if self._reply.any():
            self._replies()
        return self._reward, self._terminated, self._illegal

    def _per_env(self, values: Any, dtype: Any) -> np.ndarray:
        """``values`` as a C-contiguous array of ``dtype`` with one entry per env (the kernels index every state
        array by it and check no bounds, nor, built ahead of time, types)."""
        array = np.ascontiguousarray(values, dtype)
        if array.shape != (self.num_envs,):
            raise OptionError(f"expected one value per env, shape ({self.num_envs},), not {array.shape}")
        return array

    def history(self, i: int) -> tuple[int, ...]:
        """The columns played in env ``i`` since its reset, both sides'."""
        return tuple(self._moves[i, : self._lengths[i]].tolist())

    def position_scores(
        self, positions: Sequence[tuple[int, ...]], lower: Sequence[int | None] | None = None
    ) -> list[int]:
        """The exact score of each position (after its moves, for the player to move; none may be over).

        From the shipped book where it has them; else the solver, its table kept between calls: a position with a
        ``lower`` bound (minus its parent's exact score, or None) by `Solver.solve` with it (the null window at the
        bound first: a best move's position costs one), the others in one `Solver.solve_many` call (one disc past
        the book, all its parents there bound it). The solver takes them in the order of their histories, so that
        positions sharing an opening follow each other.
        """
        if len(self._scores) > _CACHE_LIMIT:
            self._scores.clear()
        book = self._shipped()
        bounds = dict(zip(positions, lower)) if lower is not None else {}
        todo = []
        for moves in dict.fromkeys(positions):
            if moves in self._scores:
                continue
            known = book.column_scores(list(moves)) if book is not None else None
            if known is not None:  # in the book: no solver needed (nor its compiled code loaded)
                self._scores[moves] = max(s for s in known if s is not None)
            else:
                todo.append(moves)
        if todo:
            _, solver = self._exact()
            batch = []
            # there the book's parents bound it (solve_many)
            first_past = book.depth + 1 if book is not None else -1
            for moves in sorted(todo):
                bound = bounds.get(moves)
                if bound is None or len(moves) == first_past or bound >= self.win_score(len(moves)):
                    batch.append(moves)
                else:
                    self._scores[moves] = solver.solve(list(moves), lower=bound)
            for moves, score in zip(batch, solver.solve_many([list(m) for m in batch], reset=False)):
                self._scores[moves] = score
        return [self._scores[moves] for moves in positions]

    def win_score(self, moves_before: int) -> int:
        """The score of winning with the next disc after ``moves_before`` discs (Pons' convention)."""
        return (self.game.width * self.game.height + 1 - moves_before) // 2

    # --- the opponents ---------------------------------------------------------------------------------------------
    def _shipped(self) -> Any:
        """The opening book shipped for this board (None when there is none), read at the first use."""
        if self._book is None:
            from gridgames_connect4.solve.book import default_book

            g = self.game
            self._book = default_book(g.width, g.height, g.connect) or False
        return self._book or None

    def _exact(self) -> tuple[Any, Any]:
        """The shipped book for this board (or None) and a solver probing it, made at the first use."""
        if self._solver is None:
            from gridgames_connect4.position.geometry import fits_one_word
            from gridgames_connect4.solve.solver import prepare_kernels
            from gridgames_connect4.learn.vector_perfect import ValueSolver

            g = self.game
            # built once per install
            prepare_kernels(lambda _text: None, ahead=fits_one_word(g.width, g.height))
            self._solver = ValueSolver(g.width, g.height, g.connect, book=self._shipped())
        return self._shipped(), self._solver

    def _replies(self) -> None:
        """The opponent's moves in the envs flagged in ``_reply``: all ``perfect`` ones at once, else one by one."""
        idx = np.flatnonzero(self._reply).tolist()
        columns = np.zeros(self.num_envs, np.int64)
        if self.opponent == "perfect":
            for i, column in zip(idx, self._perfect_columns(idx)):
                columns[i] = column
        else:
            for i in idx:
                player = self._players.get(i)
                if player is None:
                    player = self._players[i] = self.game.computer_player(self.opponent, self._py_rng(i))
                columns[i] = player.choose(self._state(i))
        h, w, k = self._dims
        self.kernels.reply_kernel(
            columns,
            self._reply,
            self.observation,
            self.action_mask,
            self._heights,
            self._lengths,
            self._moves,
            self._reward,
            self._terminated,
            h,
            w,
            k,
        )

    def _py_rng(self, i: int) -> random.Random:
        """Env ``i``'s Python random stream (the computer players' and the perfect player's ties), from its seed."""
        rng = self._py_rngs.get(i)
        if rng is None:
            rng = self._py_rngs[i] = random.Random(self._py_seeds[i])
        return rng

    def _state(self, i: int) -> Any:
        """Env ``i``'s position as the game's own `Connect4State`."""
        state = self.game.new_state()
        for m in self.history(i):
            state.play(m)
        return state

    def _perfect_columns(self, idx: list[int]) -> list[int]:
        """A column keeping each position's value in each env of ``idx`` (random among those, from each env's stream).

        Where the book covers the position, one of its best scores' columns; past the book the
        `ValueSolver.keeping_column` of `gridgames_connect4.learn.vector_perfect` (null windows on the children in a
        random order, the solver's table kept between calls), the envs taken in the order of their histories so that
        positions sharing an opening follow each other in the table.
        """
        book, solver = self._exact()
        chosen: dict[int, int] = {}
        waiting = []
        for i in idx:
            moves = self.history(i)
            scores = book.column_scores(list(moves)) if book is not None else None
            if scores is None:
                waiting.append((moves, i))
                continue
            top = max(s for s in scores if s is not None)
            chosen[i] = self._py_rng(i).choice([c for c, s in enumerate(scores) if s == top])
        for moves, i in sorted(waiting):
            chosen[i] = solver.keeping_column(moves, self._py_rng(i))
        return [chosen[i] for i in idx]
