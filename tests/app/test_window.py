"""The main window with the SPL-T board, driven like a player: clicks and keys.

Expected positions and scores are worked out by hand from the rules (shared/specs/splt.md 1.2,
1.3, 1.9 and the box-list order of 2.2), not captured from the program.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QImage

from app.gui import run
from app.gui.games.splt.highlights import Highlight, Kind
from app.gui.main_window import MainWindow
from engines import GAMES

PROJECT = Path(__file__).resolve().parents[2]

# spec 1.9: the box split at each of the first ten splits, (x, y, w, h) before the split
OPENING = [
    (0, 0, 8, 16),
    (0, 0, 8, 8),
    (0, 0, 4, 8),
    (0, 8, 8, 8),
    (4, 0, 4, 8),
    (0, 8, 4, 8),
    (0, 8, 2, 8),
    (0, 8, 2, 4),
    (0, 8, 1, 4),
    (4, 8, 4, 8),
]
CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def boxes(state) -> set[tuple[int, int, int, int, int]]:
    return {(b.x, b.y, b.w, b.h, b.points) for b in state.boxes}


def click_cell(qtbot, window, x: int, y: int) -> None:
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.cell_center(x, y))


def click_box(qtbot, window, box: tuple[int, int, int, int]) -> None:
    """Click the cell in the middle of the box (not its top-left corner)."""
    x, y, w, h = box
    click_cell(qtbot, window, x + w // 2, y + h // 2)


def play_opening(qtbot, window, count: int) -> None:
    for box in OPENING[:count]:
        click_box(qtbot, window, box)


def key(qtbot, window, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.board, key, modifiers)


def test_title_picker_and_start(window):
    assert window.windowTitle() == "Kibitz — SPL-T"
    titles = [window.game_picker.itemText(i) for i in range(window.game_picker.count())]
    assert titles == [game.title for game in GAMES.values()]
    assert "SPL-T" in titles
    assert window.position_text() == "0 splits · score 0 · next H (horizontal) · 1 legal move"


def test_clicking_the_centre_of_the_board_splits_it_horizontally(qtbot, window):
    layout = window.board.board_layout()
    centre = QPoint((layout.left + layout.right) // 2, (layout.top + layout.bottom) // 2)
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=centre)
    assert boxes(window.state) == {(0, 0, 8, 8, 0), (0, 8, 8, 8, 0)}
    # both 8x8 halves are 8 wide: both can be split vertically next
    assert window.position_text() == "1 split · score 1 · next V (vertical) · 2 legal moves"
    assert window.message_text().startswith("Split (0,0,8,16) horizontally")


def test_illegal_clicks_change_nothing_and_say_why(qtbot, window):
    play_opening(qtbot, window, 9)
    # after 9 splits: four 4x4 point blocks showing 1 on top; below, 1-wide boxes in column 0-1
    before = window.state
    line = window.position_text()
    assert line == "9 splits · score 29 · next V (vertical) · 3 legal moves"

    click_cell(qtbot, window, 1, 1)  # inside the point block (0,0,4,4)
    assert window.state is before
    assert window.position_text() == line
    assert "point block" in window.message_text()
    assert "(0,0,4,4)" in window.message_text()

    click_cell(qtbot, window, 1, 10)  # the 1-wide box (1,8,1,4) on a vertical turn
    assert window.state is before
    assert "width 1" in window.message_text()
    assert "(1,8,1,4)" in window.message_text()
    assert len(window.tree) == 9


def test_hover_previews_only_boxes_that_can_be_split(qtbot, window):
    play_opening(qtbot, window, 5)  # V next; top half is four point blocks
    board = window.board
    qtbot.mouseMove(board, board.cell_center(2, 12))
    qtbot.waitUntil(lambda: board.hovered_box is not None, timeout=1000)
    assert (board.hovered_box.x, board.hovered_box.y, board.hovered_box.w, board.hovered_box.h) == (0, 8, 4, 8)
    qtbot.mouseMove(board, board.cell_center(1, 1))
    qtbot.waitUntil(lambda: board.hovered_box is None, timeout=1000)


def test_undo_and_redo_restore_exact_states(qtbot, window):
    start = window.state
    play_opening(qtbot, window, 3)
    third = window.state
    assert boxes(third) == {(0, 0, 4, 4, 0), (0, 4, 4, 4, 0), (4, 0, 4, 8, 0), (0, 8, 8, 8, 0)}
    assert (third.splits, third.score) == (3, 3)

    key(qtbot, window, Qt.Key.Key_Z, CTRL)
    second = window.state
    assert boxes(second) == {(0, 0, 4, 8, 0), (4, 0, 4, 8, 0), (0, 8, 8, 8, 0)}
    assert (second.splits, second.score) == (2, 2)
    key(qtbot, window, Qt.Key.Key_Left)
    first = window.state
    assert boxes(first) == {(0, 0, 8, 8, 0), (0, 8, 8, 8, 0)}
    assert window.position_text().startswith("1 split · score 1 · next V")
    window.undo_action.trigger()
    assert window.state is start
    key(qtbot, window, Qt.Key.Key_Left)  # nothing before the start
    assert window.state is start

    key(qtbot, window, Qt.Key.Key_Y, CTRL)
    assert window.state is first
    key(qtbot, window, Qt.Key.Key_Z, CTRL_SHIFT)
    assert window.state is second
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.state is third
    window.redo_action.trigger()  # nothing after the last move
    assert window.state is third
    assert not window.redo_action.isEnabled()

    # playing a different move after going back makes a variation; nothing is dropped
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Left)
    click_box(qtbot, window, (0, 8, 8, 8))  # a different second move: the bottom half
    assert boxes(window.state) == {(0, 0, 8, 8, 0), (0, 8, 4, 8, 0), (4, 8, 4, 8, 0)}
    assert not window.redo_action.isEnabled()
    assert len(window.tree) == 4
    key(qtbot, window, Qt.Key.Key_Up)  # the main line's second move
    assert window.state is second
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.state is third


def test_ten_split_opening_scores_98(qtbot, window):
    play_opening(qtbot, window, 5)
    assert window.position_text().startswith("5 splits · score 9 · next V")
    assert boxes(window.state) >= {(0, 0, 4, 4, 5), (4, 0, 4, 4, 5), (0, 4, 4, 4, 5), (4, 4, 4, 4, 5)}
    created = {(h.x, h.y, h.w, h.h) for h in window.board.highlights if h.kind is Kind.CREATED}
    assert created == {(0, 0, 4, 4), (4, 0, 4, 4), (0, 4, 4, 4), (4, 4, 4, 4)}
    assert Highlight(Kind.SPLIT, 4, 4, 4, 0) in window.board.highlights

    play_opening_rest = OPENING[5:]
    for box in play_opening_rest:
        click_box(qtbot, window, box)
    assert window.position_text() == "10 splits · score 98 · next H (horizontal) · 8 legal moves"
    # the exploded 5-blocks leave the top 8x8 empty; it is refilled by one plain 8x8 box
    assert window.state.box_at(3, 3).geometry() == (0, 0, 8, 8)
    assert window.state.box_at(3, 3).points == 0
    kinds = {h.kind for h in window.board.highlights}
    assert {Kind.EXPLODED, Kind.REFILLED, Kind.SPLIT} <= kinds
    assert "4 blocks exploded (+64)" in window.message_text()
    # the highlight fades by itself
    qtbot.waitUntil(lambda: not window.board.highlights, timeout=3000)


def test_game_over_is_shown(window):
    columns = " ".join(f"{x},0,1,16" for x in range(8))
    assert window.paste_position(f"splits=1 score=1 | {columns}")
    assert window.position_text() == (
        "1 split · score 1 · next V (vertical) · 0 legal moves · Game over — no more splits"
    )


def test_copy_new_game_and_paste(qtbot, window):
    play_opening(qtbot, window, 2)
    key(qtbot, window, Qt.Key.Key_C, CTRL)
    # box-list order (spec 2.2): the split box keeps its place, the new half is appended
    assert QGuiApplication.clipboard().text() == "splits=2 score=2 | 0,0,4,8 0,8,8,8 4,0,4,8"

    opening = window.analysis
    key(qtbot, window, Qt.Key.Key_N, CTRL)  # a new analysis; the opening stays in the session
    assert window.position_text().startswith("0 splits · score 0")
    assert window.tree.current.is_root and window.analysis is not opening

    key(qtbot, window, Qt.Key.Key_V, CTRL)  # a pasted position starts another analysis
    assert boxes(window.state) == {(0, 0, 4, 8, 0), (0, 8, 8, 8, 0), (4, 0, 4, 8, 0)}
    assert window.position_text() == "2 splits · score 2 · next H (horizontal) · 3 legal moves"
    assert window.tree.current.is_root
    assert window.analysis_picker.count() == 3
    window.analysis_picker.activated.emit(0)  # back to the opening, where it was left
    assert window.analysis is opening and window.state.splits == 2 and len(window.tree) == 2


def test_pasting_bad_text_shows_the_error_and_keeps_the_position(qtbot, window):
    play_opening(qtbot, window, 1)
    before = window.state
    assert not window.paste_position("splits=1 score=1 | 0,0,8,8 0,4,8,8")
    assert window.state is before
    box = window.error_box
    assert box is not None and box.isVisible()
    assert "overlap" in box.informativeText()
    box.close()

    QGuiApplication.clipboard().setText("splits=one | 0,0,8,16")
    key(qtbot, window, Qt.Key.Key_V, CTRL)
    assert window.state is before
    assert window.error_box.isVisible()
    assert "splits must be a whole number" in window.error_box.informativeText()
    window.error_box.close()


def test_geometry_is_remembered(qtbot, settings_dir):
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    first.set_layout("compact")
    first.resize(600, 720)
    qtbot.waitUntil(lambda: (first.size().width(), first.size().height()) == (600, 720))
    first.close()
    assert (settings_dir / "kibitz.ini").is_file()

    second = MainWindow()
    qtbot.addWidget(second)
    assert (second.size().width(), second.size().height()) == (600, 720)
    assert second.layout_name == "compact"


def test_run_saves_a_screenshot_and_quits(qapp, tmp_path):
    # in a process of its own: quitting the event loop would leave the tests' application quit
    path = tmp_path / "shot.png"
    arguments = ["--size", "900x800", "--moves", "0,0 0,0", "--screenshot", str(path), "--screenshot-delay", "0"]
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(PROJECT)}
    finished = subprocess.run([sys.executable, "-m", "app", *arguments], env=environment, timeout=120)
    assert finished.returncode == 0
    image = QImage(str(path))
    assert (image.width(), image.height()) == (900, 800)


def test_run_refuses_an_illegal_move_sequence(qapp, capsys):
    # the third split is horizontal; (0,0) is then the 4x8 box, but 9,9 is off the board
    assert run(["--moves", "0,0 0,0 9,9"]) == 2
    assert "outside the 8x16 board" in capsys.readouterr().err
