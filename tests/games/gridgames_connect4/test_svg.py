"""Connect Four positions as SVG (Jupyter's picture, the web page's marks): discs by colour and by mark."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gridgames_connect4 import Connect4

NS = {"svg": "http://www.w3.org/2000/svg"}


def test_a_position_draws_itself_with_a_cross_on_red_and_a_ring_on_yellow() -> None:
    state = Connect4().from_notation("4453")
    root = ET.fromstring(state._repr_svg_())
    circles = root.findall("svg:circle", NS)
    red = [c for c in circles if c.get("fill") == "#d55e00"]
    yellow = [c for c in circles if c.get("fill") == "#f0e442"]
    empty = [c for c in circles if c.get("fill") == "#ffffff"]
    assert (len(red), len(yellow), len(empty)) == (2, 2, 42 - 4)
    assert len(root.findall("svg:path", NS)) == 2  # one cross per red disc
    rings = [c for c in circles if c.get("fill") == "none"]
    assert len(rings) == 2  # one ring per yellow disc
    assert [t.text for t in root.findall("svg:text", NS)] == [str(c) for c in range(1, 8)]


def test_a_winning_line_is_outlined() -> None:
    state = Connect4(5, 4, 3).from_notation("11223")
    assert state.outcome is not None
    root = ET.fromstring(state.svg())
    thick = [c for c in root.findall("svg:circle", NS) if c.get("stroke-width") == "4"]
    assert len(thick) == len(state.outcome.cells) == 3


def test_a_game_loaded_with_yellow_first_draws_its_first_mover_yellow() -> None:
    state = Connect4(first="yellow").from_notation("445")
    root = ET.fromstring(state.svg())
    fills = [c.get("fill") for c in root.findall("svg:circle", NS)]
    # moves 1 and 3 are the first mover's
    assert (fills.count("#f0e442"), fills.count("#d55e00")) == (2, 1)
