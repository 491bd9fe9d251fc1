"""render_mode="rgb_array" of a game with no board: the game's own SVG picture, drawn by resvg, decoded from PNG."""

from __future__ import annotations

import random
import struct
import zlib

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

from gridgames_test_support.pictured import COLOURS, Pictured

from gridgames.rl.core import png_pixels, render


def _rgb(colour: str) -> list[int]:
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


def test_a_game_without_a_board_renders_its_own_picture() -> None:
    pytest.importorskip("resvg_py", reason="resvg-py is not installed: pip install '.[rl]'")
    state = Pictured().new_state()
    for text in ("l1", "p3"):
        state.play(state.game.parse_move(text))
    pixels = render(state, "rgb_array", ["First", "Second"])
    assert isinstance(pixels, np.ndarray) and pixels.shape == (120, 200, 3) and pixels.dtype == np.uint8
    assert pixels[17, 40].tolist() == _rgb(COLOURS[0])  # line l1: First's
    # post p3 (its square at x 140-180): Second's
    assert pixels[70, 160].tolist() == _rgb(COLOURS[1])
    assert pixels[17, 100].tolist() == [238, 238, 238]  # line l2: nobody's
    assert pixels[110, 5].tolist() == [255, 255, 255]  # the white background


def _png(image: np.ndarray, filters: list[int]) -> bytes:
    """An RGBA PNG of ``image`` with each row under the given filter (the encoder the decoder must undo)."""
    height, width, _ = image.shape
    rows = b""
    flat = image.reshape(height, -1).astype(int)
    for r in range(height):
        line, up = flat[r], flat[r - 1] if r else np.zeros_like(flat[0])
        out = []
        for i, value in enumerate(line):
            left = line[i - 4] if i >= 4 else 0
            corner = up[i - 4] if i >= 4 and r else 0
            guess = left + up[i] - corner
            paeth = min((abs(guess - left), 0, left), (abs(guess - up[i]), 1, up[i]), (abs(guess - corner), 2, corner))
            predicted = [0, left, up[i], (left + up[i]) // 2, paeth[2]][filters[r]]
            out.append((value - predicted) % 256)
        rows += bytes([filters[r]]) + bytes(out)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def test_png_rows_under_every_filter_decode_to_their_pixels() -> None:
    rng = random.Random(5)
    image = np.array([[[rng.randrange(256) for _ in range(4)] for _ in range(7)] for _ in range(10)], dtype=np.uint8)
    filters = [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]
    assert np.array_equal(png_pixels(_png(image, filters)), image)
