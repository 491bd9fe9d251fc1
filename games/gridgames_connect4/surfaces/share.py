"""Shareable positions: the web page's URL carrying a Connect Four game's board and moves (``show --url``).

The URL names the play page of ``gridgames serve`` and carries the moves in the ``pos`` parameter, as
gamesolver.org's does (1-based columns, one digit each on boards up to 9 wide, else separated by commas), and the
board's size and line length when they differ from 7x6 and four: ``http://127.0.0.1:8000/play/connect4?pos=4453``.

>>> from gridgames_connect4.position.rules import Connect4
>>> position_url(Connect4(5, 4, 4), [2, 2, 1])
'http://127.0.0.1:8000/play/connect4?pos=332&width=5&height=4'
>>> parse_position_url(position_url(Connect4(10, 6, 4), [9, 0]))
(10, 6, 4, '10,1')
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import parse_qs, urlencode, urlsplit

from gridgames_connect4.position.rules import Connect4
from gridgames.errors import OptionError

__all__ = ["DEFAULT_BASE", "parse_position_url", "position_url"]

DEFAULT_BASE = "http://127.0.0.1:8000"
"""Where ``gridgames serve`` listens by default."""
_DEFAULTS = {"width": 7, "height": 6, "connect": 4}


def position_url(game: Connect4, moves: Sequence[int], base: str = DEFAULT_BASE, *, page: str = "play") -> str:
    """The play page's URL for the position after ``moves`` (0-based columns) on ``game``'s board, under ``base``
    (``page="drill"``: the drill page's, which reviews that game and drills its mistakes)."""
    refusal = OptionError(f"the page's address must be http(s)://HOST[:PORT], not {base[:80]!r}")
    # a newline, a tab, a space: never part of a URL
    if not base.isprintable() or any(c.isspace() for c in base):
        raise refusal
    try:
        parts = urlsplit(base)
        parts.port  # noqa: B018  (a port out of range or not a number raises ValueError)
    except ValueError:  # 'http://[::1' (an unclosed IPv6 address), a bad port
        raise refusal from None
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
        raise refusal
    if parts.query or parts.fragment:
        raise refusal
    query = {"pos": game.join_notation(moves)}
    query.update({k: str(getattr(game, k)) for k, v in _DEFAULTS.items() if getattr(game, k) != v})
    if game.first != "red":
        query["first"] = game.first
    return f"{base.rstrip('/')}/{page}/connect4?{urlencode(query, safe=',')}"


def parse_position_url(url: str) -> tuple[int, int, int, str]:
    """(width, height, connect, moves) from a URL made by `position_url` (the defaults where it says nothing)."""
    query = parse_qs(urlsplit(url).query)
    size = [int(query[k][0]) if k in query else v for k, v in _DEFAULTS.items()]
    return size[0], size[1], size[2], query.get("pos", [""])[0]
