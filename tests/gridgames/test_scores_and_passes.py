"""Scored outcomes and passes in the protocol (issue 37): `Outcome.scores`, `margin_for`, `value_for`'s scaling,
`check_game`'s pass rules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gridgames.game import PASS_TEXT, Game, GameInfo, Move, Outcome, State, Termination
from gridgames.testing import ConformanceError, check_game


@pytest.mark.parametrize("winner", [None, 0, 1])
def test_without_scores_the_values_are_exactly_plus_minus_one_and_zero(winner: int | None) -> None:
    outcome = Outcome(winner, "reason", (), Termination.LINE)  # the old positional form
    assert outcome.scores is None
    expected = {None: (0.0, 0.0), 0: (1.0, -1.0), 1: (-1.0, 1.0)}[winner]
    assert (outcome.value_for(0), outcome.value_for(1)) == expected
    assert outcome.margin_for(0) == outcome.margin_for(1) == 0.0


def test_a_bigger_win_is_worth_more_and_stays_under_one() -> None:
    values = [Outcome(0, "more discs", scores=(32 + m, 32 - m)).value_for(0) for m in range(1, 33)]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert 0.5 < values[0] < values[-1] < 1.0
    assert values[0] == pytest.approx(0.5 + 0.5 * 2 / 3)  # margin 2
    for m in range(1, 33):
        outcome = Outcome(0, "more discs", scores=(32 + m, 32 - m))
        assert outcome.value_for(1) == -outcome.value_for(0)


def test_margins_use_the_best_other_score_and_a_scored_draw_is_zero() -> None:
    three = Outcome(2, "most points", scores=(3, 7, 10))
    assert (three.margin_for(0), three.margin_for(1), three.margin_for(2)) == (-7.0, -3.0, 3.0)
    assert three.value_for(2) == pytest.approx(0.5 + 0.5 * 3 / 4) and three.value_for(0) == -three.value_for(2)
    draw = Outcome(None, "equal", scores=(32, 32))
    assert draw.value_for(0) == draw.value_for(1) == 0.0 and draw.margin_for(0) == 0.0


def test_scores_are_a_tuple_and_take_part_in_equality() -> None:
    assert Outcome(0, "x", scores=[3, 1]).scores == (3, 1)
    assert Outcome(0, "x", scores=(3, 1)) != Outcome(0, "x", scores=(4, 0))
    assert Outcome(0, "x") == Outcome(0, "x", (), Termination.RULE)


def test_a_game_has_no_pass_by_default_and_the_pass_is_written_pass() -> None:
    from gridgames_mnk import MNKGame

    assert MNKGame().pass_move is None
    assert PASS_TEXT == "pass"


class _Countdown(Game):
    """A toy game: players alternately take 1 from a counter of 4; the pass (action 1) is offered as ``offer`` says."""

    def __init__(self, offer: str = "alone", text: str = PASS_TEXT) -> None:
        self.offer, self.text = offer, text

    @property
    def info(self) -> GameInfo:
        return GameInfo(num_players=2, num_actions=2, player_names=("A", "B"), max_game_length=8)

    @property
    def pass_move(self) -> Move:
        return 1

    def new_state(self) -> _CountdownState:
        return _CountdownState(self)

    def parse_move(self, text: str) -> Move:
        return 1 if text == self.text else 0

    def format_move(self, move: Move) -> str:
        return self.text if move == 1 else "take"


class _CountdownState(State):
    def __init__(self, game: _Countdown) -> None:
        self.game = game
        self.moves: list[Move] = []

    @property
    def current_player(self) -> int:
        return len(self.moves) % 2

    def _left(self) -> int:
        return 4 - self.moves.count(0)

    def legal_moves(self) -> Iterator[Move]:
        if self.outcome is not None:
            return iter(())
        if self.game.offer == "with others":
            return iter((0, 1))
        # A must pass when the counter is odd, else takes
        return iter((1,) if self._left() % 2 and self.current_player == 0 else (0,))

    def play(self, move: Move) -> None:
        self.check_playable(move)
        self.moves.append(move)

    def undo(self) -> Move:
        return self.moves.pop()

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(self.current_player, "took the last one", scores=(1, 0)) if self._left() == 0 else None

    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(self.moves)

    def copy(self) -> _CountdownState:
        other = _CountdownState(self.game)
        other.moves = list(self.moves)
        return other

    def to_text(self) -> str:
        return f"{self._left()} left, {self.current_player} to move"


def test_check_game_accepts_a_pass_offered_alone() -> None:
    check_game(_Countdown(), playouts=3)


def test_check_game_refuses_a_pass_beside_other_moves() -> None:
    with pytest.raises(ConformanceError, match="the pass is legal only alone"):
        check_game(_Countdown(offer="with others"), playouts=1)


def test_check_game_refuses_a_pass_with_another_name() -> None:
    with pytest.raises(ConformanceError, match="the pass must be written 'pass'"):
        check_game(_Countdown(text="skip"), playouts=1)


# --- one-player scores and how results read (issue 53) ---------------------------------------------------
def test_a_one_player_score_reaches_value_and_margin_and_a_bigger_score_is_worth_more() -> None:
    values = [Outcome(None, "no move left", scores=(s,)).value_for(0) for s in (-40, -3, 0, 1, 2, 1352, 4138)]
    assert values == sorted(values) and len(set(values)) == len(values) and -1 < values[0] and values[-1] < 1
    assert Outcome(None, "no move left", scores=(1352,)).margin_for(0) == 1352.0
    assert Outcome(None, "no move left", scores=(3,)).value_for(0) == 0.75  # s / (|s| + 1)
    assert Outcome(None, "unsolved").value_for(0) == 0.0  # no score: as before


@pytest.mark.parametrize(
    ("outcome", "line"),
    [
        (Outcome(None, "no move left", scores=(1352,)), "Game over: 1,352 (no move left)"),
        (Outcome(1, "more points", scores=(-37, -33)), "Violet wins -33 to -37 (more points)"),
        (Outcome(0, "more discs", scores=(40, 24)), "Red wins 40-24 (more discs)"),
        (Outcome(None, "equal", scores=(32, 32)), "draw 32-32 (equal)"),
        (Outcome(None, "full"), "draw (full)"),
        (Outcome(0, "half points", scores=(2.5, 1.5)), "Red wins 2.5-1.5 (half points)"),
    ],
)
def test_result_lines_read_well_with_one_player_and_negative_scores(outcome: Outcome, line: str) -> None:
    from gridgames.cli_look import result_line

    assert result_line(outcome, ("Red", "Violet")) == line


class _AlwaysPass(_Countdown):
    """The countdown with a pass declared legal at every turn; the game also ends after 8 moves."""

    @property
    def pass_always_legal(self) -> bool:
        return True

    def new_state(self) -> _CountdownState:
        return _BoundedState(self)


class _BoundedState(_CountdownState):
    @property
    def outcome(self) -> Outcome | None:
        if len(self.moves) >= 8 and self._left() > 0:
            return Outcome(None, "eight moves")
        return super().outcome

    def copy(self) -> _BoundedState:
        other = _BoundedState(self.game)
        other.moves = list(self.moves)
        return other


def test_check_game_accepts_a_pass_declared_always_legal_beside_other_moves() -> None:
    check_game(_AlwaysPass(offer="with others"), playouts=10)


def test_check_game_refuses_a_pass_declared_always_legal_that_is_missing() -> None:
    with pytest.raises(ConformanceError, match="declared always legal .* not legal here"):
        check_game(_AlwaysPass(offer="alone"), playouts=3)


def test_check_game_refuses_always_legal_passes_without_a_pass_move() -> None:
    from gridgames_mnk import MNKGame

    class NoPass(MNKGame):
        @property
        def pass_always_legal(self) -> bool:
            return True

    with pytest.raises(ConformanceError, match="pass_always_legal is declared but the game has no pass_move"):
        check_game(NoPass(), playouts=1)


def test_the_terminal_offers_an_always_legal_pass_and_reads_p() -> None:
    from types import SimpleNamespace

    from gridgames.cli_look import PlayLook
    from gridgames.cli_play import _parse_typed

    always, alone = _AlwaysPass(offer="with others").new_state(), _Countdown().new_state()
    assert PlayLook().prompt(SimpleNamespace(state=always)).endswith("p: pass): ")
    assert "p: pass when you have no move" in PlayLook().prompt(SimpleNamespace(state=alone))
    assert _parse_typed(always, "p") == 1 and _parse_typed(always, "take") == 0


def test_the_prompt_shows_the_name_on_the_declared_colour_and_plain_without_one() -> None:
    from types import SimpleNamespace

    from gridgames.cli_look import PlayLook

    class Coloured(_AlwaysPass):
        def player_colours(self) -> tuple[str, ...]:
            return ("#111111", "#f5f5f5")

    first, second = Coloured(offer="with others").new_state(), Coloured(offer="with others").new_state()
    second.play(0)
    white_on_black = "\x1b[38;2;255;255;255m\x1b[48;2;17;17;17mA\x1b[0m"
    assert PlayLook().prompt(SimpleNamespace(state=first)).startswith(white_on_black)
    assert "\x1b[38;2;0;0;0m\x1b[48;2;245;245;245mB\x1b[0m to move" in PlayLook().prompt(SimpleNamespace(state=second))
    assert PlayLook().prompt(SimpleNamespace(state=_AlwaysPass().new_state())).startswith("A to move")
