"""How a game looks and talks at the terminal: pictures, prompts, messages, hints and the review.

`gridgames.cli_play.TerminalPlay` runs every turn-based game in the terminal (moves,
undo, hints, save files, autosave, the end); all it shows and says goes through a
`PlayLook`. The default look draws `State.to_text` and speaks in short lower-case
lines -- the generic ``gridgames play GAME``. A game with commands of its own makes a
`TerminalPlay` with its own look, a subclass overriding what it wants: its messages
(`PlayTexts`, one format string each), its picture and prompt, its players' names and
colours, a hint with every move's score, a review offered after the end (``r``).
Connect Four's look (`gridgames_connect4.surfaces.cli.Connect4Look`) is the worked example.

>>> PlayTexts().saved.format(path="g.json", name="mnk")
'saved to g.json; resume with: gridgames play mnk --load g.json'
"""

from __future__ import annotations

import random
import sys
from typing import Protocol

import attrs
import typer

from gridgames.errors import GridGamesError
from gridgames.game import Game, Move, Outcome, Player, State
from gridgames.search.players import make_ai

__all__ = [
    "COMMANDS_HELP",
    "COMMAND_PREFIX",
    "PlayLook",
    "PlayTexts",
    "Played",
    "commands_help",
    "reads_as_move",
    "result_line",
]

COMMANDS_HELP = "u: undo, h: hint, s FILE: save, q: quit"
COMMAND_PREFIX = ":"
"""Typed before a command letter (``:u``, ``:s FILE``) it is always the command, even where the game's notation reads
the bare letter as a move (a 2048 move ``u``); a bare letter is a command only when the game's notation refuses it."""


def reads_as_move(game: Game, text: str) -> bool:
    """True when the game's notation reads ``text`` as a move (then a bare command letter is that move)."""
    try:
        game.parse_move(text)
    except (GridGamesError, ValueError, KeyError, IndexError):
        return False
    return True


def commands_help(game: Game) -> str:
    """`COMMANDS_HELP` with `COMMAND_PREFIX` before each letter the game's notation reads as a move (``:u: undo``)."""
    parts = []
    for part in COMMANDS_HELP.split(", "):
        letter = part[0]
        parts.append(COMMAND_PREFIX + part if reads_as_move(game, letter) else part)
    return ", ".join(parts)


class Played(Protocol):
    """What a look reads of the game in play (`gridgames.cli_play.TerminalPlay` is one)."""

    state: State
    kinds: list[str]
    seats: list[Player | None]
    think: float
    seed: int | None
    nodes: int | None

    @property
    def is_interactive(self) -> bool:
        """True when a person types at a terminal."""
        ...


def result_line(outcome: Outcome, player_names: tuple[str, ...]) -> str:
    """The end of a game as one line: ``Black wins 40-24 (the board is full)`` (the winner's score first), ``draw
    (...)``, ``Game over: 1,352 (...)`` (a one-player score)."""
    headline = outcome.headline(player_names)
    if outcome.winner is None and headline.startswith("Draw"):
        headline = "d" + headline[1:]
    return f"{headline} ({outcome.reason})"


@attrs.frozen
class PlayTexts:
    """The messages of terminal play, as format strings (``{name}`` and the like are filled in); a look may change any.

    A message that is empty is not said (e.g. `took_back` by default: the new picture shows it);
    `quit_unsaved` and `save_first` (None by default) are said on ``q`` with moves played, the first when
    input is scripted, the second asks for a file name at a terminal.
    """

    nothing_to_undo: str = "nothing to undo"
    took_back: str = ""
    """After an undo; ``{count}`` moves, ``{s}`` is "s" when more than one."""
    save_needs_a_name: str = "type 's' and a file name, e.g. 's game.json'"
    saved: str = "saved to {path}; resume with: gridgames play {name} --load {path}"
    not_saved: str = "not saved: {error}"
    nothing_to_keep: str = "no move played, nothing to save"
    kept: str = "game saved to {path} (moves: {moves})"
    not_kept: str = "could not autosave ({error}); moves: {moves}"
    end_of_input: str = "end of input: {kept}"
    interrupted: str = "interrupted: {kept}"
    quit: str = "game abandoned"
    quit_unsaved: str | None = None
    save_first: str | None = None
    end_help: str | None = None
    """After the last move, the commands offered (``r`` review, ``s FILE`` save, ``q``); None: the game just ends."""
    not_a_command_at_the_end: str = "{line!r} is not a command here: {help}"
    game_over_prompt: str = "Game over: {help} [r, s FILE, q]: "


@attrs.define
class PlayLook:
    """The generic look: ``State.to_text`` pictures, the game's player names, lower-case messages."""

    texts: PlayTexts = attrs.field(factory=PlayTexts)
    undo_any_human: bool = False
    """What ``u`` takes back: the last move of any human seat (True) or the mover's own (False), and every move after
    it."""

    def say(self, text: str, *, end: str = "\n") -> None:
        """Print ``text`` (no markup) and ``end`` on standard output."""
        typer.echo(text + end, nl=False)
        sys.stdout.flush()

    def draw(self, play: Played) -> None:
        """Show the position."""
        self.say(play.state.to_text())

    def player_name(self, play: Played, player: int) -> str:
        """The name a player is called by (the game's `GameInfo.player_names`)."""
        return play.state.game.info.player_names[player]

    def opening(self, play: Played) -> list[str]:
        """The lines before the first picture (none by default)."""
        return []

    def coloured_name(self, play: Played, player: int) -> str:
        """The player's name, on the colour its game declares (`Game.player_colours`) when the terminal shows colours
        (the text alone elsewhere: `typer.echo` drops the colour)."""
        name = self.player_name(play, player)
        colours = play.state.game.player_colours()
        if not colours or player >= len(colours):
            return name
        try:
            red, green, blue = (int(colours[player][i : i + 2], 16) for i in (1, 3, 5))
        except ValueError:  # not #rrggbb: the name alone
            return name
        dark = 0.299 * red + 0.587 * green + 0.114 * blue < 150
        return typer.style(name, bg=(red, green, blue), fg=(255, 255, 255) if dark else (0, 0, 0))

    def prompt(self, play: Played) -> str:
        """The human's prompt: who is to move (on the player's colour when the game declares one), the commands, and
        the pass."""
        state = play.state
        name = self.coloured_name(play, state.current_player)
        pass_move = state.game.pass_move
        commands = commands_help(state.game)
        if pass_move is None:
            return f"{name} to move ({commands}): "
        if state.game.pass_always_legal:
            return f"{name} to move ({commands}, p: pass): "
        if list(state.legal_moves()) == [pass_move]:
            return f"{name} has no move and must pass (type p or pass; {commands}): "
        return f"{name} to move ({commands}, p: pass when you have no move): "

    def empty_line(self, play: Played) -> str | None:
        """What to say when the human types nothing (None: just ask again)."""
        return None

    def refused(self, play: Played, line: str, error: Exception) -> str:
        """What to say when a typed line is not a legal move (the error says why)."""
        return f"{error}; try again"

    def computer_moved(self, play: Played, player: int, seat: Player, move: Move, note: str) -> list[str]:
        """The lines announcing a computer player's move (``note``: what it says about it, if anything)."""
        name = getattr(seat, "name", "ai")
        return [
            f"{self.player_name(play, player)} ({name}) plays {play.state.game.format_move(move)}"
            + (f"  [{note}]" if note else "")
        ]

    def chance_drawn(self, play: Played, moves: list[Move]) -> str:
        """The line saying which chance outcomes the framework drew (``chance: 2@b3``)."""
        return "chance: " + " ".join(play.state.game.format_move(move) for move in moves)

    def hint(self, play: Played) -> str:
        """The move the game's AI would play here (its strongest own level, else `make_ai`), as one line."""
        state = play.state
        rng = random.Random(None if play.seed is None else play.seed + len(state.history))
        game = state.game
        levels = game.computer_levels()  # the game's own strongest player, else the generic AI
        advisor = (
            game.computer_player(levels[-1], rng)
            if levels
            else make_ai(game, "ai", seconds=min(play.think, 5.0), rng=rng, nodes=play.nodes)
        )
        move = advisor.choose(state.copy())
        note = getattr(advisor, "note", "")
        return f"hint: {game.format_move(move)} ({advisor.name}" + (f", {note})" if note else ")")

    def ending(self, play: Played) -> list[str]:
        """The lines under the final picture: the moves and the result."""
        state = play.state
        outcome = state.outcome
        if outcome is None:
            return []
        return [
            f"moves: {state.notation()}",
            result_line(outcome, tuple(self.player_name(play, p) for p in range(state.game.info.num_players))),
        ]

    def review(self, play: Played) -> list[str]:
        """The review of the finished game, offered by ``r`` when `PlayTexts.end_help` is set (none by default)."""
        return []
