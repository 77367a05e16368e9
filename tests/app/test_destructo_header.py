"""The banked-item icons in the Destruct-o-Match header look lit only while the item is banked:
a position holding ``undo 0`` must not show a green (usable-looking) Undo."""

from __future__ import annotations

import pytest

from app.gui.games import ui_for
from engines import GAMES
from engines.destructo.notation import parse_state

DESTRUCTO = GAMES["destructo"]
BOARD = "g g a / b b a / a g b"


@pytest.fixture
def board(qtbot):
    board = ui_for("destructo").make_board(DESTRUCTO, None)
    qtbot.addWidget(board)
    board.resize(500, 500)
    board.show()
    qtbot.waitExposed(board)
    return board


def icon_pixels(board, item: str) -> list[tuple[int, int, int]]:
    slot = ("shuffle", "undo").index(item)
    rect = board.board_layout().item_rect(slot).toAlignedRect()
    image = board.grab().toImage()
    return [image.pixelColor(x, y).getRgb()[:3]
            for y in range(rect.top() + 1, rect.bottom()) for x in range(rect.left() + 1, rect.right())]


def greenish(pixel: tuple[int, int, int]) -> bool:
    """The Undo boulder's green stone (#5c9e36), even half see-through over the dark page."""
    r, g, b = pixel
    return g - max(r, b) >= 20


def bright(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) >= 150


def test_undo_0_shows_an_unlit_undo(board):
    board.show_position(parse_state(f"level 2 · score 10 · shuffle 1 · undo 0 / {BOARD}"))
    undo = icon_pixels(board, "undo")
    assert not any(greenish(pixel) for pixel in undo)
    assert not any(bright(pixel) for pixel in undo)  # the page is (42, 37, 33); a socket stays dark
    shuffle = icon_pixels(board, "shuffle")
    assert sum(bright(pixel) for pixel in shuffle) > len(shuffle) // 4  # the banked Shuffle: a light stone


def test_undo_1_shows_a_lit_undo_and_shuffle_0_an_unlit_shuffle(board):
    board.show_position(parse_state(f"level 2 · score 10 · shuffle 0 · undo 1 / {BOARD}"))
    undo = icon_pixels(board, "undo")
    assert sum(greenish(pixel) for pixel in undo) > len(undo) // 2
    assert not any(bright(pixel) for pixel in icon_pixels(board, "shuffle"))


def test_the_icons_follow_the_position(board):
    board.show_position(parse_state(f"level 2 · score 10 · shuffle 1 · undo 1 / {BOARD}"))
    assert sum(greenish(pixel) for pixel in icon_pixels(board, "undo")) > 0
    board.show_position(parse_state(f"level 2 · score 10 · shuffle 0 · undo 0 / {BOARD}"))
    assert not any(greenish(pixel) or bright(pixel) for pixel in icon_pixels(board, "undo") + icon_pixels(board, "shuffle"))
