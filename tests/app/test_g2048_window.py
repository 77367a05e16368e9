"""The main window with the 2048 board, driven like a player: tiles entered by clicking empty
cells, slides by key and by the advisor's arrows, the advisor panel, the move tree's keys, and the
board's paint at a few sizes.

Expected boards and scores are worked out by hand from the rules (shared/specs/2048.md 1.3: tiles
slide to the wall, equal neighbours merge once, the tiles nearest the wall first; 1.4: a merge
scores the new tile's value) and colours from the page's palette (5.3), never from the program.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtWidgets import QApplication

from app.gui.games.g2048 import advice
from app.gui.games.g2048.board import G2048Board
from engines.g2048 import DOWN, GAME, LEFT, RIGHT, UP, Slide, Spawn, State

LEFT_BUTTON, RIGHT_BUTTON = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
EMPTY_ROW = (0, 0, 0, 0)


@pytest.fixture
def window(make_window):
    window = make_window()
    window.set_game("2048")
    window.board.setFocus()
    return window


def click_cell(qtbot, window, row: int, column: int, button=LEFT_BUTTON, modifier=Qt.KeyboardModifier.NoModifier):
    qtbot.mouseClick(window.board, button, modifier, window.board.cell_center(row, column))


def click_arrow(qtbot, window, direction: int) -> None:
    qtbot.mouseClick(window.board, LEFT_BUTTON, pos=window.board.arrow_center(direction))


def hover(board, point: QPoint) -> None:
    """A mouse move over ``point``, sent to the board itself: the real cursor of the offscreen
    platform may already rest there after an earlier test, and then Qt sends no move at all."""
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(point), board.mapToGlobal(QPointF(point)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(board, event)


def key(qtbot, window, key) -> None:
    qtbot.keyClick(window.board, key)


def moves_played(window) -> list:
    return [node.move for node in window.tree.path()[1:]]


def test_opens_on_the_empty_board_with_two_tiles_due(window):
    assert window.windowTitle() == "Kibitz — 2048"
    assert isinstance(window.board, G2048Board)
    assert window.position_text() == "score 0 · 2 tiles due"
    assert window.board.message_lines()[0] == "2 tiles due: click an empty cell (2) or right-click (4)"
    assert window.board.arrow_marks() == []  # no slide while a tile is due
    assert window.advisor_panel.headers()[1:] == ["Move", "Expected value", "Loss", "Share", "Depth"]
    assert window.advisor_panel.candidate_count() == 0  # the advisor waits for the tiles


def test_tiles_are_entered_by_clicking_empty_cells(qtbot, window):
    board = window.board
    hover(board, board.cell_center(2, 1))
    qtbot.waitUntil(lambda: board.ghost_tile == (2, 1, 2), timeout=1000)  # the ghost of a 2

    click_cell(qtbot, window, 0, 0)  # left: a 2
    assert window.tree.current.move == Spawn(0, 0, 2)
    assert window.message_text() == "2 spawned at row 1, column 1 (2@0,0)"
    assert window.position_text() == "score 0 · max tile 2 · tile due"
    assert board.turn_marks == ((0, 0),)
    click_cell(qtbot, window, 0, 0, RIGHT_BUTTON)  # an occupied cell: nothing
    assert window.tree.current.move_number == 1
    click_cell(qtbot, window, 3, 2, RIGHT_BUTTON)  # right: a 4
    assert moves_played(window) == [Spawn(0, 0, 2), Spawn(3, 2, 4)]
    assert window.state.rows == ((2, 0, 0, 0), EMPTY_ROW, EMPTY_ROW, (0, 0, 4, 0))
    assert window.state.spawns_due == 0 and board.message_lines() is None
    click_cell(qtbot, window, 1, 1)  # no tile due: a click on the board does nothing
    assert window.tree.current.move_number == 2

    key(qtbot, window, Qt.Key.Key_D)  # right: 2 . . . -> . . . 2 and . . 4 . -> . . . 4
    assert window.state.rows == ((0, 0, 0, 2), EMPTY_ROW, EMPTY_ROW, (0, 0, 0, 4))
    click_cell(qtbot, window, 1, 3, LEFT_BUTTON, SHIFT)  # Shift+click: a 4
    assert window.tree.current.move == Spawn(1, 3, 4)
    assert window.state.rows == ((0, 0, 0, 2), (0, 0, 0, 4), EMPTY_ROW, (0, 0, 0, 4))
    qtbot.waitUntil(lambda: not board.turn_marks, timeout=3000)  # the outline fades


def test_n_draws_a_random_tile_on_an_empty_cell(qtbot, window):
    import numpy as np

    window.board.rng = np.random.default_rng(7)
    key(qtbot, window, Qt.Key.Key_N)
    key(qtbot, window, Qt.Key.Key_N)
    first, second = moves_played(window)
    assert isinstance(first, Spawn) and isinstance(second, Spawn)
    assert (first.row, first.column) != (second.row, second.column)
    assert {first.value, second.value} <= {2, 4}
    assert sum(value > 0 for row in window.state.rows for value in row) == 2
    assert window.state.spawns_due == 0
    key(qtbot, window, Qt.Key.Key_N)  # no tile due: nothing
    assert window.tree.current.move_number == 2


def test_slides_by_key_and_by_clicking_the_arrows(qtbot, window):
    board = window.board
    click_cell(qtbot, window, 0, 0)
    click_cell(qtbot, window, 0, 1)
    key(qtbot, window, Qt.Key.Key_A)  # 2 2 . . left -> 4 . . .: +4
    assert window.tree.current.move == Slide(LEFT)
    assert window.state.rows == ((4, 0, 0, 0), EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)
    assert window.state.score == 4
    assert window.message_text() == "slid left: +4 (1 merge)"
    assert board.turn_marks == ((0, 0),)  # the merged tile is outlined
    assert window.position_text() == "score 4 · max tile 4 · tile due"

    click_cell(qtbot, window, 3, 3, RIGHT_BUTTON)
    key(qtbot, window, Qt.Key.Key_W)  # column 3: the 4 rises to row 0; nothing merges
    assert window.state.rows == ((4, 0, 0, 4), EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)
    assert window.state.score == 4
    click_cell(qtbot, window, 2, 0)

    qtbot.waitUntil(lambda: LEFT in [mark.direction for mark in board.arrow_marks()], timeout=1000)
    click_arrow(qtbot, window, LEFT)  # 4 . . 4 -> 8 . . .: +8; the 2 at (2, 0) stays
    assert window.tree.current.move == Slide(LEFT)
    assert window.state.rows == ((8, 0, 0, 0), EMPTY_ROW, (2, 0, 0, 0), EMPTY_ROW)
    assert window.state.score == 12

    click_cell(qtbot, window, 0, 3, LEFT_BUTTON, SHIFT)  # 8 . . 4
    key(qtbot, window, Qt.Key.Key_L)  # vim right: . . 8 4 and . . . 2
    assert window.state.rows == ((0, 0, 8, 4), EMPTY_ROW, (0, 0, 0, 2), EMPTY_ROW)
    click_cell(qtbot, window, 1, 3)  # column 3 top-down: 4 2 2 .
    click_arrow(qtbot, window, DOWN)
    # down, from the bottom wall: the two 2s merge into a 4 at row 3, the old 4 stops above it
    # and does not merge with the new one (no chain); the 8 falls to row 3
    assert window.state.rows == (EMPTY_ROW, EMPTY_ROW, (0, 0, 0, 4), (0, 0, 8, 4))
    assert window.state.score == 16
    assert board.turn_marks == ((3, 3),)
    assert moves_played(window) == [Spawn(0, 0, 2), Spawn(0, 1, 2), Slide(LEFT), Spawn(3, 3, 4), Slide(UP),
                                    Spawn(2, 0, 2), Slide(LEFT), Spawn(0, 3, 4), Slide(RIGHT), Spawn(1, 3, 2),
                                    Slide(DOWN)]
    key(qtbot, window, Qt.Key.Key_S)  # a tile is due: the engine refuses the slide and says so
    assert window.tree.current.move_number == 11
    assert window.message_text().startswith("Cannot play D")


def test_the_advisor_ranks_all_four_slides_and_the_board_draws_the_legal_one(qtbot, window):
    # a full top row without equal neighbours: only Down moves a tile (spec 1.3 rule 5)
    window.load_position(State.from_rows([(2, 4, 8, 16), EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]))
    panel = window.advisor_panel
    assert panel.summary_text().endswith("thinking…")  # the advisor works off the GUI thread
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=5000)
    assert panel.candidate_count() == 4
    assert panel.moves()[0] == Slide(DOWN)
    assert set(panel.moves()[1:]) == {Slide(UP), Slide(RIGHT), Slide(LEFT)}
    share = panel.headers().index("Share")
    assert panel.row_texts(0)[1] == "↓ down" and panel.row_texts(0)[share] == "100%"
    assert panel.row_color(0) == advice.BEST_RGB
    for row in (1, 2, 3):
        texts = panel.row_texts(row)
        assert texts[1].endswith("· moves nothing") and texts[share] == "no move"
        assert panel.row_color(row) == advice.ILLEGAL_RGB
    assert window.position_text() == "score 0 · max tile 16 · 1 slide"

    board = window.board
    [mark] = board.arrow_marks()  # illegal slides get no arrow
    assert (mark.direction, mark.rank, mark.best) == (DOWN, 1, True)
    assert mark.value_text == advice.compact_value(panel.candidates()[0].score)
    board.preview_move(Slide(DOWN))
    assert board.arrow_marks()[0].highlighted
    board.preview_move(Slide(UP))  # not legal: nothing to highlight
    assert board.previewed_direction is None and not board.arrow_marks()[0].highlighted
    hover(board, board.arrow_center(DOWN))
    qtbot.waitUntil(lambda: board.hovered_direction == DOWN, timeout=1000)
    assert board.arrow_marks()[0].highlighted

    click_arrow(qtbot, window, UP)  # no arrow there: nothing
    assert window.tree.current.is_root
    window.play_best()  # Space's action: the best candidate
    assert window.state.rows == (EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, (2, 4, 8, 16))
    assert window.state.spawns_due == 1


def test_a_drag_across_the_board_slides_that_way(qtbot, window):
    window.load_position(State.from_rows([(2, 0, 0, 0), EMPTY_ROW, (0, 0, 8, 0), EMPTY_ROW]))
    board = window.board
    qtbot.mousePress(board, LEFT_BUTTON, pos=board.cell_center(1, 0))
    qtbot.mouseRelease(board, LEFT_BUTTON, pos=board.cell_center(1, 3))
    assert window.tree.current.move == Slide(RIGHT)
    assert window.state.rows == ((0, 0, 0, 2), EMPTY_ROW, (0, 0, 0, 8), EMPTY_ROW)


def test_tree_keys_walk_back_forward_and_branch(qtbot, window):
    for move in (Spawn(0, 0, 2), Spawn(0, 1, 2), Slide(LEFT), Spawn(3, 3, 4)):
        assert window.play(move)
    before = window.state  # 4 . . . / . . . . / . . . . / . . . 4
    key(qtbot, window, Qt.Key.Key_W)
    click_cell(qtbot, window, 2, 0)
    after_two = window.state
    assert after_two.rows == ((4, 0, 0, 4), EMPTY_ROW, (2, 0, 0, 0), EMPTY_ROW)

    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state.rows == ((4, 0, 0, 4), EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state == before
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Left)

    key(qtbot, window, Qt.Key.Key_H)  # another slide from the same position: a variation
    assert window.tree.current.variation_index == 1
    assert window.state.rows == ((4, 0, 0, 0), EMPTY_ROW, EMPTY_ROW, (4, 0, 0, 0))
    key(qtbot, window, Qt.Key.Key_Up)  # the previous variation: the first slide, up
    assert window.tree.current.move == Slide(UP) and window.tree.current.variation_index == 0
    key(qtbot, window, Qt.Key.Key_End)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Down)  # the next variation: left
    assert window.tree.current.move == Slide(LEFT) and window.tree.current.move_number == 5
    key(qtbot, window, Qt.Key.Key_Home)
    assert window.tree.current.is_root and window.state.spawns_due == 2


def test_the_spawn_that_fills_a_stuck_board_ends_the_game(qtbot, window):
    assert window.paste_position("score 0 · spawn due\n2 4 2 4\n4 2 4 2\n2 4 2 4\n4 2 4 .")
    click_cell(qtbot, window, 3, 3)  # 4 2 4 2 in the last row: no two neighbours are equal
    assert GAME.is_over(window.state)
    assert window.position_text() == "score 0 · max tile 4 · game over"
    assert window.message_text() == "2 spawned at row 4, column 4 (2@3,3) · game over at 0"
    assert window.board.arrow_marks() == [] and window.advisor_panel.candidate_count() == 0


def test_the_shortcuts_window_lists_the_boards_keys(window):
    dialog = window.show_shortcuts()
    listed = [dialog.table.topLevelItem(i).text(0) for i in range(dialog.table.topLevelItemCount())]
    assert {"W / K", "D / L", "S / J", "A / H", "N", "Click an arrow"} <= set(listed)


def _pixel(image, point: QPoint) -> tuple[int, int, int]:
    color = image.pixelColor(point)
    return color.red(), color.green(), color.blue()


def _near(found: tuple[int, int, int], hex_color: str, tolerance: int = 3) -> bool:
    wanted = QColor(hex_color)
    return all(abs(a - b) <= tolerance for a, b in zip(found, (wanted.red(), wanted.green(), wanted.blue())))


@pytest.mark.parametrize("size", [(200, 200), (520, 380), (900, 700)])
def test_the_board_paints_the_pages_colours_at_any_size(qtbot, size):
    board = G2048Board(GAME)
    qtbot.addWidget(board)
    board.resize(*size)
    state = State.from_rows([(2, 0, 0, 4096), (0, 8, 0, 0), EMPTY_ROW, (0, 0, 0, 2048)])
    board.show_position(state)
    image = board.grab().toImage()
    layout = board.board_layout()
    assert image.width() >= size[0] and layout.board_rect().right() < size[0] and layout.band > 0
    # a point inside each tile, away from its rounded corners and its digits
    inside = {(r, c): (layout.cell_rect(r, c).topLeft() + layout.cell_rect(r, c).center()) / 2
              for r in range(4) for c in range(4)}

    def at(r, c):
        return _pixel(image, inside[(r, c)].toPoint())

    assert _near(at(1, 0), "#ccc0b4")  # an empty cell
    assert _near(at(0, 0), "#eee4da")  # a 2
    assert _near(at(1, 1), "#f2b179")  # an 8
    assert _near(at(3, 3), "#edc22e")  # 2048
    assert _near(at(0, 3), "#3c3a32")  # above 2048: one colour
    gap = QPoint(layout.left + max(1, round(layout.gap / 2)), round(layout.cell_rect(1, 0).center().y()))
    assert _near(_pixel(image, gap), "#bbada0")  # the board between cells
    assert _near(_pixel(image, QPoint(1, 1)), "#faf8ef")  # the page around it
    # the arrows of the legal slides sit outside the board, in the bands
    assert sorted(mark.direction for mark in board.arrow_marks()) == [UP, RIGHT, DOWN, LEFT]
    for direction in (UP, RIGHT, DOWN, LEFT):
        assert not layout.board_rect().contains(board.arrow_center(direction))


def test_panel_words_and_compact_values():
    assert advice.compact_value(950) == "950"
    assert advice.compact_value(27_976.0) == "28.0k"
    assert advice.compact_value(282_820.2) == "283k"
    assert advice.compact_value(1_603_362.8) == "1.60M"
    assert advice.compact_value(999_700.0) == "1.00M"
    assert advice.direction_label(LEFT) == "← left"
