"""A gravity game with no web hooks, for the web tests: Connect Four's rules under another name, without
``move_targets`` (the page must find by itself that a click anywhere in a column plays there)."""

from __future__ import annotations

import attrs
from gridgames_connect4 import SPEC as CONNECT4

SPEC = attrs.evolve(CONNECT4, name="drop4", web=None)
