"""Conformance checks for game plugins: check a game module against the protocol in one call.

    from gridgames.testing import check_spec
    check_spec(SPEC)            # in your plugin's tests

`check_game` plays random games to the end and checks, at every step, that legal
moves agree with `play`, that `undo` restores the state exactly, that moves and
whole games round-trip through their notation, and that illegal moves and moves
after the end are refused without changing anything. At a chance point (`CHANCE`) the
outcomes must be the legal moves with probabilities adding up to 1 (the random games draw them). A game with a pass
(`Game.pass_move`) must offer it only alone (or, declaring `Game.pass_always_legal`, at every
turn) and write it `PASS_TEXT`; a playout policy
(`State.playout_move`) must give legal moves, and none once the game is over. A game that declares
compiled rules (`gridgames.compiled_rules`) gets them checked against its Python rules
by `check_compiled`. `check_puzzle` verifies every
reported solution with the puzzle's independent checker, and that the checker
rejects broken solutions. Each failure raises `ConformanceError` naming what broke.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gridgames.errors import GameOverError, GridGamesError, IllegalMoveError, InvalidMoveError
from gridgames.game import CHANCE, PASS_TEXT, Game, GameKind, GameSpec, Move, Puzzle, State, Termination, draw_chance

if TYPE_CHECKING:
    import numpy as np

    from gridgames.search.crules.engines import Engines


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
        if not isinstance(thing, Game):
            raise ConformanceError(f"a turn-based spec must create a Game, got {type(thing).__name__}")
        check_game(thing, playouts=playouts, seed=seed)
        check_compiled(thing, seed=seed)
    else:
        if not isinstance(thing, Puzzle):
            raise ConformanceError(f"a puzzle spec must create a Puzzle, got {type(thing).__name__}")
        check_puzzle(thing, limit=solution_limit)
    if spec.app is not None:
        app = spec.app()
        _require(hasattr(app, "registered_commands"), "GameSpec.app must return a typer.Typer")


def check_game(game: Game, *, playouts: int = 20, seed: int = 0) -> None:
    """Play random games to the end, checking legality, undo, notation and the outcome at each step.

    The work is linear in a game's length: the notation round trip of every position is
    checked once per playout, at its end (see `_check_notation`).
    """
    info = game.info
    _require(info.num_players >= 1, "a game needs at least one player")
    _require(len(info.player_names) == info.num_players, "player_names must name every player")
    _require(info.num_actions >= 1, "num_actions must be positive")
    _check_pass_notation(game)
    plies = game.playout_plies
    _require(
        plies is None or (isinstance(plies, int) and not isinstance(plies, bool) and plies >= 0),
        f"playout_plies must be None or a whole number of at least 0, not {plies!r}",
    )
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.new_state()
        _require(state.history == (), "a new state must have an empty history")
        _require(state.outcome is None, "a new state must not be over")
        pictures: list[str] = []
        notations: dict[int, str] = {}
        for ply in range((UNBOUNDED_PLIES if info.max_game_length is None else info.max_game_length) + 1):
            pictures.append(state.to_text())
            if _sampled(ply):
                notations[ply] = state.notation()
            _check_position(game, state)
            if state.is_over:
                break
            move = draw_chance(state, rng) if state.current_player == CHANCE else rng.choice(list(state.legal_moves()))
            before = _snapshot(state)
            state.play(move)
            _require(state.history == before[0] + (move,), "play must append the move to the history")
            undone = state.undo()
            _require(undone == move, f"undo returned {undone!r}, expected {move!r}")
            _require(_snapshot(state) == before, f"undo after {game.format_move(move)!r} did not restore the state")
            state.play(move)
        else:
            longest = "no bound declared" if info.max_game_length is None else info.max_game_length
            raise ConformanceError(f"a random game ran past max_game_length ({longest}; {ply} plies)")
        notations[len(state.history)] = state.notation()
        _check_notation(game, state, pictures, notations)
        _check_finished(game, state)


UNBOUNDED_PLIES = 100_000
"""How long a random game of a game without a declared `GameInfo.max_game_length` may run before `check_game` calls
it endless."""

SAMPLED_PREFIXES = 8
"""`check_game` rebuilds with `Game.from_notation` the notation of every position up to this many moves, then at
each power of two and at the end (the other positions by one replay of the whole game's notation)."""


def _sampled(ply: int) -> bool:
    """True when `check_game` keeps the notation of the position after ``ply`` moves for `Game.from_notation`."""
    return ply <= SAMPLED_PREFIXES or ply & (ply - 1) == 0


def _check_notation(game: Game, state: State, pictures: list[str], notations: dict[int, str]) -> None:
    """Every position's notation round-trips (``pictures[i]``: the position after i moves; ``notations``: some of
    theirs).

    `Game.from_notation` rebuilds each kept notation (a bounded share of the positions, see `_sampled`): as many
    moves as replays there cost twice the game's length. Where the whole game's notation splits into one part
    per move and each kept notation into the first parts of it (the game's notation is its moves' texts, as
    `Game.join_notation` makes it), one replay of the whole notation part by part rebuilds every position the
    game went through, each checked against its picture: one replay instead of one per ply.
    """
    history = state.history
    for ply, notation in sorted(notations.items()):
        _check_from_notation(game, notation, history[:ply], pictures[ply])
    notation = notations[len(history)]
    parts = game.split_notation(notation)
    if len(parts) != len(history) or any(game.split_notation(text) != parts[:ply] for ply, text in notations.items()):
        # a notation of its own (move numbers, comments): the kept positions were checked above
        return
    replay = game.new_state()
    for ply, part in enumerate(parts):
        _require(
            replay.to_text() == pictures[ply],
            f"the position rebuilt from the notation of the first {ply} moves differs",
        )
        try:
            move = game.parse_move(part)
            replay.play(move)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise ConformanceError(
                f"notation {notation!r} does not round-trip: move {ply + 1} ({part!r}): {error}"
            ) from None
        _require(
            move == history[ply],
            f"notation {notation!r} does not round-trip: move {ply + 1} ({part!r}) is {move}, not {history[ply]}",
        )
    _require(replay.to_text() == pictures[-1], "the position rebuilt from its notation differs")


def _check_from_notation(game: Game, notation: str, history: tuple[Move, ...], picture: str) -> None:
    """``game.from_notation(notation)`` rebuilds the game of ``history``, whose position's text is ``picture``."""
    try:
        replayed = game.from_notation(notation)
    except (InvalidMoveError, IllegalMoveError) as error:
        raise ConformanceError(f"notation {notation!r} does not round-trip: {error}") from None
    _require(replayed.history == history, f"notation {notation!r} does not round-trip")
    _require(replayed.to_text() == picture, "the position rebuilt from its notation differs")


def _check_pass_notation(game: Game) -> None:
    """A game's pass (if it has one) is an action, written `PASS_TEXT`, that parses back."""
    pass_move = game.pass_move
    if pass_move is None:
        _require(not game.pass_always_legal, "pass_always_legal is declared but the game has no pass_move")
        return
    _require(0 <= pass_move < game.info.num_actions, f"pass_move {pass_move} outside 0..{game.info.num_actions - 1}")
    text = game.format_move(pass_move)
    _require(text == PASS_TEXT, f"the pass must be written {PASS_TEXT!r}, not {text!r}")
    _require(game.parse_move(PASS_TEXT) == pass_move, f"{PASS_TEXT!r} does not parse back to pass_move {pass_move}")


def _check_position(game: Game, state: State) -> None:
    info = game.info
    legal = list(state.legal_moves())
    legal_set = set(legal)
    _require(len(legal) == len(legal_set), "legal_moves repeats a move")
    _check_playout_move(state, legal_set)
    if state.is_over:
        _require(not legal, "a finished game must have no legal moves")
        return
    _require(bool(legal), "a game that is not over must have a legal move (a game with passes offers its pass_move)")
    pass_move = game.pass_move
    if pass_move is not None and game.pass_always_legal:
        _require(pass_move in legal_set, "the pass is declared always legal (pass_always_legal) but is not legal here")
    elif pass_move is not None and pass_move in legal:
        _require(
            legal == [pass_move],
            f"the pass is legal only alone, but legal_moves gives it with {len(legal) - 1} other moves",
        )
    if state.current_player == CHANCE:
        _check_chance(state, legal)
    else:
        _require(0 <= state.current_player < info.num_players, f"current_player {state.current_player} out of range")
        _require(not state.chance_outcomes(), "chance_outcomes must be empty where a player is to move")
    for move in legal:
        _require(0 <= move < info.num_actions, f"legal move {move} outside 0..{info.num_actions - 1}")
        _require(state.is_legal(move), f"is_legal({move}) disagrees with legal_moves")
        text = game.format_move(move)
        _require(game.parse_move(text) == move, f"move {move} does not round-trip through {text!r}")
        _require(state.parse_move(text) == move, f"State.parse_move({text!r}) is not move {move}")
        _check_path(game, state, move)
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


def _check_playout_move(state: State, legal: set[Move]) -> None:
    """A declared playout policy (`State.playout_move`) gives a legal move or None, and None once the game is over."""
    move = state.playout_move(random.Random(len(state.history)))
    if move is None:
        return
    _require(not state.is_over, f"playout_move gave {move!r} in a finished game (None once the game is over)")
    _require(move in legal, f"playout_move gave {move!r}, which is not a legal move")


def _check_chance(state: State, legal: list[Move]) -> None:
    """At a chance point: the outcomes are the legal moves, each once, with probabilities that add up to 1."""
    _require(not state.game.info.deterministic, "a game with chance points must declare GameInfo(deterministic=False)")
    outcomes = state.chance_outcomes()
    moves = [move for move, _ in outcomes]
    _require(bool(outcomes), "at a chance point (current_player CHANCE) chance_outcomes must list the outcomes")
    _require(sorted(moves) == sorted(legal), "at a chance point legal_moves must be the chance outcomes")
    _require(all(p > 0 for _, p in outcomes), "every chance outcome needs a probability above 0")
    total = sum(p for _, p in outcomes)
    _require(abs(total - 1.0) < 1e-9, f"the chance outcomes' probabilities add up to {total}, not 1")


def _check_path(game: Game, state: State, move: Move) -> None:
    """A legal move's `State.move_path`, if the game gives one, is at least two cells of the board, one after another
    distinct."""
    path = state.move_path(move)
    if path is None:
        return
    text = game.format_move(move)
    _require(len(path) >= 2, f"move_path({text!r}) must give the piece's cell and at least one more, not {path}")
    _require(all(a != b for a, b in zip(path, path[1:])), f"move_path({text!r}) repeats a cell in a row: {path}")
    grid = state.board()
    if grid is not None:
        _require(all(grid.in_bounds(cell) for cell in path), f"move_path({text!r}) leaves the board: {path}")


def _check_finished(game: Game, state: State) -> None:
    outcome = state.outcome
    _require(outcome is not None, "a game without legal moves must have an outcome")
    assert outcome is not None
    _require(outcome.winner is None or 0 <= outcome.winner < game.info.num_players, f"bad winner {outcome.winner}")
    _require(bool(outcome.reason), "an outcome needs a reason")
    _require(
        isinstance(outcome.termination, Termination),
        f"the outcome's termination must be a Termination, not {outcome.termination!r}",
    )
    before = _snapshot(state)
    try:
        state.play(0)
    except GameOverError:
        pass
    else:
        raise ConformanceError("play after the end of the game did not raise GameOverError")
    _require(_snapshot(state) == before, "a move refused after the end changed the state")


def check_compiled(
    game: Game, *, depth: int = 5, max_positions: int = 20_000, starts: int = 5, playouts: int = 10, seed: int = 0
) -> None:
    """Check a game's compiled rules against its Python rules (nothing for a game without them).

    Random games are played on both, move by move: at every position the state arrays (``encode`` of the Python
    state and the compiled one), the legal moves, the result, the player to move, the scores and the evaluation must
    agree. Then perft: the positions and finished games counted at each ply up to ``depth`` (less where the tree
    would exceed ``max_positions``) from the start and from ``starts`` random positions, compiled and in Python.
    A `ConformanceError` names the first position (its notation) where the two differ.
    """
    from gridgames.compiled_rules import rules_of

    if rules_of(game) is None:
        return
    from gridgames.search.crules.engines import Engines

    engines = Engines.of(game)
    rng = random.Random(seed)
    origins: list[State] = [game.new_state()]
    for _ in range(playouts):
        state = game.new_state()
        array = engines.encode(state)
        while True:
            _compare(engines, state, array)
            if state.is_over:
                break
            if len(origins) <= starts and rng.random() < 0.1:
                origins.append(state.copy())
            move = rng.choice(list(state.legal_moves()))
            state.play(move)
            array = engines.play(array, move)
    for origin in origins:
        _compare_perft(engines, origin, depth, max_positions)


def _where(state: State) -> str:
    return f"after {state.notation()!r}" if state.history else "at the start"


def _compare(engines: Engines, state: State, array: np.ndarray) -> None:
    """The compiled rules' view of ``array`` agrees with the Python ``state`` (its position)."""
    import numpy as np

    name = engines.rules.name
    encoded = engines.encode(state)
    if not np.array_equal(encoded, array):
        raise ConformanceError(
            f"compiled rules of {name} {_where(state)}: the compiled state {array.tolist()} differs from the Python "
            f"state's encoding {encoded.tolist()}"
        )
    python_legal = sorted(state.legal_moves())
    compiled_legal = np.flatnonzero(engines.legal(array)).tolist()
    if compiled_legal != python_legal:
        extra = sorted(set(compiled_legal) - set(python_legal))
        missing = sorted(set(python_legal) - set(compiled_legal))
        words = [[engines.game.format_move(m) for m in moves] for moves in (extra, missing)]
        raise ConformanceError(
            f"compiled rules of {name} {_where(state)}: legal moves differ (compiled only: {words[0]}, Python only: "
            f"{words[1]})"
        )
    from gridgames.search.crules.engines import code_of

    code, mover, scores = engines.status(array)
    expected = code_of(state)
    if code != expected:
        raise ConformanceError(f"compiled rules of {name} {_where(state)}: result {code}, the Python rules' {expected}")
    outcome = state.outcome
    if outcome is None:
        if mover != state.current_player:
            raise ConformanceError(
                f"compiled rules of {name} {_where(state)}: player {mover} to move, the Python rules' "
                f"{state.current_player}"
            )
        value = state.evaluate()
        if engines.rules.evaluate is not None and value is not None:
            compiled_value = float(engines.module.evaluation(array, engines.params))
            if abs(compiled_value - value) > 1e-9:
                raise ConformanceError(
                    f"compiled rules of {name} {_where(state)}: evaluation {compiled_value}, the Python rules' {value}"
                )
    elif scores is not None and outcome.scores is not None and tuple(float(v) for v in outcome.scores) != scores:
        raise ConformanceError(
            f"compiled rules of {name} {_where(state)}: scores {scores}, the Python rules' {outcome.scores}"
        )


def _python_perft(state: State, depth: int, ply: int, counts: list[list[int]]) -> None:
    counts[ply][0] += 1
    outcome = state.outcome
    if outcome is not None:
        counts[ply][1 if outcome.winner is None else 2 + outcome.winner] += 1
        return
    if ply == depth:
        return
    for move in list(state.legal_moves()):
        state.play(move)
        _python_perft(state, depth, ply + 1, counts)
        state.undo()


def _first_difference(engines: Engines, state: State, array: np.ndarray, depth: int) -> None:
    """Walk both trees together to ``depth``, raising `ConformanceError` at the first position where they differ."""
    _compare(engines, state, array)
    if depth == 0 or state.is_over:
        return
    for move in list(state.legal_moves()):
        state.play(move)
        _first_difference(engines, state, engines.play(array, move), depth - 1)
        state.undo()


def _compare_perft(engines: Engines, origin: State, depth: int, max_positions: int) -> None:
    """Perft counts from ``origin``, compiled and Python, to ``depth`` or less (at most ``max_positions`` positions)."""
    array = engines.encode(origin)
    counts, reach = engines.perft(array, 0), 0
    # the branching factor, from the last two plies counted
    width = float(len(list(origin.legal_moves())))
    while reach < depth and counts[:, 0].sum() + counts[reach, 0] * width <= max_positions:
        counts, reach = engines.perft(array, reach + 1), reach + 1
        width = counts[reach, 0] / max(1, counts[reach - 1, 0])
    if reach == 0:
        return
    python = [[0] * counts.shape[1] for _ in range(reach + 1)]
    _python_perft(origin.copy(), reach, 0, python)
    if counts[: reach + 1].tolist() != python:
        _first_difference(engines, origin.copy(), array, reach)
        raise ConformanceError(
            f"compiled rules of {engines.rules.name} {_where(origin)}: perft counts to depth {reach} differ "
            f"(compiled {counts[: reach + 1].tolist()}, Python {python})"
        )


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
