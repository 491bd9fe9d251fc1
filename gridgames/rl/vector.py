"""A Gymnasium vector environment: ``num_envs`` games of one agent against a computer level, stepped together.

``vector_env(name, num_envs=N, opponent="random", seat=0, judge=False, **options)`` is a Gymnasium
`gymnasium.vector.VectorEnv` whose every sub-env is ``gym_env(name, opponent, seat, **options)``:
the same observation dict (``"observation"`` planes from the agent's view, ``"action_mask"``),
batched along a first axis of length N; actions are an int array of N columns (or game actions).

Semantics (sub-env by sub-env, as the single env's; docs/rl.md):

* reward: +1 when the agent's move makes a line (wins), -1 when the opponent's reply does or the
  agent's action is illegal, 0 otherwise (a draw, a move that ends nothing);
* terminated: True on the step that ends the game (a line, a full board) or on an illegal action
  (``info["illegal"]``); truncated: always False (a game ends by itself);
* autoreset: `AutoresetMode.NEXT_STEP`, Gymnasium 1.x's default: the step after an env ended resets
  it, ignoring its action, and returns its first observation with reward 0 and terminated False;
* seeding: ``reset(seed=s)`` seeds sub-env i with s + i (a list gives one seed per sub-env), as
  `gymnasium.vector.SyncVectorEnv` does; the seeds drive the opponents' random choices;
* ``reset(options={"reset_mask": mask})`` resets only the sub-envs where the bool mask is True.

The compiled step: a game may offer ``Game.vector_backend(num_envs, opponent, seat)``, an object
following `VectorBackend` (Connect Four does: `gridgames_connect4.learn.vector`, every board, numba);
a game with compiled rules that give its board (`gridgames.compiled_rules`) runs on
`gridgames.rl.compiled_vector.CompiledBackend` against the ``random`` opponent; any other turn-based game of one or
two players runs on `GenericBackend`, its states one by one.

The judge (``judge=True``; backends with ``position_scores`` and ``win_score``, i.e. Connect Four):
the exact score of each position the agent faces and of the position each of its moves leads to,
all sub-envs' positions scored together (the shipped opening book, then the solver, its table kept between
steps: each position from its parent's exact score, a lower bound, else in one ``solve_many`` call); a move's
score is minus the score of the position it leads to. ``info`` then carries, as
Gymnasium's vector infos do (an array per key and a ``"_key"`` bool array saying which sub-envs
have it): ``score`` (the position the agent faces now), ``move_score``, ``best_score``, ``regret``
(best minus move score, >= 0), ``is_best`` (regret 0) for the move just played, and at the end of
an episode ``perfect_move_rate`` (the share of the agent's moves that were best).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gridgames.errors import OptionError
from gridgames.game import Game, Player, State, play_chance
from gridgames.rl.core import Observer, load_turn_based
from gridgames.rl.gym import ILLEGAL_REWARD, levels, make_opponent
from gridgames.rl.judge import JudgeError

__all__ = ["GenericBackend", "GridGamesVectorEnv", "VectorBackend", "vector_env"]

Info = dict[str, Any]


@runtime_checkable
class VectorBackend(Protocol):
    """What steps N games together (a game's ``vector_backend(num_envs, opponent, seat)`` returns one).

    ``observation`` (N, height, width, planes) int8 and ``action_mask`` (N, num_actions) int8 hold
    every sub-env's current observation from the agent's seat, updated in place by `reset` and
    `step` (as ``Observer.observe`` would build it: the vector env copies them out).
    """

    observation: np.ndarray
    action_mask: np.ndarray

    def reset(self, which: np.ndarray, seeds: Sequence[int | None]) -> None:
        """New games where ``which`` (bool (N,)), the opponent's moves until the agent's turn; ``seeds[i]``: reseed
        sub-env i."""

    def step(self, actions: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions`` (int64 (N,)) and the replies where ``active``: (reward float64, terminated, illegal)
        arrays."""

    def history(self, i: int) -> tuple[int, ...]:
        """The integer actions played in sub-env i since its reset, by both sides."""


class GenericBackend:
    """`VectorBackend` of any turn-based game of one or two players: N states, stepped one by one in Python."""

    def __init__(self, game: Game, name: str, num_envs: int, opponent: str, seat: int) -> None:
        self.game = game
        self.num_envs = num_envs
        self.opponent = opponent
        self.seat = seat
        self._observer = Observer.of(game, name)
        self.observation = np.zeros((num_envs, *self._observer.shape), np.int8)
        self.action_mask = np.zeros((num_envs, game.info.num_actions), np.int8)
        self._states: list[State] = [game.new_state() for _ in range(num_envs)]
        self._two = game.info.num_players == 2
        self._opponents: list[Player | None] = [None] * num_envs
        self._rngs = [random.Random(i) for i in range(num_envs)]

    def _observe(self, i: int) -> None:
        seen = self._observer.observe(self._states[i], self.seat)
        self.observation[i] = seen["observation"]
        self.action_mask[i] = seen["action_mask"]

    def _reply(self, i: int) -> None:
        state, player = self._states[i], self._opponents[i]
        play_chance(state, self._rngs[i])  # chance outcomes: from the sub-env's seed
        while player is not None and state.outcome is None and state.current_player != self.seat:
            state.play(player.choose(state))
            play_chance(state, self._rngs[i])

    def reset(self, which: np.ndarray, seeds: Sequence[int | None]) -> None:
        """New games where ``which``; see `VectorBackend.reset`."""
        for i in np.flatnonzero(which).tolist():
            if seeds[i] is not None:
                self._rngs[i] = random.Random(seeds[i])
                self._opponents[i] = None
            if self._two and self._opponents[i] is None:
                self._opponents[i] = make_opponent(self.game, self.opponent, self._rngs[i])
            self._states[i] = self.game.new_state()
            self._reply(i)
            self._observe(i)

    def step(self, actions: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The agent's actions and the replies where ``active``; see `VectorBackend.step`."""
        n = self.num_envs
        reward, terminated, illegal = np.zeros(n), np.zeros(n, np.bool_), np.zeros(n, np.bool_)
        for i in np.flatnonzero(active).tolist():
            state, move = self._states[i], int(actions[i])
            if not state.is_legal(move):
                reward[i], terminated[i], illegal[i] = ILLEGAL_REWARD, True, True
                continue
            state.play(move)
            self._reply(i)
            outcome = state.outcome
            if outcome is not None:
                terminated[i] = True
                reward[i] = 0.0 if outcome.winner is None else (1.0 if outcome.winner == self.seat else -1.0)
            self._observe(i)
        return reward, terminated, illegal

    def history(self, i: int) -> tuple[int, ...]:
        """The integer actions played in sub-env i since its reset."""
        return tuple(int(m) for m in self._states[i].history)


def _roomy_heap(step_bytes: int) -> None:
    """Let the allocator keep a step's arrays (copies of ``step_bytes`` and the like) in its heap.

    glibc's malloc hands out blocks above its threshold (128 KiB at first) by mmap and returns them to the system
    when freed, so a step's copies (a 4,096-env observation is 344 KB) fault their pages in again at every step: 10%
    of random play's steps per second. Freeing one larger mmap'd block raises that threshold to its size (glibc's
    dynamic threshold, up to 32 MiB), as numba's import happened to do. Elsewhere it is one short-lived allocation.
    """
    block = np.empty(min(32 << 20, max(4 << 20, 8 * step_bytes)), np.uint8)
    del block


def _add(info: Info, key: str, values: np.ndarray, where: np.ndarray) -> None:
    """Gymnasium's vector-info layout: ``info[key]`` the values, ``info["_" + key]`` which sub-envs have one."""
    info[key] = values
    info["_" + key] = where


MAX_ENVS = 65_536
"""The most games one vector environment steps together (each holds a Python state, of a kilobyte or more)."""


class GridGamesVectorEnv(VectorEnv):
    """``num_envs`` games of one agent against a computer level, as one Gymnasium `VectorEnv` (see the module)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        game_name: str,
        num_envs: int,
        opponent: str = "random",
        seat: int = 0,
        *,
        judge: bool = False,
        copy: bool = True,
        compiled: bool = True,
        **options: Any,
    ) -> None:
        """``num_envs`` games ``game_name`` (its ``options``); ``compiled=False`` forces `GenericBackend`; ``copy``:
        copy observations out."""
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or not 1 <= num_envs <= MAX_ENVS:
            shown = repr(num_envs) if len(repr(num_envs)) <= 40 else f"{repr(num_envs)[:20]}..."
            raise OptionError(f"num_envs must be a whole number from 1 to {MAX_ENVS:,}, not {shown}")
        self.game = load_turn_based(game_name, options)
        players = self.game.info.num_players
        if players not in (1, 2):
            raise OptionError(f"{game_name} has {players} players; vector_env needs a one- or two-player game")
        if isinstance(seat, bool) or seat not in range(players):
            raise OptionError(
                f"seat must be 0 (moves first) or 1, not {seat!r}"
                if players == 2
                else f"seat must be 0 in a one-player game, not {seat!r}"
            )
        if players == 2 and opponent not in levels(self.game):
            raise OptionError(f"unknown opponent {opponent!r} (choose from {', '.join(levels(self.game))})")
        self.num_envs = num_envs
        self.opponent_level = opponent
        self.seat = seat
        self.copy = copy
        hook = getattr(self.game, "vector_backend", None) if compiled else None
        fast = None
        # a plugin's compiled rules (gridgames.compiled_rules): one compiled step
        if compiled and hook is None:
            from gridgames.rl.compiled_vector import compiled_backend

            fast = compiled_backend(self.game, game_name, num_envs, opponent, seat, ILLEGAL_REWARD)
        self.backend: VectorBackend = (
            hook(num_envs, opponent, seat)
            if hook is not None
            else fast
            if fast is not None
            else GenericBackend(self.game, game_name, num_envs, opponent, seat)
        )
        if judge and not callable(getattr(self.backend, "position_scores", None)):
            raise JudgeError(f"there is no batched exact judge for {game_name}: its vector backend scores no positions")
        self.judge = judge
        self._scorer: Any = self.backend
        observer = Observer.of(self.game, game_name)
        self.single_observation_space = observer.space()
        self.single_action_space = spaces.Discrete(self.game.info.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._started = False
        self._score = np.zeros(num_envs, np.int64)
        self._moves = np.zeros(num_envs, np.int64)
        self._best = np.zeros(num_envs, np.int64)
        _roomy_heap(self.backend.observation.nbytes)

    # --- observations and the judge -------------------------------------------------------------------
    def _observations(self) -> dict[str, np.ndarray]:
        b = self.backend
        if self.copy:
            return {"observation": b.observation.copy(), "action_mask": b.action_mask.copy()}
        return {"observation": b.observation, "action_mask": b.action_mask}

    def _judge_positions(self, which: np.ndarray, info: Info) -> None:
        """Score the positions the sub-envs where ``which`` face now (one batch call); ``info["score"]``."""
        idx = np.flatnonzero(which).tolist()
        if idx:
            scores = self._scorer.position_scores([self.backend.history(i) for i in idx])
            self._score[idx] = scores
        _add(info, "score", np.where(which, self._score, 0), which.copy())

    def _judge_step(
        self,
        actions: np.ndarray,
        before: dict[int, tuple[int, ...]],
        reward: np.ndarray,
        terminated: np.ndarray,
        resetting: np.ndarray,
        info: Info,
    ) -> None:
        """The verdict on the agent's moves (the sub-envs in ``before``: legal moves, with their positions before
        them) and the scores of the positions the sub-envs face now, every unknown position in one batch call."""
        n = self.num_envs
        played = np.zeros(n, np.bool_)
        move_score, best_score = np.zeros(n, np.int64), np.zeros(n, np.int64)
        children: dict[int, tuple[int, ...]] = {}
        for i, moves in before.items():
            played[i] = True
            best_score[i] = self._score[i]
            # the agent's move ended the game
            if terminated[i] and len(self.backend.history(i)) == len(moves) + 1:
                move_score[i] = self._scorer.win_score(len(moves)) if reward[i] > 0 else 0
            else:
                children[i] = (*moves, int(actions[i]))
        facing = np.flatnonzero(resetting | (~resetting & ~terminated)).tolist()
        # each position's parent's exact score bounds it: a child scores at least minus its parent's score
        if children:
            scores = self._scorer.position_scores(list(children.values()), [-int(self._score[i]) for i in children])
            for i, score in zip(children, scores):
                move_score[i] = -score
        if facing:
            bounds = [None if resetting[i] or i not in children else int(move_score[i]) for i in facing]
            self._score[facing] = self._scorer.position_scores([self.backend.history(i) for i in facing], bounds)
        now = np.zeros(n, np.bool_)
        now[facing] = True
        regret = best_score - move_score
        is_best = played & (regret == 0)
        self._moves += played
        self._best += is_best
        for key, values in (
            ("move_score", move_score),
            ("best_score", best_score),
            ("regret", regret),
            ("is_best", is_best),
        ):
            _add(info, key, values, played.copy())
        _add(info, "score", np.where(now, self._score, 0), now)

    # --- the VectorEnv API ------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], Info]:
        """New games in every sub-env (or those of ``options["reset_mask"]``); ``seed``: s + i for sub-env i, or a
        list."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int) and not isinstance(seed, bool):
            super().reset(seed=seed)
            seeds = [seed + i for i in range(n)]
        elif isinstance(seed, Sequence):
            seeds = list(seed)
            if len(seeds) != n or any(s is not None and (not isinstance(s, int) or isinstance(s, bool)) for s in seeds):
                raise OptionError(f"seed must be an integer, None or a list of {n} integers or None")
        else:
            raise OptionError(f"seed must be an integer, None or a list of {n} integers or None, not {seed!r}")
        if not self._started and seed is None:  # unseeded: fresh entropy for every sub-env
            entropy = np.random.SeedSequence().generate_state(n, np.uint64)
            seeds = [int(x) for x in entropy]
        which = np.ones(n, np.bool_)
        mask = (options or {}).get("reset_mask")
        if mask is not None:
            which = np.asarray(mask)
            if which.dtype != np.bool_ or which.shape != (n,):
                raise OptionError(f"options['reset_mask'] must be a bool array of shape ({n},)")
        self.backend.reset(which, seeds)
        self._autoreset[which] = False
        self._moves[which] = 0
        self._best[which] = 0
        self._started = True
        info: Info = {}
        if self.judge:
            self._judge_positions(which, info)
        return self._observations(), info

    def _actions(self, actions: Any) -> np.ndarray:
        """The actions as int64; a non-integral or non-finite value becomes -1 (an illegal action)."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise OptionError(f"actions must be an array of shape ({self.num_envs},), not {array.shape}")
        if array.dtype.kind in "iu":
            return array.astype(np.int64, copy=False)
        if array.dtype.kind == "f":
            whole = np.isfinite(array) & (array == np.round(array)) & (np.abs(array) < 2**31)
            return np.where(whole, np.nan_to_num(array), -1).astype(np.int64)
        raise OptionError(f"actions must be integers, not {array.dtype}")

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Info]:
        """Every sub-env's action and its opponent's reply; sub-envs that ended last step reset instead (NEXT_STEP)."""
        if not self._started:
            raise OptionError("call reset() before step()")
        acts = self._actions(actions)
        resetting = self._autoreset.copy()
        n = self.num_envs
        if resetting.any():
            self.backend.reset(resetting, [None] * n)
            self._moves[resetting] = 0
            self._best[resetting] = 0
        active = ~resetting
        before: dict[int, tuple[int, ...]] = {}
        if self.judge:
            for i in np.flatnonzero(active).tolist():
                if 0 <= acts[i] < self.backend.action_mask.shape[1] and self.backend.action_mask[i, acts[i]]:
                    before[i] = self.backend.history(i)
        reward, terminated, illegal = self.backend.step(acts, active)
        reward, terminated = reward.copy(), terminated.copy()
        info: Info = {}
        if illegal.any():
            _add(info, "illegal", illegal.copy(), illegal.copy())
        if self.judge:
            self._judge_step(acts, before, reward, terminated, resetting, info)
            ended = terminated & ~illegal
            if ended.any():
                rate = np.where(ended, self._best / np.maximum(self._moves, 1), 0.0)
                _add(info, "perfect_move_rate", rate, ended.copy())
        self._autoreset = terminated.copy()
        return self._observations(), reward, terminated, np.zeros(n, np.bool_), info


def vector_env(
    game_name: str,
    num_envs: int = 1,
    opponent: str = "random",
    seat: int = 0,
    *,
    judge: bool = False,
    copy: bool = True,
    compiled: bool = True,
    **options: Any,
) -> GridGamesVectorEnv:
    """``num_envs`` games of ``game_name`` (with its ``options``) of an agent in ``seat`` against ``opponent``, as one
    `VectorEnv`."""
    return GridGamesVectorEnv(game_name, num_envs, opponent, seat, judge=judge, copy=copy, compiled=compiled, **options)
