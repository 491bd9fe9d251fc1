"""Sessions: each page's games and puzzles, kept apart and bounded in number and size.

A session is created by the page (``POST /api/session``) and named by an unguessable
token the page sends back in the ``X-Session`` header. The store keeps at most
``max_sessions``; a new one expires the least recently used, and sessions idle longer
than ``idle_seconds`` go too (their jobs are cancelled). Within a session each game
has one play (or puzzle run), and a puzzle keeps at most ``max_solutions`` solutions.
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

__all__ = ["Play", "PuzzleRun", "Session", "SessionStore"]


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


class SessionStore:
    """At most ``max_sessions`` sessions, the least recently used expired first."""

    def __init__(self, max_sessions: int = 256, idle_seconds: float = 3600.0, on_expire: Callable[[str], None] | None = None) -> None:
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.on_expire = on_expire
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self.expired = 0

    def create(self) -> Session:
        """A new session (expiring the oldest when full)."""
        session = Session(secrets.token_urlsafe(18))
        with self._lock:
            self._expire_idle()
            while len(self._sessions) >= self.max_sessions:
                old, _ = self._sessions.popitem(last=False)
                self._expired(old)
            self._sessions[session.id] = session
        return session

    def get(self, token: str) -> Session | None:
        """The session of a token (None when unknown or expired); marks it as used."""
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            session.last_seen = time.monotonic()
            self._sessions.move_to_end(token)
            return session

    def _expire_idle(self) -> None:
        now = time.monotonic()
        for token, session in list(self._sessions.items()):
            if now - session.last_seen <= self.idle_seconds:
                break  # ordered by last use: the rest are newer
            del self._sessions[token]
            self._expired(token)

    def _expired(self, token: str) -> None:
        self.expired += 1
        if self.on_expire is not None:
            self.on_expire(token)

    def __len__(self) -> int:
        return len(self._sessions)
