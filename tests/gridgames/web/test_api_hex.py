"""The web API on a hexagonal board (examples/hex): the view's lattice, SVG cells and click targets."""

from __future__ import annotations

import pytest
from gridgames_test_support.web import Api

pytest.importorskip("gridgames_hex", reason="the Hex example is not installed: pip install ./examples/hex")

HEX = "/api/play/hex"


def test_the_view_names_the_lattice_and_every_target_is_a_drawn_cell(api: Api) -> None:
    view = api.ok("POST", f"{HEX}/new", {"options": {"size": 5}, "seats": ["human", "human"]})
    assert view["board"]["lattice"] == "hexagonal" and view["board"]["rows"] == 5
    assert view["svg"].count("<polygon") == 25
    assert view["targets"]["c2"] == [[1, 2]]
    for cells in view["targets"].values():
        ((r, c),) = cells
        assert f'data-row="{r}" data-col="{c}"' in view["svg"]
    view = api.ok("POST", f"{HEX}/move", {"move": "c2"})
    assert "swap" in view["legal"] and 'data-move="swap"' in view["svg"]
    view = api.ok("POST", f"{HEX}/move", {"move": "swap"})
    assert view["board"]["cells"][2][1] == 2 and view["board"]["cells"][1][2] == 0
    assert 'data-move="swap"' not in view["svg"]


def test_square_boards_say_square(api: Api) -> None:
    view = api.ok("POST", "/api/play/mnk/new", {"seats": ["human", "human"]})
    assert view["board"]["lattice"] == "square"
