"""Shareable positions: ``show --url`` prints the play page's URL with the moves and board; it parses back."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.surfaces.share import parse_position_url, position_url
from gridgames.cli import app

runner = CliRunner()


@pytest.mark.parametrize(("width", "height", "connect"), [(7, 6, 4), (5, 4, 4), (10, 6, 4), (9, 7, 5)])
def test_the_url_carries_the_position_back(width: int, height: int, connect: int) -> None:
    game = Connect4(width, height, connect)
    rng = random.Random(width * 100 + height)
    for _ in range(20):
        state = game.new_state()
        for _ in range(rng.randrange(0, 12)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        url = position_url(game, state.history)
        w, h, k, moves = parse_position_url(url)
        assert (w, h, k) == (width, height, connect)
        assert Connect4(w, h, k).from_notation(moves).history == state.history


def test_show_url_prints_it_and_refuses_a_bad_base() -> None:
    result = runner.invoke(app, ["connect4", "show", "4453", "--url"])
    assert result.exit_code == 0 and result.stdout.strip() == "http://127.0.0.1:8000/play/connect4?pos=4453"
    small = runner.invoke(
        app, ["connect4", "show", "332", "--width", "5", "--height", "4", "--url", "--base", "https://example.org/"]
    )
    assert small.stdout.strip() == "https://example.org/play/connect4?pos=332&width=5&height=4"
    bad = runner.invoke(app, ["connect4", "show", "44", "--url", "--base", "ftp://x"])
    assert bad.exit_code == 2 and "http(s)://HOST" in bad.stderr
    illegal = runner.invoke(app, ["connect4", "show", "4444444", "--url"])
    assert illegal.exit_code == 2
