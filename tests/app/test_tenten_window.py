"""The main window with the 1010! board, driven like a player: the deal entered from the palette
and by typing, pieces placed by click, drag and keys, the planner's ranked placements, the move
tree's keys, and the board's paint.

Expected boards and scores are worked out by hand from the rules (shared/specs/1010.md 1.2: full
rows and columns vanish after each placement; 1.3: cells plus 5·r·(r + 1)), never from the program.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from app.gui.games.tenten import advice
from app.gui.games.tenten.board import TenTenBoard
from engines.tenten import GAME, Deal, Place, State

LEFT_BUTTON, RIGHT_BUTTON = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
EMPTY_ROW = "." * 10


@pytest.fixture
def window(make_window):
    window = make_window()
    window.set_game("1010")
    window.board.setFocus()
    return window


def click(qtbot, window, point, button=LEFT_BUTTON) -> None:
    qtbot.mouseClick(window.board, button, pos=QPoint(round(point.x()), round(point.y())))


def key(qtbot, window, key, text: str = "") -> None:
    if text:
        qtbot.keyClicks(window.board, text)
    else:
        qtbot.keyClick(window.board, key)


def moves_played(window) -> list:
    return [node.move for node in window.tree.path()[1:]]


def test_opens_on_the_empty_board_with_a_deal_due(window):
    assert window.windowTitle() == "Kibitz — 1010!"
    assert isinstance(window.board, TenTenBoard)
    assert window.position_text() == "score 0 · 100 cells free · deal due"
    assert window.advisor_panel.headers()[1:] == ["Move", "Value", "Loss", "Plan", "Free"]
    assert window.advisor_panel.candidate_count() == 0


def test_the_deal_is_entered_from_the_palette_and_by_typing(qtbot, window):
    board = window.board
    click(qtbot, window, board.palette_center("V"))
    click(qtbot, window, board.palette_center("i"))
    assert board.pending_deal == ("V", "i")
    click(qtbot, window, board.palette_center("O"), RIGHT_BUTTON)  # right-click: take the last back
    assert board.pending_deal == ("V",)
    click(qtbot, window, board.palette_center("."))
    click(qtbot, window, board.palette_center("o"))
    assert window.tree.current.move == Deal(("V", ".", "o"))
    assert window.message_text() == "dealt V . o"
    assert window.position_text() == "score 0 · 100 cells free · tray V . o"

    key(qtbot, window, Qt.Key.Key_Left)  # back to the deal due, and type another deal
    key(qtbot, window, None, "Hh")
    key(qtbot, window, Qt.Key.Key_Backspace)
    key(qtbot, window, None, "_O")
    assert window.tree.current.move == Deal(("H", "_", "O"))
    assert window.tree.current.variation_index == 1


def test_pieces_are_placed_by_click_drag_and_keys_and_lines_clear(qtbot, window):
    assert window.paste_position("score 0 · tray H H .\n" + "\n".join([EMPTY_ROW] * 10))
    board = window.board
    # Click the first H in the tray, then the board: its middle goes under the mouse.
    click(qtbot, window, board.slot_center(0))
    assert board.held_piece == "H"
    click(qtbot, window, board.cell_center(0, 2))
    assert window.tree.current.move == Place("H", 0, 0)
    # Drag the second H from the tray to row 0, columns 5-9: row 0 is full and goes (5 + 5 + 10).
    qtbot.mousePress(board, LEFT_BUTTON, pos=board.slot_center(1).toPoint())
    qtbot.mouseMove(board, board.cell_center(0, 7).toPoint())
    qtbot.mouseRelease(board, LEFT_BUTTON, pos=board.cell_center(0, 7).toPoint())
    assert window.tree.current.move == Place("H", 0, 5)
    assert window.state.filled == 0 and window.state.score == 20
    assert window.message_text() == "placed H at row 1, column 6: +15, 1 line (row 1)"
    # Keys: E picks slot 3 (the single, placed at the board's middle), L and K move it, Enter.
    key(qtbot, window, Qt.Key.Key_E)
    assert board.held_piece == "." and board.held_anchor == (5, 5)
    key(qtbot, window, Qt.Key.Key_L)
    key(qtbot, window, Qt.Key.Key_K)
    key(qtbot, window, Qt.Key.Key_Return)
    assert window.tree.current.move == Place(".", 6, 6)
    assert window.state.deal_due and window.state.score == 21
    assert window.position_text() == "score 21 · 99 cells free · deal due"


def test_a_piece_that_does_not_fit_is_refused_with_the_reason(qtbot, window):
    assert window.paste_position("score 0 · tray V 0 0\n" + "\n".join(["#........."] + [EMPTY_ROW] * 9))
    click(qtbot, window, window.board.slot_center(0))
    click(qtbot, window, window.board.cell_center(0, 0))  # a 5-bar centred on row 0: rows 0-4, column 0
    assert window.tree.current.is_root
    assert "covers a filled cell" in window.message_text()


def test_the_planner_ranks_first_placements_and_draws_its_plan(qtbot, window):
    # Row 0 is full but its last cell: the single there clears it, and only then the 5-bar fits.
    rows = ["#########."] + ["#...#...#.", ".#...#...#"] * 4 + ["#...#...#."]
    assert window.paste_position("score 0 · tray H . 0\n" + "\n".join(rows))
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=10000)
    panel = window.advisor_panel
    assert panel.moves()[0] == Place(".", 0, 9)
    plan_column = panel.headers().index("Plan")
    assert panel.row_texts(0)[plan_column].startswith(".@0,9 → H@0,")
    assert panel.row_color(0) == advice.BEST_RGB
    doomed = [row for row in range(panel.candidate_count()) if panel.moves()[row] != Place(".", 0, 9)]
    assert doomed and all(panel.row_color(row) == advice.DOOMED_RGB for row in doomed)
    placements, previewed = window.board.shown_plan()
    assert placements[0] == Place(".", 0, 9) and not previewed
    window.board.preview_move(panel.moves()[1])
    assert window.board.shown_plan()[1]
    window.board.preview_move(None)
    click(qtbot, window, window.board.cell_center(0, 9))  # a click on ghost piece 1 plays it
    assert window.tree.current.move == Place(".", 0, 9)
    assert window.state.rows[0] == EMPTY_ROW and window.state.score == 11
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=10000)
    window.play_best()
    assert window.tree.current.move.piece == "H" and window.state.deal_due


def test_tree_keys_walk_back_forward_and_branch(qtbot, window):
    assert window.play(Deal((".", ".", "o")))
    assert window.play(Place(".", 0, 0))
    assert window.play(Place(".", 9, 9))
    after_two = window.state
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state == State(0, (".", ".", "o"))
    key(qtbot, window, Qt.Key.Key_Q)  # a different first placement: a variation
    key(qtbot, window, Qt.Key.Key_Return)
    assert window.tree.current.move == Place(".", 5, 5) and window.tree.current.variation_index == 1
    key(qtbot, window, Qt.Key.Key_Up)
    assert window.tree.current.move == Place(".", 0, 0)
    key(qtbot, window, Qt.Key.Key_End)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Home)
    assert window.tree.current.is_root


def test_no_piece_fitting_ends_the_game(qtbot, window):
    diagonal_holes = ["".join("." if c == r else "#" for c in range(10)) for r in range(10)]
    assert window.paste_position("score 0\n" + "\n".join(diagonal_holes))
    key(qtbot, window, None, "OoH")
    assert GAME.is_over(window.state)
    assert window.position_text() == "score 0 · 10 cells free · tray O o H · no more moves"
    assert window.message_text() == "dealt O o H · no more moves at 0"


def test_n_deals_at_random(qtbot, window):
    import numpy as np

    window.board.rng = np.random.default_rng(5)
    key(qtbot, window, Qt.Key.Key_N)
    assert isinstance(window.tree.current.move, Deal)
    assert not window.state.deal_due


def test_the_shortcuts_window_lists_the_boards_keys(window):
    dialog = window.show_shortcuts()
    listed = [dialog.table.topLevelItem(i).text(0) for i in range(dialog.table.topLevelItemCount())]
    assert {"Q / W / E", "I / J / K / L", "Enter", "Click a tray piece"} <= set(listed)


@pytest.mark.parametrize("size", [(240, 330), (500, 700), (900, 700)])
def test_the_board_paints_the_phone_colours_at_any_size(qtbot, size):
    board = TenTenBoard(GAME)
    qtbot.addWidget(board)
    board.resize(*size)
    board.show_position(State.from_rows(["#........."] + [EMPTY_ROW] * 9, ("V", "i", None)))
    image = board.grab().toImage()
    def pixel(point):
        color = image.pixelColor(QPoint(round(point.x()), round(point.y())))
        return color.name()
    assert pixel(board.cell_center(0, 0)) == "#66c5e6"  # filled
    assert pixel(board.cell_center(5, 5)) == "#454246"  # empty (spec 5)
    assert pixel(board.slot_center(0)) == "#d45858"  # the red 5-bar in the tray, at its middle
