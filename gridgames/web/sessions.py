"""Sessions: each page's games and puzzles, kept apart and bounded in number and size.

A session is created by the page (``POST /api/session``) and named by an unguessable
token the page sends back in the ``X-Session`` header. Each session belongs to a client
(the browser's ``gridgames_client`` cookie, set by the server). The store keeps at most
``max_sessions``, and a client at most ``per_client``; a new session never evicts another
client's live game: when full, the store drops a session holding nothing (no game, no puzzle),
else one idle for ``evict_seconds`` (`EVICT_SECONDS`, 30 minutes), else refuses (503); at a
client's own cap, its own session idle for ``own_evict_seconds`` (a minute) may go, else 429.
Sessions idle longer than ``idle_seconds`` (an hour) go too (their jobs are cancelled). The
store remembers why the last `GONE_KEPT` sessions went, so the page of one is told (`gone`).
Within a session each game has one play (or puzzle run), and a puzzle keeps at most
``max_solutions`` solutions; over every session the listed solutions kept hold at most ``kept_cells`` cells
(`SessionStore.trim_solutions`: the least recently used sessions' kept solutions are dropped first, their
numbers stay and can be listed again).
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from gridgames.game import Game, Move, Puzzle, Solution, State
from gridgames.web.validate import WebError

__all__ = ["EVICT_SECONDS", "KEPT_CELLS_TOTAL", "OWN_EVICT_SECONDS", "Play", "PuzzleRun", "Session", "SessionStore"]

EVICT_SECONDS = 1800.0
"""How long a session holding a game or puzzle must be idle before another client's new session may take its place."""

OWN_EVICT_SECONDS = 60.0
"""How long a session must be idle before a new session of the same client (its own cap reached) may take its place."""

GONE_KEPT = 4096
"""How many closed sessions the store remembers the reason of (`SessionStore.gone`)."""

KEPT_CELLS_TOTAL = 600_000
"""The most cells of listed solutions kept over all sessions (about 110 MB: 100 solutions of 2x500 held 18 MB)."""


@attrs.define(eq=False)
class Play:
    """A turn-based game in a session: the rules, the position, the moves undone, who sits where."""

    name: str
    game: Game
    state: State
    seats: list[str]
    think: float
    rng: random.Random
    options: dict[str, Any] = attrs.field(factory=dict)
    seed: int | None = None
    redo: list[Move] = attrs.field(factory=list)
    notes: list[str] = attrs.field(factory=list)
    scores: dict[str, Any] | None = None
    review: list[dict[str, Any]] | None = None


@attrs.define(eq=False)
class PuzzleRun:
    """A puzzle in a session: the puzzle, what built it, the solutions listed so far, the last count."""

    name: str
    puzzle: Puzzle
    source: dict[str, Any]
    solutions: list[Solution] = attrs.field(factory=list)
    first: int = 0
    """How many solutions were dropped from the front of ``solutions`` (kept to at most a bound)."""
    stream: Iterator[Solution] | None = None
    exhausted: bool = False
    budget: Any = None
    count: dict[str, Any] | None = None


@attrs.define(eq=False)
class Session:
    """One page's state: its plays and puzzles by game name; a lock guards them against the job threads."""

    id: str
    plays: dict[str, Play] = attrs.field(factory=dict)
    puzzles: dict[str, PuzzleRun] = attrs.field(factory=dict)
    lock: threading.RLock = attrs.field(factory=threading.RLock)
    last_seen: float = attrs.field(factory=time.monotonic)
    client: str = ""

    @property
    def empty(self) -> bool:
        """True while the session holds no game and no puzzle (dropping it loses nothing)."""
        return not self.plays and not self.puzzles


class SessionStore:
    """At most ``max_sessions`` sessions and ``per_client`` per client; only empty or idle sessions are evicted."""

    def __init__(
        self,
        max_sessions: int = 256,
        idle_seconds: float = 3600.0,
        on_expire: Callable[[str], None] | None = None,
        *,
        per_client: int = 64,
        evict_seconds: float = EVICT_SECONDS,
        own_evict_seconds: float = OWN_EVICT_SECONDS,
        kept_cells: int = KEPT_CELLS_TOTAL,
    ) -> None:
        self.max_sessions = max_sessions
        self.kept_cells = kept_cells
        self.idle_seconds = idle_seconds
        self.per_client = per_client
        self.evict_seconds = evict_seconds
        self.own_evict_seconds = own_evict_seconds
        self.on_expire = on_expire
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self.expired = 0

    def create(self, client: str = "") -> Session:
        """A new session of ``client``, making room by evicting an empty or idle one; `WebError` 429/503 when none can
        go."""
        session = Session(secrets.token_urlsafe(18), client=client)
        with self._lock:
            self._expire_idle()
            mine = [s for s in self._sessions.values() if s.client == client]
            if len(mine) >= self.per_client:
                self._evict(
                    mine,
                    f"this client already has {self.per_client} sessions (pages) in use: close some pages or wait a "
                    "minute",
                    429,
                    self.own_evict_seconds,
                )
            while len(self._sessions) >= self.max_sessions:
                self._evict(
                    list(self._sessions.values()),
                    f"the server keeps at most {self.max_sessions} sessions and every one is in use: try again later",
                    503,
                    self.evict_seconds,
                )
            self._sessions[session.id] = session
        return session

    def _evict(self, candidates: list[Session], refusal: str, status: int, idle: float) -> None:
        """Drop the least recently used empty session of ``candidates``, else the least recently used one idle for
        ``idle`` seconds, else refuse."""
        now = time.monotonic()
        # candidates are ordered by last use
        victim = next((s for s in candidates if s.empty), None)
        if victim is None:
            victim = next((s for s in candidates if now - s.last_seen >= idle), None)
        if victim is None:
            raise WebError(refusal, status)
        del self._sessions[victim.id]
        minutes = max(1, round((now - victim.last_seen) / 60))
        self._expired(
            victim.id, "" if victim.empty else f"closed after {minutes} idle minutes to make room for other pages"
        )

    def gone(self, token: str) -> str | None:
        """Why the session of ``token`` was closed ('' when it held nothing), None when this store never had it."""
        with self._lock:
            return self._gone.get(token)

    def get(self, token: str) -> Session | None:
        """The session of a token (None when unknown or expired); marks it as used."""
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            session.last_seen = time.monotonic()
            self._sessions.move_to_end(token)
            return session

    def trim_solutions(self, keep: PuzzleRun) -> int:
        """Drop kept solutions of the least recently used other runs until all hold at most ``kept_cells``; the cells
        dropped.

        Called with ``keep``'s session lock held; another session is trimmed only if its lock is free
        at once (never waited for, so two trims cannot deadlock), and ``keep`` itself never.
        """
        with self._lock:
            sessions = list(self._sessions.values())  # least recently used first
        runs = [(session, run) for session in sessions for run in session.puzzles.values()]
        total = sum(_cells(run) for _, run in runs)
        dropped = 0
        for session, run in runs:
            if total <= self.kept_cells:
                break
            if run is keep or not run.solutions or not session.lock.acquire(blocking=False):
                continue
            try:
                cells = _cells(run)
                run.first += len(run.solutions)
                run.solutions.clear()
            finally:
                session.lock.release()
            total -= cells
            dropped += cells
        return dropped

    def _expire_idle(self) -> None:
        now = time.monotonic()
        for token, session in list(self._sessions.items()):
            if now - session.last_seen <= self.idle_seconds:
                break  # ordered by last use: the rest are newer
            del self._sessions[token]
            minutes = round(self.idle_seconds / 60)
            self._expired(token, "" if session.empty else f"closed after more than {minutes} idle minutes")

    def _expired(self, token: str, reason: str = "") -> None:
        self.expired += 1
        self._gone[token] = reason
        while len(self._gone) > GONE_KEPT:
            self._gone.popitem(last=False)
        if self.on_expire is not None:
            self.on_expire(token)

    def __len__(self) -> int:
        return len(self._sessions)


def _cells(run: PuzzleRun) -> int:
    """The cells of a run's kept solutions (its board's area for each)."""
    return len(run.solutions) * max(1, run.puzzle.board.area)
