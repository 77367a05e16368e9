"""The SPL-T board editor, driven like a player copying a real screen: clicks, drags and keys.

Expected boards come from the hand transcriptions of real screenshots
(``shared/data/splt/screenshot_truth.json``) or are worked out by hand from the spec (sections 1.1,
1.2 and 2); messages are the engine's own wording, written out here by hand.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog

import pytest

from app.gui.games.splt.board_editor import SpltBoardEditor, Tool
from engines.splt import GAME, Box, State

LEFT = Qt.MouseButton.LeftButton
RIGHT = Qt.MouseButton.RightButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


# -- helpers -------------------------------------------------------------------------------------
def open_editor(qtbot, state: State | None = None) -> SpltBoardEditor:
    editor = SpltBoardEditor(GAME, state if state is not None else State(), None)
    qtbot.addWidget(editor)
    editor.resize(760, 860)
    editor.show()
    qtbot.waitExposed(editor)
    editor.activateWindow()
    editor.canvas.setFocus()
    return editor


@pytest.fixture
def editor(qtbot) -> SpltBoardEditor:
    return open_editor(qtbot)


def boxes(state: State) -> set[tuple[int, int, int, int, int]]:
    return {(b.x, b.y, b.w, b.h, b.points) for b in state.boxes}


def click_cell(qtbot, editor, x: int, y: int, button=LEFT, modifiers=NONE) -> None:
    qtbot.mouseClick(editor.canvas, button, modifiers, editor.canvas.cell_center(x, y))


def click_region(qtbot, editor, region, button=LEFT, modifiers=NONE) -> None:
    """Click the cell in the middle of a box (not its top-left corner)."""
    x, y, w, h = region
    click_cell(qtbot, editor, x + w // 2, y + h // 2, button, modifiers)


def drag(qtbot, editor, start: tuple[int, int], end: tuple[int, int], button=LEFT) -> None:
    canvas = editor.canvas
    qtbot.mousePress(canvas, button, NONE, canvas.cell_center(*start))
    qtbot.mouseMove(canvas, canvas.cell_center(*end))
    qtbot.mouseRelease(canvas, button, NONE, canvas.cell_center(*end))


def choose_tool(qtbot, editor, tool: str) -> None:
    qtbot.mouseClick(editor.tool_buttons[tool], LEFT)
    assert editor.tool == tool


def type_number(qtbot, field, value: int) -> None:
    """Select the field's text and type the number, as a player does."""
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, str(value))
    assert field.value() == value


def carve(region, targets: dict, voids: set, plan: list) -> None:
    """Plan how to cut ``region`` into the target boxes by halving only: a cut is made along a
    mid line no target box crosses. Appends ("split", region, "H" or "V") and ("void", region)
    steps; regions equal to a target box are left for the Points tool."""
    x, y, w, h = region
    if region in targets:
        return
    cells = {(cx, cy) for cy in range(y, y + h) for cx in range(x, x + w)}
    if cells <= voids:
        plan.append(("void", region))
        return
    inside = [t for t in targets if x <= t[0] < x + w and y <= t[1] < y + h]
    middle_y, middle_x = y + h // 2, x + w // 2
    if h >= 2 and not any(t[1] < middle_y < t[1] + t[3] for t in inside):
        plan.append(("split", region, "H"))
        carve((x, y, w, h // 2), targets, voids, plan)
        carve((x, middle_y, w, h // 2), targets, voids, plan)
        return
    if w >= 2 and not any(t[0] < middle_x < t[0] + t[2] for t in inside):
        plan.append(("split", region, "V"))
        carve((x, y, w // 2, h), targets, voids, plan)
        carve((middle_x, y, w // 2, h), targets, voids, plan)
        return
    raise AssertionError(f"{region} cannot be cut into the target boxes by halving")


def copy_screen_by_halving(qtbot, editor, truth: dict) -> None:
    """Set up a transcribed screen from one 8x16 box: halve (left click = H, the default
    orientation; right click = V), void, number the point blocks, type score and splits."""
    targets = {tuple(box[:4]): box[4] for box in truth["boxes"]}
    voids = {tuple(cell) for cell in truth["void"]}
    plan: list = []
    carve((0, 0, 8, 16), targets, voids, plan)

    qtbot.mouseClick(editor.one_box_button, LEFT)
    choose_tool(qtbot, editor, Tool.SPLIT)
    for step in plan:
        if step[0] == "split":
            click_region(qtbot, editor, step[1], LEFT if step[2] == "H" else RIGHT)
    choose_tool(qtbot, editor, Tool.VOID)
    for step in plan:
        if step[0] == "void":
            click_region(qtbot, editor, step[1])
    number_point_blocks(qtbot, editor, truth)
    type_number(qtbot, editor.splits_field, truth["splits"])
    type_number(qtbot, editor.score_field, truth["score"])


def number_point_blocks(qtbot, editor, truth: dict) -> None:
    choose_tool(qtbot, editor, Tool.POINTS)
    by_value: dict[int, list] = {}
    for x, y, w, h, points in truth["boxes"]:
        if points:
            by_value.setdefault(points, []).append((x, y, w, h))
    for value, regions in sorted(by_value.items()):
        type_number(qtbot, editor.points_field, value)
        for region in regions:
            click_region(qtbot, editor, region)


def accept(qtbot, editor) -> State:
    assert editor.ok_button.isEnabled(), editor.error()
    qtbot.mouseClick(editor.ok_button, LEFT)
    assert editor.result() == QDialog.DialogCode.Accepted
    state = editor.state()
    assert state is not None
    return state


# -- copying real screens ------------------------------------------------------------------------
def test_width4splt_screen_set_up_by_halving_voiding_and_numbering(qtbot, editor, splt_screenshots):
    truth = splt_screenshots["width4splt.png"]
    copy_screen_by_halving(qtbot, editor, truth)

    assert editor.error() is None
    assert editor.warnings() == []
    state = accept(qtbot, editor)
    assert boxes(state) == {tuple(box) for box in truth["boxes"]}
    assert set(state.voids()) == {tuple(cell) for cell in truth["void"]}
    assert (state.score, state.splits) == (truth["score"], truth["splits"])
    assert state.orientation == truth["next"]
    assert len(state.legal_moves()) == 3  # spec 6: three legal moves on width4splt.png


def test_6ptblock_right_screen_drawn_box_by_box(qtbot, editor, splt_screenshots):
    """Falls and refills leave boxes off the halving grid (a plain 2x4 box at (4,1) under a
    1-deep top void): the Box tool draws each box from an all-void board."""
    truth = splt_screenshots["6ptblock.png#right"]
    qtbot.mouseClick(editor.clear_button, LEFT)
    assert editor.edited_state().boxes == ()
    choose_tool(qtbot, editor, Tool.BOX)
    for x, y, w, h, _points in truth["boxes"]:
        drag(qtbot, editor, (x, y), (x + w - 1, y + h - 1))
    number_point_blocks(qtbot, editor, truth)
    type_number(qtbot, editor.splits_field, truth["splits"])
    type_number(qtbot, editor.score_field, truth["score"])

    state = accept(qtbot, editor)
    assert boxes(state) == {tuple(box) for box in truth["boxes"]}
    assert set(state.voids()) == {(4, 0), (5, 0)}
    assert (state.score, state.splits, state.orientation) == (13177, 169, "V")


def test_a_real_screen_pasted_as_text(qtbot, editor, splt_screenshots):
    truth = splt_screenshots["imbalance.jpg"]
    tokens = [f"{x},{y},{w},{h}" + (f":{p}" if p else "") for x, y, w, h, p in truth["boxes"]]
    text = f"splits={truth['splits']} score={truth['score']} | " + " ".join(tokens)
    assert editor.paste_text(text)
    assert editor.message() == "Position pasted"
    # spec 1.8: imbalance.jpg is a game-over position (V next, every plain box 1 wide)
    assert editor.warnings() == ["No plain box can be halved vertically: a game-over position."]
    state = accept(qtbot, editor)
    assert boxes(state) == {tuple(box) for box in truth["boxes"]}
    assert (state.score, state.splits, state.orientation) == (2335, 87, "V")


# -- the engine's verdict ------------------------------------------------------------------------
def test_a_box_over_a_void_is_refused_with_the_engines_reason(qtbot, editor):
    click_cell(qtbot, editor, 3, 8)  # H: (0,0,8,8) and (0,8,8,8)
    choose_tool(qtbot, editor, Tool.VOID)
    click_cell(qtbot, editor, 3, 12)  # remove the bottom half
    assert boxes(editor.edited_state()) == {(0, 0, 8, 8, 0)}
    assert editor.error() == "box (0,0,8,8) has nothing under it and would fall"
    assert "box (0,0,8,8) has nothing under it and would fall" in editor.problem_label.text()
    assert editor.canvas.error_boxes == [(0, 0, 8, 8)]
    assert not editor.ok_button.isEnabled()

    editor.accept()  # the keyboard's Ctrl+Return goes here too: refused while invalid
    assert editor.isVisible()
    assert editor.state() is None

    click_cell(qtbot, editor, 3, 12)  # a void cell: a 1x1 box back, still not enough
    assert editor.error() == "box (0,0,8,8) has nothing under it and would fall"
    editor.undo()
    editor.undo()
    assert boxes(editor.edited_state()) == {(0, 0, 8, 8, 0), (0, 8, 8, 8, 0)}
    assert editor.error() is None
    assert editor.canvas.error_boxes == []
    assert editor.ok_button.isEnabled()


def test_a_number_above_the_split_count_is_refused_until_the_splits_are_set(qtbot, editor):
    choose_tool(qtbot, editor, Tool.POINTS)
    type_number(qtbot, editor.points_field, 5)
    click_cell(qtbot, editor, 4, 4)
    assert boxes(editor.edited_state()) == {(0, 0, 8, 16, 5)}
    assert editor.error() == "point block (0,0,8,16) shows 5 but only 0 splits were made"
    assert not editor.ok_button.isEnabled()

    type_number(qtbot, editor.splits_field, 5)
    assert editor.error() is None
    assert editor.next_label.text().startswith("V")  # 5 splits made: the 6th is vertical
    assert editor.canvas.state.orientation == "V"
    state = accept(qtbot, editor)
    assert boxes(state) == {(0, 0, 8, 16, 5)}
    assert (state.splits, state.score) == (5, 0)


def test_four_equal_plain_boxes_are_a_warning_not_an_error(qtbot, editor):
    click_cell(qtbot, editor, 3, 3)  # H: 8x8 over 8x8
    click_cell(qtbot, editor, 3, 3, RIGHT)  # V: (0,0,4,8) and (4,0,4,8)
    click_cell(qtbot, editor, 1, 1)  # H: (0,0,4,4) and (0,4,4,4)
    assert editor.warnings() == []
    click_cell(qtbot, editor, 6, 1)  # H: (4,0,4,4) and (4,4,4,4): a 2x2 of equal plain boxes
    assert editor.error() is None
    assert len(editor.warnings()) == 1
    assert editor.warnings()[0].startswith("4 plain boxes form 2×2 groups of equal boxes")
    assert set(editor.canvas.warning_boxes) == {(0, 0, 4, 4), (4, 0, 4, 4), (0, 4, 4, 4), (4, 4, 4, 4)}
    assert editor.ok_button.isEnabled()


# -- the tools' refusals -------------------------------------------------------------------------
def test_a_box_that_cannot_be_halved_that_way_says_why(qtbot, editor):
    for _ in range(4):
        click_cell(qtbot, editor, 0, 0)  # 8x16 -> 8x8 -> 8x4 -> 8x2 -> 8x1 at the top
    before = editor.edited_state()
    assert (0, 0, 8, 1, 0) in boxes(before)
    click_cell(qtbot, editor, 0, 0)
    assert editor.message() == "Box (0,0,8,1) is 1 cell tall: it cannot be halved horizontally"
    assert editor.edited_state() == before
    click_cell(qtbot, editor, 0, 0, LEFT, SHIFT)  # Shift: the other way
    assert {(0, 0, 4, 1, 0), (4, 0, 4, 1, 0)} <= boxes(editor.edited_state())


def test_the_box_tool_refuses_sizes_and_boxes_sticking_out(qtbot, editor):
    click_cell(qtbot, editor, 0, 0)  # H: (0,0,8,8) and (0,8,8,8)
    before = editor.edited_state()
    choose_tool(qtbot, editor, Tool.BOX)
    drag(qtbot, editor, (0, 8), (2, 15))
    assert editor.message() == "A box is 1, 2, 4 or 8 cells wide and 1, 2, 4, 8 or 16 tall, not 3x8"
    drag(qtbot, editor, (0, 6), (7, 9))
    assert editor.message() == (
        "Box (0,0,8,8) sticks out of the rectangle (0,6,8,4): take it apart first (Split or Void)"
    )
    assert editor.edited_state() == before
    drag(qtbot, editor, (7, 15), (0, 0))  # any corner to any corner: the whole board
    assert boxes(editor.edited_state()) == {(0, 0, 8, 16, 0)}


def test_keys_choose_tools_and_the_split_orientation(qtbot, editor):
    keys = [(Qt.Key.Key_P, Tool.POINTS), (Qt.Key.Key_X, Tool.VOID), (Qt.Key.Key_B, Tool.BOX), (Qt.Key.Key_S, Tool.SPLIT)]
    for key, tool in keys:
        qtbot.keyClick(editor.canvas, key)
        assert editor.tool == tool
    qtbot.keyClick(editor.canvas, Qt.Key.Key_V)
    assert editor.vertical_button.isChecked()
    click_cell(qtbot, editor, 2, 2)  # a left click now halves vertically
    assert boxes(editor.edited_state()) == {(0, 0, 4, 16, 0), (4, 0, 4, 16, 0)}
    click_cell(qtbot, editor, 2, 2, RIGHT)  # and a right click horizontally
    assert boxes(editor.edited_state()) == {(0, 0, 4, 8, 0), (0, 8, 4, 8, 0), (4, 0, 4, 16, 0)}


def test_dragging_numbers_every_box_touched(qtbot, editor):
    assert editor.paste_text(
        "splits=8 score=0 | 0,0,4,8 0,8,4,4 0,12,4,2 0,14,1,1 1,14,1,1 0,15,1,1 1,15,1,1 2,14,2,2 4,0,4,16"
    )
    choose_tool(qtbot, editor, Tool.POINTS)
    type_number(qtbot, editor.points_field, 8)
    drag(qtbot, editor, (0, 15), (1, 14))
    assert boxes(editor.edited_state()) == {
        (0, 0, 4, 8, 0), (0, 8, 4, 4, 0), (0, 12, 4, 2, 0), (2, 14, 2, 2, 0), (4, 0, 4, 16, 0),
        (0, 14, 1, 1, 8), (1, 14, 1, 1, 8), (0, 15, 1, 1, 8), (1, 15, 1, 1, 8),
    }
    drag(qtbot, editor, (1, 15), (0, 14), RIGHT)  # right drag: plain again
    assert all(box.points == 0 for box in editor.edited_state().boxes)


# -- cancel, undo, copy and paste ----------------------------------------------------------------
def test_cancel_and_escape_return_nothing(qtbot):
    start = State(boxes=(Box(0, 0, 8, 8), Box(0, 8, 8, 8)), score=1, splits=1)
    editor = open_editor(qtbot, start)
    click_cell(qtbot, editor, 2, 2)
    qtbot.mouseClick(editor.cancel_button, LEFT)
    assert editor.result() == QDialog.DialogCode.Rejected
    assert editor.state() is None
    assert start == State(boxes=(Box(0, 0, 8, 8), Box(0, 8, 8, 8)), score=1, splits=1)

    editor = open_editor(qtbot, start)
    click_cell(qtbot, editor, 2, 2)
    qtbot.keyClick(editor.canvas, Qt.Key.Key_Escape)
    assert not editor.isVisible()
    assert editor.state() is None


def test_ok_without_changes_gives_back_the_starting_position(qtbot):
    start = State(boxes=(Box(0, 0, 8, 8), Box(0, 8, 8, 8)), score=1, splits=1)
    editor = open_editor(qtbot, start)
    assert accept(qtbot, editor) == start


def test_undo_and_redo(qtbot, editor):
    click_cell(qtbot, editor, 0, 0)  # H
    click_cell(qtbot, editor, 0, 0, RIGHT)  # V on the top half
    type_number(qtbot, editor.score_field, 1190)  # typed digit by digit: one step
    after_split = {(0, 0, 4, 8, 0), (4, 0, 4, 8, 0), (0, 8, 8, 8, 0)}
    assert boxes(editor.edited_state()) == after_split
    assert editor.edited_state().score == 1190

    editor.undo()
    assert editor.edited_state().score == 0
    assert editor.score_field.value() == 0
    assert boxes(editor.edited_state()) == after_split
    editor.undo()
    assert boxes(editor.edited_state()) == {(0, 0, 8, 8, 0), (0, 8, 8, 8, 0)}
    qtbot.mouseClick(editor.redo_button, LEFT)
    assert boxes(editor.edited_state()) == after_split
    editor.redo()
    assert editor.edited_state().score == 1190
    assert not editor.redo_button.isEnabled()

    editor.undo()
    editor.undo()
    choose_tool(qtbot, editor, Tool.VOID)
    click_cell(qtbot, editor, 0, 12)  # a new edit drops what was undone
    assert not editor.can_redo()
    editor.undo()
    editor.undo()
    assert boxes(editor.edited_state()) == {(0, 0, 8, 16, 0)}
    assert not editor.can_undo()
    assert not editor.undo_button.isEnabled()


def test_pasting_bad_text_shows_the_parsers_error_and_changes_nothing(qtbot, editor):
    click_cell(qtbot, editor, 0, 0)
    before = editor.edited_state()
    QGuiApplication.clipboard().setText("splits=3 score=x | 0,0,8,16")
    qtbot.mouseClick(editor.paste_button, LEFT)
    assert editor.message() == "Cannot paste: line 1, column 10: token 'score=x': score must be a whole number, not 'x'"
    assert editor.edited_state() == before

    assert not editor.paste_text("splits=0 score=0 | 0,0,8,8")
    assert editor.message() == "Cannot paste: line 1: box (0,0,8,8) has nothing under it and would fall"
    assert editor.edited_state() == before
    editor.undo()
    assert not editor.can_undo()  # the failed pastes left no step behind


def test_copied_text_pastes_into_another_editor(qtbot, editor):
    click_cell(qtbot, editor, 0, 0)
    choose_tool(qtbot, editor, Tool.POINTS)
    type_number(qtbot, editor.splits_field, 3)
    type_number(qtbot, editor.points_field, 3)
    click_cell(qtbot, editor, 0, 0)
    editor.copy_text()
    other = open_editor(qtbot)
    qtbot.mouseClick(other.paste_button, LEFT)
    state = accept(qtbot, other)
    assert boxes(state) == {(0, 0, 8, 8, 3), (0, 8, 8, 8, 0)}
    assert (state.splits, state.orientation) == (3, "V")
