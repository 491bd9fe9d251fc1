"""Turn-based games in the browser: new game, moves, undo/redo, computer moves, scores, review, save and load.

Everything here works from the game protocol (`gridgames.game`) and the game's optional
hooks (`gridgames.web.hooks`); no game module is imported. Functions that take time
return a job's work function (run by `gridgames.web.jobs.JobPool`) and a callback that
applies the result to the play if the position has not changed in the meantime.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from gridgames.errors import GridGamesError
from gridgames.game import CHANCE, Game, GameSpec, Move, State, play_chance
from gridgames.placement_moves import PieceMoves
from gridgames.saves import SavedPlay, from_json, restore, to_json
from gridgames.search.players import ai_kinds, make_ai
from gridgames.web.hooks import HookError, game_of, has
from gridgames.web.jobs import Budget, Job
from gridgames.web.sessions import Play
from gridgames.web.validate import WebError, integer, number, one_line, option_values, text

__all__ = [
    "computer_work",
    "go_to",
    "load_play",
    "new_play",
    "play_move",
    "redo",
    "review_work",
    "save_text",
    "scores_work",
    "seat_kinds",
    "undo",
    "view",
]

DEFAULT_THINK = 2.0
MAX_THINK = 10.0
MAX_TARGETS = 1000
MAX_LINE = 2000
"""The most moves `go_to` replays in one request (bounded work per request)."""
Work = tuple[Callable[[Budget], Any], Callable[[Job], None]]


def seat_kinds(game: Game) -> list[str]:
    """Who may sit in a seat: a human, or the game's own computer levels (else the generic AIs)."""
    return ["human", *(game.computer_levels() or ai_kinds(game))]


def _default_seats(game: Game) -> list[str]:
    kinds = seat_kinds(game)
    computer = "medium" if "medium" in kinds else "ai" if "ai" in kinds else kinds[-1]
    return ["human"] + [computer] * (game.info.num_players - 1)


def _seats(game: Game, raw: Any) -> list[str]:
    if raw is None:
        return _default_seats(game)
    kinds = seat_kinds(game)
    if not isinstance(raw, list) or len(raw) != game.info.num_players or not all(isinstance(k, str) for k in raw):
        raise WebError(
            f"'seats' must list {game.info.num_players} player kinds, one per player (from {', '.join(kinds)})"
        )
    for kind in raw:
        if kind not in kinds:
            raise WebError(f"{kind!r} is not a player of this game (choose from {', '.join(kinds)})")
    return list(raw)


def _build(spec: GameSpec, options: dict[str, Any]) -> Game:
    game = spec.make(**options)
    if not isinstance(game, Game):
        raise WebError(f"{spec.name} is a puzzle, not a turn-based game")
    return game


def new_play(spec: GameSpec, data: dict[str, Any]) -> Play:
    """A new game from the request: options, seats, think time, seed."""
    options = option_values(spec, data.get("options"))
    game = _build(spec, options)
    seed = integer(data, "seed", None, 0, 2**63)
    think = number(data, "think", DEFAULT_THINK, 0.05, MAX_THINK)
    play = Play(
        spec.name,
        game,
        game.new_state(),
        _seats(game, data.get("seats")),
        think,
        random.Random(seed),
        options,
        seed=seed,
    )
    _draw_chance(play)
    return play


def _draw_chance(play: Play) -> None:
    """Draw the outcomes of the chance points the position is at (from the play's seeded generator), and say which."""
    drawn = play_chance(play.state, play.rng)
    if drawn:
        play.notes.append("chance: " + " ".join(play.game.format_move(move) for move in drawn))


def play_move(play: Play, data: dict[str, Any]) -> None:
    """Play a move given in the game's notation (``{"move": "4"}``)."""
    move_text = text(data, "move", limit=100)
    if _computer_to_move(play):
        raise WebError(f"it is {play.seats[play.state.current_player]}'s turn (a computer player), not a human's", 409)
    move = play.state.parse_move(move_text)
    play.state.check_playable(move)
    _apply(play, move)


def _apply(play: Play, move: Move, *, keep_redo: bool = False) -> None:
    play.state.play(move)
    if not keep_redo:
        play.redo.clear()
        _draw_chance(play)
    play.scores = None
    play.review = None


def _movers(state: State) -> list[int]:
    """Who made each move of the state's history (`CHANCE` for a chance outcome)."""
    replay = state.game.new_state()
    movers = []
    for move in state.history:
        movers.append(replay.current_player)
        replay.play(move)
    return movers


def _computer_to_move(play: Play) -> bool:
    return not play.state.is_over and play.seats[play.state.current_player] != "human"


def undo(play: Play) -> None:
    """Take back the last move, and the computer's moves before it, so that a human is to move again."""
    if not play.state.history:
        raise WebError("there is no move to undo", 409)
    humans = "human" in play.seats
    if not any(mover != CHANCE for mover in _movers(play.state)):
        raise WebError("there is no move to undo (only the chance outcomes at the start)", 409)
    play.redo.append(play.state.undo())
    while play.state.history and (
        play.state.current_player == CHANCE or (humans and play.seats[play.state.current_player] != "human")
    ):  # a chance outcome goes with the move before it
        play.redo.append(play.state.undo())
    _draw_chance(play)  # back at the start of a game that opens with chance: drawn again
    play.scores = None
    play.review = None


def redo(play: Play) -> None:
    """Replay the moves undone last (up to the next human move)."""
    if not play.redo:
        raise WebError("there is no move to redo", 409)
    _apply(play, play.redo.pop(), keep_redo=True)
    while play.redo and (play.state.current_player == CHANCE or (_computer_to_move(play) and "human" in play.seats)):
        # the outcomes drawn before come back with their move
        _apply(play, play.redo.pop(), keep_redo=True)
    _draw_chance(play)


def go_to(play: Play, data: dict[str, Any]) -> None:
    """Set the position to the one after ``{"moves": [MOVE TEXT, ...]}`` from the start (the analysis board's move
    list: back, forward, another branch); the computer does not move by itself after it."""
    raw = data.get("moves")
    if not isinstance(raw, list) or not all(isinstance(m, str) and len(m) <= 100 for m in raw):
        raise WebError("'moves' must list the moves from the start, each as its text (at most 100 characters)")
    if len(raw) > MAX_LINE:
        raise WebError(f"'moves' lists {len(raw)} moves; at most {MAX_LINE}")
    state = play.game.new_state()
    for i, move_text in enumerate(raw):
        try:
            move = state.parse_move(move_text)
            state.check_playable(move)
        except GridGamesError as error:
            raise WebError(f"move {i + 1} ({move_text[:20]}): {one_line(error)}") from None
        state.play(move)
    play.state = state
    _draw_chance(play)
    play.redo.clear()
    play.scores = None
    play.review = None


def _targets(hooks: Any, state: State) -> dict[Move, list[tuple[int, int]]]:
    """Each legal move's click targets: the web hook's, else the game's `State.move_cells`, else a guess from the
    board."""
    if has(hooks, "move_targets"):
        found = hooks.move_targets(state)
        try:
            return {int(m): [(int(r), int(c)) for r, c in cells] for m, cells in found.items()}
        except (AttributeError, TypeError, ValueError, OverflowError) as error:
            raise HookError(game_of(hooks), "move_targets", f"not a {{move: [(row, col), ...]}}: {error}") from None
    grid = state.board()
    if state.game.piece_moves is not None:  # whole pieces are placed with the piece picker
        return {}
    before = grid.cells.copy() if grid is not None else None
    targets: dict[Move, list[tuple[int, int]]] = {}
    guessed_all = True
    for move in list(state.legal_moves())[:MAX_TARGETS]:
        declared = state.move_cells(move)
        guessed_all = guessed_all and declared is None
        # the game says where its move is played (a Lights Out press: its own cell)
        if declared is not None:
            targets[move] = [(int(r), int(c)) for r, c in declared]
        elif before is not None:
            guessed = _guessed_cells(state, move, before)
            if guessed is not None:
                targets[move] = guessed
    if guessed_all and before is not None and _drops(targets, before):
        height = before.shape[0]
        return {move: [(r, cells[0][1]) for r in range(height)] for move, cells in targets.items()}
    return targets


def _drops(targets: dict[Move, list[tuple[int, int]]], cells: np.ndarray) -> bool:
    """True when the moves look like drops under gravity: one move a column, each filling one cell, the lowest empty
    one of its column (filled below, empty above); a click anywhere in the column then plays it."""
    if len(targets) < 2 or any(len(c) != 1 for c in targets.values()):
        return False
    columns = [c[0][1] for c in targets.values()]
    if len(set(columns)) != len(columns):
        return False
    for ((r, c),) in targets.values():
        if (cells[r + 1 :, c] == 0).any() or (cells[:r, c] != 0).any():
            return False
    return True


def _guessed_cells(state: State, move: Move, before: np.ndarray) -> list[tuple[int, int]] | None:
    """The cells that go from empty to filled when ``move`` is played (None when the position has no board then)."""
    after = state.copy()
    after.play(move)
    board = after.board()
    if board is None:
        return None
    return [(int(r), int(c)) for r, c in np.argwhere((before == 0) & (board.cells != 0))]


def _pieces(state: State) -> dict[str, Any] | None:
    """For a game with whole-piece moves (`Game.piece_moves`): its pieces (orientations as cell lists, whether any
    placement is legal now) and the text of every action under "piece/orientation/row/col" of its anchor; else None."""
    moves = state.game.piece_moves
    if moves is None:
        return None
    playable = {moves.piece_index(m) for m in state.legal_moves()}
    pieces = [
        {
            "name": name,
            "orientations": [[list(cell) for cell in cells] for cells in moves.orientations[i]],
            "playable": i in playable,
        }
        for i, name in enumerate(moves.names)
    ]
    return {"pieces": pieces, "moves": _piece_texts(moves)}


@functools.lru_cache(maxsize=16)
def _piece_texts(moves: PieceMoves) -> dict[str, str]:
    """The text of every action of ``moves``, under "piece/orientation/row/col" of its anchor (the same for every
    view)."""
    texts = {}
    for action in range(len(moves)):
        r, c = moves.anchor_of(action)
        texts[f"{moves.piece_index(action)}/{moves.orientation_of(action)}/{r}/{c}"] = moves.format(action)
    return texts


def _letter(col: int) -> str:
    return chr(ord("a") + col) if col < 26 else f"c{col + 1}"


def coordinates(state: State, targets: dict[Move, list[tuple[int, int]]]) -> dict[str, list[str]] | None:
    """The names of the board's columns and rows when the notation names cells (Hex's ``d4``: column letters, row
    numbers from the top or, chess-like, from the bottom), read off the moves that play on one cell; else None.

    A game whose moves place whole pieces (`Game.piece_moves`) names cells as `gridgames.placement_moves.cell_name`.
    """
    grid = state.board()
    if grid is None:
        return None
    rows, cols = grid.height, grid.width
    letters = [_letter(c) for c in range(cols)]
    if state.game.piece_moves is not None:
        return {"cols": letters, "rows": [str(rows - r) for r in range(rows)]}
    single = [(state.game.format_move(m).strip().lower(), cells[0]) for m, cells in targets.items() if len(cells) == 1]
    if not single:
        return None
    for numbers in ([str(r + 1) for r in range(rows)], [str(rows - r) for r in range(rows)]):
        if all(text == f"{letters[c]}{numbers[r]}" for text, (r, c) in single):
            return {"cols": letters, "rows": numbers}
    return None


def _own_picture(state: State) -> bool:
    """True when the game draws its positions itself (`State.svg` overridden): the page shows that picture."""
    return type(state).svg is not State.svg


def _marks(state: State) -> dict[str, Any] | None:
    """The state's `State.marks` as JSON by ``"row,col"`` (None without)."""
    marks = state.marks()
    if not marks:
        return None
    return {f"{int(r)},{int(c)}": mark.view() for (r, c), mark in marks.items()}


def _tally(state: State, names: list[str]) -> list[dict[str, Any]] | None:
    """The running counts the game keeps (`State.tally`: discs, boxes, captures), one line each, else None."""
    tally = state.tally()
    if not tally:
        return None
    return [
        {
            "name": name,
            "values": [float(v) for v in values],
            "text": f"{name}: " + ", ".join(f"{who} {float(v):,g}" for who, v in zip(names, values)),
        }
        for name, values in tally.items()
    ]


def player_styles(play: Play) -> list[tuple[str, int]]:
    """Each player's name and drawing style (colour and mark): `GameInfo.player_names` and `Game.player_styles`."""
    return list(zip(play.game.info.player_names, play.game.player_styles()))


def _outcome(play: Play, names: list[str]) -> dict[str, Any] | None:
    outcome = play.state.outcome
    if outcome is None:
        return None
    line = f"{outcome.headline(names)}: {outcome.reason}"
    scores = None if outcome.scores is None else [float(s) for s in outcome.scores]
    return {
        "winner": outcome.winner,
        "reason": outcome.reason,
        "text": line,
        "cells": [list(c) for c in outcome.cells],
        "scores": scores,
    }


def _player_scores(state: State) -> list[float] | None:
    """Each player's score now (`State.scores`: discs, points so far), or None when the game keeps none."""
    scores = state.scores()
    return None if scores is None else [float(s) for s in scores]


def _pass_text(state: State) -> str | None:
    """The pass's notation when passing is legal now (the page shows a Pass button), else None."""
    pass_move = state.game.pass_move
    if pass_move is None or state.is_over or not state.is_legal(pass_move):
        return None
    return state.game.format_move(pass_move)


def _colours(game: Game) -> list[str] | None:
    """The players' colours the game declares (`Game.player_colours`), or None for the page's palette."""
    colours = game.player_colours()
    return None if colours is None else [str(c) for c in colours]


def _paths(state: State) -> dict[str, list[list[int]]] | None:
    """Each legal move's `State.move_path` (the page's piece-then-target clicks), or None when the game gives
    none."""
    paths: dict[str, list[list[int]]] = {}
    for move in list(state.legal_moves())[:MAX_TARGETS]:
        path = state.move_path(move)
        if path is not None:
            paths[state.game.format_move(move)] = [[int(v) for v in cell] for cell in path]
    return paths or None


def view(play: Play, hooks: Any) -> dict[str, Any]:
    """Everything the page shows of a play, as JSON."""
    state, game = play.state, play.game
    fmt = game.format_move
    grid = state.board()
    over = state.is_over
    looks = player_styles(play)
    names = [name for name, _ in looks]
    # a from->to game is played by clicks along its moves' paths, not on targets
    paths = _paths(state)
    targets = {} if paths else _targets(hooks, state)
    return {
        "game": play.name,
        "options": play.options,
        "players": names,
        "styles": [style for _, style in looks],
        "seats": play.seats,
        "kinds": seat_kinds(game),
        "think": play.think,
        "seed": play.seed,
        "moves": state.notation(),
        "history": [fmt(m) for m in state.history],
        "to_move": None if over else state.current_player,
        "outcome": _outcome(play, names),
        "legal": [fmt(m) for m in state.legal_moves()],
        "pass": _pass_text(state),
        "colours": _colours(game),
        "paths": paths,
        "targets": {fmt(m): cells for m, cells in targets.items()},
        "coordinates": _start_coordinates(play, hooks) if over or not targets else coordinates(state, targets),
        "own_picture": _own_picture(state) and not _by_column(play, hooks),
        "marks": _marks(state),
        "edges": dict(game.edges),
        "tally": _tally(state, names),
        "pieces": _pieces(state),
        "board": None
        if grid is None
        else {"rows": grid.height, "cols": grid.width, "cells": grid.cells.tolist(), "lattice": grid.lattice},
        "svg": state.svg(),
        "text": state.to_text(),
        "can_undo": bool(state.history),
        "can_redo": bool(play.redo),
        "computer_to_move": _computer_to_move(play),
        "scores": play.scores,
        "player_scores": _player_scores(state),
        "review": play.review,
        "notes": play.notes[-1:],
        "features": {
            "scores": has(hooks, "move_scores"),
            "review": has(hooks, "review"),
            "save": True,
            "drill": has(hooks, "drill_positions"),
        },
    }


def _start_coordinates(play: Play, hooks: Any) -> dict[str, list[str]] | None:
    """`coordinates` read at the start (a position with no move left to read them from keeps them)."""
    start = play.game.new_state()
    return coordinates(start, _targets(hooks, start))


def _by_column(play: Play, hooks: Any) -> bool:
    """True for a gravity game: at the start every move's targets are a whole column (the page keeps its column
    buttons then, rather than the game's own picture)."""
    start = play.game.new_state()
    grid = start.board()
    targets = _targets(hooks, start)
    if grid is None or len(targets) < 2:
        return False
    return all(len(cells) == grid.height and len({c for _, c in cells}) == 1 for cells in targets.values())


def _same_position(play: Play, history: tuple[Move, ...]) -> Callable[[], bool]:
    return lambda: play.state.history == history


def computer_work(play: Play, hooks: Any, lock: Any) -> Work:
    """The computer's move for the seat to move (a job), and the callback that plays it if nothing changed meanwhile."""
    if not _computer_to_move(play):
        raise WebError("it is not a computer player's turn", 409)
    snapshot, level, think = play.state.copy(), play.seats[play.state.current_player], play.think
    seed = play.rng.getrandbits(63)
    unchanged = _same_position(play, snapshot.history)

    def work(budget: Budget) -> dict[str, Any]:
        rng = random.Random(seed)
        budget.report(None, None, f"{level} is thinking")
        if has(hooks, "computer_move"):
            move, note = hooks.computer_move(snapshot, level, rng, think)
        else:
            own = level in snapshot.game.computer_levels()
            player = (
                snapshot.game.computer_player(level, rng) if own else make_ai(snapshot, level, seconds=think, rng=rng)
            )
            move, note = player.choose(snapshot), getattr(player, "note", "")
        return {"move": snapshot.game.format_move(move), "note": note, "level": level}

    def done(job: Job) -> None:
        with lock:
            if not unchanged():
                job.result["applied"] = False
                return
            move = play.game.parse_move(job.result["move"])
            play.state.check_playable(move)
            _apply(play, move)
            play.notes.append(job.result["note"])
            job.result["applied"] = True

    return work, done


def scores_work(play: Play, hooks: Any, lock: Any) -> Work:
    """Every legal move's exact score (the game's ``move_scores`` hook) as a job; kept on the play while the position
    stands."""
    if not has(hooks, "move_scores"):
        raise WebError(f"{play.name} offers no move scores", 404)
    if play.state.is_over:
        raise WebError("the game is over: there is nothing to score", 409)
    snapshot = play.state.copy()
    unchanged = _same_position(play, snapshot.history)

    def work(budget: Budget) -> dict[str, Any]:
        result = dict(hooks.move_scores(snapshot, budget))
        result["scores"] = {snapshot.game.format_move(m): s for m, s in result.get("scores", {}).items()}
        result["moves"] = snapshot.notation()
        return result

    def done(job: Job) -> None:
        with lock:
            if unchanged():
                play.scores = job.result

    return work, done


def review_work(play: Play, hooks: Any, lock: Any) -> Work:
    """The game's review (its ``review`` hook) after the end, as a job."""
    if not has(hooks, "review"):
        raise WebError(f"{play.name} offers no review", 404)
    if not play.state.is_over:
        raise WebError("the review comes after the end of the game", 409)
    snapshot = play.state.copy()
    unchanged = _same_position(play, snapshot.history)

    def work(budget: Budget) -> list[dict[str, Any]]:
        return list(hooks.review(snapshot, budget))

    def done(job: Job) -> None:
        with lock:
            if unchanged():
                play.review = job.result

    return work, done


def save_text(play: Play) -> str:
    """The save file of the game (`gridgames.saves`' JSON, the one the terminal writes)."""
    return to_json(SavedPlay(play.name, play.options, play.state.notation(), tuple(play.seats), play.think, play.seed))


def load_play(spec: GameSpec, data: dict[str, Any]) -> Play:
    """A play from an uploaded save file's text (``{"text": ...}``): any format the game's terminal wrote."""
    body = text(data, "text", limit=200_000)
    saved = from_json(body, source="the uploaded file", spec=spec)
    game, state = restore(spec, saved, source="the uploaded file")
    option_defaults = {o.name: o.default for o in spec.options if o.default is not None}
    options = {**option_defaults, **saved.options}  # the page shows every option's value
    seats: list[str | None] = [*saved.seats] or [None] * game.info.num_players
    think, seed = saved.think or DEFAULT_THINK, saved.seed
    kinds = seat_kinds(game)
    defaults = _default_seats(game)
    chosen = [s if s in kinds else d for s, d in zip(seats, defaults)] if len(seats) == len(defaults) else defaults
    play = Play(
        spec.name, game, state, chosen, min(max(think, 0.05), MAX_THINK), random.Random(seed), options, seed=seed
    )
    _draw_chance(play)
    return play
