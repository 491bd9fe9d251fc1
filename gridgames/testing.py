"""Conformance checks for game plugins: check a game module against the protocol in one call.

    from gridgames.testing import check_spec
    check_spec(SPEC)            # in your plugin's tests

`check_game` plays random games to the end and checks, at every step, that legal
moves agree with `play`, that `undo` restores the state exactly, that moves and
whole games round-trip through their notation, and that illegal moves and moves
after the end are refused without changing anything. `check_puzzle` verifies every
reported solution with the puzzle's independent checker, and that the checker
rejects broken solutions. Each failure raises `ConformanceError` naming what broke.
"""

from __future__ import annotations

import random
from typing import Any

from gridgames.errors import GameOverError, GridGamesError, IllegalMoveError, InvalidMoveError
from gridgames.game import Game, GameKind, GameSpec, Move, Puzzle, State, Termination


class ConformanceError(GridGamesError, AssertionError):
    """A game or puzzle breaks the gridgames protocol."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable about a state, for exact comparisons."""
    return (state.history, state.current_player, state.outcome, state.to_text(), tuple(state.legal_moves()))


def check_spec(spec: GameSpec, *, playouts: int = 20, seed: int = 0, solution_limit: int = 20) -> None:
    """Check a `GameSpec` and the game or puzzle it builds with its default options."""
    _require(isinstance(spec, GameSpec), f"expected a GameSpec, got {type(spec).__name__}")
    _require(bool(spec.summary.strip()) and "\n" not in spec.summary, "the summary must be one non-empty line")
    names = [option.name for option in spec.options]
    _require(len(names) == len(set(names)), f"option names repeat: {names}")
    thing = spec.make(**{o.name: o.default for o in spec.options if o.default is not None})
    if spec.kind is GameKind.TURN_BASED:
        _require(isinstance(thing, Game), f"a turn-based spec must create a Game, got {type(thing).__name__}")
        check_game(thing, playouts=playouts, seed=seed)  # type: ignore[arg-type]
    else:
        _require(isinstance(thing, Puzzle), f"a puzzle spec must create a Puzzle, got {type(thing).__name__}")
        check_puzzle(thing, limit=solution_limit)  # type: ignore[arg-type]
    if spec.app is not None:
        app = spec.app()
        _require(hasattr(app, "registered_commands"), "GameSpec.app must return a typer.Typer")


def check_game(game: Game, *, playouts: int = 20, seed: int = 0) -> None:
    """Play random games to the end, checking legality, undo, notation and the outcome at each step.

    The work is linear in a game's length: the notation round trip of every position is
    checked once per playout, at its end, by replaying the whole game's notation move by
    move against the pictures seen on the way (see `_check_notation`).
    """
    info = game.info
    _require(info.num_players >= 1, "a game needs at least one player")
    _require(len(info.player_names) == info.num_players, "player_names must name every player")
    _require(info.num_actions >= 1, "num_actions must be positive")
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.new_state()
        _require(state.history == (), "a new state must have an empty history")
        _require(state.outcome is None, "a new state must not be over")
        pictures = []
        for ply in range(info.max_game_length + 1):
            pictures.append(state.to_text())
            _check_position(game, state)
            if state.is_over:
                break
            move = rng.choice(list(state.legal_moves()))
            before = _snapshot(state)
            state.play(move)
            _require(state.history == before[0] + (move,), "play must append the move to the history")
            undone = state.undo()
            _require(undone == move, f"undo returned {undone!r}, expected {move!r}")
            _require(_snapshot(state) == before, f"undo after {game.format_move(move)!r} did not restore the state")
            state.play(move)
        else:
            raise ConformanceError(f"a random game ran past max_game_length ({info.max_game_length})")
        _check_notation(game, state, pictures)
        _check_finished(game, state)


def _check_notation(game: Game, state: State, pictures: list[str]) -> None:
    """The whole game's notation round-trips, and so does every position's on the way (``pictures[i]``: after i moves).

    `Game.from_notation` rebuilds the first moves and a fixed number of prefixes spread over the game
    (`_sample_plies`); the notation of the first i moves must be the first i parts of the whole game's
    (checked on the same prefixes), so replaying the whole notation part by part rebuilds every position
    the game went through: a bounded number of replays instead of one per ply.
    """
    history = state.history
    notation = state.notation()
    for ply in _sample_plies(len(history)):  # the game's own from_notation, on a bounded number of prefixes
        _check_from_notation(game, game.join_notation(history[:ply]), history[:ply], pictures[ply])
    parts = game.split_notation(notation)
    _require(len(parts) == len(history), f"notation {notation!r} does not round-trip: {len(parts)} parts for {len(history)} moves")
    for ply in _sample_plies(len(history)):
        prefix = game.join_notation(history[:ply])
        _require(game.split_notation(prefix) == parts[:ply], f"the notation of the first {ply} moves {prefix!r} does not begin the game's {notation!r}")
    replay = game.new_state()
    for ply, part in enumerate(parts):
        _require(replay.to_text() == pictures[ply], f"the position rebuilt from the notation of the first {ply} moves differs")
        try:
            move = game.parse_move(part)
            replay.play(move)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise ConformanceError(f"notation {notation!r} does not round-trip: move {ply + 1} ({part!r}): {error}") from None
        _require(move == history[ply], f"notation {notation!r} does not round-trip: move {ply + 1} ({part!r}) is {move}, not {history[ply]}")
    _require(replay.to_text() == pictures[-1], "the position rebuilt from its notation differs")


SAMPLED_PREFIXES = 8
"""`check_game` rebuilds with `Game.from_notation` every prefix of a game up to this many moves, and this many more spread over it."""


def _sample_plies(length: int) -> list[int]:
    """The prefixes of a game of ``length`` moves whose notation `check_game` rebuilds (all of a short game)."""
    spread = {length * i // SAMPLED_PREFIXES for i in range(1, SAMPLED_PREFIXES + 1)}
    return sorted({*range(min(length, SAMPLED_PREFIXES) + 1), *spread})


def _check_from_notation(game: Game, notation: str, history: tuple[Move, ...], picture: str) -> None:
    """``game.from_notation(notation)`` rebuilds the game of ``history``, whose position's text is ``picture``."""
    try:
        replayed = game.from_notation(notation)
    except (InvalidMoveError, IllegalMoveError) as error:
        raise ConformanceError(f"notation {notation!r} does not round-trip: {error}") from None
    _require(replayed.history == history, f"notation {notation!r} does not round-trip")
    _require(replayed.to_text() == picture, "the position rebuilt from its notation differs")


def _check_position(game: Game, state: State) -> None:
    info = game.info
    legal = list(state.legal_moves())
    legal_set = set(legal)
    _require(len(legal) == len(legal_set), "legal_moves repeats a move")
    if state.is_over:
        _require(not legal, "a finished game must have no legal moves")
        return
    _require(bool(legal), "a game that is not over must have a legal move")
    _require(0 <= state.current_player < info.num_players, f"current_player {state.current_player} out of range")
    for move in legal:
        _require(0 <= move < info.num_actions, f"legal move {move} outside 0..{info.num_actions - 1}")
        _require(state.is_legal(move), f"is_legal({move}) disagrees with legal_moves")
        text = game.format_move(move)
        _require(game.parse_move(text) == move, f"move {move} does not round-trip through {text!r}")
    copy = state.copy()
    _require(_snapshot(copy) == _snapshot(state), "copy() differs from the original")
    illegal = next((m for m in range(info.num_actions) if m not in legal_set), None)
    if illegal is not None:
        before = _snapshot(state)
        try:
            state.play(illegal)
        except (IllegalMoveError, InvalidMoveError):
            pass
        else:
            raise ConformanceError(f"play accepted the illegal move {illegal}")
        _require(_snapshot(state) == before, "a refused move changed the state")
    copy.play(legal[0])
    _require(_snapshot(state) != _snapshot(copy), "playing on a copy changed the original (or nothing)")


def _check_finished(game: Game, state: State) -> None:
    outcome = state.outcome
    _require(outcome is not None, "a game without legal moves must have an outcome")
    assert outcome is not None
    _require(outcome.winner is None or 0 <= outcome.winner < game.info.num_players, f"bad winner {outcome.winner}")
    _require(bool(outcome.reason), "an outcome needs a reason")
    _require(isinstance(outcome.termination, Termination), f"the outcome's termination must be a Termination, not {outcome.termination!r}")
    before = _snapshot(state)
    try:
        state.play(0)
    except GameOverError:
        pass
    else:
        raise ConformanceError("play after the end of the game did not raise GameOverError")
    _require(_snapshot(state) == before, "a move refused after the end changed the state")


def check_puzzle(puzzle: Puzzle, *, limit: int = 20) -> None:
    """Verify every reported solution (up to ``limit``) with the puzzle's checker, and that it rejects broken ones."""
    solutions = list(puzzle.solutions(limit=limit))
    _require(len(solutions) <= limit, f"solutions(limit={limit}) gave {len(solutions)}")
    seen = set()
    for solution in solutions:
        _require(puzzle.is_solution(solution), f"is_solution rejects a reported solution: {solution}")
        key = frozenset(solution)
        _require(key not in seen, "a solution was reported twice")
        seen.add(key)
        if len(solution) > 1:
            _require(not puzzle.is_solution(solution[:-1]), "is_solution accepts a solution with a placement missing")
            _require(not puzzle.is_solution(solution + solution[:1]), "is_solution accepts a placement used twice")
    if len(solutions) < limit:
        result = puzzle.count()
        _require(result.count == len(solutions), f"count() is {result.count} but solutions() gave {len(solutions)}")
        unique = puzzle.count(unique=True)
        _require(unique.count <= result.count, "there are more unique solutions than solutions")
        _require(unique.count > 0 or result.count == 0, "solutions exist but none is unique")
