"""Guess the coin, a one-player game of chance for the tests (issue 53): guess, then the coin is tossed.

Each of ``rounds`` rounds the player guesses heads (``H``) or tails (``T``); then the coin is tossed, a chance
point: heads (``=H``) with probability ``heads`` (0.7 by default), else tails (``=T``). A right guess scores a
point; the outcome's one score is the points. Nothing in a state knows a toss before it is drawn (no seed, no
future), so a player that guessed the toss more often than the odds allow would have to peek: the best guess is
always the likelier side, worth ``heads`` points a round on average.

>>> game = Coin(rounds=1)
>>> state = game.new_state()
>>> state.play(game.parse_move("H")); state.current_player, state.chance_outcomes()
(-1, [(2, 0.7), (3, 0.30000000000000004)])
>>> state.play(game.parse_move("=T")); state.outcome.headline(game.info.player_names)
'Game over: 0'
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.errors import GameOverError, IllegalMoveError, NotationError, OptionError
from gridgames.game import CHANCE, Game, GameInfo, GameKind, GameSpec, Option, Outcome, State
from gridgames.grid import Grid

TEXTS = ("H", "T", "=H", "=T")
"""Actions 0-3: guess heads, guess tails, the coin shows heads, the coin shows tails."""


@attrs.frozen
class Coin(Game):
    """The rules: how many rounds, and how likely heads is."""

    rounds: int = 2
    heads: float = 0.7

    def __attrs_post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= 50:
            raise OptionError(f"rounds must be a whole number from 1 to 50, not {self.rounds!r}")
        if not 0.0 < self.heads < 1.0:
            raise OptionError(f"heads must be a probability between 0 and 1, not {self.heads!r}")

    @property
    def info(self) -> GameInfo:
        return GameInfo(
            num_players=1,
            num_actions=4,
            player_names=("guesser",),
            max_game_length=2 * self.rounds,
            deterministic=False,
            zero_sum=False,
        )

    def new_state(self) -> CoinState:
        return CoinState(self)

    def parse_move(self, text: str) -> int:
        word = text.strip().upper()
        if word not in TEXTS:
            raise NotationError(f"a move is H or T (a toss is =H or =T), not {text.strip()[:20]!r}")
        return TEXTS.index(word)

    def format_move(self, move: int) -> str:
        return TEXTS[move]


@attrs.define
class CoinState(State):
    game: Coin
    moves: list[int] = attrs.field(factory=list)

    @property
    def current_player(self) -> int:
        return CHANCE if len(self.moves) % 2 else 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player != CHANCE:
            return []
        return [(2, self.game.heads), (3, 1.0 - self.game.heads)]

    def legal_moves(self) -> Iterator[int]:
        if self.is_over:
            return iter(())
        return iter((2, 3) if self.current_player == CHANCE else (0, 1))

    def play(self, move: int) -> None:
        if self.is_over:
            raise GameOverError("the game is over")
        if move not in set(self.legal_moves()):
            raise IllegalMoveError(f"move {move} is not legal here")
        self.moves.append(move)

    def undo(self) -> int:
        if not self.moves:
            raise IllegalMoveError("there is no move to undo")
        return self.moves.pop()

    @property
    def points(self) -> int:
        """Right guesses so far."""
        return sum(guess + 2 == toss for guess, toss in zip(self.moves[::2], self.moves[1::2]))

    def scores(self) -> tuple[float, ...]:
        return (float(self.points),)

    @property
    def outcome(self) -> Outcome | None:
        if len(self.moves) < 2 * self.game.rounds:
            return None
        return Outcome(None, f"{self.points} right of {self.game.rounds}", scores=(self.points,))

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self.moves)

    def copy(self) -> CoinState:
        return CoinState(self.game, list(self.moves))

    def to_text(self) -> str:
        return " ".join(self.game.format_move(m) for m in self.moves) or "(no guess yet)"

    def board(self) -> Grid:
        """Row 0: the guesses, row 1: the tosses (1 heads, 2 tails, 0 not yet)."""
        cells = np.zeros((2, self.game.rounds), dtype=np.int32)
        for i, move in enumerate(self.moves):
            cells[i % 2, i // 2] = 1 + move % 2
        return Grid(cells)


SPEC = GameSpec(
    name="coin",
    summary="Guess the toss of a biased coin, round after round (one player, chance).",
    kind=GameKind.TURN_BASED,
    create=Coin,
    options=(Option("rounds", int, 2, "rounds to play"), Option("heads", float, 0.7, "the chance of heads")),
)
