"""SPL-T point-block numbers fit their blocks at every board size: on a small board (the compact
layout) four-digit numbers of neighbouring 1x1 blocks used to run over the outlines into each
other ("10041004"). The game shrinks its lettering to the box; so does Kibitz."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from app.gui.games import ui_for
from app.gui.games.splt.layout import widget_size
from app.gui.games.splt.painting import NUMBER
from engines import GAMES
from engines.splt import Box, State

SPLT = GAMES["splt"]

# Rows 0-7: 1x1 blocks with the widest four-digit numbers a record game shows (every one starts
# with a 1, drawn on the right of its slot) and three-digit ones; rows 8-11: 2x2 blocks; rows
# 12-15: 2x1 and 1x2 blocks.
ONE_BY_ONE = (1004, 1088, 1196, 1000, 888, 1111, 1208, 999)
BOXES = (
    tuple(Box(x, y, 1, 1, ONE_BY_ONE[(x + y) % 8]) for y in range(8) for x in range(8))
    + tuple(Box(x, y, 2, 2, 1048 + x) for y in (8, 10) for x in (0, 2, 4, 6))
    + tuple(Box(x, y, 2, 1, 1100 + x) for y in (12, 13) for x in (0, 2, 4, 6))
    + tuple(Box(x, 14, 1, 2, 1008 + x) for x in range(8))
)
STATE = State(boxes=BOXES, splits=1208)


@pytest.fixture(scope="module")
def board(qapp):
    board = ui_for("splt").make_board(SPLT, None)
    board.set_advice_visible(False)
    board.show_position(STATE)
    yield board
    board.deleteLater()


@pytest.mark.parametrize("cell", list(range(20, 65)))
def test_every_number_lies_inside_its_block(board, cell):
    size = widget_size(cell)
    board.resize(size.width(), size.height() + 1)  # the header's height rounds
    layout = board.board_layout()
    assert layout.cell == cell
    image = board.grab().toImage()
    number = QColor(NUMBER).rgb()
    for box in BOXES:
        rect = layout.rect(box.x, box.y, box.w, box.h)
        # the outline is drawn on the rect's left/top edge lines and on the next ones (one past
        # the rect's right/bottom): look one pixel past each side, where a number must not be
        inked = [(x, y) for y in range(rect.top() - 1, rect.bottom() + 3)
                 for x in range(rect.left() - 1, rect.right() + 3) if image.pixel(x, y) == number]
        assert inked, (cell, box)
        xs, ys = [x for x, _ in inked], [y for _, y in inked]
        # at least two clear pixels between the number and the outline on every side, so the
        # numbers of neighbouring blocks never run together
        assert rect.left() + 3 <= min(xs) and max(xs) <= rect.right() - 2, (cell, box, min(xs), max(xs), rect)
        assert rect.top() + 3 <= min(ys) and max(ys) <= rect.bottom() - 2, (cell, box, min(ys), max(ys), rect)
